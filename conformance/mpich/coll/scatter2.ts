// MPICH test/mpi/coll/scatter2.c: scattern.c where the root receives nothing (MPI_IN_PLACE); the
// vector's extent runs from its first element to its last.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function scatter2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const n = 12;
  const stride = 10;
  const vecin = new Float64Array(n * stride * size);
  const vecout = new Float64Array(n);
  const vec = mpi.typeCommit(mpi.typeVector(n, 1, stride, mpi.DOUBLE));
  const { extent: vextent } = mpi.typeGetExtent(vec);
  if (vextent !== ((n - 1) * stride + 1) * 8) {
    errs++;
    mt.printf(`Vector extent is ${vextent}, should be ${((n - 1) * stride + 1) * 8}`);
  }
  for (let i = 0; i < n * stride * size; i++) vecin[i] = i;
  for (let root = 0; root < size; root++) {
    vecout.fill(-1.0);
    if (rank === root) {
      // the long form's recvBuf does not take MPI_IN_PLACE in phit's types
      await mpi.scatter(vecin, 1, vec, mpi.IN_PLACE as unknown as Float64Array, -1, mpi.DOUBLE, root);
    } else {
      await mpi.scatter(null, -1, null, vecout, n, mpi.DOUBLE, root);
      let ivalue = rank * ((n - 1) * stride + 1);
      for (let i = 0; i < n; i++) {
        if (vecout[i] !== ivalue) {
          mt.printf(`[${rank}] Expected ${ivalue} but found ${vecout[i]} for vecout[${i}]`);
          errs++;
        }
        ivalue += stride;
      }
    }
  }
  mpi.typeFree(vec);
  return mt.finalize(errs);
}
