// MPICH test/mpi/datatype/simple_commit.c: MPI_Type_commit of the predefined MPI_INT and
// MPI_FLOAT_INT succeeds (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function simpleCommit(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  let mpiErr = await rc(() => mpi.typeCommit(mpi.INT));
  if (mpiErr) {
    if (verbose) mt.printf('MPI_Type_commit of MPI_INT failed.');
    errs++;
  }
  mpiErr = await rc(() => mpi.typeCommit(mpi.FLOAT_INT));
  if (mpiErr) {
    if (verbose) mt.printf('MPI_Type_commit of MPI_FLOAT_INT failed.');
    errs++;
  }
  return mt.finalize(errs);
}
