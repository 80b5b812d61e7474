// MPICH test/mpi/pt2pt/bsend4.c: bsend2.c with MPI_Ibsend and MPI_Wait.
import type { MTest, MTestResult } from '../mtest.ts';
import { bsendToZero } from './bsend-common.ts';

const BUFSIZE = 2000;

export default async function bsend4(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const a = new Int32Array(10);
  comm.bufferAttach(BUFSIZE);
  for (let j = 0; j < 10; j++) {
    for (let i = 0; i < 10; i++) a[i] = (rank + 10 * j) * size + i;
    const request = comm.ibsend(a, 0, 27 + j);
    await comm.wait(request);
  }
  const errs = rank === 0 ? await bsendToZero(mt, comm, size, '') : 0;
  await comm.bufferDetach();
  return mt.finalize(errs);
}
