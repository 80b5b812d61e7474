// MPICH test/mpi/coll/p_allgather.c: MPI_Allgather_init of 2 ints per rank, started and waited 10
// times. (The C test passes an empty MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

const NUM_INTS = 2;

export default async function pAllgather(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const count = 10;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  const sendbuf = new Int32Array(NUM_INTS);
  const recvbuf = new Int32Array(size * NUM_INTS).fill(-1);
  for (let i = 0; i < NUM_INTS; i++) sendbuf[i] = rank * NUM_INTS + i;
  const req = comm.allgatherInit(sendbuf, recvbuf);
  for (let i = 0; i < count; i++) {
    mpi.start(req);
    await mpi.wait(req);
    // check the results
    for (let j = 0; j < size * NUM_INTS; j++) {
      if (recvbuf[j] !== j) {
        errs++;
        if (errs < 10) mt.printf(`rbuf[${j}] = ${recvbuf[j]} expected ${j}`);
      }
    }
  }
  mpi.requestFree(req);
  return mt.finalize(errs);
}
