// MPICH test/mpi/rma/manyget.c: rank 1 gets rank 0's 128 KiB window 1000 times in one fence epoch
// (100,000 under MTest's stress level, which the suite leaves at 0).
import type { MTest, MTestResult } from '../mtest.ts';

const BUFSIZE = 128 * 1024;

export default async function manyget(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const buf = new Int32Array(BUFSIZE / 4);
  const rank = mpi.rank;
  const size = mpi.size;
  if (size !== 2) throw new Error('test must be run with 2 processes!');
  const win = rank === 0 ? await mpi.winCreate(buf, 4) : await mpi.winCreate(new Uint8Array(0), 1);
  await win.fence(0);
  const numIter = 1000;
  if (rank === 1) {
    for (let i = 0; i < numIter; i++) await win.get(buf, BUFSIZE / 4, mpi.INT, 0, 0, BUFSIZE / 4, mpi.INT);
  }
  await win.fence(0);
  await win.free();
  return mt.finalize(0);
}
