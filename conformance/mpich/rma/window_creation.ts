// MPICH test/mpi/rma/window_creation.c: 500 windows of 4000 bytes made one after the other, then
// all freed. Built as window_creation (MPI_Alloc_mem and MPI_Win_create), window_allocation
// (-DUSE_WIN_ALLOCATE: MPI_Win_allocate) and window_noncontig_allocation (MPI_Win_allocate with
// the hint alloc_shared_noncontig).
import type { Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const DATA_NELTS = 1000;
const NUM_WIN = 500;
const DATA_SZ = DATA_NELTS * 4;

function windowCreationBuild(how: 'create' | 'allocate' | 'noncontig'): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const rank = mpi.rank;
    if (rank === 0) mt.printfMsg(1, `Starting MPI window creation test with ${mpi.size} processes`);
    const basePtrs: Uint8Array[] = [];
    const windows: Win[] = [];
    // a pile of window creations
    for (let i = 0; i < NUM_WIN; i++) {
      if (how === 'allocate') {
        const { win, buf } = await mpi.winAllocate(DATA_SZ, 1, mpi.INFO_NULL);
        basePtrs.push(buf);
        windows.push(win);
      } else if (how === 'noncontig') {
        const info = mpi.infoCreate();
        info.set('alloc_shared_noncontig', 'true');
        const { win, buf } = await mpi.winAllocate(DATA_SZ, 1, info);
        info.free();
        basePtrs.push(buf);
        windows.push(win);
      } else {
        const mem = mpi.allocMem(DATA_SZ, mpi.INFO_NULL);
        basePtrs.push(mem);
        windows.push(await mpi.winCreate(mem, 1, mpi.INFO_NULL));
      }
    }
    await mpi.barrier();
    // free all the windows
    for (let i = 0; i < NUM_WIN; i++) {
      await windows[i]!.free();
      if (how === 'create') mpi.freeMem(basePtrs[i]!);
    }
    return mt.finalize(0);
  };
}

export const windowCreation = windowCreationBuild('create');
export const windowAllocation = windowCreationBuild('allocate');
export const windowNoncontigAllocation = windowCreationBuild('noncontig');
