// MPICH test/mpi/coll/gather2.c: MPI_Gather from a vector (12 doubles, stride 10) to contiguous
// doubles at every root, the root's own block in place; then a zero-length gather in place.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function gather2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  // the long form's sendBuf does not take MPI_IN_PLACE in phit's types
  const inPlace = mpi.IN_PLACE as unknown as Float64Array;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let root = 0; root < size; root++) {
      for (let count = 1; count < 65000; count = count * 2) {
        const n = 12;
        const stride = 10;
        const vecin = new Float64Array(n * stride * size);
        const vecout = new Float64Array(size * n);
        const vec = mpi.typeCommit(mpi.typeVector(n, 1, stride, mpi.DOUBLE));
        for (let i = 0; i < n * stride; i++) vecin[i] = -2;
        for (let i = 0; i < n; i++) vecin[i * stride] = rank * n + i;
        if (rank === root) {
          for (let i = 0; i < n; i++) vecout[rank * n + i] = rank * n + i;
          await comm.gather(inPlace, -1, mpi.DOUBLE, vecout, n, mpi.DOUBLE, root);
        } else {
          await comm.gather(vecin, 1, vec, null, -1, null, root);
        }
        if (rank === root) {
          for (let i = 0; i < n * size; i++) {
            if (vecout[i] !== i) {
              errs++;
              if (errs < 10) mt.printf(`vecout[${i}]=${Math.trunc(vecout[i]!)}`);
            }
          }
        }
        mpi.typeFree(vec);
      }
    }
  }
  // a zero-length gather
  if (mpi.rank === 0) await mpi.gather(inPlace, -1, mpi.BYTE, new Uint8Array(0), 0, mpi.BYTE, 0);
  else await mpi.gather(new Uint8Array(0), 0, mpi.BYTE, null, 0, mpi.BYTE, 0);
  return mt.finalize(errs);
}
