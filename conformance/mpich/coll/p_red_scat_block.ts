// MPICH test/mpi/coll/p_red_scat_block.c: MPI_Reduce_scatter_block_init (MPI_SUM, 1 int per rank)
// started 6 times, then with MPI_IN_PLACE started 10 times, the input reset before each start.
// (The C test passes an empty MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pRedScatBlock(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let err = 0;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  const sendbuf = new Int32Array(size);
  const recvbuf = new Int32Array(size);
  for (let i = 0; i < size; i++) sendbuf[i] = rank + i;
  let req = comm.reduceScatterBlockInit(sendbuf, recvbuf.subarray(0, 1), mpi.SUM);
  for (let i = 0; i < 6; ++i) {
    mpi.start(req);
    await mpi.wait(req);
    const sumval = size * rank + ((size - 1) * size) / 2;
    if (recvbuf[0] !== sumval) {
      err++;
      mt.printf('Did not get expected value for reduce scatter block');
      mt.printf(`[${rank}] Got ${recvbuf[0]} expected ${sumval}`);
    }
  }
  mpi.requestFree(req);
  // again with MPI_IN_PLACE
  req = comm.reduceScatterBlockInit(mpi.IN_PLACE, recvbuf, mpi.SUM);
  for (let i = 0; i < 10; ++i) {
    for (let j = 0; j < size; j++) recvbuf[j] = rank + j;
    mpi.start(req);
    await mpi.wait(req);
    const sumval = size * rank + ((size - 1) * size) / 2;
    if (recvbuf[0] !== sumval) {
      err++;
      mt.printf('Did not get expected value for reduce scatter block');
      mt.printf(`[${rank}] Got ${recvbuf[0]} expected ${sumval}`);
    }
  }
  mpi.requestFree(req);
  return mt.finalize(err);
}
