// MPICH test/mpi/coll/icalltoallv.c: MPI_Alltoallv over MTest's intercommunicators, each rank
// sending i ints to remote rank i and receiving its own rank's count from each (with
// -nonblocking, MPI_Ialltoallv and MPI_Wait).
import { mtestColl, type MTest, type MTestResult } from '../mtest.ts';

export default async function icalltoallv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
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
    // the arguments to alltoallv
    const sendcounts = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const sdispls = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      sendcounts[i] = i;
      sdispls[i] = (i * (i + 1)) / 2;
      recvcounts[i] = rank;
      rdispls[i] = i * rank;
    }
    await mtestColl(
      mpi,
      isBlocking,
      () => comm.alltoallv(sbuf, sendcounts, sdispls, rbuf, recvcounts, rdispls),
      () => comm.ialltoallv(sbuf, sendcounts, sdispls, rbuf, recvcounts, rdispls),
    );
    // check rbuf
    for (let i = 0; i < size; i++) {
      const p = rdispls[i]!;
      for (let j = 0; j < rank; j++) {
        if (rbuf[p + j] !== i * 100 + (rank * (rank + 1)) / 2 + j) {
          mt.printf(`[${rank}] got ${rbuf[p + j]} expected ${(i * (i + 1)) / 2 + j} for ${j}th`);
          errs++;
        }
      }
    }
  }
  return mt.finalize(errs);
}
