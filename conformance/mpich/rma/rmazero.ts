// MPICH test/mpi/rma/rmazero.c: over MTest's intracommunicators, every one-sided call that moves
// zero bytes (count 0 of MPI_INT, and of a contiguous type of 2 ints) to rank 0 succeeds, in fence
// epochs, in exclusive-lock epochs, and as request-based calls whose requests complete; the window
// (displacement unit 2 ints) returns errors. Zero-byte fetch-and-op and compare-and-swap cannot be
// made, as the C source says.
import type { Request } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { rc } from '../mtest.ts';

const TARGET = 0;

export default async function rmazero(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const buf = new Int32Array(256);
  const result = new Int32Array(256);
  const rcount = 16;
  const rmabuf = new Int32Array(rcount);
  const derivedDtp = mpi.typeCommit(mpi.typeContiguous(2, mpi.INT));
  /** MTestPrintErrorMsg of the first errors. */
  const report = (what: string, err: number): void => {
    if (err) {
      errs++;
      if (errs < 10) mt.printf(`${what}: Error class ${mpi.errorClass(err)} (${mpi.errorString(err)})`);
    }
  };
  for await (const comm of mt.intracomms(1, true)) {
    if (comm === null) continue;
    const count = 0;
    const win = await comm.winCreate(buf, 2 * 4, null);
    // errors return, so that every failing operation is reported
    win.setErrhandler(mpi.ERRORS_RETURN);
    const ops: [string, () => Promise<unknown>][] = [
      ['Put', () => win.put(rmabuf, count, mpi.INT, TARGET, 0, count, mpi.INT)],
      ['Get', () => win.get(rmabuf, count, mpi.INT, TARGET, 0, count, mpi.INT)],
      ['Accumulate', () => win.accumulate(rmabuf, count, mpi.INT, TARGET, 0, count, mpi.INT, mpi.SUM)],
      ['Accumulate_derived', () => win.accumulate(rmabuf, count, derivedDtp, TARGET, 0, count, derivedDtp, mpi.SUM)],
      ['Get accumulate', () => win.getAccumulate(rmabuf, count, mpi.INT, result, count, mpi.INT, TARGET, 0, count, mpi.INT, mpi.SUM)],
    ];
    // active target (fence)
    await win.fence(0);
    for (const [name, call] of ops) {
      report(`Zero-byte op ${name}`, await rc(call));
      report(`Fence after ${name}`, await rc(() => win.fence(0)));
    }
    // passive target
    for (const [name, call] of ops) {
      report(`Lock before${name}`, await rc(() => win.lock(mpi.LOCK_EXCLUSIVE, TARGET, 0)));
      report(`Zero-byte op ${name}`, await rc(call));
      report(`Unlock after ${name}`, await rc(() => win.unlock(TARGET)));
    }
    // request-based (passive target only)
    const reqOps: [string, () => Promise<Request>][] = [
      ['Rput', () => win.rput(rmabuf, count, mpi.INT, TARGET, 0, count, mpi.INT)],
      ['Rget', () => win.rget(rmabuf, count, mpi.INT, TARGET, 0, count, mpi.INT)],
      ['Raccumulate', () => win.raccumulate(rmabuf, count, mpi.INT, TARGET, 0, count, mpi.INT, mpi.SUM)],
      ['Raccumulate_derived', () => win.raccumulate(rmabuf, count, derivedDtp, TARGET, 0, count, derivedDtp, mpi.SUM)],
      ['Rget_accumulate', () => win.rgetAccumulate(rmabuf, count, mpi.INT, result, count, mpi.INT, TARGET, 0, count, mpi.INT, mpi.SUM)],
    ];
    for (const [name, call] of reqOps) {
      let req: Request | null = null;
      report(`Lock before${name}`, await rc(() => win.lock(mpi.LOCK_EXCLUSIVE, TARGET, 0)));
      report(`Zero-byte op ${name}`, await rc(async () => (req = await call())));
      report(`Unlock after ${name}`, await rc(() => win.unlock(TARGET)));
      report(`Wait after ${name}`, await rc(() => (req ? mpi.wait(req) : undefined)));
    }
    await win.free();
  }
  mpi.typeFree(derivedDtp);
  return mt.finalize(errs);
}
