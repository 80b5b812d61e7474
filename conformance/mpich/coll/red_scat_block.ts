// MPICH test/mpi/coll/red_scat_block.c: MPI_Reduce_scatter_block of one int per rank, then the
// same in place.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function redScatBlock(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let err = 0;
  const comm = mpi.COMM_WORLD;
  const size = comm.size;
  const rank = comm.rank;
  const sendbuf = new Int32Array(size);
  const recvbuf = new Int32Array(size);
  for (let i = 0; i < size; i++) sendbuf[i] = rank + i;
  await comm.reduceScatterBlock(sendbuf, recvbuf.subarray(0, 1), mpi.SUM);
  const sumval = size * rank + ((size - 1) * size) / 2;
  if (recvbuf[0] !== sumval) {
    err++;
    mt.printf('Did not get expected value for reduce scatter block');
    mt.printf(`[${rank}] Got ${recvbuf[0]} expected ${sumval}`);
  }
  // again with MPI_IN_PLACE
  for (let i = 0; i < size; i++) recvbuf[i] = rank + i;
  await comm.reduceScatterBlock(mpi.IN_PLACE, recvbuf, mpi.SUM);
  if (recvbuf[0] !== sumval) {
    err++;
    mt.printf('Did not get expected value for reduce scatter block');
    mt.printf(`[${rank}] Got ${recvbuf[0]} expected ${sumval}`);
  }
  return mt.finalize(err);
}
