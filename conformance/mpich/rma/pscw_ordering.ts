// MPICH test/mpi/rma/pscw_ordering.c (and pscw_ordering_shm, -DUSE_WIN_ALLOCATE): two
// post-start-complete-wait epochs in which even ranks start before they post and odd ranks post
// before they start: first evens and odds put their rank into each other's windows, then each
// parity into its own; every window ends holding every rank.
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';

function pscwOrderingBuild(allocate: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const sq = new Squelch(mt);
    let errors = 0;
    const rank = mpi.rank;
    const nproc = mpi.size;
    if (nproc < 2) throw new Error('MPI_Abort: this test requires two or more processes');
    const oddNproc = Math.trunc(nproc / 2);
    const evenNproc = Math.trunc(nproc / 2) + (nproc % 2 === 0 ? 0 : 1);
    const evenRanks = Array.from({ length: evenNproc }, (_, i) => i * 2);
    const oddRanks = Array.from({ length: oddNproc }, (_, i) => i * 2 + 1);
    const worldGroup = mpi.group;
    const oddGroup = worldGroup.incl(oddRanks);
    const evenGroup = worldGroup.incl(evenRanks);
    let winBuf: Int32Array;
    let mem: Uint8Array | null = null;
    let win;
    if (allocate) {
      const made = await mpi.winAllocate(nproc * 4, 4, mpi.INFO_NULL);
      win = made.win;
      winBuf = new Int32Array(made.buf.buffer, made.buf.byteOffset, nproc);
    } else {
      mem = mpi.allocMem(nproc * 4, mpi.INFO_NULL);
      winBuf = new Int32Array(mem.buffer, mem.byteOffset, nproc);
      win = await mpi.winCreate(winBuf, 4, mpi.INFO_NULL);
    }
    await win.lock(mpi.LOCK_SHARED, rank, 0);
    for (let i = 0; i < nproc; i++) winBuf[i] = -1;
    await win.unlock(rank);
    const me = Int32Array.of(rank);
    if (rank % 2 === 0) {
      // even ranks target the odd ones, and are targeted by them
      await win.start(oddGroup, 0);
      await win.post(oddGroup, 0);
      for (let i = 0; i < oddNproc; i++) await win.put(me, 1, mpi.INT, oddRanks[i]!, rank, 1, mpi.INT);
    } else {
      await win.post(evenGroup, 0);
      await win.start(evenGroup, 0);
      for (let i = 0; i < evenNproc; i++) await win.put(me, 1, mpi.INT, evenRanks[i]!, rank, 1, mpi.INT);
    }
    await win.complete();
    await win.wait();
    if (rank % 2 === 0) {
      // even ranks target the even ones
      await win.post(evenGroup, 0);
      await win.start(evenGroup, 0);
      for (let i = 0; i < evenNproc; i++) await win.put(me, 1, mpi.INT, evenRanks[i]!, rank, 1, mpi.INT);
    } else {
      await win.post(oddGroup, 0);
      await win.start(oddGroup, 0);
      for (let i = 0; i < oddNproc; i++) await win.put(me, 1, mpi.INT, oddRanks[i]!, rank, 1, mpi.INT);
    }
    await win.complete();
    await win.wait();
    for (let i = 0; i < nproc; i++) {
      if (winBuf[i] !== i) {
        errors++;
        sq.printf(`${rank}: Error -- win_buf[${i}] = ${winBuf[i]}, expected ${i}`);
      }
    }
    await win.free();
    if (mem) mpi.freeMem(mem);
    return mt.finalize(errors);
  };
}

export default pscwOrderingBuild(false);
/** pscw_ordering_shm. */
export const pscwOrderingShm = pscwOrderingBuild(true);
