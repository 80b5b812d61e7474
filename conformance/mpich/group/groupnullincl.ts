// MPICH test/mpi/group/groupnullincl.c: MPI_Group_incl of no ranks gives the empty group, for the
// group of each of MTest's communicators (intra- and intercommunicators; MPI_GROUP_EMPTY is an
// empty group here, compared by content). Errors are returned and counted.
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Group } from '../../../runtime/mpi/mpi.ts';

export default async function groupnullincl(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  for await (const comm of mt.comms(1)) {
    if (!comm) continue;
    const group = comm.group;
    const groupEmpty = group.incl([]);
    let outgroup: Group | null = null;
    let code = await rc(() => {
      outgroup = group.incl([]);
    });
    if (code) {
      errs++;
      mt.printError(code);
      mt.printf('Error in creating an empty group with (0,0)');
      // some MPI implementations may reject a null "ranks" pointer (an empty array both times here)
      code = await rc(() => {
        outgroup = group.incl([]);
      });
      if (code) {
        errs++;
        mt.printError(code);
        mt.printf('Error in creating an empty group with (0,ranks)');
      }
    }
    // is the group equivalent to the empty group?
    if (outgroup !== null && (outgroup as Group).compare(groupEmpty) !== 'ident') {
      errs++;
      mt.printf('Did not create a group equivalent to an empty group');
    }
  }
  return mt.finalize(errs);
}
