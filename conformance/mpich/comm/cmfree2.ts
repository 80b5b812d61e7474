// MPICH test/mpi/comm/cmfree2.c: a receive of a synchronous send completes after its communicator
// was freed (reference-count semantics).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function cmfree2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const rank = mpi.rank;
  if (mpi.size < 2) throw new Error('This test requires at least two processes.');
  const comm = await mpi.dup();
  if (rank === 0) {
    await mpi.barrier();
    await comm.ssend(new Int32Array(0), 1, 0);
    await comm.free();
  } else if (rank === 1) {
    // receive an ssend after the user frees the comm
    const req = comm.irecv(new Int32Array(0), 0, 0);
    await comm.free();
    await mpi.barrier();
    await mpi.wait(req);
  } else {
    await comm.free();
    await mpi.barrier();
  }
  return mt.finalize(errs);
}
