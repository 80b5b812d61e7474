// MPICH test/mpi/rma/test5.c: two ranks get each other's 2000-int window one int at a time in a
// fence epoch. Also test5_am.c, the same with A and B from MPI_Alloc_mem.
import type { MTest, MTestResult } from '../mtest.ts';
import { ints } from './win-over.ts';

const SIZE = 2000;

function test5Build(am: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    let sq = 0;
    const rank = mpi.rank;
    if (mpi.size < 2) throw new Error('Run this program with 2 or more processes');
    const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
    let A: Int32Array = new Int32Array(SIZE);
    let B: Int32Array = new Int32Array(SIZE);
    if (rank < 2) {
      if (am) {
        A = ints(mpi, SIZE, am);
        B = ints(mpi, SIZE, am);
      }
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
      if (am) {
        mpi.freeMem(A);
        mpi.freeMem(B);
      }
    }
    await commDeuce.free();
    return mt.finalize(errs);
  };
}

export default test5Build(false);
/** test5_am: A and B from MPI_Alloc_mem. */
export const test5Am = test5Build(true);
