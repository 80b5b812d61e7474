// MPICH test/mpi/coll/allgatherv3.c: allgatherv2.c without MPI_IN_PLACE.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function allgatherv3(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    const displs = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    for (let count = 1; count < 9000; count = count * 2) {
      const invec = new Float64Array(count);
      const vecout = new Float64Array(size * count);
      for (let i = 0; i < count; i++) invec[i] = rank * count + i;
      for (let i = 0; i < size; i++) {
        recvcounts[i] = count;
        displs[i] = i * count;
      }
      await comm.allgatherv(invec, vecout, recvcounts, displs);
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
