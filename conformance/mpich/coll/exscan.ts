// MPICH test/mpi/coll/exscan.c: MPI_Exscan of 1 to 32,768 ints over MTest's intracommunicators,
// then the same in place (rank 0's buffer must stay as it was).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function exscan(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let count = 1; count < 65000; count = count * 2) {
      const sendbuf = new Int32Array(count);
      const recvbuf = new Int32Array(count);
      for (let i = 0; i < count; i++) {
        sendbuf[i] = rank + i * size;
        recvbuf[i] = -1;
      }
      await comm.exscan(sendbuf, recvbuf, mpi.SUM);
      // rank 0 has no data
      if (rank > 0) {
        for (let i = 0; i < count; i++) {
          const result = rank * i * size + (rank * (rank - 1)) / 2;
          if (recvbuf[i] !== result) {
            errs++;
            if (errs < 10) mt.printf(`Error in recvbuf[${i}] = ${recvbuf[i]} on ${rank}, expected ${result}`);
          }
        }
      }
      // the MPI_IN_PLACE flavor (MPI-2.2)
      for (let i = 0; i < count; i++) {
        sendbuf[i] = -1;
        recvbuf[i] = rank + i * size;
      }
      await comm.exscan(mpi.IN_PLACE, recvbuf, mpi.SUM);
      for (let i = 0; i < count; i++) {
        const result = rank === 0 ? rank + i * size : rank * i * size + (rank * (rank - 1)) / 2;
        if (recvbuf[i] !== result) {
          errs++;
          if (errs < 10) mt.printf(`Error in recvbuf[${i}] = ${recvbuf[i]} on ${rank}, expected ${result}`);
        }
      }
    }
  }
  return mt.finalize(errs);
}
