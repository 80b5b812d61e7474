// MPICH test/mpi/coll/icgather.c: MPI_Gather over MTest's intercommunicators, rank 0 of the left
// group the root, 1 to 32,768 ints per rank: the root gets the right group's blocks in rank order,
// the rest of the left group nothing (with -nonblocking, MPI_Igather and MPI_Wait). Errors are
// returned and counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icgather(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rank = comm.rank;
    const rsize = comm.remoteSize;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      if (leftGroup) {
        const buf = new Int32Array(count * rsize).fill(-1);
        const root = rank === 0 ? mpi.ROOT : mpi.PROC_NULL;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.gather(null, buf, root),
            () => comm.igather(null, buf, root),
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
            () => comm.gather(buf, null, 0),
            () => comm.igather(buf, null, 0),
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
