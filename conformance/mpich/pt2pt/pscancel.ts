// MPICH test/mpi/pt2pt/pscancel.c: cancel a started persistent send, bsend and ssend of 1 B to
// 1 MB that no receive matches (the erroneous rsend part is compiled only with TEST_IRSEND, and so
// left out here too).
import type { MTest, MTestResult } from '../mtest.ts';
import { BSEND_OVERHEAD, type Request } from '../../../runtime/mpi/mpi.ts';

export default async function pscancel(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const comm = mt.mpi.COMM_WORLD;
  const rank = comm.rank;
  const dest = comm.size - 1;
  const bufsizes = [1, 100, 10000, 1000000];
  for (let cs = 0; cs < 4; cs++) {
    const kinds: [string, number, (buf: Uint8Array, tag: number) => Request][] = [
      ['send', 1, (buf, tag) => comm.sendInit(buf, dest, tag)],
      ['bsend', 2, (buf, tag) => comm.bsendInit(buf, dest, tag)],
      ['ssend', 4, (buf, tag) => comm.ssendInit(buf, dest, tag)],
    ];
    for (const [name, offset, init] of kinds) {
      if (rank === 0) {
        let n = bufsizes[cs]!;
        const buf = new Uint8Array(n);
        if (name === 'bsend') comm.bufferAttach(n + BSEND_OVERHEAD);
        const req = init(buf, cs + n + offset);
        comm.start(req);
        comm.cancel(req);
        const status = await comm.wait(req);
        if (!status.cancelled) {
          errs++;
          mt.printf(`Failed to cancel a persistent ${name} request`);
        } else {
          n = 0;
        }
        comm.requestFree(req);
        // send the size, zero for successfully cancelled
        await comm.send(Int32Array.of(n), dest, 123);
        // send the tag so the message can be received
        n = cs + n + offset;
        await comm.send(Int32Array.of(n), dest, 123);
        if (name === 'bsend') await comm.bufferDetach();
      } else if (rank === dest) {
        const nn = new Int32Array(1);
        const tag = new Int32Array(1);
        await comm.recv(nn, 0, 123);
        await comm.recv(tag, 0, 123);
        // if the message was not cancelled, receive it here
        if (nn[0]! > 0) await comm.recv(new Uint8Array(nn[0]!), 0, tag[0]!);
      }
      await comm.barrier();
    }
  }
  return mt.finalize(errs);
}
