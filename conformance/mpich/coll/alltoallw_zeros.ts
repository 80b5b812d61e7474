// MPICH test/mpi/coll/alltoallw_zeros.c: MPI_Alltoallw and MPI_Alltoallv where every block is
// empty (one element of a zero-size contiguous type on one side, zero ints on the other), in both
// directions and with MPI_IN_PLACE; the test passes if no call fails or hangs.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function alltoallwZeros(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const size = mpi.size;
  const rank = mpi.rank;
  const sendbuf = new Int32Array(1);
  const recvbuf = new Int32Array(1);
  const sendtype = mpi.typeContiguous(0, mpi.INT);
  mpi.typeCommit(sendtype);
  const sendtypes = new Array(size).fill(sendtype);
  const sendcounts = new Int32Array(size).fill(1);
  const sdispls = new Int32Array(size);
  const recvtypes = new Array(size).fill(mpi.INT);
  const recvcounts = new Int32Array(size);
  const rdispls = new Int32Array(size);

  // try zero-counts on both the send and recv side in case only one direction is broken
  await mpi.alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  await mpi.alltoallw(sendbuf, recvcounts, rdispls, recvtypes, recvbuf, sendcounts, sdispls, sendtypes);
  // MPI_IN_PLACE, with different but compatible types on even and odd ranks
  if (rank % 2) await mpi.alltoallw(mpi.IN_PLACE, null, null, null, recvbuf, recvcounts, rdispls, recvtypes);
  else await mpi.alltoallw(mpi.IN_PLACE, null, null, null, recvbuf, sendcounts, sdispls, sendtypes);

  // now the same for Alltoallv instead of Alltoallw
  await mpi.alltoallv(sendbuf, sendcounts, sdispls, sendtypes[0], recvbuf, recvcounts, rdispls, recvtypes[0]);
  await mpi.alltoallv(sendbuf, recvcounts, rdispls, recvtypes[0], recvbuf, sendcounts, sdispls, sendtypes[0]);
  if (rank % 2) await mpi.alltoallv(mpi.IN_PLACE, null, null, null, recvbuf, recvcounts, rdispls, recvtypes[0]);
  else await mpi.alltoallv(mpi.IN_PLACE, null, null, null, recvbuf, sendcounts, sdispls, sendtypes[0]);

  mpi.typeFree(sendtype);
  return mt.finalize(0);
}
