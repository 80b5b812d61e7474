// MPICH test/mpi/coll/allred6.c: MPI_Allreduce with an apparently non-commutative operator (a sum
// created with commute = 0), for 1 to 32,768 ints.
import type { MTest, MTestResult } from '../mtest.ts';
import type { ReduceArray } from '../../../runtime/mpi/mpi.ts';

/** mysum(in, inout): inout[i] += in[i]. */
function mysum(inout: ReduceArray, input: ReduceArray): void {
  const cout = inout as Int32Array;
  const cin = input as Int32Array;
  for (let i = 0; i < cout.length; i++) cout[i]! += cin[i]!;
}

export default async function allred6(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const minsize = 2;
  const op = mpi.opCreate(mysum, false);
  for await (const comm of mt.intracomms(minsize, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    for (let count = 1; count < 65000; count = count * 2) {
      const buf = new Int32Array(count);
      for (let i = 0; i < count; i++) buf[i] = rank + i;
      await comm.allreduce(mpi.IN_PLACE, buf, op);
      for (let i = 0; i < count; i++) {
        const result = i * size + (size * (size - 1)) / 2;
        if (buf[i] !== result) {
          errs++;
          if (errs < 10) mt.printf(`buf[${i}] = ${buf[i]} expected ${result}`);
        }
      }
    }
  }
  return mt.finalize(errs);
}
