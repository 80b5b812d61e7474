// MPICH test/mpi/coll/p_redscat.c: MPI_Reduce_scatter_init (MPI_SUM, 1 int per rank), started and
// waited 10 times. (The C test passes an empty MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pRedscat(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let err = 0;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  const sendbuf = new Int32Array(size);
  for (let i = 0; i < size; i++) sendbuf[i] = rank + i;
  const recvcounts = new Int32Array(size).fill(1);
  const recvbuf = new Int32Array(1);
  const req = comm.reduceScatterInit(sendbuf, recvbuf, recvcounts, mpi.SUM);
  for (let i = 0; i < 10; ++i) {
    mpi.start(req);
    await mpi.wait(req);
    const sumval = size * rank + ((size - 1) * size) / 2;
    // recvbuf should be size * (rank + i)
    if (recvbuf[0] !== sumval) {
      err++;
      mt.printf('Did not get expected value for reduce scatter');
      mt.printf(`[${rank}] Got ${recvbuf[0]} expected ${sumval}`);
    }
  }
  mpi.requestFree(req);
  return mt.finalize(err);
}
