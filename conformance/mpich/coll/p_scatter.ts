// MPICH test/mpi/coll/p_scatter.c: MPI_Scatter_init (persistent, MPI 4.0) of a vector (12
// doubles, stride 10) to contiguous doubles, one request per root made first, then each started
// and checked (the original's inner loop reuses its counter i, so each request runs once); its
// info argument carries no hints.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function pScatter(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const n = 12;
  const stride = 10;
  const vecin = new Float64Array(n * stride * size);
  const vecout = new Float64Array(n);
  const reqs: Request[] = [];
  const vec = mpi.typeCommit(mpi.typeVector(n, 1, stride, mpi.DOUBLE));
  for (let i = 0; i < n * stride * size; i++) vecin[i] = i;
  for (let root = 0; root < size; root++) reqs[root] = mpi.scatterInit(vecin, 1, vec, vecout, n, mpi.DOUBLE, root);
  for (let root = 0; root < size; root++) {
    // for (i = 0; i < 10; ++i) { for (i = 0; i < n; i++) ...; ... } runs once: the inner loops leave i at n
    for (let i = 0; i < 10; ++i) {
      for (i = 0; i < n; i++) vecout[i] = -1.0;
      mpi.start(reqs[root]!);
      await mpi.wait(reqs[root]!);
      let ivalue = rank * ((n - 1) * stride + 1);
      for (i = 0; i < n; i++) {
        if (vecout[i] !== ivalue) {
          mt.printf(`Expected ${ivalue.toFixed(6)} but found ${vecout[i]!.toFixed(6)}`);
          errs++;
        }
        ivalue += stride;
      }
    }
    mpi.requestFree(reqs[root]!);
  }
  mpi.typeFree(vec);
  return mt.finalize(errs);
}
