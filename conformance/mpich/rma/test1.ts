// MPICH test/mpi/rma/test1.c: puts, gets and an accumulate between two ranks in fence epochs. Also
// test1_am.c, the same with A and B from MPI_Alloc_mem.
import type { MTest, MTestResult } from '../mtest.ts';
import { ints } from './win-over.ts';

const SIZE = 100;

function test1Build(am: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const rank = mpi.rank;
    if (mpi.size < 2) throw new Error('Run this program with 2 or more processes');
    const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
    if (rank < 2) {
      const A = ints(mpi, SIZE, am);
      const B = ints(mpi, SIZE, am);
      if (rank === 0) {
        for (let i = 0; i < SIZE; i++) A[i] = B[i] = i;
      } else {
        for (let i = 0; i < SIZE; i++) {
          A[i] = -3 * i;
          B[i] = -4 * i;
        }
      }
      const win = await commDeuce.winCreate(B, 4);
      await win.fence(0);
      let i: number;
      if (rank === 0) {
        for (i = 0; i < SIZE - 1; i++) await win.put(A.subarray(i, i + 1), 1, i);
      } else {
        for (i = 0; i < SIZE - 1; i++) await win.get(A.subarray(i, i + 1), 0, i);
        await win.accumulate(A.subarray(i, i + 1), 0, i, mpi.SUM);
      }
      await win.fence(0);
      if (rank === 1) {
        for (i = 0; i < SIZE - 1; i++) {
          if (A[i] !== B[i]) {
            if (errs < 10) mt.printf(`Put/Get Error: A[i]=${A[i]}, B[i]=${B[i]}`);
            errs++;
          }
        }
      } else if (B[SIZE - 1] !== SIZE - 1 - 3 * (SIZE - 1)) {
        mt.printf(`Accumulate Error: B[SIZE-1] is ${B[SIZE - 1]}, should be ${SIZE - 1 - 3 * (SIZE - 1)}`);
        errs++;
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

export default test1Build(false);
/** test1_am: A and B from MPI_Alloc_mem. */
export const test1Am = test1Build(true);
