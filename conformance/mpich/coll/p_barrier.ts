// MPICH test/mpi/coll/p_barrier.c: MPI_Barrier_init, started and waited 10 times. (The C test
// passes an empty MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pBarrier(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const req = mpi.barrierInit();
  for (let i = 0; i < 10; ++i) {
    mpi.start(req);
    await mpi.wait(req);
  }
  mpi.requestFree(req);
  return mt.finalize(0);
}
