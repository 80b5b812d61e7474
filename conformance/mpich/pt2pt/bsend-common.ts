// The receiving half shared by MPICH's bsend2.c, bsend3.c, bsend4.c, bsend5.c and bsendalign.c
// (the same lines in each): rank 0 receives ten messages from every rank and checks them.
import type { MTest } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

/** Rank 0's receive loop over `size` senders; returns the errors found. */
export async function bsendToZero(mt: MTest, comm: Comm, size: number, align: string): Promise<number> {
  let errs = 0;
  const b = new Int32Array(10);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < 10; j++) {
      const status = await comm.recv(b, i, 27 + j);
      if (status.tag !== 27 + j) {
        errs++;
        mt.printf(`Wrong tag = ${status.tag}`);
      }
      if (status.source !== i) {
        errs++;
        mt.printf(`Wrong source = ${status.source}`);
      }
      for (let k = 0; k < 10; k++) {
        if (b[k] !== (i + 10 * j) * size + k) {
          errs++;
          mt.printf(`${align}received b[${k}] = ${b[k]} from ${i} tag ${27 + j}`);
        }
      }
    }
  }
  return errs;
}
