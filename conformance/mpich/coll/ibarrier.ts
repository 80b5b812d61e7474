// MPICH test/mpi/coll/ibarrier.c: an MPI_Ibarrier polled with MPI_Test every millisecond (usleep)
// completes (regression test for MPICH ticket #1785).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function ibarrier(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const barrier = mpi.ibarrier();
  for (let done = false; !done; ) {
    await mt.ctx.compute({ us: 1000 });
    done = await mpi.test(barrier);
  }
  return mt.finalize(0);
}
