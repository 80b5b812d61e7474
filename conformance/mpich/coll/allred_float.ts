// MPICH test/mpi/coll/allred_float.c: MPI_Allreduce must give identical floating-point results on
// every rank, even where the order of additions changes the sum (a BIG, -BIG pair among TINYs).
import type { MTest, MTestResult } from '../mtest.ts';

const BIG = 1e6;
const TINY = 1e-2;
const N = 8;

export default async function allredFloat(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  if (size < 3) throw new Error('At least 3 processes required. More (e.g. 10) is recommended.');
  const buf = new Float32Array(N);
  for (let pos1 = 0; pos1 < size; pos1++) {
    for (let pos2 = pos1 + 1; pos2 < size; pos2++) {
      for (let i = 0; i < N; i++) buf[i] = rank === pos1 ? BIG : rank === pos2 ? -BIG : TINY;
      await mpi.allreduce(mpi.IN_PLACE, buf, mpi.SUM);
      const checkBuf = rank === 0 ? new Float32Array(N * size) : null;
      await mpi.gather(buf, checkBuf, 0);
      if (checkBuf) {
        for (let i = 0; i < size; i++) {
          for (let j = 0; j < N; j++) {
            // memcmp of the float's bits
            if (!Object.is(checkBuf[i * N + j], buf[j])) {
              if (errs < 10) mt.printf(`(${pos1} - ${pos2}) Result [${j}] from rank ${i} mismatch: ${checkBuf[i * N + j]} != ${buf[j]}`);
              errs++;
            }
          }
        }
      }
    }
  }
  return mt.finalize(errs);
}
