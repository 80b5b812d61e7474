// MPICH test/mpi/topo/cartcreates.c: a periodic 1-D Cartesian communicator on a subset of world
// (size - 1 ranks); the last rank gets MPI_COMM_NULL.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function cartcreates(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  if (size < 2) throw new Error('This test needs at least 2 processes');
  const dims = [size - 1];
  const comm = await mpi.cartCreate(dims, [true], false);
  if (comm !== null) {
    if (comm.size !== dims[0]) {
      errs++;
      mt.printf(`Sizes is wrong in cart communicator.  Is ${comm.size}, should be ${dims[0]}`);
    }
    await comm.barrier();
    await comm.free();
  } else if (rank < dims[0]!) {
    errs++;
    mt.printf('Communicator returned is null!');
  }
  return mt.finalize(errs);
}
