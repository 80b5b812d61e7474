// MPICH test/mpi/coll/p_bcast.c: MPI_Bcast_init of 10 ints from rank 0, started and waited 1000
// times, the other ranks resetting their buffer before each start. (The C test passes an empty
// MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

const NUM_INTS = 10;

export default async function pBcast(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const count = 1000;
  const root = 0;
  const comm = mpi;
  const rank = comm.rank;
  const sbuf = new Int32Array(NUM_INTS);
  if (rank === root) for (let i = 0; i < NUM_INTS; ++i) sbuf[i] = i;
  const req = comm.bcastInit(sbuf, root);
  for (let i = 0; i < count; i++) {
    if (rank !== root) sbuf.fill(-1);
    mpi.start(req);
    await mpi.wait(req);
    // check the results
    for (let j = 0; j < NUM_INTS; j++) {
      if (sbuf[j] !== j) {
        errs++;
        if (errs < 10) mt.printf(`sbuf[${j}] = ${sbuf[j]} expected ${j}`);
      }
    }
  }
  mpi.requestFree(req);
  return mt.finalize(errs);
}
