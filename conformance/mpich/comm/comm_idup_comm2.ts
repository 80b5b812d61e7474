// MPICH test/mpi/comm/comm_idup_comm2.c: comm_idup_comm.c with the other communicators made from
// a dup of MPI_COMM_WORLD: five MPI_Comm_idup of MPI_COMM_WORLD left pending while the ranks make
// communicators from the dup (dup, split, create of the high half, create_group of the even
// ranks, intercomm_create of the two halves and its merge), each tested with MTestTestComm; then
// the idups are completed and tested.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Request } from '../../../runtime/mpi/mpi.ts';

const NUM_IDUPS = 5;

export default async function commIdupComm2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  const dupcomm = await mpi.dup();
  const dupGroup = dupcomm.group;
  if (size < 2) throw new Error('this test requires at least 2 processes');
  // idup MPI_COMM_WORLD several times
  const idupcomms: Comm[] = [];
  const reqs: Request[] = [];
  for (let i = 0; i < NUM_IDUPS; i++) {
    const { comm, request } = mpi.idup();
    idupcomms.push(comm);
    reqs.push(request);
  }
  // overlap the pending idups with the other ways of making communicators
  // Comm_dup
  let outcomm: Comm | null = await dupcomm.dup();
  errs += await mt.testComm(outcomm);
  await mt.freeComm(outcomm);
  // Comm_split
  outcomm = await dupcomm.split(rank % 2, size - rank);
  errs += await mt.testComm(outcomm);
  await mt.freeComm(outcomm);
  // Comm_create, high half of dupcomm
  const highGroup = dupGroup.rangeIncl([[Math.floor(size / 2), size - 1, 1]]);
  outcomm = await dupcomm.create(highGroup);
  errs += await mt.testComm(outcomm);
  await mt.freeComm(outcomm);
  // Comm_create_group, even ranks of dupcomm: exclude the odd ranks
  const excl: number[] = [];
  for (let i = 0; i < Math.floor(size / 2); i++) excl.push(2 * i + 1);
  const evenGroup = dupGroup.excl(excl);
  outcomm = rank % 2 === 0 ? await dupcomm.createGroup(evenGroup, 0) : null;
  errs += await mt.testComm(outcomm);
  await mt.freeComm(outcomm);
  // Intercomm_create & Intercomm_merge
  const localComm = (await dupcomm.split(rank < size / 2 ? 1 : 0, rank))!;
  const rleader = rank === 0 ? Math.floor(size / 2) : rank === Math.floor(size / 2) ? 0 : -1;
  const isLeft = rank < size / 2;
  const interComm = await localComm.intercommCreate(0, dupcomm, rleader, 99);
  outcomm = await interComm.intercommMerge(isLeft);
  await localComm.free();
  errs += await mt.testComm(interComm);
  await mt.freeComm(interComm);
  errs += await mt.testComm(outcomm);
  await mt.freeComm(outcomm);
  await mpi.waitAll(reqs);
  for (let i = 0; i < NUM_IDUPS; i++) {
    errs += await mt.testComm(idupcomms[i]!);
    await idupcomms[i]!.free();
  }
  await dupcomm.free();
  return mt.finalize(errs);
}
