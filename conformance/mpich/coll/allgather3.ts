// MPICH test/mpi/coll/allgather3.c: allgather2.c without MPI_IN_PLACE, then a zero-byte allgather.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function allgather3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let count = 1; count < 9000; count = count * 2) {
      const invec = new Float64Array(count);
      const vecout = new Float64Array(size * count);
      for (let i = 0; i < count; i++) invec[i] = rank * count + i;
      await comm.allgather(invec, vecout);
      for (let i = 0; i < count * size; i++) {
        if (vecout[i] !== i) {
          errs++;
          if (errs < 10) mt.printf(`vecout[${i}]=${Math.trunc(vecout[i]!)}`);
        }
      }
    }
  }
  // a zero-byte gather
  await mpi.allgather(mpi.IN_PLACE, new Uint8Array(0));
  return mt.finalize(errs);
}
