// MPICH test/mpi/rma/test5.c: two ranks get each other's 2000-int window one int at a time in a
// fence epoch.
import type { MTest, MTestResult } from '../mtest.ts';

const SIZE = 2000;

export default async function test5(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let sq = 0;
  const rank = mpi.rank;
  if (mpi.size < 2) throw new Error('Run this program with 2 or more processes');
  const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
  const A = new Int32Array(SIZE);
  const B = new Int32Array(SIZE);
  if (rank < 2) {
    // rank 0 exposes B and gets into A, rank 1 the other way round
    const [mine, theirs, other, want, name] = rank === 0 ? [B, A, 1, 1000, 'A'] : [A, B, 0, 500, 'B'];
    const init = rank === 0 ? 500 : 1000;
    const before = rank === 0 ? 100 : 200;
    for (let i = 0; i < SIZE; i++) mine[i] = init + i;
    const win = await commDeuce.winCreate(mine, 4);
    await win.fence(0);
    for (let i = 0; i < SIZE; i++) {
      theirs[i] = i + before;
      await win.get(theirs.subarray(i), 1, mpi.INT, other, i, 1, mpi.INT);
    }
    await win.fence(0);
    for (let i = 0; i < SIZE; i++) {
      if (theirs[i] !== want + i) {
        if (sq++ < 10) mt.printf(`Rank ${rank}: ${name}[${i}] is ${theirs[i]}, should be ${want + i}`);
        errs++;
      }
    }
    await win.free();
  }
  await commDeuce.free();
  return mt.finalize(errs);
}
