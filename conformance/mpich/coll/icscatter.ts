// MPICH test/mpi/coll/icscatter.c: MPI_Scatter over MTest's intercommunicators, rank 0 of the left
// group the root, 1 to 32,768 ints per rank: each right-group rank gets its block, the rest of the
// left group nothing (with -nonblocking, MPI_Iscatter and MPI_Wait). Errors are returned and
// counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icscatter(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rsize = comm.remoteSize;
    const rank = comm.rank;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      if (leftGroup) {
        const buf = new Int32Array(count * rsize);
        if (rank === 0) for (let i = 0; i < count * rsize; i++) buf[i] = i;
        else buf.fill(-1);
        const root = rank === 0 ? mpi.ROOT : mpi.PROC_NULL;
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.scatter(buf, null, root),
            () => comm.iscatter(buf, null, root),
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
            () => comm.scatter(null, buf, 0),
            () => comm.iscatter(null, buf, 0),
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
