// MPICH test/mpi/pt2pt/isendselfprobe.c: an isend to self found by an MPI_Iprobe loop.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Status } from '../../../runtime/mpi/mpi.ts';

export default async function isendselfprobe(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  if (mpi.rank === 0) {
    const sendMsg = Int32Array.of(123);
    const recvMsg = new Int32Array(1);
    const request = mpi.isend(sendMsg, 0, 0);
    let status: Status | null = null;
    while (!status) status = await mpi.iprobe(0, 0, 4);
    if (status.count !== 1) errs++;
    await mpi.recv(recvMsg, 0, 0);
    if (recvMsg[0] !== 123) errs++;
    await mpi.wait(request);
  }
  return mt.finalize(errs);
}
