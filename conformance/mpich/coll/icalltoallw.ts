// MPICH test/mpi/coll/icalltoallw.c: MPI_Alltoallw over MTest's intercommunicators, icalltoallv's
// exchange with byte displacements and MPI_INT types: each rank sends i ints to remote rank i and
// receives its own rank's count from each (with -nonblocking, MPI_Ialltoallw and MPI_Wait).
import { mtestColl, type MTest, type MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

export default async function icalltoallw(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let err = 0;
  for await (const { comm } of mt.intercomms(4)) {
    if (!comm) continue;
    // the buffers
    const lsize = comm.size;
    const size = comm.remoteSize;
    const asize = lsize > size ? lsize : size;
    const rank = comm.rank;
    const sbuf = new Int32Array(size * size);
    const rbuf = new Int32Array(asize * asize);
    for (let i = 0; i < size * size; i++) {
      sbuf[i] = i + 100 * rank;
      rbuf[i] = -i;
    }
    // the arguments; rank 0 sends no data (sendcounts[0] = 0)
    const sendcounts = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const sdispls = new Int32Array(size);
    const sendtypes: Datatype[] = [];
    const recvtypes: Datatype[] = [];
    for (let i = 0; i < size; i++) {
      sendcounts[i] = i;
      sdispls[i] = ((i + 1) * i) / 2 * 4;
      sendtypes.push(mpi.INT);
      recvcounts[i] = rank;
      rdispls[i] = i * rank * 4;
      recvtypes.push(mpi.INT);
    }
    await mtestColl(
      mpi,
      isBlocking,
      () => comm.alltoallw(sbuf, sendcounts, sdispls, sendtypes, rbuf, recvcounts, rdispls, recvtypes),
      () => comm.ialltoallw(sbuf, sendcounts, sdispls, sendtypes, rbuf, recvcounts, rdispls, recvtypes),
    );
    // check rbuf
    for (let i = 0; i < size; i++) {
      const p = rdispls[i]! / 4;
      for (let j = 0; j < rank; j++) {
        if (rbuf[p + j] !== i * 100 + (rank * (rank + 1)) / 2 + j) {
          mt.printf(`[${rank}] got ${rbuf[p + j]} expected ${(i * (i + 1)) / 2 + j} for ${j}th`);
          err++;
        }
      }
    }
  }
  return mt.finalize(err);
}
