// MPICH test/mpi/comm/comm_create_group_idup.c: MPI_Comm_create_group and MPI_Comm_idup of
// MPI_COMM_WORLD called in opposite orders by the even and the odd ranks; both communicators then
// carry a barrier.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Request } from '../../../runtime/mpi/mpi.ts';

export default async function commCreateGroupIdup(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const size = mpi.size;
  const rank = mpi.rank;
  if (size % 2) throw new Error('this program requires even number of processes');
  const worldGroup = mpi.group;
  let groupComm: Comm;
  let idupComm: Comm;
  let req: Request;
  if (rank % 2 === 0) {
    groupComm = (await mpi.createGroup(worldGroup, 0))!;
    ({ comm: idupComm, request: req } = mpi.idup());
  } else {
    ({ comm: idupComm, request: req } = mpi.idup());
    groupComm = (await mpi.createGroup(worldGroup, 0))!;
  }
  await mpi.wait(req);
  // the new communicators carry a barrier
  await idupComm.barrier();
  await groupComm.barrier();
  await idupComm.free();
  await groupComm.free();
  return mt.finalize(0);
}
