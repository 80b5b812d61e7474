// MPICH test/mpi/pt2pt/bsendfrag.c: bsend message handling where different messages are
// received in different orders; messages are large enough to stay in the bsend buffer until
// received. (MPI_ERRORS_RETURN is set only to report failures, which here end the run.)
import type { MTest, MTestResult } from '../mtest.ts';
import { BSEND_OVERHEAD } from '../../../runtime/mpi/mpi.ts';

const MSG_SIZE = 17000;

export default async function bsendfrag(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const comm = mt.mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  if (size < 2) throw new Error('At least 2 processes required');
  const src = 0;
  const dest = 1;
  const b1 = new Int32Array(MSG_SIZE);
  const b2 = new Int32Array(MSG_SIZE);
  const b3 = new Int32Array(MSG_SIZE);
  const b4 = new Int32Array(MSG_SIZE);
  if (rank === src) {
    const bufsize = 4 * (MSG_SIZE * 4 + BSEND_OVERHEAD);
    comm.bufferAttach(bufsize);
    for (let i = 0; i < MSG_SIZE; i++) {
      b1[i] = i;
      b2[i] = MSG_SIZE + i;
      b3[i] = 2 * MSG_SIZE + i;
      b4[i] = 3 * MSG_SIZE + i;
    }
    // send and reset buffers after bsend returns
    await comm.bsend(b1, dest, 0);
    for (let i = 0; i < MSG_SIZE; i++) b1[i] = -b1[i]!;
    await comm.bsend(b2, dest, 1);
    for (let i = 0; i < MSG_SIZE; i++) b2[i] = -b2[i]!;
    await comm.bsend(b3, dest, 2);
    for (let i = 0; i < MSG_SIZE; i++) b3[i] = -b3[i]!;
    await comm.bsend(b4, dest, 3);
    for (let i = 0; i < MSG_SIZE; i++) b4[i] = -b4[i]!;
    await comm.barrier();
    // detach waits until all messages are received
    await comm.bufferDetach();
  } else if (rank === dest) {
    await comm.barrier();
    await comm.recv(b2, src, 1);
    await comm.recv(b1, src, 0);
    await comm.recv(b4, src, 3);
    await comm.recv(b3, src, 2);
    for (let i = 0; i < MSG_SIZE; i++) {
      if (b1[i] !== i) {
        errs++;
        if (errs < 16) mt.printf(`b1[${i}] is ${b1[i]}`);
      }
      if (b2[i] !== MSG_SIZE + i) {
        errs++;
        if (errs < 16) mt.printf(`b2[${i}] is ${b2[i]}`);
      }
      if (b3[i] !== 2 * MSG_SIZE + i) {
        errs++;
        if (errs < 16) mt.printf(`b3[${i}] is ${b3[i]}`);
      }
      if (b4[i] !== 3 * MSG_SIZE + i) {
        errs++;
        if (errs < 16) mt.printf(`b4[${i}] is ${b4[i]}`);
      }
    }
  } else {
    await comm.barrier();
  }
  return mt.finalize(errs);
}
