// MPICH test/mpi/coll/alltoallv0.c: MPI_Alltoallv where each rank sends only to its two ring
// neighbours (counts of 0 for the others), the halo-exchange idiom, 1 to 65,535 ints.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function alltoallv0(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    if (size < 3) continue;
    const sendcounts = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const sdispls = new Int32Array(size);
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
      await comm.alltoallv(sbuf, sendcounts, sdispls, rbuf, recvcounts, rdispls);
      for (const [from, off] of [
        [left, 0],
        [right, length],
      ] as const) {
        for (let i = 0; i < length; i++) {
          if (rbuf[off + i] !== i + 100000 * from) {
            if (errs < 10) mt.printf(`[${rank} from ${from}] got ${rbuf[off + i]} expected ${i + 100000 * from} for ${i}th`);
            errs++;
          }
        }
      }
    }
  }
  return mt.finalize(errs);
}
