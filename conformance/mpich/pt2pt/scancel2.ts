// MPICH test/mpi/pt2pt/scancel2.c: cancelling a send that has been matched must fail.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function scancel2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = size - 1;
  const bufsizes = [1, 100, 10000, 1000000];
  mt.printfMsg(1, 'Starting scancel test');
  for (let cs = 0; cs < 4; cs++) {
    let n = bufsizes[cs]!;
    const buf = new Uint8Array(n);
    if (rank === source) {
      mt.printfMsg(1, `(${cs}) About to create isend and cancel`);
      const req = comm.isend(buf, dest, cs + n + 1);
      await comm.barrier();
      comm.cancel(req);
      const status = await comm.wait(req);
      mt.printfMsg(1, 'Completed wait on isend');
      if (status.cancelled) {
        errs++;
        mt.printf(`Cancelled a matched Isend request (msg size = ${n})!`);
      } else {
        n = 0;
      }
      // send the size, zero for not cancelled (success)
      await comm.send(Int32Array.of(n), dest, 123);
    } else if (rank === dest) {
      await comm.recv(buf, source, cs + n + 1);
      await comm.barrier();
      await comm.recv(new Int32Array(1), source, 123);
    } else {
      await comm.barrier();
    }
    await comm.barrier();
  }
  return mt.finalize(errs);
}
