// MPICH test/mpi/coll/redscatbkinter.c: MPI_Reduce_scatter_block (MPI_SUM on long long) over
// MTest's intercommunicators: each rank gets 1024 x (remote size) elements of the other group's
// sum.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function redscatbkinter(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const basecount = 1024;
  for await (const { comm, isLeftGroup } of mt.intercomms(2)) {
    if (!comm) continue;
    const rsize = comm.remoteSize;
    const size = comm.size;
    const rank = comm.rank;
    const recvcount = basecount * rsize;
    const sendcount = basecount * rsize * size;
    const sendbuf = new BigInt64Array(sendcount);
    for (let i = 0; i < sendcount; i++) sendbuf[i] = BigInt(rank * sendcount + i);
    const recvbuf = new BigInt64Array(recvcount);
    for (let i = 0; i < recvcount; i++) recvbuf[i] = BigInt(-i);
    await comm.reduceScatterBlock(sendbuf, recvbuf, mpi.SUM);
    // check the received data
    for (let i = 0; i < recvcount; i++) {
      const sumval = BigInt(sendcount) * BigInt((rsize * (rsize - 1)) / 2) + BigInt(i + rank * rsize * basecount) * BigInt(rsize);
      if (recvbuf[i] !== sumval) {
        errs++;
        if (errs < 4) {
          mt.printf('Did not get expected value for reduce scatter');
          mt.printf(`[${rank}] ${isLeftGroup ? 'L' : 'R'} recvbuf[${i}] = ${recvbuf[i]}, expected ${sumval}`);
        }
      }
    }
  }
  return mt.finalize(errs);
}
