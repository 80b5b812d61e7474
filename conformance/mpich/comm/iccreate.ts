// MPICH test/mpi/comm/iccreate.c: MPI_Comm_create applies to intercommunicators (an MPI-2
// extension): on each of MTest's intercommunicators, the group of local rank 0 gives an
// intercommunicator of one rank a side; the whole local group gives a copy, congruent with the
// original; and an empty group on one side gives MPI_COMM_NULL everywhere. Messages cross every
// new intercommunicator between each rank and every remote rank.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function iccreate(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const { mpi } = mt;
  if (mpi.size < 4) throw new Error('This test requires at least 4 processes');
  const wrank = mpi.rank;
  for await (const { comm: intercomm, isLeftGroup: isLeft } of mt.intercomms(2)) {
    if (!intercomm) continue;
    const oldgroup = intercomm.group;
    mt.printfMsg(1, 'Creating a new intercomm 0-0');
    const newgroup = oldgroup.incl([0]);
    let newcomm = await intercomm.create(newgroup);
    // the new communicator has the appropriate pieces
    if (newcomm !== null) {
      let commok = true;
      newcomm.setName('Single rank in each group');
      if (!intercomm.testInter()) {
        errs++;
        mt.printf(`[${wrank}] Output communicator is not an intercomm`);
        commok = false;
      }
      const newRsize = newcomm.remoteSize;
      const newSize = newcomm.size;
      // one process in each group
      if (newRsize !== 1) {
        errs++;
        mt.printf(`[${wrank}] Remote size is ${newRsize}, should be one`);
        commok = false;
      }
      if (newSize !== 1) {
        errs++;
        mt.printf(`[${wrank}] Local size is ${newSize}, should be one`);
        commok = false;
      }
      // the C file's TestIntercomm: the checks of MTestTestIntercomm, which runs them
      if (commok) errs += await mt.testComm(newcomm);
    }
    if (newcomm !== null) await newcomm.free();

    // a sort of dup, with the original group
    mt.printfMsg(1, 'Creating a new intercomm (manual dup)');
    newcomm = await intercomm.create(oldgroup);
    newcomm!.setName('Dup of original');
    const result = intercomm.compare(newcomm!);
    mt.printfMsg(1, `Result of comm/intercomm compare is ${result}`);
    if (result !== 'congruent') {
      // (the C prints nothing here: its printf sits inside the switch, after the last case)
      errs++;
    } else {
      errs += await mt.testComm(newcomm);
    }
    if (newcomm !== null) await newcomm.free();

    // an empty group on either side gives MPI_COMM_NULL at every member
    newcomm = await intercomm.create(isLeft ? oldgroup : oldgroup.incl([]));
    if (newcomm !== null) {
      mt.printf(`[${wrank}] expected MPI_COMM_NULL, but got a different communicator`);
      errs++;
    }
    if (newcomm !== null) await newcomm.free();
  }
  return mt.finalize(errs);
}
