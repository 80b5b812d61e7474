// MPICH test/mpi/rma/get_flushlocal.c: in a lock_all epoch, every rank gets each rank's 1024-int
// window 1000 times, MPI_Win_flush_local after each get making the data available.
// Built also as get_flushlocal_shm (-DUSE_WIN_ALLOCATE: MPI_Win_allocate in place of MPI_Win_create).
import type { MTest, MTestResult } from '../mtest.ts';
import { winOver } from './win-over.ts';

const NITER = 1000;
const BUFCNT = 1024;

function getFlushlocalBuild(allocate: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const locbuf = new Int32Array(BUFCNT);
    const { win, mem: winbuf } = await winOver(mpi, allocate, new Int32Array(BUFCNT), 4);
    // the window buffer
    await win.lock(mpi.LOCK_SHARED, rank, 0);
    for (let i = 0; i < BUFCNT; i++) winbuf[i] = rank * BUFCNT + i;
    await win.unlock(rank);
    await mpi.barrier();
    await win.lockAll(0);
    for (let x = 0; x < NITER; x++) {
      for (let targetRank = 0; targetRank < nproc; targetRank++) {
        // local completion with get + flush_local
        locbuf.fill(0);
        await win.get(locbuf, BUFCNT, mpi.INT, targetRank, 0, BUFCNT, mpi.INT);
        await win.flushLocal(targetRank);
        for (let i = 0; i < BUFCNT; i++) {
          const expVal = targetRank * BUFCNT + i;
          if (locbuf[i] !== expVal) {
            errs++;
            mt.printf(`[${rank}] Error: target_rank ${targetRank} locbuf[${i}] got ${locbuf[i]}, expected ${expVal} at iter ${x}`);
            break;
          }
        }
      }
    }
    await win.unlockAll();
    await win.free();
    return mt.finalize(errs);
  };
}

export default getFlushlocalBuild(false);
/** The -DUSE_WIN_ALLOCATE build (get_flushlocal_shm). */
export const getFlushlocalShm = getFlushlocalBuild(true);
