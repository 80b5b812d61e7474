// MPICH test/mpi/comm/ic1.c: a simple test of intercommunicator creation with a communication
// test: world ranks 0 and 1 join their MPI_COMM_SELFs, first with MPI_Intercomm_create over
// MPI_COMM_WORLD, then (MPI 4.0) with MPI_Intercomm_create_from_groups of their one-rank groups,
// and each time swap their world ranks with MPI_Sendrecv.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function ic1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  if (mpi.size < 2) throw new Error('Size must be at least 2');
  const rank = mpi.rank;
  // an intercomm of the first two ranks of MPI_COMM_WORLD
  if (rank < 2) {
    const lrank = Int32Array.of(rank);
    const rrank = Int32Array.of(-1);
    const remoteRank = 1 - rank;
    let intercomm = await mpi.COMM_SELF.intercommCreate(0, mpi, remoteRank, 27);
    await intercomm.sendrecv(lrank, 0, 13, rrank, 0, 13);
    if (rrank[0] !== remoteRank) {
      errs++;
      mt.printf(`${rank} Expected ${remoteRank} but received ${rrank[0]}`);
    }
    await intercomm.free();

    // MPI_Intercomm_create_from_groups
    const worldGroup = mpi.group;
    const localGroup = worldGroup.incl([rank]);
    const remoteGroup = worldGroup.incl([remoteRank]);
    intercomm = await mpi.intercommCreateFromGroups(localGroup, 0, remoteGroup, 0, 'tag', mpi.INFO_NULL, mpi.ERRORS_ARE_FATAL);
    rrank[0] = -1;
    await intercomm.sendrecv(lrank, 0, 13, rrank, 0, 13);
    if (rrank[0] !== remoteRank) {
      errs++;
      mt.printf(`${rank} Expected ${remoteRank} but received ${rrank[0]}`);
    }
    await intercomm.free();
  }
  return mt.finalize(errs);
}
