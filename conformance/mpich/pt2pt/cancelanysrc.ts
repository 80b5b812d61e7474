// MPICH test/mpi/pt2pt/cancelanysrc.c: cancel an MPI_ANY_SOURCE receive, then receive normally.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

export default async function cancelanysrc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  if (mpi.size !== 2) throw new Error('ERROR: must be run with 2 processes');
  const msg = new Int32Array(1);
  if (mpi.rank === 0) {
    msg[0] = -1;
    // post, then cancel an MPI_ANY_SOURCE recv
    let request = mpi.irecv(msg, mpi.ANY_SOURCE, 0);
    mpi.cancel(request);
    const status = await mpi.wait(request);
    assert(status.cancelled === true, 'cancelled');
    await mpi.barrier();
    request = mpi.irecv(msg, mpi.ANY_SOURCE, 0);
    await mpi.wait(request);
    assert(msg[0] === 42, 'msg == 42');
  } else {
    await mpi.barrier();
    msg[0] = 42;
    await mpi.send(msg, 0, 0);
  }
  return mt.finalize(0);
}

