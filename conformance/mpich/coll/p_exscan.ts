// MPICH test/mpi/coll/p_exscan.c: MPI_Exscan_init (MPI_SUM) of each rank's rank, started and
// waited 10 times; rank 0's receive buffer is left alone. (The C test passes an empty MPI_Info,
// which phit's init calls do not take.)
import type { MTest, MTestResult } from '../mtest.ts';

export default async function pExscan(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi;
  const rank = comm.rank;
  const sendbuf = Int32Array.of(rank);
  const recvbuf = Int32Array.of(-2);
  const req = comm.exscanInit(sendbuf, recvbuf, mpi.SUM);
  for (let i = 0; i < 10; ++i) {
    mpi.start(req);
    await mpi.wait(req);
    // rank 0 has no data; the others the scan not counting their own contribution
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
  }
  mpi.requestFree(req);
  return mt.finalize(errs);
}
