// MPICH test/mpi/coll/coll13.c: MPI_Alltoall of 128 ints per rank (an error is the only failure).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function coll13(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  const chunk = 128;
  const sb = new Int32Array(size * chunk).fill(rank + 1);
  const rb = new Int32Array(size * chunk);
  await mpi.alltoall(sb, rb);
  const status = 0;
  return mt.finalize(status);
}
