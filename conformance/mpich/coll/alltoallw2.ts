// MPICH test/mpi/coll/alltoallw2.c: MPI_Alltoallw as alltoallv with byte displacements (rank i
// gets i ints from every rank), then with MPI_IN_PLACE (block i of i + rank ints, as ints or as one
// contiguous type of that many), on every intracommunicator of MTest with at least 2 ranks.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Datatype } from '../../../runtime/mpi/mpi.ts';

const SIZEOF_INT = 4;

export default async function alltoallw2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;

  const testNoinplace = async (comm: Comm): Promise<number> => {
    let errs = 0;
    const size = comm.size;
    const rank = comm.rank;
    const sbuf = new Int32Array(size * size);
    const rbuf = new Int32Array(size * size);
    for (let i = 0; i < size * size; i++) {
      sbuf[i] = i + 100 * rank;
      rbuf[i] = -i;
    }
    const sendcounts = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const sdispls = new Int32Array(size);
    const sendtypes: Datatype[] = [];
    const recvtypes: Datatype[] = [];
    // note that process 0 sends no data (sendcounts[0] = 0)
    for (let i = 0; i < size; i++) {
      sendcounts[i] = i;
      recvcounts[i] = rank;
      rdispls[i] = i * rank * SIZEOF_INT;
      sdispls[i] = (((i + 1) * i) / 2) * SIZEOF_INT;
      sendtypes[i] = recvtypes[i] = mpi.INT;
    }
    await comm.alltoallw(sbuf, sendcounts, sdispls, sendtypes, rbuf, recvcounts, rdispls, recvtypes);
    // check rbuf
    for (let i = 0; i < size; i++) {
      const p = rdispls[i]! / SIZEOF_INT;
      for (let j = 0; j < rank; j++) {
        if (rbuf[p + j] !== i * 100 + (rank * (rank + 1)) / 2 + j) {
          mt.printf(`[${rank}] got ${rbuf[p + j]} expected ${(i * (i + 1)) / 2 + j} for ${j}th`);
          errs++;
        }
      }
    }
    return errs;
  };

  const testInplace = async (comm: Comm, sametype: boolean): Promise<number> => {
    let errs = 0;
    const size = comm.size;
    const rank = comm.rank;
    // memset(rbuf, -1, ...)
    const rbuf = new Int32Array(size * (2 * size)).fill(-1);
    for (let i = 0; i < size; i++) {
      const p = i * (2 * size);
      for (let j = 0; j < i + rank; ++j) rbuf[p + j] = 100 * rank + 10 * i + j;
    }
    const recvcounts = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const recvtypes: Datatype[] = [];
    for (let i = 0; i < size; i++) {
      // alltoallw displs are in bytes, not in type extents
      rdispls[i] = i * (2 * size) * SIZEOF_INT;
      if (sametype) {
        recvtypes[i] = mpi.INT;
        recvcounts[i] = i + rank;
      } else {
        recvtypes[i] = mpi.typeContiguous(i + rank, mpi.INT);
        mpi.typeCommit(recvtypes[i]!);
        recvcounts[i] = 1;
      }
    }
    await comm.alltoallw(mpi.IN_PLACE, null, null, null, rbuf, recvcounts, rdispls, recvtypes);
    if (!sametype) for (const t of recvtypes) mpi.typeFree(t);
    // check rbuf
    for (let i = 0; i < size; i++) {
      const p = rdispls[i]! / SIZEOF_INT;
      for (let j = 0; j < i + rank; j++) {
        const expected = 100 * i + 10 * rank + j;
        if (rbuf[p + j] !== expected) {
          mt.printf(`[${rank}] got ${rbuf[p + j]} expected ${expected} for block=${i}, element=${j}th`);
          ++errs;
        }
      }
    }
    return errs;
  };

  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    errs += await testNoinplace(comm);
    errs += await testInplace(comm, true);
    errs += await testInplace(comm, false);
  }
  return mt.finalize(errs);
}
