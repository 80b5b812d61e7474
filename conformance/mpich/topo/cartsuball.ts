// MPICH test/mpi/topo/cartsuball.c: MPI_Cart_sub keeping no dimension of a 1-D grid gives, on
// rank 0, a communicator congruent to MPI_COMM_SELF.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function cartsuball(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = (await mpi.cartCreate([mpi.size], [false], false))!;
  // extract a communicator with no dimensions
  const newcomm = await comm.cartSub([false]);
  if (comm.rank === 0) {
    // this should be congruent to MPI_COMM_SELF
    if (mpi.COMM_SELF.compare(newcomm) !== 'congruent') {
      errs++;
      mt.printf('cart sub to size 0 did not give self');
    }
  }
  await newcomm.free();
  await comm.free();
  return mt.finalize(errs);
}
