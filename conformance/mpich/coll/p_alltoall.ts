// MPICH test/mpi/coll/p_alltoall.c: MPI_Alltoall_init of 1 int per rank, started and waited 10
// times. (The C test passes an empty MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pAlltoall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const iters = 10;
  // sendcount and recvcount
  const count = 1;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  const sbuf = new Int32Array(size * count);
  const rbuf = new Int32Array(size * count);
  for (let i = 0; i < count * size; ++i) sbuf[i] = rank * size + i;
  const req = comm.alltoallInit(sbuf, rbuf);
  for (let i = 0; i < iters; i++) {
    mpi.start(req);
    await mpi.wait(req);
    // check the results
    for (let j = 0; j < size * count; j++) {
      const result = size * j + rank;
      if (rbuf[j] !== result) {
        errs++;
        if (errs < 10) mt.printf(`rbuf[${j}] = ${rbuf[j]} expected ${result}`);
      }
    }
  }
  mpi.requestFree(req);
  return mt.finalize(errs);
}
