// MPICH test/mpi/coll/icbcast.c: MPI_Bcast over MTest's intercommunicators, rank 0 of the left
// group the root, 1 to 32,768 ints; the right group checks the data, the rest of the left group
// that it was not touched (with -nonblocking, MPI_Ibcast and MPI_Wait). Errors are returned and
// counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icbcast(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rank = comm.rank;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      const buf = new Int32Array(count);
      if (leftGroup) {
        if (rank === 0) for (let i = 0; i < count; i++) buf[i] = i;
        else buf.fill(-1);
        const root = rank === 0 ? mpi.ROOT : mpi.PROC_NULL;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.bcast(buf, root),
            () => comm.ibcast(buf, root),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        // no other process of this group received the broadcast
        if (rank !== 0) for (let i = 0; i < count; i++) if (buf[i] !== -1) errs++;
      } else {
        // in the right group
        buf.fill(-1);
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.bcast(buf, 0),
            () => comm.ibcast(buf, 0),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        for (let i = 0; i < count; i++) if (buf[i] !== i) errs++;
      }
    }
  }
  return mt.finalize(errs);
}
