// MPICH test/mpi/rma/test3.c: a put of 1 Mi ints in a post-start-complete-wait epoch overlapped
// with a send and receive of as many on MPI_COMM_WORLD while the target waits.
// Built also as test3_shm (-DUSE_WIN_ALLOCATE: MPI_Win_allocate in place of MPI_Win_create); test3_am.c,
// the same with the buffers from MPI_Alloc_mem, is built as test3_am and test3_am_shm.
import type { MTest, MTestResult } from '../mtest.ts';
import { ints, winOver } from './win-over.ts';
import type { Win } from '../../../runtime/mpi/mpi.ts';

const SIZE = 1048576;

function test3Build(allocate: boolean, am: boolean): (mt: MTest) => Promise<MTestResult> {
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
      const A = mem(SIZE);
      const commGroup = commDeuce.group;
      let win: Win;
      if (rank === 0) {
        const B = mem(SIZE);
        for (let i = 0; i < SIZE; i++) {
          A[i] = i;
          B[i] = SIZE + i;
        }
        win = (await winOver(commDeuce, allocate, new Uint8Array(0), 1)).win;
        const group = commGroup.incl([1]);
        await win.start(group, 0);
        await win.put(A, SIZE, mpi.INT, 1, 0, SIZE, mpi.INT);
        await win.complete();
        await mpi.send(B, SIZE, mpi.INT, 1, 100);
      } else {
        const made = await winOver(commDeuce, allocate, allocate ? new Int32Array(SIZE) : mem(SIZE), 4);
        const B = made.mem;
        win = made.win;
        await win.lock(mpi.LOCK_SHARED, rank, 0);
        for (let i = 0; i < SIZE; i++) A[i] = B[i] = -4 * i;
        await win.unlock(rank);
        const group = commGroup.incl([0]);
        await win.post(group, 0);
        await mpi.recv(A, SIZE, mpi.INT, 0, 100);
        await win.wait();
        for (let i = 0; i < SIZE; i++) {
          if (B[i] !== i) {
            if (sq++ < 10) mt.printf(`Rank 1: Put Error: B[i] is ${B[i]}, should be ${i}`);
            errs++;
          }
          if (A[i] !== SIZE + i) {
            if (sq++ < 10) mt.printf(`Rank 1: Send/Recv Error: A[i] is ${A[i]}, should be ${SIZE + i}`);
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

export default test3Build(false, false);
/** The -DUSE_WIN_ALLOCATE build (test3_shm). */
export const test3Shm = test3Build(true, false);
/** test3_am.c: its buffers from MPI_Alloc_mem. */
export const test3Am = test3Build(false, true);
/** test3_am.c built with -DUSE_WIN_ALLOCATE (test3_am_shm). */
export const test3AmShm = test3Build(true, true);
