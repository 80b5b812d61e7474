// MPICH test/mpi/pt2pt/bsend2.c: every rank bsends ten messages to rank 0, which checks tag,
// source and data of each.
import type { MTest, MTestResult } from '../mtest.ts';
import { bsendToZero } from './bsend-common.ts';

const BUFSIZE = 2000;

export default async function bsend2(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const a = new Int32Array(10);
  comm.bufferAttach(BUFSIZE);
  for (let j = 0; j < 10; j++) {
    for (let i = 0; i < 10; i++) a[i] = (rank + 10 * j) * size + i;
    await comm.bsend(a, 0, 27 + j);
  }
  const errs = rank === 0 ? await bsendToZero(mt, comm, size, '') : 0;
  await comm.bufferDetach();
  return mt.finalize(errs);
}
