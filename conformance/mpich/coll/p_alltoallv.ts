// MPICH test/mpi/coll/p_alltoallv.c: MPI_Alltoallv_init as a halo exchange over MTest's
// intracommunicators of 3 ranks or more: each rank sends 1 to 65,535 ints to its left and right
// neighbours only (counts 0 for the others), each request started and waited 10 times. (The C
// test passes an empty MPI_Info, which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pAlltoallv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    if (size < 3) continue;
    // the arguments to alltoallv
    const sendcounts = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const sdispls = new Int32Array(size);
    // the neighbours
    const left = (rank - 1 + size) % size;
    const right = (rank + 1) % size;
    for (let length = 1; length < 66000; length = length * 2 + 1) {
      const sbuf = new Int32Array(2 * length);
      const rbuf = new Int32Array(2 * length);
      for (let i = 0; i < length; i++) {
        sbuf[i] = i + 100000 * rank;
        sbuf[i + length] = i + 100000 * rank;
        rbuf[i] = -i;
        rbuf[i + length] = -i - length;
      }
      sendcounts[left] = length;
      sendcounts[right] = length;
      recvcounts[left] = length;
      recvcounts[right] = length;
      rdispls[left] = 0;
      rdispls[right] = length;
      sdispls[left] = 0;
      sdispls[right] = length;
      const req = comm.alltoallvInit(sbuf, sendcounts, sdispls, rbuf, recvcounts, rdispls);
      for (let j = 0; j < 10; ++j) {
        mpi.start(req);
        await mpi.wait(req);
        // check rbuf: left, then right
        for (const [from, p] of [
          [left, 0],
          [right, length],
        ] as const) {
          for (let i = 0; i < length; i++) {
            if (rbuf[p + i] !== i + 100000 * from) {
              if (errs < 10) mt.printf(`[${rank} from ${from}] got ${rbuf[p + i]} expected ${i + 100000 * from} for ${i}th`);
              errs++;
            }
          }
        }
      }
      mpi.requestFree(req);
    }
  }
  return mt.finalize(errs);
}
