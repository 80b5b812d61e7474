// MPICH test/mpi/topo/graphcr.c: a graph of no processes is valid (MPI 2.1, page 246) and gives
// MPI_COMM_NULL.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function graphcr(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const comm = await mt.mpi.graphCreate([], [], false);
  if (comm !== null) {
    errs++;
    mt.printf('Expected MPI_COMM_NULL from empty graph create');
  }
  return mt.finalize(errs);
}
