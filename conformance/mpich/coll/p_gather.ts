// MPICH test/mpi/coll/p_gather.c: MPI_Gather_init (persistent, MPI 4.0) from a vector (12
// doubles, stride 10) to contiguous doubles, to every root over MTest's intracommunicators, each
// request started and waited ten times (the count loop of the original repeats the same gather
// 16 times); then a zero-length persistent gather. The info argument of the original carries no
// hints: phit's persistent collectives take none.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pGather(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
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
        const req = comm.gatherInit(vecin, 1, vec, vecout, n, mpi.DOUBLE, root);
        for (let j = 0; j < 10; ++j) {
          mpi.start(req);
          await mpi.wait(req);
          if (rank === root) {
            for (let i = 0; i < n * size; i++) {
              if (vecout[i] !== i) {
                errs++;
                if (errs < 10) mt.printf(`vecout[${i}]=${Math.trunc(vecout[i]!)}`);
              }
            }
          }
        }
        mpi.requestFree(req);
        mpi.typeFree(vec);
      }
    }
  }
  // a zero-length gather
  const req = mpi.gatherInit(new Uint8Array(0), 0, mpi.BYTE, new Uint8Array(0), 0, mpi.BYTE, 0);
  for (let i = 0; i < 10; ++i) {
    mpi.start(req);
    await mpi.wait(req);
  }
  mpi.requestFree(req);
  return mt.finalize(errs);
}
