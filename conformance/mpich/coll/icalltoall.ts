// MPICH test/mpi/coll/icalltoall.c: MPI_Alltoall over MTest's intercommunicators in one direction,
// 1 to 65,536 ints per rank: the left group sends (receiving 0), the right group receives (sending
// 0) and checks (with -nonblocking, MPI_Ialltoall and MPI_Wait).
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function icalltoall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    for (let count = 1; count < 66000; count = 2 * count) {
      const rsize = comm.remoteSize;
      const rrank = comm.rank;
      const sendbuf = new Int32Array(rsize * count);
      const recvbuf = new Int32Array(rsize * count).fill(-1);
      if (leftGroup) {
        let idx = 0;
        for (let j = 0; j < rsize; j++) for (let i = 0; i < count; i++) sendbuf[idx++] = i + rrank;
        const none = recvbuf.subarray(0, 0);
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.alltoall(sendbuf, none),
            () => comm.ialltoall(sendbuf, none),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
      } else {
        const rank = comm.rank;
        // in the right group
        const none = sendbuf.subarray(0, 0);
        const err = await rc(() =>
          mtestColl(
            mpi,
            isBlocking,
            () => comm.alltoall(none, recvbuf),
            () => comm.ialltoall(none, recvbuf),
          ),
        );
        if (err) {
          errs++;
          mt.printError(err);
        }
        // the right data
        let idx = 0;
        for (let j = 0; j < rsize; j++) {
          for (let i = 0; i < count; i++) {
            if (recvbuf[idx++] !== i + j) {
              errs++;
              if (errs < 10) mt.printf(`buf[${i}] = ${recvbuf[i]} on ${rank}`);
            }
          }
        }
      }
    }
  }
  return mt.finalize(errs);
}
