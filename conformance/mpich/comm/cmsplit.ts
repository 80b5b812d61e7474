// MPICH test/mpi/comm/cmsplit.c: MPI_Comm_split orders by key (size - rank: reversed) and gives
// MPI_COMM_NULL for MPI_UNDEFINED.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function cmsplit(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = await mpi.dup();
  const rank = comm.rank;
  const size = comm.size;
  if (size < 4) throw new Error('This test requires at least four processes.');
  const color = rank < 2 ? 1 : mpi.UNDEFINED;
  const scomm = await comm.split(color, size - rank);
  if (rank < 2) {
    // the ranks are ordered correctly
    if (scomm!.rank !== 1 - rank) errs++;
    await scomm!.free();
  } else if (scomm !== null) {
    errs++;
  }
  await comm.free();
  return mt.finalize(errs);
}
