// MPICH test/mpi/topo/cartzero.c: zero-dimensional Cartesian communicators (explicit since MPI 2.1):
// one rank, zero dimensions, and every Cartesian call works on them (MPI_Cartdim_get is the length
// of `dims`, MPI_Cart_get reads `dims`, `periods` and `coords`).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function cartzero(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  if (size < 2) throw new Error('This test needs at least 2 processes');
  const comm = await mpi.cartCreate([], [], false);
  if (comm !== null) {
    if (comm.size !== 1) {
      errs++;
      mt.printf(`Sizes is wrong in cart communicator.  Is ${comm.size}, should be 1`);
    }
    // not meaningful, but should not fail
    mpi.dimsCreate(1, []);
    let ndims = comm.dims.length;
    if (ndims !== 0) {
      errs++;
      mt.printf(`MPI_Cartdim_get: ndims is ${ndims}, should be 0`);
    }
    // should not fail
    void [comm.dims, comm.periods, comm.coords];
    const r = comm.cartRank([]);
    if (r !== 0) {
      errs++;
      mt.printf(`MPI_Cart_rank: rank is ${r}, should be 0`);
    }
    // should not fail
    comm.cartCoords(0);
    const newcomm = await comm.cartSub([]);
    ndims = newcomm.dims.length;
    if (ndims !== 0) {
      errs++;
      mt.printf('MPI_Cart_sub did not return zero-dimensional communicator');
    }
    await comm.barrier();
    await comm.free();
    await newcomm.free();
  } else if (rank === 0) {
    errs++;
    mt.printf('Communicator returned is null!');
  }
  return mt.finalize(errs);
}
