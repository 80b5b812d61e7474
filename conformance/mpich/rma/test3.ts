// MPICH test/mpi/rma/test3.c: a put of 1 Mi ints in a post-start-complete-wait epoch overlapped
// with a send and receive of as many on MPI_COMM_WORLD while the target waits.
// Built also as test3_shm (-DUSE_WIN_ALLOCATE: MPI_Win_allocate in place of MPI_Win_create).
import type { MTest, MTestResult } from '../mtest.ts';
import { winOver } from './win-over.ts';
import type { Win } from '../../../runtime/mpi/mpi.ts';

const SIZE = 1048576;

function test3Build(allocate: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    let sq = 0;
    const rank = mpi.rank;
    if (mpi.size < 2) throw new Error('Run this program with 2 or more processes');
    const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
    if (rank < 2) {
      const A = new Int32Array(SIZE);
      const commGroup = commDeuce.group;
      let win: Win;
      if (rank === 0) {
        const B = new Int32Array(SIZE);
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
        const made = await winOver(commDeuce, allocate, new Int32Array(SIZE), 4);
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
    }
    await commDeuce.free();
    return mt.finalize(errs);
  };
}

export default test3Build(false);
/** The -DUSE_WIN_ALLOCATE build (test3_shm). */
export const test3Shm = test3Build(true);
