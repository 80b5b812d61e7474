// MPICH test/mpi/coll/iallred.c: an MPI_Iallreduce still pending while a blocking MPI_Allreduce runs.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

export default async function iallred(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  assert(mpi.size === 2, 'size == 2');
  const isum = new Int32Array(1);
  const sum = new Int32Array(1);
  const request = mpi.iallreduce(Int32Array.of(1), isum, mpi.SUM);
  await mpi.allreduce(Int32Array.of(2), sum, mpi.SUM);
  await mpi.wait(request);
  assert(isum[0] === 2, 'isum == 2');
  assert(sum[0] === 4, 'sum == 4');
  return mt.finalize(0);
}
