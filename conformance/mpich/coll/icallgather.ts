// MPICH test/mpi/coll/icallgather.c: MPI_Allgather over MTest's intercommunicators, 1 to 32,768
// ints per rank, both ways (the left group sends rank-based values, the right group their
// negatives), then one way only (the left group sends 0 ints, the right group receives 0) (with
// -nonblocking, MPI_Iallgather and MPI_Wait). Errors are returned and counted.
import { mtestColl, rc, type MTest, type MTestResult } from '../mtest.ts';
import type { InterComm } from '../../../runtime/mpi/mpi.ts';

export default async function icallgather(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const isBlocking = !mt.argInt('nonblocking', 0);
  let errs = 0;
  const allgather = (comm: InterComm, sbuf: Int32Array, rbuf: Int32Array): Promise<number> =>
    rc(() =>
      mtestColl(
        mpi,
        isBlocking,
        () => comm.allgather(sbuf, rbuf),
        () => comm.iallgather(sbuf, rbuf),
      ),
    );
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    const rank = comm.rank;
    const rsize = comm.remoteSize;
    comm.setErrhandler(mpi.ERRORS_RETURN);
    for (let count = 1; count < 65000; count = 2 * count) {
      // the left group sends rank to the right group, the right group -rank to the left group
      const rbuf = new Int32Array(count * rsize).fill(-1);
      const sbuf = new Int32Array(count);
      if (leftGroup) for (let i = 0; i < count; i++) sbuf[i] = i + rank * count;
      else for (let i = 0; i < count; i++) sbuf[i] = -(i + rank * count);
      let err = await allgather(comm, sbuf, rbuf);
      if (err) {
        errs++;
        mt.printError(err);
      }
      if (leftGroup) {
        for (let i = 0; i < count * rsize; i++) if (rbuf[i] !== -i) errs++;
      } else {
        for (let i = 0; i < count * rsize; i++) if (rbuf[i] !== i) errs++;
      }
      // Allgather in a unidirectional way
      rbuf.fill(-1);
      if (leftGroup) {
        err = await allgather(comm, sbuf.subarray(0, 0), rbuf);
        if (err) {
          errs++;
          mt.printError(err);
        }
        for (let i = 0; i < count * rsize; i++) if (rbuf[i] !== -i) errs++;
      } else {
        err = await allgather(comm, sbuf, rbuf.subarray(0, 0));
        if (err) {
          errs++;
          mt.printError(err);
        }
        for (let i = 0; i < count * rsize; i++) if (rbuf[i] !== -1) errs++;
      }
    }
  }
  return mt.finalize(errs);
}
