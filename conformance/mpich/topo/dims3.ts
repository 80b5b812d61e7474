// MPICH test/mpi/topo/dims3.c: MPI_Dims_create of 2 to 4,096 nodes in 3 and 4 dimensions gives no
// dimension more than twice the next one (a suboptimal distribution otherwise).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function dims3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for (let ndims = 3; ndims <= 4; ndims++) {
    for (let nnodes = 2; nnodes <= 4096; nnodes *= 2) {
      const dims = mpi.dimsCreate(nnodes, new Array<number>(ndims).fill(0));
      for (let i = 0; i < ndims - 1; i++) {
        if (Math.trunc(dims[i]! / 2) > dims[i + 1]!) {
          mt.printf(`[ ${dims.join(' ')} ] Suboptimal distribution!`);
          ++errs;
          break;
        }
      }
    }
  }
  return mt.finalize(errs);
}
