// MPICH test/mpi/pt2pt/scancel.c: cancel an unmatched Isend, Ibsend and Issend of 1 B to 1 MB
// (the erroneous Irsend part is compiled only with TEST_IRSEND, and so left out here too).
import type { MTest, MTestResult } from '../mtest.ts';
import { BSEND_OVERHEAD, type Comm, type Request } from '../../../runtime/mpi/mpi.ts';

export default async function scancel(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const comm = mt.mpi.COMM_WORLD;
  const rank = comm.rank;
  const dest = comm.size - 1;
  const bufsizes = [1, 100, 10000, 1000000];
  mt.printfMsg(1, 'Starting scancel test');
  for (let cs = 0; cs < 4; cs++) {
    const kinds: [string, number, (buf: Uint8Array, tag: number) => Request][] = [
      ['Isend', 1, (buf, tag) => comm.isend(buf, dest, tag)],
      ['Ibsend', 2, (buf, tag) => comm.ibsend(buf, dest, tag)],
      ['Issend', 4, (buf, tag) => comm.issend(buf, dest, tag)],
    ];
    for (const [name, offset, start] of kinds) {
      if (rank === 0) {
        let n = bufsizes[cs]!;
        const buf = new Uint8Array(n);
        if (name === 'Ibsend') comm.bufferAttach(n + BSEND_OVERHEAD);
        mt.printfMsg(1, `(${cs}) About to create ${name.toLowerCase()} and cancel`);
        const req = start(buf, cs + n + offset);
        comm.cancel(req);
        const status = await comm.wait(req);
        if (!status.cancelled) {
          errs++;
          mt.printf(`Failed to cancel an ${name} request`);
        } else {
          n = 0;
        }
        // send the size, zero for successfully cancelled
        await comm.send(Int32Array.of(n), dest, 123);
        // send the tag so the message can be received
        n = cs + n + offset;
        await comm.send(Int32Array.of(n), dest, 123);
        if (name === 'Ibsend') await comm.bufferDetach();
      } else if (rank === dest) {
        await receiveIfNotCancelled(comm);
      }
      await comm.barrier();
    }
  }
  return mt.finalize(errs);
}

/** The destination's half: the size (0 if cancelled) and tag, then the message if it was not cancelled. */
async function receiveIfNotCancelled(comm: Comm): Promise<void> {
  const nn = new Int32Array(1);
  const tag = new Int32Array(1);
  await comm.recv(nn, 0, 123);
  await comm.recv(tag, 0, 123);
  if (nn[0]! > 0) await comm.recv(new Uint8Array(nn[0]!), 0, tag[0]!);
}
