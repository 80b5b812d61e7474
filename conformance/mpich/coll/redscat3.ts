// MPICH test/mpi/coll/redscat3.c: MPI_Reduce_scatter of 1 Mi ints in all (MPICH's long-data
// algorithm), then the same in place (MPI-2.2); with -nonblocking, MPI_Ireduce_scatter and MPI_Wait.
import { mtestColl, type MTest, type MTestResult } from '../mtest.ts';

const MAX_ERRORS = 10;

export default async function redscat3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const size = comm.size;
  const rank = comm.rank;
  const mycount = Math.trunc((1024 * 1024) / size);
  const recvcounts = new Int32Array(size).fill(mycount);
  const sendbuf = new Int32Array(mycount * size);
  let idx = 0;
  for (let i = 0; i < size; i++) for (let j = 0; j < mycount; j++) sendbuf[idx++] = rank + i;
  const recvbuf = new Int32Array(mycount).fill(-1);
  await mtestColl(
    mpi,
    isBlocking,
    () => comm.reduceScatter(sendbuf, recvbuf, recvcounts, mpi.SUM),
    () => comm.ireduceScatter(sendbuf, recvbuf, recvcounts, mpi.SUM),
  );
  const sumval = size * rank + ((size - 1) * size) / 2;
  for (let i = 0; i < mycount; i++) {
    if (recvbuf[i] !== sumval) {
      errs++;
      if (errs < MAX_ERRORS) {
        mt.printf('Did not get expected value for reduce scatter');
        mt.printf(`[${rank}] Got recvbuf[${i}] = ${recvbuf[i]} expected ${sumval}`);
      }
    }
  }
  await mtestColl(
    mpi,
    isBlocking,
    () => comm.reduceScatter(mpi.IN_PLACE, sendbuf, recvcounts, mpi.SUM),
    () => comm.ireduceScatter(mpi.IN_PLACE, sendbuf, recvcounts, mpi.SUM),
  );
  for (let i = 0; i < mycount; i++) {
    if (sendbuf[i] !== sumval) {
      errs++;
      if (errs < MAX_ERRORS) {
        mt.printf('Did not get expected value for reduce scatter (in place)');
        mt.printf(`[${rank}] Got buf[${i}] = ${sendbuf[i]} expected ${sumval}`);
      }
    }
  }
  return mt.finalize(errs);
}
