// MPICH test/mpi/group/grouptest.c: MPI_Group_incl and translate_ranks (also against
// MPI_COMM_SELF's group), excluding every rank (MPI_GROUP_EMPTY), and range_incl/range_excl with
// positive and negative strides compared with the empty group. phit's groups are values: the empty
// group is an empty group, compared by content.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function grouptest(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const g1 = mpi.group;
  const myrank = mpi.rank;
  let size = mpi.size;
  if (size < 8) {
    mt.printf(`Test requires 8 processes (16 preferred) only ${size} provided`);
    errs++;
  }
  const groupEmpty = g1.incl([]);
  // this process is rank 0 of the new group
  const ranks = [myrank, 2, 7];
  if (myrank === 2) ranks[1] = 3;
  if (myrank === 7) ranks[2] = 6;
  const g2 = g1.incl(ranks);
  if (g2.size !== 3) {
    mt.printf(`Size should be 3, is ${g2.size}`);
    errs++;
  }
  if (g2.rank !== 0) {
    mt.printf(`Rank should be 0, is ${g2.rank}`);
    errs++;
  }
  let rout = g2.translateRanks([0, 1, 2], g1);
  for (let i = 0; i < 3; i++) {
    if (rout[i] !== ranks[i]) {
      mt.printf(`translated rank[${i}] ${rout[i]} should be ${ranks[i]}`);
      errs++;
    }
  }
  // translate the process of the self group against another group
  const selfgroup = mpi.COMM_SELF.group;
  rout = selfgroup.translateRanks([0], g1);
  if (rout[0] !== myrank) {
    mt.printf(`translated of self is ${rout[0]} should be ${myrank}`);
    errs++;
  }
  const rin: number[] = [];
  for (let i = 0; i < size; i++) rin[i] = i;
  rout = g1.translateRanks(rin, selfgroup);
  for (let i = 0; i < size; i++) {
    if (i === myrank && rout[i] !== 0) {
      mt.printf(`translated world to self of ${i} is ${rout[i]}`);
      errs++;
    } else if (i !== myrank && rout[i] !== mpi.UNDEFINED) {
      mt.printf(`translated world to self of ${i} should be undefined, is ${rout[i]}`);
      errs++;
    }
  }
  // exclude everyone in our group
  {
    const lranks: number[] = [];
    for (let ii = 0; ii < g1.size; ii++) lranks[ii] = ii;
    const g6 = g1.excl(lranks);
    if (g6.compare(groupEmpty) !== 'ident') {
      mt.printf('Group formed by excluding all ranks not empty');
      errs++;
    }
  }
  size = g1.size;
  for (const [range, what] of [
    [[1, size - 1, 2], ''],
    [[size - 1, 1, -2], ' (formed with negative strides)'],
  ] as const) {
    const g5 = g1.rangeExcl([range]);
    const g4 = g1.rangeIncl([range]);
    g4.union(g5);
    if (groupEmpty.compare(g4) !== 'unequal') {
      errs++;
      mt.printf(`Comparison with empty group${what} gave ${groupEmpty.compare(g4)}, not 3`);
    }
  }
  return mt.finalize(errs);
}
