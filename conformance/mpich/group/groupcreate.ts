// MPICH test/mpi/group/groupcreate.c: 2,048 groups of all of world's ranks can be created (an
// implementation may limit them; the test reports it). MPI_Group_free has nothing to do in phit:
// groups are plain values, collected when unused.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Group } from '../../../runtime/mpi/mpi.ts';

export default async function groupcreate(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const nGoal = 2048;
  let n = nGoal;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const groupArray: Group[] = [];
  const worldGroup = mpi.group;
  const ranks: number[] = [];
  for (let i = 0; i < size; i++) ranks[i] = i;
  for (let i = 0; i < n; i++) {
    try {
      groupArray[i] = worldGroup.incl(ranks);
    } catch (e) {
      mt.printf(`Error when creating group number ${i}`);
      mt.printf(e instanceof Error ? e.message : String(e));
      n = i + 1;
      errs++;
      break;
    }
    // the group was created (and any errors were caught)
    if (groupArray[i]!.size !== size) {
      mt.printf(`Group number ${i} not correct (size = ${size})`);
      n = i + 1;
      errs++;
      break;
    }
  }
  const nAll = new Int32Array(1);
  await mpi.reduce(Int32Array.of(n), nAll, mpi.MIN, 0);
  if (rank === 0 && nAll[0] !== nGoal) {
    mt.printf('This MPI implementation limits the number of groups that can be created');
    errs++;
  }
  return mt.finalize(errs);
}
