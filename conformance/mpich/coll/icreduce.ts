// MPICH test/mpi/coll/icreduce.c: MPI_Reduce (MPI_SUM) over MTest's intercommunicators, rank 0 of
// the left group the root, 1 to 32,768 ints: the root gets the right group's sum, no other rank
// receives anything (with -nonblocking, MPI_Ireduce and MPI_Wait). Errors are returned and counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icreduce(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rank = comm.rank;
    const rsize = comm.remoteSize;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      const sendbuf = new Int32Array(count).fill(-1);
      const recvbuf = new Int32Array(count).fill(-1);
      if (leftGroup) {
        const root = rank === 0 ? mpi.ROOT : mpi.PROC_NULL;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.reduce(sendbuf, recvbuf, mpi.SUM, root),
            () => comm.ireduce(sendbuf, recvbuf, mpi.SUM, root),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        // no other process of this group received anything, and the root got the right answers
        if (rank === 0) {
          for (let i = 0; i < count; i++) if (recvbuf[i] !== i * rsize) errs++;
        } else {
          for (let i = 0; i < count; i++) if (recvbuf[i] !== -1) errs++;
        }
      } else {
        // in the right group
        for (let i = 0; i < count; i++) sendbuf[i] = i;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.reduce(sendbuf, recvbuf, mpi.SUM, 0),
            () => comm.ireduce(sendbuf, recvbuf, mpi.SUM, 0),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        // no data received here
        for (let i = 0; i < count; i++) if (recvbuf[i] !== -1) errs++;
      }
    }
  }
  return mt.finalize(errs);
}
