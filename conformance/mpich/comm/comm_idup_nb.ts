// MPICH test/mpi/comm/comm_idup_nb.c: five MPI_Comm_idup, each started right after a nonblocking
// collective on the same communicator (ibarrier, ibcast, iallreduce, iscan, ibcast again on
// MTest's intracommunicators; ibarrier, ibcast from the left group's rank 0 and iallreduce on
// its intercommunicators), all completed by one waitall; the collectives' results are checked
// and every copy is tested with MTestTestComm. The loops free their communicators as MTestFreeComm does.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, InterComm, Request } from '../../../runtime/mpi/mpi.ts';

const ITERS = 5;

/** Starts `start(i)` and an idup, ITERS times, waits for all, checks each copy; returns the errors. */
async function rounds(mt: MTest, comm: Comm | InterComm, start: (i: number) => Request): Promise<number> {
  let errs = 0;
  const sreq: Request[] = new Array<Request>(2 * ITERS);
  const newComm: (Comm | InterComm)[] = [];
  for (let i = 0; i < ITERS; i++) {
    sreq[i] = start(i);
    const r = comm.idup();
    newComm.push(r.comm);
    sreq[i + ITERS] = r.request;
  }
  await mt.mpi.waitAll(sreq);
  for (let i = 0; i < ITERS; i++) {
    errs += await mt.testComm(newComm[i]!);
    await newComm[i]!.free();
  }
  return errs;
}

export default async function commIdupNb(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  if (mpi.size < 2) throw new Error('this test requires at least 2 processes');
  const inn = new Int32Array(ITERS);
  const out = new Int32Array(ITERS);
  const at = (a: Int32Array, i: number) => a.subarray(i, i + 1);
  for await (const testComm of mt.intracomms(1, true)) {
    if (!testComm) continue;
    const size = testComm.size;
    const rank = testComm.rank;
    errs += await rounds(mt, testComm, () => testComm.ibarrier());
    for (const again of [false, true]) {
      errs += await rounds(mt, testComm, (i) => {
        inn[i] = rank === 0 ? 815 : 10;
        return testComm.ibcast(at(inn, i), 0);
      });
      for (let i = 0; i < ITERS; i++) if (inn[i] !== 815) errs++;
      if (again) break;
      errs += await rounds(mt, testComm, (i) => {
        inn[i] = 1;
        return testComm.iallreduce(at(inn, i), at(out, i), mpi.SUM);
      });
      for (let i = 0; i < ITERS; i++) if (out[i] !== size) errs++;
      const me = Int32Array.of(rank);
      errs += await rounds(mt, testComm, (i) => testComm.iscan(me, at(out, i), mpi.SUM));
      for (let i = 0; i < ITERS; i++) if (out[i] !== (rank * (rank + 1)) / 2) errs++;
    }
  }
  // intercommunicators
  for await (const { comm: testComm, isLeftGroup } of mt.intercomms(1)) {
    if (!testComm) continue;
    const rank = testComm.rank;
    const rsize = testComm.remoteSize;
    errs += await rounds(mt, testComm, () => testComm.ibarrier());
    errs += await rounds(mt, testComm, (i) => {
      let root: number;
      if (isLeftGroup) {
        root = rank === 0 ? mpi.ROOT : mpi.PROC_NULL;
        inn[i] = 815; // not needed at PROC_NULL ranks: makes the check simpler
      } else {
        root = 0;
        inn[i] = 213; // garbage
      }
      return testComm.ibcast(at(inn, i), root);
    });
    for (let i = 0; i < ITERS; i++) if (inn[i] !== 815) errs++;
    errs += await rounds(mt, testComm, (i) => {
      inn[i] = 1;
      return testComm.iallreduce(at(inn, i), at(out, i), mpi.SUM);
    });
    for (let i = 0; i < ITERS; i++) if (out[i] !== rsize) errs++;
  }
  return mt.finalize(errs);
}
