// MPICH test/mpi/coll/redscat.c: MPI_Reduce_scatter of one int per rank; rank i gets the ith sum
// (with -nonblocking, MPI_Ireduce_scatter and MPI_Wait).
import { mtestColl, type MTest, type MTestResult } from '../mtest.ts';

export default async function redscat(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let err = 0;
  const comm = mpi.COMM_WORLD;
  const size = comm.size;
  const rank = comm.rank;
  const sendbuf = new Int32Array(size);
  for (let i = 0; i < size; i++) sendbuf[i] = rank + i;
  const recvcounts = new Int32Array(size).fill(1);
  const recvbuf = new Int32Array(1);
  await mtestColl(
    mpi,
    isBlocking,
    () => comm.reduceScatter(sendbuf, recvbuf, recvcounts, mpi.SUM),
    () => comm.ireduceScatter(sendbuf, recvbuf, recvcounts, mpi.SUM),
  );
  const sumval = size * rank + ((size - 1) * size) / 2;
  if (recvbuf[0] !== sumval) {
    err++;
    mt.printf('Did not get expected value for reduce scatter');
    mt.printf(`[${rank}] Got ${recvbuf[0]} expected ${sumval}`);
  }
  return mt.finalize(err);
}
