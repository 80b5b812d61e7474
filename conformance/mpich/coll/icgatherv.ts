// MPICH test/mpi/coll/icgatherv.c: MPI_Gatherv over MTest's intercommunicators as icgather does it
// (equal counts, displacements count * i), rank 0 of the left group the root (with -nonblocking,
// MPI_Igatherv and MPI_Wait). Errors are returned and counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icgatherv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rank = comm.rank;
    const rsize = comm.remoteSize;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      // the same lengths for all messages
      const recvcounts = new Int32Array(rsize);
      const recvdispls = new Int32Array(rsize);
      for (let i = 0; i < rsize; i++) {
        recvcounts[i] = count;
        recvdispls[i] = count * i;
      }
      if (leftGroup) {
        const buf = new Int32Array(count * rsize).fill(-1);
        const root = rank === 0 ? mpi.ROOT : mpi.PROC_NULL;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.gatherv(null, buf, recvcounts, recvdispls, root),
            () => comm.igatherv(null, buf, recvcounts, recvdispls, root),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        // no other process of this group received anything; the root has the data
        if (rank !== 0) {
          for (let i = 0; i < count; i++) if (buf[i] !== -1) errs++;
        } else {
          for (let i = 0; i < count * rsize; i++) if (buf[i] !== i) errs++;
        }
      } else {
        // in the right group
        const buf = new Int32Array(count);
        for (let i = 0; i < count; i++) buf[i] = rank * count + i;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.gatherv(buf, null, null, null, 0),
            () => comm.igatherv(buf, null, null, null, 0),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
      }
    }
  }
  return mt.finalize(errs);
}
