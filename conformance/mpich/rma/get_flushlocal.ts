// MPICH test/mpi/rma/get_flushlocal.c: in a lock_all epoch, every rank gets each rank's 1024-int
// window 1000 times, MPI_Win_flush_local after each get making the data available.
import type { MTest, MTestResult } from '../mtest.ts';

const NITER = 1000;
const BUFCNT = 1024;

export default async function getFlushlocal(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const nproc = mpi.size;
  const locbuf = new Int32Array(BUFCNT);
  const winbuf = new Int32Array(BUFCNT);
  const win = await mpi.winCreate(winbuf, 4);
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
}
