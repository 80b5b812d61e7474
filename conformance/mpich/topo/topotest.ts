// MPICH test/mpi/topo/topotest.c: MPI_Topo_test gives MPI_UNDEFINED (null here) for world and
// MPI_CART for a Cartesian communicator.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function topotest(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  if (mpi.topoTest() !== null) {
    errs++;
    mt.printf('Topo type of comm world is not UNDEFINED');
  }
  const comm = (await mpi.cartCreate([mpi.size], [false], false))!;
  if (comm.topoTest() !== 'cart') {
    errs++;
    mt.printf('Topo type of cart comm is not CART');
  }
  await comm.free();
  return mt.finalize(errs);
}
