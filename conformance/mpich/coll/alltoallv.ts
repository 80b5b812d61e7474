// MPICH test/mpi/coll/alltoallv.c: MPI_Alltoallv where rank i sends i items to every rank, then
// the same in place (MPI-2.2), over MTest's intracommunicators.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function alltoallv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    const sbuf = new Int32Array(size * size);
    let rbuf = new Int32Array(size * size);
    for (let i = 0; i < size * size; i++) {
      sbuf[i] = i + 100 * rank;
      rbuf[i] = -i;
    }
    const sendcounts = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const sdispls = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      sendcounts[i] = i;
      recvcounts[i] = rank;
      rdispls[i] = i * rank;
      sdispls[i] = (i * (i + 1)) / 2;
    }
    await comm.alltoallv(sbuf, sendcounts, sdispls, rbuf, recvcounts, rdispls);
    for (let i = 0; i < size; i++) {
      const p = rdispls[i]!;
      for (let j = 0; j < rank; j++) {
        if (rbuf[p + j] !== i * 100 + (rank * (rank + 1)) / 2 + j) {
          mt.printf(`[${rank}] got ${rbuf[p + j]} expected ${(i * (i + 1)) / 2 + j} for ${j}th`);
          errs++;
        }
      }
    }
    // MPI_IN_PLACE (MPI-2.2)
    rbuf = new Int32Array(size * (2 * size));
    for (let i = 0; i < size; i++) {
      recvcounts[i] = i + rank;
      rdispls[i] = i * (2 * size);
    }
    rbuf.fill(-1);
    for (let i = 0; i < size; i++) for (let j = 0; j < recvcounts[i]!; ++j) rbuf[rdispls[i]! + j] = 100 * rank + 10 * i + j;
    await comm.alltoallv(mpi.IN_PLACE, null, null, rbuf, recvcounts, rdispls);
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < recvcounts[i]!; j++) {
        const expected = 100 * i + 10 * rank + j;
        const got = rbuf[rdispls[i]! + j];
        if (got !== expected) {
          mt.printf(`[${rank}] got ${got} expected ${expected} for block=${i}, element=${j}th`);
          ++errs;
        }
      }
    }
  }
  return mt.finalize(errs);
}
