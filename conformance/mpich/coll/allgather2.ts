// MPICH test/mpi/coll/allgather2.c: MPI_Allgather of doubles with MPI_IN_PLACE, 1 to 8,192 per rank.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function allgather2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let count = 1; count < 9000; count = count * 2) {
      const vecout = new Float64Array(size * count);
      for (let i = 0; i < count; i++) vecout[rank * count + i] = rank * count + i;
      await comm.allgather(mpi.IN_PLACE, vecout);
      for (let i = 0; i < count * size; i++) {
        if (vecout[i] !== i) {
          errs++;
          if (errs < 10) mt.printf(`vecout[${i}]=${Math.trunc(vecout[i]!)}`);
        }
      }
    }
  }
  return mt.finalize(errs);
}
