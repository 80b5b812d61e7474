// MPICH test/mpi/comm/icsplit.c: MPI_Comm_split applies to intercommunicators (an MPI-2
// extension): each of MTest's intercommunicators split by the parity of the local rank gives
// intercommunicators of the odd (resp. even) ranks of both groups, with the predicted local and
// remote sizes, on which every rank exchanges messages with every remote rank.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function icsplit(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const { mpi } = mt;
  if (mpi.size < 4) throw new Error('This test requires at least 4 processes');
  for await (const { comm: intercomm } of mt.intercomms(2)) {
    if (!intercomm) continue;
    // the new intercomms hold the ranks of odd (resp. even) rank in their local group
    const key = intercomm.rank;
    const color = key % 2;
    const newcomm = await intercomm.split(color, key);
    if (newcomm !== null) {
      let commok = true;
      if (!intercomm.testInter()) {
        errs++;
        mt.printf('Output communicator is not an intercomm');
        commok = false;
      }
      const origRsize = intercomm.remoteSize;
      const newRsize = newcomm.remoteSize;
      const origSize = intercomm.size;
      const newSize = newcomm.size;
      // color 0 gets (n+1)/2 of n ranks, color 1 n/2
      let predicted = Math.floor((origSize + (color === 0 ? 1 : 0)) / 2);
      if (predicted !== newSize) {
        errs++;
        mt.printf(`Predicted size = ${predicted} but found ${newSize} for ${mt.getIntercommName()} (${origSize},${origRsize})`);
        commok = false;
      }
      predicted = Math.floor((origRsize + (color === 0 ? 1 : 0)) / 2);
      if (predicted !== newRsize) {
        errs++;
        mt.printf(`Predicted remote size = ${predicted} but found ${newRsize} for ${mt.getIntercommName()} (${origSize},${origRsize})`);
        commok = false;
      }
      // the C file's TestIntercomm: the checks of MTestTestIntercomm, which runs them
      if (commok) errs += await mt.testComm(newcomm);
    } else {
      // a null result means the remote group has no rank of this color
      if (intercomm.remoteSize === 1 && color === 0) {
        errs++;
        mt.printf('Returned null intercomm when non-null expected');
      }
    }
    if (newcomm !== null) await newcomm.free();
  }
  return mt.finalize(errs);
}
