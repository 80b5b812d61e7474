// MPICH test/mpi/coll/p_order.c: persistent collectives may be started out of their matching
// order: rank 0 starts its MPI_Bcast_init request, then its MPI_Barrier_init one, the other ranks
// the other way round; MPI_Waitall completes both and the broadcast value arrives.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pOrder(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  if (size < 2) throw new Error('This test requires at least two processes.');
  const a = Int32Array.of(-1);
  const requests = [mpi.bcastInit(a, 0), mpi.barrierInit()];
  if (rank === 0) {
    a[0] = 42;
    mpi.start(requests[0]!);
    mpi.start(requests[1]!);
  } else {
    mpi.start(requests[1]!);
    mpi.start(requests[0]!);
  }
  await mpi.waitAll(requests);
  if (a[0] !== 42) errs++;
  mpi.requestFree(requests[0]!);
  mpi.requestFree(requests[1]!);
  return mt.finalize(errs);
}
