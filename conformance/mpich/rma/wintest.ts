// MPICH test/mpi/rma/wintest.c: test2.c with MPI_Win_test polled until the exposure epoch ends in
// place of MPI_Win_wait (10 puts and 10 gets).
// Built also as wintest_shm (-DUSE_WIN_ALLOCATE: MPI_Win_allocate in place of MPI_Win_create).
import type { MTest, MTestResult } from '../mtest.ts';
import { winOver } from './win-over.ts';
import type { Win } from '../../../runtime/mpi/mpi.ts';

const SIZE1 = 10;
const SIZE2 = 20;

function wintestBuild(allocate: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const rank = mpi.rank;
    if (mpi.size < 2) throw new Error('Run this program with 2 or more processes');
    const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
    if (rank < 2) {
      const commGroup = commDeuce.group;
      const A = new Int32Array(SIZE2);
      let win: Win;
      if (rank === 0) {
        const B = new Int32Array(SIZE2);
        for (let i = 0; i < SIZE2; i++) A[i] = B[i] = i;
        win = (await winOver(commDeuce, allocate, new Uint8Array(0), 1)).win;
        const group = commGroup.incl([1]);
        await win.start(group, 0);
        for (let i = 0; i < SIZE1; i++) await win.put(A.subarray(i), 1, mpi.INT, 1, i, 1, mpi.INT);
        for (let i = 0; i < SIZE1; i++) await win.get(B.subarray(i), 1, mpi.INT, 1, SIZE1 + i, 1, mpi.INT);
        await win.complete();
        for (let i = 0; i < SIZE1; i++) {
          if (B[i] !== -4 * (i + SIZE1)) {
            mt.printf(`Get Error: B[i] is ${B[i]}, should be ${-4 * (i + SIZE1)}`);
            errs++;
          }
        }
      } else {
        // rank 1
        const made = await winOver(commDeuce, allocate, new Int32Array(SIZE2), 4);
        const B = made.mem;
        win = made.win;
        await win.lock(mpi.LOCK_SHARED, rank, 0);
        for (let i = 0; i < SIZE2; i++) B[i] = -4 * i;
        await win.unlock(rank);
        const group = commGroup.incl([0]);
        await win.post(group, 0);
        let flag = false;
        while (!flag) flag = await win.test();
        for (let i = 0; i < SIZE1; i++) {
          if (B[i] !== i) {
            mt.printf(`Put Error: B[i] is ${B[i]}, should be ${i}`);
            errs++;
          }
        }
      }
      await win.free();
    }
    await commDeuce.free();
    return mt.finalize(errs);
  };
}

export default wintestBuild(false);
/** The -DUSE_WIN_ALLOCATE build (wintest_shm). */
export const wintestShm = wintestBuild(true);
