// MPICH test/mpi/pt2pt/mprobe_self_free.c: an isend to self whose request is freed, then
// MPI_Mprobe and MPI_Mrecv on MPI_COMM_SELF.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function mprobeSelfFree(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const self = mpi.COMM_SELF;
  const dummyData = Int32Array.of(42);
  const req = self.isend(dummyData, 0, 0);
  self.requestFree(req);
  const { message } = await self.mprobe(0, 0);
  const recvd = new Int32Array(1);
  await self.mrecv(recvd, message);
  if (recvd[0] !== dummyData[0]) errs++;
  return mt.finalize(errs);
}
