// MPICH test/mpi/pt2pt/rcancel.c: various receive cancel calls, with multiple requests to cancel
// in an order that exercises the queue operations.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function rcancel(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = size - 1;
  const bufsizes = [1, 100, 10000, 1000000];
  if (rank === source) {
    await comm.send(new Uint8Array(0), dest, 1);
  } else if (rank === dest) {
    // 3 requests to cancel, plus one to use; then receive one message and exit
    const req: Request[] = [];
    for (let i = 0; i < 4; i++) req[i] = comm.irecv(new Uint8Array(bufsizes[i]!), source, i);
    for (const i of [2, 3, 0]) {
      comm.cancel(req[i]!);
      const status = await comm.wait(req[i]!);
      mt.printfMsg(1, `Completed wait on irecv[${i}]`);
      if (!status.cancelled) {
        errs++;
        mt.printf(`Failed to cancel a Irecv[${i}] request`);
      }
    }
    const status = await comm.wait(req[1]!);
    if (status.cancelled) {
      errs++;
      mt.printf('Incorrectly cancelled Irecv[1]');
    }
  }
  return mt.finalize(errs);
}
