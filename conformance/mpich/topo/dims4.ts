// MPICH test/mpi/topo/dims4.c: MPI_Dims_create of 10^9 nodes in 3 dimensions is 1000 x 1000 x 1000.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function dims4(mt: MTest): Promise<MTestResult> {
  const nproc = 1000 * 1000 * 1000;
  let errs = 0;
  const ret = mt.mpi.dimsCreate(nproc, [0, 0, 0]);
  for (let i = 0; i < 3; i++) if (ret[i] !== 1000) errs++;
  return mt.finalize(errs);
}
