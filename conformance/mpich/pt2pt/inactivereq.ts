// MPICH test/mpi/pt2pt/inactivereq.c: MPI_Test and MPI_Wait on an inactive persistent request (never
// started, or started and completed) return at once with flag true and an empty status (MPI-1
// 3.7.3); persistent sends and receives, with MPI_ANY_SOURCE and with MPI_PROC_NULL.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request, Status } from '../../../runtime/mpi/mpi.ts';

export default async function inactivereq(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const buf = new Int32Array(10);
  const rbuf = new Int32Array(10);
  const tag = 27;
  const dest = 0;
  const statusEmpty = (s: Status): boolean => {
    let e = 0;
    if (s.tag !== mpi.ANY_TAG) {
      e++;
      mt.printf('MPI_TAG not MPI_ANY_TAG in status');
    }
    if (s.source !== mpi.ANY_SOURCE) {
      e++;
      mt.printf('MPI_SOURCE not MPI_ANY_SOURCE in status');
    }
    if (mpi.getCount(s, mpi.INT) !== 0) {
      e++;
      mt.printf('count in status is not 0');
    }
    return e === 0;
  };
  /** MPI_Test then MPI_Wait on an inactive request: false when the test's flag is false. */
  const checkInactive = async (r: Request, name: string): Promise<boolean> => {
    const flag = await mpi.test(r);
    if (!flag) {
      errs++;
      mt.printf(`Flag not true after MPI_Test (${name})`);
      mt.printf('Aborting further tests to avoid hanging in MPI_Wait');
      return false;
    }
    // MPI_Test of a completed request has the status MPI_Wait gives
    if (!statusEmpty(await mpi.wait(r))) {
      errs++;
      mt.printf(`Status not empty after MPI_Test (${name})`);
    }
    if (!statusEmpty(await mpi.wait(r))) {
      errs++;
      mt.printf(`Status not empty after MPI_Wait (${name})`);
    }
    return true;
  };
  const testRecvInit = async (srcRank: number, testName: string): Promise<number> => {
    const before = errs;
    const r = mpi.recvInit(buf, srcRank, tag);
    await checkInactive(r, testName);
    mpi.requestFree(r);
    return errs - before;
  };
  if (rank === 0) mt.printfMsg(1, 'Create a persistent send request');
  const r = mpi.sendInit(buf, dest, tag);
  if (!(await checkInactive(r, 'send'))) return mt.finalize(errs);
  // now use the request, then check again
  if (rank === 0) {
    const rr = [];
    for (let i = 0; i < size; i++) rr[i] = mpi.irecv(rbuf, i, tag);
    mpi.start(r);
    await mpi.wait(r);
    await mpi.waitAll(rr);
  } else {
    mpi.start(r);
    await mpi.wait(r);
  }
  if (!(await checkInactive(r, 'send'))) return mt.finalize(errs);
  mpi.requestFree(r);
  if (rank === 0) mt.printfMsg(1, 'Create a persistent receive request');
  const e = await testRecvInit(dest, 'recv');
  if (e) return mt.finalize(errs);
  if (rank === 0) mt.printfMsg(1, 'Create a persistent receive (ANY_SOURCE) request');
  await testRecvInit(mpi.ANY_SOURCE, 'recv-anysource');
  // test_proc_null
  let q = mpi.recvInit(buf, mpi.PROC_NULL, tag);
  mpi.start(q);
  await mpi.wait(q);
  mpi.requestFree(q);
  q = mpi.sendInit(buf, mpi.PROC_NULL, tag);
  mpi.start(q);
  await mpi.wait(q);
  mpi.requestFree(q);
  return mt.finalize(errs);
}
