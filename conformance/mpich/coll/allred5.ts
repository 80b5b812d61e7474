// MPICH test/mpi/coll/allred5.c: MPI_Allreduce with a count greater than the number of processes.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function allred5(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const minsize = 1;
  for await (const comm of mt.intracomms(minsize, true)) {
    if (!comm) continue;
    const size = comm.size;
    const count = size * 2;
    const bufin = new Int32Array(count);
    const bufout = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      bufin[i] = i;
      bufout[i] = -1;
    }
    await comm.allreduce(bufin, bufout, mpi.SUM);
    for (let i = 0; i < count; i++) {
      if (bufout[i] !== i * size) {
        mt.printf(`Expected bufout[${i}] = ${i * size} but found ${bufout[i]}`);
        errs++;
      }
    }
  }
  return mt.finalize(errs);
}
