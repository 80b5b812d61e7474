// MPICH test/mpi/pt2pt/cancelrecv.c: cancel one of three posted receives, and one of two sends
// (the one nobody receives); the statuses tell which were cancelled.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request, Status } from '../../../runtime/mpi/mpi.ts';

/** A status as the test fills it before a call: MPI_ERROR set to a marker. */
type MarkedStatus = Partial<Status> & { error?: number };

export default async function cancelrecv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  if (size < 2) throw new Error('Must run with at least 2 processes');
  const rank = mpi.rank;
  const dest = 0;
  const src = 1;
  const comm = mpi.COMM_WORLD;
  const n0 = 65536;
  const n1 = 65536;
  const n2 = 65536;
  const buf0 = new Int32Array(n0).fill(-1);
  const buf1 = new Int32Array(n1).fill(-1);
  const buf2 = new Int32Array(n2).fill(-1);
  const r: Request[] = [];
  if (rank === dest) {
    r[0] = comm.irecv(buf0, src, 0);
    r[1] = comm.irecv(buf1, src, 1);
    r[2] = comm.irecv(buf2, src, 2);
    await comm.barrier();
    comm.cancel(r[1]!);
    await comm.barrier();
    const s = await comm.waitAll(r);
    if (s[0]!.cancelled) {
      errs++;
      mt.printf('request 0 was cancelled!');
    }
    if (!s[1]!.cancelled) {
      errs++;
      mt.printf('request 1 was not cancelled!');
    }
    if (s[2]!.cancelled) {
      errs++;
      mt.printf('request 2 was cancelled!');
    }
    await comm.barrier();
  }
  if (rank === src) {
    await comm.barrier();
    await comm.barrier();
    await comm.send(buf0, dest, 0);
    r[1] = comm.isend(buf2, dest, 2);
    r[0] = comm.isend(buf1, dest, 4);
    comm.cancel(r[0]);
    let s: MarkedStatus[] = [{ error: -3 }, { error: -3 }];
    const sends = [r[0], r[1]];
    let done = await comm.testAll(sends);
    if (done) {
      s = done;
      if (!s[0]!.cancelled) {
        errs++;
        mt.printf('send request 0 was not cancelled!');
      }
      if (s[1]!.cancelled) {
        errs++;
        mt.printf('send request 1 was cancelled!');
      }
    } else {
      // if not all requests are complete, neither r nor s may be changed
      if (s[0]!.error !== -3) {
        errs++;
        mt.printf(`Send request status 0 modified. s[0].MPI_ERROR = ${s[0]!.error}`);
      }
      if (s[1]!.error !== -3) {
        errs++;
        mt.printf(`Send request status 1 modified. s[1].MPI_ERROR = ${s[1]!.error}`);
      }
    }
    await comm.barrier();
    while (!done) done = await comm.testAll(sends);
    s = done;
    if (!s[0]!.cancelled) {
      errs++;
      mt.printf('send request 0 was not cancelled!');
    }
    if (s[1]!.cancelled) {
      errs++;
      mt.printf('send request 1 was cancelled!');
    }
  }
  if (rank !== src && rank !== dest) {
    await comm.barrier();
    await comm.barrier();
    await comm.barrier();
  }
  return mt.finalize(errs);
}
