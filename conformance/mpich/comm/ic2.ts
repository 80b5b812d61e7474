// MPICH test/mpi/comm/ic2.c: regression test for MPICH ticket #1574 (from a Cray test): an
// intercommunicator between world ranks {32, 24} and {25, 26}, whose first group's leader has a
// world rank of 32 or more, made first (MPI 4.0) with MPI_Intercomm_create_from_groups, then with
// MPI_Comm_create of each group over MPI_COMM_WORLD and MPI_Intercomm_create; nothing is checked
// but that the calls return.
import type { Comm, InterComm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

export default async function ic2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const tag = 5;
  const rank = mpi.rank;
  if (mpi.size < 33) throw new Error('ERROR: this test requires at least 33 processes');
  // the group of c0 (a >= 32 is essential for exercising the loop bounds bug of tt#1574), then c1's
  const [a, b, c, d] = [32, 24, 25, 26];
  const gworld = mpi.group;
  const g0 = gworld.incl([a, b]);
  const g1 = gworld.incl([c, d]);

  // MPI_Intercomm_create_from_groups
  let ic: InterComm | null = null;
  if (rank === a || rank === b) ic = await mpi.intercommCreateFromGroups(g0, 0, g1, 0, 'tag', mpi.INFO_NULL, mpi.ERRORS_ARE_FATAL);
  else if (rank === c || rank === d) ic = await mpi.intercommCreateFromGroups(g1, 0, g0, 0, 'tag', mpi.INFO_NULL, mpi.ERRORS_ARE_FATAL);
  if (ic !== null) await ic.free();

  // MPI_Intercomm_create
  const c0: Comm | null = await mpi.create(g0);
  const c1: Comm | null = await mpi.create(g1);
  ic = null;
  if (rank === a || rank === b) ic = await c0!.intercommCreate(0, mpi, c, tag);
  else if (rank === c || rank === d) ic = await c1!.intercommCreate(0, mpi, a, tag);
  if (c0 !== null) await c0.free();
  if (c1 !== null) await c1.free();
  if (ic !== null) await ic.free();
  return mt.finalize(errs);
}
