// MPICH test/mpi/comm/comm_idup_overlap.c: each rank shares one communicator with the next rank
// (primary) and one with the previous (secondary), and dups both with MPI_Comm_idup at once; with
// MPI_Comm_dup this would deadlock.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

export default async function commIdupOverlap(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const primary: (Comm | null)[] = [null, null];
  const secondary: (Comm | null)[] = [null, null];
  // each pair of processes creates a communicator
  for (let i = 0; i < size; i++) {
    if (rank === i) primary[0] = await mpi.split(0, 0);
    else if (rank === (i + 1) % size) secondary[0] = await mpi.split(0, 0);
    else await (await mpi.split(1, 0))!.free();
    await mpi.barrier();
  }
  // each pair dups its communicator such that the dups overlap
  const p = primary[0]!.idup();
  const s = secondary[0]!.idup();
  primary[1] = p.comm;
  secondary[1] = s.comm;
  await mpi.waitAll([p.request, s.request]);
  for (let i = 0; i < 2; i++) {
    await primary[i]!.free();
    await secondary[i]!.free();
  }
  return mt.finalize(0);
}
