// MPICH test/mpi/group/gtranks.c: MPI_Group_translate_ranks from world to self (MPI_UNDEFINED but
// for this rank), MPI_PROC_NULL kept (MPI-2 errata), and from small irregular groups to world and
// to world reversed (MPI_Group_range_incl with stride -1).
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_WORLD_SIZE = 1024;

export default async function gtranks(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const gself = mpi.COMM_SELF.group;
  const comm = mpi.COMM_WORLD;
  const size = comm.size;
  const rank = comm.rank;
  if (size > MAX_WORLD_SIZE) throw new Error(`This test requires a comm world with no more than ${MAX_WORLD_SIZE} processes`);
  if (size < 4) throw new Error('This test requiers at least 4 processes');
  const gworld = comm.group;
  let ranks: number[] = [];
  for (let i = 0; i < size; i++) ranks[i] = i;
  // from world to self: most are UNDEFINED
  let ranksout = gworld.translateRanks(ranks, gself);
  for (let i = 0; i < size; i++) {
    if (i === rank) {
      if (ranksout[i] !== 0) {
        mt.printf(`[${rank}] Rank ${i} is ${ranksout[i]} but should be 0`);
        errs++;
      }
    } else if (ranksout[i] !== mpi.UNDEFINED) {
      mt.printf(`[${rank}] Rank ${i} is ${ranksout[i]} but should be undefined`);
      errs++;
    }
  }
  // MPI-2 errata: MPI_PROC_NULL maps to MPI_PROC_NULL
  ranks = [mpi.PROC_NULL, 1, rank, mpi.PROC_NULL];
  ranksout = gworld.translateRanks(ranks, gself);
  if (ranksout[0] !== mpi.PROC_NULL) {
    mt.printf(`[${rank}] Rank[0] should be MPI_PROC_NULL but is ${ranksout[0]}`);
    errs++;
  }
  if (rank !== 1 && ranksout[1] !== mpi.UNDEFINED) {
    mt.printf(`[${rank}] Rank[1] should be MPI_UNDEFINED but is ${ranksout[1]}`);
    errs++;
  }
  if (rank === 1 && ranksout[1] !== 0) {
    mt.printf(`[${rank}] Rank[1] should be 0 but is ${ranksout[1]}`);
    errs++;
  }
  if (ranksout[2] !== 0) {
    mt.printf(`[${rank}] Rank[2] should be 0 but is ${ranksout[2]}`);
    errs++;
  }
  if (ranksout[3] !== mpi.PROC_NULL) {
    mt.printf(`[${rank}] Rank[3] should be MPI_PROC_NULL but is ${ranksout[3]}`);
    errs++;
  }
  // small groups against larger ones, with irregular members
  ranks = [size - 2, 0];
  if (rank !== 0 && rank !== size - 2) ranks.push(rank);
  const nelms = ranks.length;
  const ngroup = gworld.incl(ranks);
  const ranksin = [1, 0, mpi.PROC_NULL, 2].slice(0, nelms + 1);
  const check = (out: number[], expect: (r: number) => number): void => {
    for (let i = 0; i < nelms + 1; i++) {
      if (ranksin[i] === mpi.PROC_NULL) {
        if (out[i] !== mpi.PROC_NULL) {
          mt.printf(`Input rank for proc_null but output was ${out[i]}`);
          errs++;
        }
      } else if (out[i] !== expect(ranks[ranksin[i]!]!)) {
        mt.printf(`Expected ranksout[${i}] = ${expect(ranks[ranksin[i]!]!)} but found ${out[i]}`);
        errs++;
      }
    }
  };
  check(ngroup.translateRanks(ranksin, gworld), (r) => r);
  const galt = gworld.rangeIncl([[size - 1, 0, -1]]);
  check(ngroup.translateRanks(ranksin, galt), (r) => size - 1 - r);
  return mt.finalize(errs);
}
