// MPICH test/mpi/rma/win_zero.c: windows of zero bytes on some ranks (every other rank) and on
// all, made by MPI_Win_allocate_shared (over the node's communicator), MPI_Win_allocate and
// MPI_Win_create, and freed.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

export default async function winZero(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const worldRank = mpi.rank;
  const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, worldRank)) as Comm;
  const shmRank = shmComm.rank;
  await (await shmComm.winAllocateShared(shmRank % 2 === 0 ? 0 : 1, 1, mpi.INFO_NULL)).win.free();
  await (await mpi.winAllocate(worldRank % 2 === 0 ? 0 : 1, 1, mpi.INFO_NULL)).win.free();
  await (await mpi.winCreate(new Uint8Array(worldRank % 2 === 0 ? 0 : 1), 1, mpi.INFO_NULL)).free();
  await (await shmComm.winAllocateShared(0, 1, mpi.INFO_NULL)).win.free();
  await (await mpi.winAllocate(0, 1, mpi.INFO_NULL)).win.free();
  await (await mpi.winCreate(new Uint8Array(0), 1, mpi.INFO_NULL)).free();
  await shmComm.free();
  return mt.finalize(0);
}
