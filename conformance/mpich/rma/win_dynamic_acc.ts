// MPICH test/mpi/rma/win_dynamic_acc.c, built as win_dynamic_acc and (with the hint coll_attach)
// win_dynamic_acc_collattach: every rank attaches one int to a dynamic window; in 25 fence epochs
// per rank, every rank adds 1 to one rank's int in turn; each int ends at 25 times the ranks.
// MPI_Get_address of the int becomes the address MPI_Win_attach returns, gathered once attached.
import type { MTest, MTestResult } from '../mtest.ts';

const ITER_PER_RANK = 25;

function winDynamicAccBuild(collAttach: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errors = 0;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const val = new Int32Array(1);
    const one = Int32Array.of(1);
    const iter = ITER_PER_RANK * nproc;
    let info = mpi.INFO_NULL as ReturnType<typeof mpi.infoCreate> | null;
    if (collAttach) {
      info = mpi.infoCreate();
      info.set('coll_attach', 'true');
    }
    const dynWin = await mpi.winCreateDynamic(info);
    info?.free();
    const valPtrs = new Float64Array(nproc);
    valPtrs[rank] = dynWin.attach(val);
    await mpi.allgather(mpi.IN_PLACE, valPtrs);
    for (let i = 0; i < iter; i++) {
      await dynWin.fence(mpi.MODE_NOPRECEDE);
      await dynWin.accumulate(one, 1, mpi.INT, i % nproc, valPtrs[i % nproc]!, 1, mpi.INT, mpi.SUM);
      await dynWin.fence(mpi.MODE_NOSUCCEED);
    }
    await mpi.barrier();
    if (val[0] !== iter) {
      errors++;
      mt.printf(`${rank} -- Got ${val[0]}, expected ${iter}`);
    }
    dynWin.detach(val);
    await dynWin.free();
    return mt.finalize(errors);
  };
}

export const winDynamicAcc = winDynamicAccBuild(false);
export const winDynamicAccCollattach = winDynamicAccBuild(true);
