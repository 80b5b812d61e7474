// MPICH test/mpi/coll/p_red.c: MPI_Reduce_init (MPI_SUM, root 1) of 2 ints, started and waited 10
// times. (The C test passes an empty MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

const NUM_INTS = 2;

export default async function pRed(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const count = 10;
  const root = 1;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  const sbuf = new Int32Array(NUM_INTS);
  const rbuf = new Int32Array(NUM_INTS);
  for (let i = 0; i < NUM_INTS; ++i) sbuf[i] = rank + i;
  const req = comm.reduceInit(sbuf, rbuf, mpi.SUM, root);
  for (let i = 0; i < count; i++) {
    mpi.start(req);
    await mpi.wait(req);
    // check the results
    if (rank === root) {
      for (let j = 0; j < NUM_INTS; j++) {
        const result = j * size + (size * (size - 1)) / 2;
        if (rbuf[j] !== result) {
          errs++;
          if (errs < 10) mt.printf(`rbuf[${j}] = ${rbuf[j]} expected ${result}`);
        }
      }
    }
  }
  mpi.requestFree(req);
  return mt.finalize(errs);
}
