// MPICH test/mpi/rma/locknull.c: every rank locks and unlocks every rank's window, exclusive then
// shared, with nothing in between (for itself a useful epoch: local loads and stores). The
// window's 1000 ints come from MPI_Alloc_mem in C: a plain typed array here.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function locknull(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const comm = mpi;
  const size = comm.size;
  // allocate and initialize buf
  const count = 1000;
  const winbuf = new Int32Array(count);
  const win = await comm.winCreate(winbuf, 4);
  // clear winbuf
  winbuf.fill(0);
  for (let i = 0; i < size; i++) {
    await win.lock(mpi.LOCK_EXCLUSIVE, i, 0);
    await win.unlock(i);
  }
  for (let i = 0; i < size; i++) {
    await win.lock(mpi.LOCK_SHARED, i, 0);
    await win.unlock(i);
  }
  await win.free();
  // if the test completes, no error has been found
  return mt.finalize(errs);
}
