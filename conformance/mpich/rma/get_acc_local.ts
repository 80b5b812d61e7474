// MPICH test/mpi/rma/get_acc_local.c: 1000 MPI_Get_accumulate (SUM of 3) of every rank on its own
// counter, each in a shared lock on itself, returning the counter as it was.
import type { MTest, MTestResult } from '../mtest.ts';

const NITER = 1000;
const ACC_VAL = 3;

export default async function getAccLocal(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const counter = new Int32Array(1);
  const outVal = new Int32Array(1);
  const accVal = Int32Array.of(ACC_VAL);
  const win = await mpi.winCreate(counter, 4, mpi.INFO_NULL);
  for (let i = 0; i < NITER; i++) {
    await win.lock(mpi.LOCK_SHARED, rank, 0);
    await win.getAccumulate(accVal, 1, mpi.INT, outVal, 1, mpi.INT, rank, 0, 1, mpi.INT, mpi.SUM);
    await win.unlock(rank);
    if (outVal[0] !== ACC_VAL * i) {
      errs++;
      mt.printf(`Error: got ${outVal[0]}, expected ${ACC_VAL * i} at iter ${i}`);
      break;
    }
  }
  await win.free();
  return mt.finalize(errs);
}
