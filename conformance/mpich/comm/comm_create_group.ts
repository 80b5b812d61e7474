// MPICH test/mpi/comm/comm_create_group.c: the even ranks make a communicator of themselves with
// MPI_Comm_create_group (the odd ones do not take part).
import { assert, type MTest, type MTestResult } from '../mtest.ts';

export default async function commCreateGroup(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const size = mpi.size;
  const rank = mpi.rank;
  if (size % 2) throw new Error('this program requires a multiple of 2 number of processes');
  const excl: number[] = [];
  for (let i = 0; i < size / 2; i++) excl[i] = 2 * i + 1;
  assert(excl.length === size / 2, 'excl');
  const evenGroup = mpi.group.excl(excl);
  if (rank % 2 === 0) {
    const evenComm = await mpi.createGroup(evenGroup, 0);
    await evenComm.barrier();
    await evenComm.free();
  }
  await mpi.barrier();
  return mt.finalize(0);
}
