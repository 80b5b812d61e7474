// MPICH test/mpi/topo/cartmap1.c: MPI_Cart_map of a one-point grid (1-D, then 0-D as MPI 2.1
// allows) gives rank 0 its rank and the others MPI_UNDEFINED.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function cartmap1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  for (const [dims, periods] of [
    [[1], [true]],
    [[], []],
  ] as const) {
    const newrank = mpi.cartMap(dims, periods);
    if (rank > 0) {
      if (newrank !== mpi.UNDEFINED) {
        errs++;
        mt.printf('rank outside of input communicator not UNDEFINED');
      }
    } else if (rank !== newrank) {
      errs++;
      mt.printf('Newrank not defined and should be 0');
    }
  }
  return mt.finalize(errs);
}
