// MPICH test/mpi/topo/dims0.c: MPI_Dims_create(1, 0, NULL) succeeds (mpi-forum/mpi-issues#72).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function dims0(mt: MTest): Promise<MTestResult> {
  const errs = 0;
  // errors are fatal, as with MPI_COMM_WORLD's default handler
  mt.mpi.dimsCreate(1, []);
  return mt.finalize(errs);
}
