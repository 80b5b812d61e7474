// MPICH test/mpi/coll/redscatblk3.c: MPI_Reduce_scatter_block of 1 Mi ints in all (MPICH's
// long-data algorithm), then the same in place.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function redscatblk3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const size = comm.size;
  const rank = comm.rank;
  const mycount = Math.trunc((1024 * 1024) / size);
  const sendbuf = new Int32Array(mycount * size);
  let idx = 0;
  for (let i = 0; i < size; i++) for (let j = 0; j < mycount; j++) sendbuf[idx++] = rank + i;
  const recvbuf = new Int32Array(mycount);
  await comm.reduceScatterBlock(sendbuf, recvbuf, mpi.SUM);
  const sumval = size * rank + ((size - 1) * size) / 2;
  for (let i = 0; i < mycount; i++) {
    if (recvbuf[i] !== sumval) {
      errs++;
      if (errs < 10) {
        mt.printf('Did not get expected value for reduce scatter');
        mt.printf(`[${rank}] Got ${recvbuf[i]} expected ${sumval}`);
      }
    }
  }
  await comm.reduceScatterBlock(mpi.IN_PLACE, sendbuf, mpi.SUM);
  for (let i = 0; i < mycount; i++) {
    if (sendbuf[i] !== sumval) {
      errs++;
      if (errs < 10) {
        mt.printf('Did not get expected value for reduce scatter (in place)');
        mt.printf(`[${rank}] Got ${sendbuf[i]} expected ${sumval}`);
      }
    }
  }
  return mt.finalize(errs);
}
