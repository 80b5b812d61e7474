// MPICH test/mpi/rma/manyrma3.c: every rank issues 4096 MPI_Accumulates of one int to rank 0's
// window in one fence epoch; the test passes when they complete (it checks no value).
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_COUNT = 4096;

export default async function manyrma3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const winbuf = new Int32Array(1);
  const one = Int32Array.of(1);
  const win = await mpi.winCreate(winbuf, 4, mpi.INFO_NULL);
  await win.fence(0);
  for (let i = 0; i < MAX_COUNT; i++) await win.accumulate(one, 1, mpi.INT, 0, 0, 1, mpi.INT, mpi.SUM);
  await win.fence(0);
  await win.free();
  return mt.finalize(0);
}
