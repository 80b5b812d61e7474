// MPICH test/mpi/rma/aint.c, built as aint and (with the hint coll_attach) aint_collattach: two
// ranks attach an array of 1024 ints to a dynamic window and swap the addresses of their element
// 512; rank 0 gets the other's element 1023 at MPI_Aint_add(base, 511 ints) and rank 1 the other's
// element 0 at MPI_Aint_diff(base, 512 ints), each 1234. MPI_Get_address of element 512 becomes
// the address MPI_Win_attach returns plus 512 ints, so the array is attached before the swap.
import type { MTest, MTestResult } from '../mtest.ts';

function aintBuild(collAttach: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const array = new Int32Array(1024);
    const val = new Int32Array(1);
    const bases = new Float64Array(2);
    if (rank === 0 && nproc !== 2) throw new Error('Must run with 2 ranks');
    let info = mpi.INFO_NULL as ReturnType<typeof mpi.infoCreate> | null;
    if (collAttach) {
      info = mpi.infoCreate();
      info.set('coll_attach', 'true');
    }
    const win = await mpi.winCreateDynamic(info);
    info?.free();
    const arrayAddress = win.attach(array);
    // the base address in the middle of the array
    let targetRank = 0;
    if (rank === 0) {
      targetRank = 1;
      array[0] = 1234;
      bases[0] = arrayAddress + 4 * 512;
    } else if (rank === 1) {
      targetRank = 0;
      array[1023] = 1234;
      bases[1] = arrayAddress + 4 * 512;
    }
    // exchange bases
    await mpi.allgather(mpi.IN_PLACE, bases);
    // MPI_Aint addressing arithmetic
    let offset = 0;
    if (rank === 0) offset = mpi.aintAdd(bases[1]!, 4 * 511); // points to array[1023]
    else if (rank === 1) offset = mpi.aintDiff(bases[0]!, 4 * 512); // points to array[0]
    // get val and verify it
    await win.fence(mpi.MODE_NOPRECEDE);
    await win.get(val, 1, mpi.INT, targetRank, offset, 1, mpi.INT);
    await win.fence(mpi.MODE_NOSUCCEED);
    if (val[0] !== 1234) {
      errs++;
      mt.printf(`${rank} -- Got ${val[0]}, expected 1234`);
    }
    win.detach(array);
    await win.free();
    return mt.finalize(errs);
  };
}

export const aint = aintBuild(false);
export const aintCollattach = aintBuild(true);
