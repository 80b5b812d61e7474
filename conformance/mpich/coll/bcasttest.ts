// MPICH test/mpi/coll/bcasttest.c: MPI_Bcast of 100 to 1 Mi ints from rank 0, five times each,
// verified (unless -noverify).
import type { MTest, MTestResult } from '../mtest.ts';

const ROOT = 0;
const NUM_REPS = 5;
const NUM_SIZES = 4;

export default async function bcasttest(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const sizes = [100, 64 * 1024, 128 * 1024, 1024 * 1024];
  let errs = 0;
  const rank = mpi.rank;
  const bVerify = !mt.argInt('noverify', 0);
  const buf = new Int32Array(sizes[NUM_SIZES - 1]!);
  for (let n = 0; n < NUM_SIZES; n++) {
    const b = buf.subarray(0, sizes[n]!);
    for (let reps = 0; reps < NUM_REPS; reps++) {
      if (bVerify) {
        if (rank === ROOT) for (let i = 0; i < b.length; i++) b[i] = 1000000 * (n * NUM_REPS + reps) + i;
        else b.fill(-1 - (n * NUM_REPS + reps));
      }
      await mpi.bcast(b, ROOT);
      if (bVerify) {
        errs = 0;
        for (let i = 0; i < b.length; i++) {
          if (b[i] !== 1000000 * (n * NUM_REPS + reps) + i) {
            errs++;
            if (errs < 10) mt.printf(`Error: Rank=${rank}, n=${n}, reps=${reps}, i=${i}, buf[i]=${b[i]} expected=${1000000 * (n * NUM_REPS + reps) + i}`);
          }
        }
        if (errs >= 10) mt.printf(`Error: Rank=${rank}, errs = ${errs}`);
      }
    }
  }
  return mt.finalize(errs);
}
