// MPICH test/mpi/pt2pt/isendirecv.c: every rank posts a receive from and a send to every rank,
// itself included, and waits for all.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function isendirecv(mt: MTest): Promise<MTestResult> {
  const errs = 0;
  const elems = 20;
  const comm = mt.mpi.COMM_WORLD;
  const nproc = comm.size;
  const reqs: Request[] = new Array(2 * nproc);
  const inBuf = new Float32Array(elems * nproc);
  const outBuf = new Float32Array(elems * nproc);
  for (let i = 0; i < nproc; i++) reqs[i] = comm.irecv(inBuf.subarray(elems * i, elems * i + elems), i, 0);
  for (let i = 0; i < nproc; i++) reqs[i + nproc] = comm.isend(outBuf.subarray(elems * i, elems * i + elems), i, 0);
  await comm.waitAll(reqs);
  return mt.finalize(errs);
}
