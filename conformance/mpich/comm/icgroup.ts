// MPICH test/mpi/comm/icgroup.c: the group of each of MTest's intercommunicators (MPI_Comm_group:
// the local group) has the communicator's rank and size.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function icgroup(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const minsize = 2;
  for await (const { comm } of mt.intercomms(minsize)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    const group = comm.group;
    const grank = group.rank;
    const gsize = group.size;
    if (rank !== grank) {
      errs++;
      mt.printf(`Ranks of groups do not match ${rank} != ${grank}`);
    }
    if (size !== gsize) {
      errs++;
      mt.printf(`Sizes of groups do not match ${size} != ${gsize}`);
    }
  }
  return mt.finalize(errs);
}
