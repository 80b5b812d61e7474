// MPICH test/mpi/coll/icbarrier.c: MPI_Barrier over MTest's intercommunicators (with -nonblocking,
// MPI_Ibarrier and MPI_Wait). Errors are returned and counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icbarrier(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm } of mt.intercomms(4)) {
    if (!comm) continue;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    // the same call in the left and the right group
    const err = await rc(() =>
      mtestColl(
        mpi,
        isBlocking,
        () => comm.barrier(),
        () => comm.ibarrier(),
      ),
    );
    if (err) {
      errs++;
      mt.printError(err);
    }
  }
  return mt.finalize(errs);
}
