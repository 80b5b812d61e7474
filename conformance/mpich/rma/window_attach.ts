// MPICH test/mpi/rma/window_attach.c, built as window_attach and (with the hint coll_attach)
// window_attach_collattach: every rank attaches 1000 segments of MPI_Alloc_mem (1000 ints each) to
// a dynamic window, and after a barrier detaches and frees them all; the window is then freed.
import type { MTest, MTestResult } from '../mtest.ts';

const DATA_NELTS = 1000;
const NUM_WIN = 1000;
const DATA_SZ = DATA_NELTS * 4;

function windowAttachBuild(collAttach: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const rank = mpi.rank;
    if (rank === 0) mt.printfMsg(1, `Starting MPI dynamic window attach test with ${mpi.size} processes`);
    let info = mpi.INFO_NULL as ReturnType<typeof mpi.infoCreate> | null;
    if (collAttach) {
      info = mpi.infoCreate();
      info.set('coll_attach', 'true');
    }
    const window = await mpi.winCreateDynamic(info);
    info?.free();
    const basePtrs: Uint8Array[] = [];
    for (let i = 0; i < NUM_WIN; i++) {
      basePtrs.push(mpi.allocMem(DATA_SZ, mpi.INFO_NULL));
      if (rank === 0) mt.printfMsg(1, ` + Attaching segment ${i} to window`);
      window.attach(basePtrs[i]!);
    }
    await mpi.barrier();
    for (let i = 0; i < NUM_WIN; i++) {
      if (rank === 0) mt.printfMsg(1, ` + Detaching segment ${i} to window`);
      window.detach(basePtrs[i]!);
      mpi.freeMem(basePtrs[i]!);
    }
    await window.free();
    return mt.finalize(0);
  };
}

export const windowAttach = windowAttachBuild(false);
export const windowAttachCollattach = windowAttachBuild(true);
