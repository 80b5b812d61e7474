// MPICH test/mpi/coll/scattern.c: MPI_Scatter of one vector (12 doubles, stride 10) per rank from
// every root, received as 12 contiguous doubles.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function scattern(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const n = 12;
  const stride = 10;
  const vecin = new Float64Array(n * stride * size);
  const vecout = new Float64Array(n);
  const vec = mpi.typeCommit(mpi.typeVector(n, 1, stride, mpi.DOUBLE));
  for (let i = 0; i < n * stride * size; i++) vecin[i] = i;
  for (let root = 0; root < size; root++) {
    vecout.fill(-1.0);
    await mpi.scatter(vecin, 1, vec, vecout, n, mpi.DOUBLE, root);
    let ivalue = rank * ((n - 1) * stride + 1);
    for (let i = 0; i < n; i++) {
      if (vecout[i] !== ivalue) {
        mt.printf(`Expected ${ivalue} but found ${vecout[i]}`);
        errs++;
      }
      ivalue += stride;
    }
  }
  mpi.typeFree(vec);
  return mt.finalize(errs);
}
