// MPICH test/mpi/pt2pt/waitany_null.c: MPI_Waitany over ten MPI_REQUEST_NULLs succeeds and gives
// index MPI_UNDEFINED.
import { rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function waitanyNull(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const requests = new Array(10).fill(mpi.REQUEST_NULL);
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  let index = -1;
  const err = await rc(async () => {
    ({ index } = await mpi.waitAny(requests));
  });
  if (err) {
    errs++;
    mt.printf('MPI_Waitany did not return MPI_SUCCESS');
  }
  if (index !== mpi.UNDEFINED) {
    errs++;
    mt.printf('MPI_Waitany did not set index to MPI_UNDEFINED');
  }
  mpi.setErrhandler(mpi.ERRORS_ARE_FATAL);
  return mt.finalize(errs);
}
