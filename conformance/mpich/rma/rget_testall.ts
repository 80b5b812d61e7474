// MPICH test/mpi/rma/rget_testall.c: two MPI_Rget of rank 0's window in a lock_all epoch,
// completed by MPI_Testall polled until it says so, which must return MPI_SUCCESS.
import type { Request } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { rc } from '../mtest.ts';

export default async function rgetTestall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const { win, buf } = await mpi.winAllocate(2 * 4, 4, mpi.INFO_NULL);
  const baseptr = new Int32Array(buf.buffer, buf.byteOffset, 2);
  // the window buffer
  await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
  baseptr[0] = 1;
  baseptr[1] = 2;
  await win.unlock(rank);
  // synchronise before the second access epoch
  await mpi.barrier();
  // request-based gets completed with testall
  await win.lockAll(0);
  const val1 = new Int32Array(1);
  const val2 = new Int32Array(1);
  const reqs: Request[] = [await win.rget(val1, 1, mpi.INT, 0, 0, 1, mpi.INT), await win.rget(val2, 1, mpi.INT, 0, 1, 1, mpi.INT)];
  let flag = false;
  let mpiErrno: number;
  do {
    mpiErrno = await rc(async () => {
      flag = (await mpi.testAll(reqs)) !== null;
    });
  } while (!flag && mpiErrno === 0);
  if (val1[0] !== 1 || val2[0] !== 2) {
    mt.printf(`${rank} - Got val1 = ${val1[0]}, val2 = ${val2[0]}, expected 1, 2`);
    errs++;
  }
  if (mpiErrno !== 0) {
    mt.printf(`${rank} - Got return errno ${mpiErrno}, expected MPI_SUCCESS(0)`);
    errs++;
  }
  await win.unlockAll();
  await mpi.barrier();
  await win.free();
  return mt.finalize(errs);
}
