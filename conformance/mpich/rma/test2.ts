// MPICH test/mpi/rma/test2.c: puts and gets between two ranks in a post-start-complete-wait epoch;
// the target first fills its window under a shared lock on itself.
// Built also as test2_shm (-DUSE_WIN_ALLOCATE: MPI_Win_allocate in place of MPI_Win_create); test2_am.c,
// the same with the buffers from MPI_Alloc_mem, is built as test2_am and test2_am_shm.
import type { MTest, MTestResult } from '../mtest.ts';
import { ints, winOver } from './win-over.ts';
import type { Win } from '../../../runtime/mpi/mpi.ts';

const SIZE1 = 100;
const SIZE2 = 200;

function test2Build(allocate: boolean, am: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    // the _am builds' MPI_Alloc_mem buffers, given back with MPI_Free_mem
    const amBufs: Int32Array[] = [];
    const mem = (n: number): Int32Array => {
      const b = ints(mpi, n, am);
      if (am) amBufs.push(b);
      return b;
    };
    let errs = 0;
    let sq = 0;
    const rank = mpi.rank;
    if (mpi.size < 2) throw new Error('Run this program with 2 or more processes');
    const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
    if (rank < 2) {
      const commGroup = commDeuce.group;
      let win: Win;
      if (rank === 0) {
        const A = mem(SIZE2);
        const B = mem(SIZE2);
        for (let i = 0; i < SIZE2; i++) A[i] = B[i] = i;
        win = (await winOver(commDeuce, allocate, new Uint8Array(0), 1)).win;
        const group = commGroup.incl([1]);
        await win.start(group, 0);
        for (let i = 0; i < SIZE1; i++) await win.put(A.subarray(i), 1, mpi.INT, 1, i, 1, mpi.INT);
        for (let i = 0; i < SIZE1; i++) await win.get(B.subarray(i), 1, mpi.INT, 1, SIZE1 + i, 1, mpi.INT);
        await win.complete();
        for (let i = 0; i < SIZE1; i++) {
          if (B[i] !== -4 * (i + SIZE1)) {
            if (sq++ < 10) mt.printf(`Get Error: B[i] is ${B[i]}, should be ${-4 * (i + SIZE1)}`);
            errs++;
          }
        }
      } else {
        const made = await winOver(commDeuce, allocate, allocate ? new Int32Array(SIZE2) : mem(SIZE2), 4);
        const B = made.mem;
        win = made.win;
        await win.lock(mpi.LOCK_SHARED, rank, 0);
        for (let i = 0; i < SIZE2; i++) B[i] = -4 * i;
        await win.unlock(rank);
        const group = commGroup.incl([0]);
        await win.post(group, 0);
        await win.wait();
        for (let i = 0; i < SIZE1; i++) {
          if (B[i] !== i) {
            if (sq++ < 10) mt.printf(`Put Error: B[i] is ${B[i]}, should be ${i}`);
            errs++;
          }
        }
      }
      await win.free();
      for (const b of amBufs) mpi.freeMem(b);
    }
    await commDeuce.free();
    return mt.finalize(errs);
  };
}

export default test2Build(false, false);
/** The -DUSE_WIN_ALLOCATE build (test2_shm). */
export const test2Shm = test2Build(true, false);
/** test2_am.c: its buffers from MPI_Alloc_mem. */
export const test2Am = test2Build(false, true);
/** test2_am.c built with -DUSE_WIN_ALLOCATE (test2_am_shm). */
export const test2AmShm = test2Build(true, true);
