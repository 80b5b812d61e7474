// MPICH test/mpi/comm/inactive_reqs.c: MPI_Comm_disconnect of a communicator with inactive
// persistent requests (point-to-point and a persistent barrier) returns: only started
// communication is waited for. Requests started and freed, or started and completed, on
// MPI_COMM_WORLD and inactive ones on MPI_COMM_SELF are left as the C test leaves them.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function inactiveReqs(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const comm = await mpi.dup();
  const rank = mpi.rank;
  const size = mpi.size;
  const dst = (rank + 1) % size;
  const src = rank - 1 < 0 ? size - 1 : rank - 1;
  const none = new Int32Array(0);

  // started and freed request on MPI_COMM_WORLD
  const sent = mpi.sendInit(none, dst, 0);
  mpi.start(sent);
  mpi.requestFree(sent);
  // inactive request on MPI_COMM_SELF
  mpi.COMM_SELF.sendInit(none, 0, 0);
  // freed request on the user comm
  mpi.requestFree(comm.sendInit(none, dst, 0));
  // started and completed request on MPI_COMM_WORLD
  const received = mpi.recvInit(none, src, 0);
  mpi.start(received);
  await mpi.wait(received);
  // inactive request on MPI_COMM_SELF
  mpi.COMM_SELF.recvInit(none, 0, 0);
  // inactive request on the user comm
  comm.recvInit(none, src, 0);
  // inactive collective request on the user comm
  comm.barrierInit();

  await comm.disconnect();
  return mt.finalize(errs);
}
