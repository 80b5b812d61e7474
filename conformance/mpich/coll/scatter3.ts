// MPICH test/mpi/coll/scatter3.c: MPI_Scatter of contiguous doubles, received as a vector (12
// doubles, stride 10) at the root and contiguously elsewhere (some implementations do not check
// the root's recvcount).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function scatter3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const n = 12;
  const stride = 10;
  const vecout = new Float64Array(n * stride);
  const vecin = new Float64Array(n * size);
  const vec = mpi.typeCommit(mpi.typeVector(n, 1, stride, mpi.DOUBLE));
  const { extent: vextent } = mpi.typeGetExtent(vec);
  if (vextent !== ((n - 1) * stride + 1) * 8) {
    errs++;
    mt.printf(`Vector extent is ${vextent}, should be ${((n - 1) * stride + 1) * 8}`);
  }
  for (let i = 0; i < n * size; i++) vecin[i] = i;
  for (let root = 0; root < size; root++) {
    vecout.fill(-1.0);
    if (rank === root) {
      // receive into a vector
      await mpi.scatter(vecin, n, mpi.DOUBLE, vecout, 1, vec, root);
      for (let i = 0; i < n; i++) {
        const ivalue = n * root + i;
        if (vecout[i * stride] !== ivalue) {
          errs++;
          mt.printf(`[${rank}] Expected ${ivalue} but found ${vecout[i * stride]} for vecout[${i * stride}] on root`);
        }
      }
    } else {
      // receive into contiguous data
      await mpi.scatter(null, -1, null, vecout, n, mpi.DOUBLE, root);
      for (let i = 0; i < n; i++) {
        const ivalue = rank * n + i;
        if (vecout[i] !== ivalue) {
          mt.printf(`[${rank}] Expected ${ivalue} but found ${vecout[i]} for vecout[${i}]`);
          errs++;
        }
      }
    }
  }
  mpi.typeFree(vec);
  return mt.finalize(errs);
}
