// MPICH test/mpi/rma/rmanull.c: over MTest's intracommunicators, every one-sided call with target
// MPI_PROC_NULL succeeds, in fence epochs, in lock epochs (lock and unlock of MPI_PROC_NULL too),
// and as request-based calls whose requests complete; the window returns errors.
import type { Request } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { rc } from '../mtest.ts';

export default async function rmanull(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const P = mpi.PROC_NULL;
  const buf = new Int32Array(256);
  const result = new Int32Array(256);
  const rcount = 16;
  const rmabuf = new Int32Array(rcount);
  const report = (what: string, err: number): void => {
    if (err) {
      errs++;
      if (errs < 10) mt.printf(`${what}: ${mpi.errorString(err)}`);
    }
  };
  for await (const comm of mt.intracomms(1, true)) {
    if (comm === null) continue;
    const rank = Int32Array.of(comm.rank);
    const win = await comm.winCreate(buf, 4, null);
    win.setErrhandler(mpi.ERRORS_RETURN);
    const ops: [string, () => Promise<unknown>][] = [
      ['Put', () => win.put(rmabuf, rcount, mpi.INT, P, 0, rcount, mpi.INT)],
      ['Get', () => win.get(rmabuf, rcount, mpi.INT, P, 0, rcount, mpi.INT)],
      ['Accumulate', () => win.accumulate(rmabuf, rcount, mpi.INT, P, 0, rcount, mpi.INT, mpi.SUM)],
      ['Get accumulate', () => win.getAccumulate(rmabuf, rcount, mpi.INT, result, rcount, mpi.INT, P, 0, rcount, mpi.INT, mpi.SUM)],
      ['Fetch and op', () => win.fetchAndOp(rmabuf, result, mpi.INT, P, 0, mpi.SUM)],
      ['Compare and swap', () => win.compareAndSwap(rmabuf, rank, result, mpi.INT, P, 0)],
    ];
    // active target (fence)
    await win.fence(0);
    for (const [name, call] of ops) {
      report(`PROC_NULL to ${name}`, await rc(call));
      report(`Fence after ${name}`, await rc(() => win.fence(0)));
    }
    // passive target
    for (const [name, call] of ops) {
      report(`Lock before${name}`, await rc(() => win.lock(mpi.LOCK_EXCLUSIVE, P, 0)));
      report(`PROC_NULL to ${name}`, await rc(call));
      report(`Unlock after ${name}`, await rc(() => win.unlock(P)));
    }
    // request-based (passive target only)
    const reqOps: [string, () => Promise<Request>][] = [
      ['Rput', () => win.rput(rmabuf, rcount, mpi.INT, P, 0, rcount, mpi.INT)],
      ['Rget', () => win.rget(rmabuf, rcount, mpi.INT, P, 0, rcount, mpi.INT)],
      ['Raccumulate', () => win.raccumulate(rmabuf, rcount, mpi.INT, P, 0, rcount, mpi.INT, mpi.SUM)],
      ['Rget_accumulate', () => win.rgetAccumulate(rmabuf, rcount, mpi.INT, result, rcount, mpi.INT, P, 0, rcount, mpi.INT, mpi.SUM)],
    ];
    for (const [name, call] of reqOps) {
      let req: Request | null = null;
      report(`Lock before${name}`, await rc(() => win.lock(mpi.LOCK_EXCLUSIVE, P, 0)));
      report(`PROC_NULL to ${name}`, await rc(async () => (req = await call())));
      report(`Unlock after ${name}`, await rc(() => win.unlock(P)));
      report(`Wait after ${name}`, await rc(() => (req ? mpi.wait(req) : undefined)));
    }
    await win.free();
  }
  return mt.finalize(errs);
}
