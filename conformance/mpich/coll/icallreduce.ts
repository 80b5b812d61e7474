// MPICH test/mpi/coll/icallreduce.c: MPI_Allreduce (MPI_SUM) over MTest's intercommunicators, 1 to
// 32,768 ints: each group gets the sum of the other group's buffers (with -nonblocking,
// MPI_Iallreduce and MPI_Wait). Errors are returned and counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icallreduce(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rsize = comm.remoteSize;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      const sendbuf = new Int32Array(count);
      const recvbuf = new Int32Array(count);
      if (leftGroup) for (let i = 0; i < count; i++) sendbuf[i] = i;
      else for (let i = 0; i < count; i++) sendbuf[i] = -i;
      const err = await rc(() =>
        mtestColl(
          mpi,
          isBlocking,
          () => comm.allreduce(sendbuf, recvbuf, mpi.SUM),
          () => comm.iallreduce(sendbuf, recvbuf, mpi.SUM),
        ),
      );
      if (err) {
        errs++;
        mt.printError(err);
      }
      // each process holds the sum of the other group's values
      const sign = leftGroup ? -1 : 1;
      for (let i = 0; i < count; i++) {
        if (recvbuf[i] !== sign * i * rsize) {
          errs++;
          if (errs < 10) mt.printf(`recvbuf[${i}] = ${recvbuf[i]}`);
        }
      }
    }
  }
  return mt.finalize(errs);
}
