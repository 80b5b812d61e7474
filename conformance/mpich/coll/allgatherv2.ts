// MPICH test/mpi/coll/allgatherv2.c: MPI_Allgatherv of doubles with MPI_IN_PLACE and equal counts.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function allgatherv2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    const displs = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    for (let count = 1; count < 9000; count = count * 2) {
      const vecout = new Float64Array(size * count);
      for (let i = 0; i < count; i++) vecout[rank * count + i] = rank * count + i;
      for (let i = 0; i < size; i++) {
        recvcounts[i] = count;
        displs[i] = i * count;
      }
      await comm.allgatherv(mpi.IN_PLACE, vecout, recvcounts, displs);
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
