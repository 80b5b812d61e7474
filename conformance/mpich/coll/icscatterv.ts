// MPICH test/mpi/coll/icscatterv.c: MPI_Scatterv over MTest's intercommunicators as icscatter does
// it (equal counts, displacements count * i), rank 0 of the left group the root (with
// -nonblocking, MPI_Iscatterv and MPI_Wait). Errors are returned and counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icscatterv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rsize = comm.remoteSize;
    const rank = comm.rank;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      const sendcounts = new Int32Array(rsize);
      const senddispls = new Int32Array(rsize);
      for (let i = 0; i < rsize; i++) {
        sendcounts[i] = count;
        senddispls[i] = count * i;
      }
      if (leftGroup) {
        const buf = new Int32Array(count * rsize);
        if (rank === 0) for (let i = 0; i < count * rsize; i++) buf[i] = i;
        else buf.fill(-1);
        const root = rank === 0 ? mpi.ROOT : mpi.PROC_NULL;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.scatterv(buf, sendcounts, senddispls, null, root),
            () => comm.iscatterv(buf, sendcounts, senddispls, null, root),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        // no other process of this group received the scatter
        if (rank !== 0) {
          for (let i = 0; i < count * rsize; i++) {
            if (buf[i] !== -1) {
              if (errs < 10) mt.printf('Received data on root group!');
              errs++;
            }
          }
        }
      } else {
        // in the right group
        const buf = new Int32Array(count).fill(-1);
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.scatterv(null, null, null, buf, 0),
            () => comm.iscatterv(null, null, null, buf, 0),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        for (let i = 0; i < count; i++) {
          if (buf[i] !== i + rank * count) {
            if (errs < 10) mt.printf(`buf[${i}] = ${buf[i]} on ${rank}`);
            errs++;
          }
        }
      }
    }
  }
  return mt.finalize(errs);
}
