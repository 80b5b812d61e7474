// MPICH test/mpi/rma/lock_nested.c: rank 0 holds a shared lock on every rank's window at once,
// taken in rank order and released in reverse.
import type { MTest, MTestResult } from '../mtest.ts';

const BUFSIZE = 4;

export default async function lockNested(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const nprocs = mpi.size;
  const winbuf = new Int32Array(BUFSIZE);
  const win = await mpi.winCreate(winbuf, 4);
  if (rank === 0) {
    // lock each process
    for (let dst = 0; dst < nprocs; dst++) await win.lock(mpi.LOCK_SHARED, dst, 0);
    // unlock each process
    for (let dst = nprocs - 1; dst >= 0; dst--) await win.unlock(dst);
  }
  await mpi.barrier();
  await win.free();
  return mt.finalize(0);
}
