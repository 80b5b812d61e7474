// MPICH test/mpi/coll/allred2.c: MPI_Allreduce with MPI_IN_PLACE over MTest's intracommunicators,
// 1 to 32,768 ints (host memory: the device memory variants need GPUs).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function allred2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const minsize = 2;
  for await (const comm of mt.intracomms(minsize, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    const buf = new Int32Array(32768);
    for (let count = 1; count < 65000; count = count * 8) {
      const b = buf.subarray(0, count);
      for (let i = 0; i < count; i++) b[i] = rank + i;
      await comm.allreduce(mpi.IN_PLACE, b, mpi.SUM);
      for (let i = 0; i < count; i++) {
        const result = i * size + (size * (size - 1)) / 2;
        if (b[i] !== result) {
          errs++;
          if (errs < 10) mt.printf(`buf[${i}] = ${b[i]} expected ${result}`);
        }
      }
    }
  }
  return mt.finalize(errs);
}
