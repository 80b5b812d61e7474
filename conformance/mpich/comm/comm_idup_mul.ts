// MPICH test/mpi/comm/comm_idup_mul.c: ten MPI_Comm_idup of world at once.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Request } from '../../../runtime/mpi/mpi.ts';

const NUM_ITER = 10;

export default async function commIdupMul(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const comms: Comm[] = [];
  const req: Request[] = [];
  for (let i = 0; i < NUM_ITER; i++) ({ comm: comms[i]!, request: req[i]! } = mpi.idup());
  await mpi.waitAll(req);
  for (let i = 0; i < NUM_ITER; i++) await comms[i]!.free();
  return mt.finalize(0);
}
