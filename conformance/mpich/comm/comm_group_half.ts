// MPICH test/mpi/comm/comm_group_half.c: ranks 0 .. size/2 (MPI_Group_range_incl) make a
// communicator with MPI_Comm_create_group.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function commGroupHalf(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const halfGroup = mpi.group.rangeIncl([[0, Math.floor(size / 2), 1]]);
  if (rank <= Math.floor(size / 2)) {
    const comm = await mpi.createGroup(halfGroup, 0);
    await comm.barrier();
    await comm.free();
  }
  return mt.finalize(0);
}
