// MPICH test/mpi/coll/p_inactive.c: MPI_Test and MPI_Wait on an MPI_Bcast_init request never
// started: the test's flag is true and both give the empty status (source MPI_ANY_SOURCE, tag
// MPI_ANY_TAG, no elements, not cancelled). The C test first fills the status with other values
// (MPI_Status_set_elements, MPI_Status_set_cancelled); phit returns a new status from each call,
// so there is nothing to fill.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Status } from '../../../runtime/mpi/mpi.ts';

export default async function pInactive(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const checkEmptyStatus = (status: Status): number => {
    let e = 0;
    if (status.tag !== mpi.ANY_TAG) ++e;
    if (status.source !== mpi.ANY_SOURCE) ++e;
    const count = mpi.getElements(status, mpi.INT);
    if (count !== 0) ++e;
    if (status.cancelled) ++e;
    return e;
  };
  const a = new Int32Array(1);
  const req = mpi.bcastInit(a, 0);
  // test returns flag true and the empty status (phit's test returns the flag only: its status is
  // the one MPI_Wait gives)
  const flag = await mpi.test(req);
  if (!flag) ++errs;
  errs += checkEmptyStatus(await mpi.wait(req));
  // wait returns the empty status
  errs += checkEmptyStatus(await mpi.wait(req));
  mpi.requestFree(req);
  return mt.finalize(errs);
}
