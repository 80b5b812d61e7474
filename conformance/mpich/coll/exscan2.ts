// MPICH test/mpi/coll/exscan2.c: MPI_Exscan of each rank's number (a simple test); rank 0's buffer
// is left as it was.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function exscan2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const sendbuf = Int32Array.of(rank);
  const recvbuf = Int32Array.of(-2);
  await mpi.exscan(sendbuf, recvbuf, mpi.SUM);
  if (rank > 0) {
    const result = (rank * (rank - 1)) / 2;
    if (recvbuf[0] !== result) {
      errs++;
      mt.printf(`Error in recvbuf = ${recvbuf[0]} on ${rank}, expected ${result}`);
    }
  } else if (recvbuf[0] !== -2) {
    errs++;
    mt.printf(`Error in recvbuf on zero, is ${recvbuf[0]}`);
  }
  return mt.finalize(errs);
}
