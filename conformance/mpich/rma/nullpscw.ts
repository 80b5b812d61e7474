// MPICH test/mpi/rma/nullpscw.c: an empty post-start-complete-wait epoch of every rank with the
// window's whole group, on a window of no memory.
// Built also as nullpscw_shm (-DUSE_WIN_ALLOCATE: MPI_Win_allocate in place of MPI_Win_create).
import type { MTest, MTestResult } from '../mtest.ts';
import { winOver } from './win-over.ts';

function nullpscwBuild(allocate: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const errs = 0;
    const { win } = await winOver(mpi, allocate, new Uint8Array(0), 1);
    const group = win.getGroup();
    await win.post(group, 0);
    await win.start(group, 0);
    await win.complete();
    await win.wait();
    await win.free();
    return mt.finalize(errs);
  };
}

export default nullpscwBuild(false);
/** The -DUSE_WIN_ALLOCATE build (nullpscw_shm). */
export const nullpscwShm = nullpscwBuild(true);
