// MPICH test/mpi/coll/gather.c: MPI_Gather of 1 to 32,768 doubles per rank to every root over MTest's
// intracommunicators, then from a vector (12 doubles, stride 10) to contiguous doubles; then a
// zero-length gather.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function gather(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let root = 0; root < size; root++) {
      // contiguous
      for (let count = 1; count < 65000; count = count * 2) {
        const vecin = new Float64Array(count);
        const vecout = new Float64Array(count * size);
        for (let i = 0; i < count; i++) vecin[i] = i;
        await comm.gather(vecin, count, mpi.DOUBLE, vecout, count, mpi.DOUBLE, root);
        if (rank === root) {
          for (let i = 0; i < count; i++) {
            if (vecout[i] !== i) {
              errs++;
              if (errs < 10) mt.printf(`contig test: vecout[${i}]=${Math.trunc(vecout[i]!)}`);
            }
          }
        }
      }
      // non-contiguous
      for (let count = 1; count < 65000; count = count * 2) {
        const n = 12;
        const stride = 10;
        const vecin = new Float64Array(n * stride * size);
        const vecout = new Float64Array(size * n);
        const vec = mpi.typeCommit(mpi.typeVector(n, 1, stride, mpi.DOUBLE));
        for (let i = 0; i < n * stride; i++) vecin[i] = -2;
        for (let i = 0; i < n; i++) vecin[i * stride] = rank * n + i;
        await comm.gather(vecin, 1, vec, vecout, n, mpi.DOUBLE, root);
        if (rank === root) {
          for (let i = 0; i < n * size; i++) {
            if (vecout[i] !== i) {
              errs++;
              if (errs < 10) mt.printf(`noncontig test: vecout[${i}]=${Math.trunc(vecout[i]!)}`);
            }
          }
        }
        mpi.typeFree(vec);
      }
    }
  }
  // a zero-length gather
  await mpi.gather(new Uint8Array(0), 0, mpi.BYTE, new Uint8Array(0), 0, mpi.BYTE, 0);
  return mt.finalize(errs);
}
