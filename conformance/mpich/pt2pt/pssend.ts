// MPICH test/mpi/pt2pt/pssend.c: a persistent synchronous send cannot complete before its matching
// receive is posted.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function pssend(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  if (mpi.size < 2) throw new Error('Launch with two processes');
  let req: Request | null = null;
  if (rank === 0) {
    req = mpi.ssendInit(new Int32Array(0), 1, 0);
    mpi.start(req);
    // the ssend cannot be complete at this point
    const flag = await mpi.test(req);
    if (flag) {
      errs++;
      mt.printf('ERROR: synchronous send completed before matching recv was posted');
    }
  }
  await mpi.barrier();
  if (rank === 0) {
    await mpi.wait(req!);
    mpi.requestFree(req!);
  } else if (rank === 1) {
    await mpi.recv(new Int32Array(0), 0, 0);
  }
  return mt.finalize(errs);
}
