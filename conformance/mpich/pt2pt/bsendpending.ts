// MPICH test/mpi/pt2pt/bsendpending.c: the handling of bsend operations when a detach occurs
// before the bsend data has been sent, over MTest's intracommunicators.
import type { MTest, MTestResult } from '../mtest.ts';
import { BSEND_OVERHEAD } from '../../../runtime/mpi/mpi.ts';

export default async function bsendpending(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const minsize = 2;
  const msgsize = 128 * 1024;
  const msg1 = new Uint8Array(msgsize);
  const msg2 = new Uint8Array(msgsize);
  const msg3 = new Uint8Array(msgsize);
  for await (const comm of mt.intracomms(minsize, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    const source = 0;
    const dest = size - 1;
    if (rank === source) {
      // a bsend buffer large enough that the bsend internals will (probably) not use an eager
      // send for the data; three such messages
      const bufsize = 3 * (BSEND_OVERHEAD + msgsize);
      comm.bufferAttach(bufsize);
      for (let i = 0; i < msgsize; i++) {
        msg1[i] = 0xff ^ (i & 0xff);
        msg2[i] = 0xff ^ ((3 * i) & 0xff);
        msg3[i] = 0xff ^ ((5 * i) & 0xff);
      }
      await comm.bsend(msg1, dest, 0);
      await comm.bsend(msg2, dest, 0);
      await comm.bsend(msg3, dest, 0);
      // synchronize with our partner
      await comm.sendrecv(new Uint8Array(0), dest, 10, new Uint8Array(0), dest, 10);
      // detach the buffers; there should be pending operations
      const outsize = await comm.bufferDetach();
      if (outsize !== bufsize) {
        mt.printf('Wrong buffer size returned');
        errs++;
      }
    } else if (rank === dest) {
      msg1.fill(0);
      msg2.fill(0);
      msg3.fill(0);
      await comm.sendrecv(new Uint8Array(0), source, 10, new Uint8Array(0), source, 10);
      // wait 2 seconds (a busy loop on MPI_Wtime in C)
      await mt.ctx.compute({ us: 2e6 });
      await comm.recv(msg1, source, 0);
      await comm.recv(msg2, source, 0);
      await comm.recv(msg3, source, 0);
      for (let i = 0; i < msgsize; i++) {
        if (msg1[i] !== (0xff ^ (i & 0xff))) {
          if (errs < 10) mt.printf(`msg1[${i}] = ${msg1[i]}`);
          errs++;
        }
        if (msg2[i] !== (0xff ^ ((3 * i) & 0xff))) {
          if (errs < 10) mt.printf(`msg2[${i}] = ${msg2[i]}`);
          errs++;
        }
        if (msg3[i] !== (0xff ^ ((5 * i) & 0xff))) {
          if (errs < 10) mt.printf(`msg2[${i}] = ${msg2[i]}`);
          errs++;
        }
      }
    }
  }
  return mt.finalize(errs);
}
