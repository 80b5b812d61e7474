// MPICH test/mpi/pt2pt/isendself.c: zero-length isends to self, received with wildcards.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function isendself(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const a = new Int32Array(10);
  const b = new Int32Array(10);
  for (let i = 0; i < 10; i++) a[i] = i + 1;
  let request = mpi.isend(a.subarray(0, 0), rank, 0);
  let status = await mpi.recv(b.subarray(0, 1), mpi.ANY_SOURCE, mpi.ANY_TAG);
  let count = status.count;
  if (status.source !== rank || status.tag !== 0 || count !== 0) {
    errs++;
    mt.printf(`1 status = ${status.source} ${status.tag} ${count}`);
  }
  await mpi.wait(request);
  request = mpi.isend(new Int32Array(0), rank, 0);
  status = await mpi.recv(new Int32Array(0), mpi.ANY_SOURCE, mpi.ANY_TAG);
  count = status.count;
  if (status.source !== rank || status.tag !== 0 || count !== 0) {
    errs++;
    mt.printf(`2 status = ${status.source} ${status.tag} ${count}`);
  }
  await mpi.wait(request);
  return mt.finalize(errs);
}
