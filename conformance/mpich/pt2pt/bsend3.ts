// MPICH test/mpi/pt2pt/bsend3.c: bsend2.c with persistent buffered sends (MPI_Bsend_init, MPI_Start,
// MPI_Wait, MPI_Request_free).
import type { MTest, MTestResult } from '../mtest.ts';
import { bsendToZero } from './bsend-common.ts';

const BUFSIZE = 2000;

export default async function bsend3(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const a = new Int32Array(10);
  comm.bufferAttach(BUFSIZE);
  for (let j = 0; j < 10; j++) {
    const request = comm.bsendInit(a, 0, 27 + j);
    for (let i = 0; i < 10; i++) a[i] = (rank + 10 * j) * size + i;
    comm.start(request);
    await comm.wait(request);
    comm.requestFree(request);
  }
  const errs = rank === 0 ? await bsendToZero(mt, comm, size, '') : 0;
  await comm.bufferDetach();
  return mt.finalize(errs);
}
