// MPICH test/mpi/coll/p_allgatherv.c: MPI_Allgatherv_init of 2 ints per rank at displacements
// 2 * i, started and waited 10 times. (The C test passes an empty MPI_Info, which phit's init
// calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

const NUM_INTS = 2;

export default async function pAllgatherv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const count = 10;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  const recvcounts = new Int32Array(size);
  const displs = new Int32Array(size);
  const sendbuf = new Int32Array(size);
  const recvbuf = new Int32Array(size * NUM_INTS).fill(-1);
  for (let i = 0; i < size; i++) {
    recvcounts[i] = NUM_INTS;
    displs[i] = i * recvcounts[i]!;
  }
  for (let i = 0; i < NUM_INTS; i++) sendbuf[i] = rank * NUM_INTS + i;
  const req = comm.allgathervInit(sendbuf.subarray(0, NUM_INTS), recvbuf, recvcounts, displs);
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
