// MPICH test/mpi/group/grouptest2.c: MPI_Group_rank, size, translate_ranks, compare (similar, ident,
// unequal), excl and union back to the base group, range_excl, intersection, and excluding
// everything against MPI_GROUP_EMPTY (an empty group here, compared by content).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function grouptest2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const basegroup = comm.group;
  const rank = comm.rank;
  const size = comm.size;
  if (basegroup.rank !== rank) {
    errs++;
    mt.printf(`group rank ${basegroup.rank} != comm rank ${rank}`);
  }
  if (basegroup.size !== size) {
    errs++;
    mt.printf(`group size ${basegroup.size} != comm size ${size}`);
  }
  // a new communicator with inverted ranking
  const newcomm = (await comm.split(0, size - rank))!;
  const g1 = newcomm.group;
  const ranks: number[] = [];
  for (let i = 0; i < size; i++) ranks[i] = i;
  const ranksOut = g1.translateRanks(ranks, basegroup);
  for (let i = 0; i < size; i++) {
    if (ranksOut[i] !== size - 1 - i) {
      errs++;
      mt.printf(`Translate ranks got ${ranksOut[i]} expected ${size - 1 - i}`);
    }
  }
  let result = basegroup.compare(g1);
  if (result !== 'similar') {
    errs++;
    mt.printf(`Group compare should have been similar, was ${result}`);
  }
  const dupcomm = await comm.dup();
  const g2 = dupcomm.group;
  result = basegroup.compare(g2);
  if (result !== 'ident') {
    errs++;
    mt.printf(`Group compare should have been ident, was ${result}`);
  }
  const splitcomm = (await comm.split(rank < size / 2 ? 1 : 0, rank))!;
  const g3 = splitcomm.group;
  result = basegroup.compare(g3);
  if (result !== 'unequal') {
    errs++;
    mt.printf(`Group compare should have been unequal, was ${result}`);
  }
  // two groups that have this process and one other, but not the same processes
  const g3a = basegroup.incl([rank, (rank + 1) % size]);
  const g3b = basegroup.incl([rank, (rank + size - 1) % size]);
  result = g3a.compare(g3b);
  if (result !== 'unequal') {
    errs++;
    mt.printf(`Group compare of equal sized but different groups should have been unequal, was ${result}`);
  }
  // two groups made by excluding members, put together again with union
  const g4 = basegroup.excl(ranks.slice(0, 1));
  const g5 = basegroup.excl(ranks.slice(1, size));
  const g6 = g5.union(g4);
  result = basegroup.compare(g6);
  if (result !== 'ident') {
    errs++;
    mt.printf('Group excl and union did not give ident groups');
    mt.printf(`[${rank}] result of compare was ${result}`);
    mt.printf(`Size of union is ${g6.size}, should be ${size}`);
  }
  const g7 = basegroup.union(g4);
  result = basegroup.compare(g7);
  if (result !== 'ident') {
    errs++;
    mt.printf('Group union of overlapping groups failed');
    mt.printf(`[${rank}] result of compare was ${result}`);
    mt.printf(`Size of union is ${g7.size}, should be ${size}`);
  }
  // range_excl instead of ranks
  const g8 = basegroup.rangeExcl([[1, size - 1, 1]]);
  if (g5.compare(g8) !== 'ident') {
    errs++;
    mt.printf('Group range excl did not give ident groups');
  }
  const g9 = basegroup.intersection(g4);
  if (g9.compare(g4) !== 'ident') {
    errs++;
    mt.printf('Group intersection did not give ident groups');
  }
  // exclude everything and check against MPI_GROUP_EMPTY
  const g10 = basegroup.rangeExcl([[0, size - 1, 1]]);
  if (g10.compare(basegroup.incl([])) !== 'ident') {
    errs++;
    mt.printf("MPI_GROUP_EMPTY didn't compare against empty group");
  }
  await dupcomm.free();
  await splitcomm.free();
  await newcomm.free();
  return mt.finalize(errs);
}
