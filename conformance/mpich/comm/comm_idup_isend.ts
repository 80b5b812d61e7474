// MPICH test/mpi/comm/comm_idup_isend.c: four MPI_Comm_idup per communicator interleaved with
// point-to-point traffic (rank 0 isends 815 to every other rank before each idup, the others
// idup and then irecv), all completed by one waitall; then each copy is tested with
// MTestTestComm. Over MTest's intracommunicators, then its intercommunicators (rank 0 sending
// to the remote ranks 1..); the loops free their communicators as MTestFreeComm does.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, InterComm, Request } from '../../../runtime/mpi/mpi.ts';

const ITERS = 4;

/** One communicator's round: returns its errors. */
async function round(mt: MTest, testcomm: Comm | InterComm, peers: number): Promise<number> {
  let errs = 0;
  const rank = testcomm.rank;
  const inn = new Int32Array(ITERS);
  const out = new Int32Array(ITERS);
  const sol = new Int32Array(ITERS);
  const newcomm: (Comm | InterComm)[] = [];
  const sreq: Request[] = [];
  for (let j = 0; j < ITERS; j++) {
    if (rank === 0) {
      out[j] = 815;
      inn[j] = 815;
      sol[j] = 815;
      for (let i = 1; i < peers; i++) sreq.push(testcomm.isend(out.subarray(j, j + 1), i, 0));
      const r = testcomm.idup();
      newcomm.push(r.comm);
      sreq.push(r.request);
    } else {
      out[j] = 0;
      inn[j] = 0;
      sol[j] = 815;
      const r = testcomm.idup();
      newcomm.push(r.comm);
      sreq.push(r.request);
      sreq.push(testcomm.irecv(inn.subarray(j, j + 1), 0, 0));
    }
  }
  await mt.mpi.waitAll(sreq);
  for (let j = 0; j < ITERS; j++) {
    if (sol[j] !== inn[j]) errs++;
    errs += await mt.testComm(newcomm[j]!);
    await newcomm[j]!.free();
  }
  return errs;
}

export default async function commIdupIsend(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  if (mpi.size < 2) throw new Error('this test requires at least 2 processes');
  for await (const testcomm of mt.intracomms(1, true)) {
    if (!testcomm) continue;
    errs += await round(mt, testcomm, testcomm.size);
  }
  for await (const { comm: testcomm } of mt.intercomms(1)) {
    if (!testcomm) continue;
    errs += await round(mt, testcomm, testcomm.remoteSize);
  }
  return mt.finalize(errs);
}
