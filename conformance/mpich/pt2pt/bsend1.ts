// MPICH test/mpi/pt2pt/bsend1.c: a simple test of bsend, also as a single process (bsend allows
// send-to-self programs); the message sizes are chosen to expose alignment problems.
import type { MTest, MTestResult } from '../mtest.ts';
import { BSEND_OVERHEAD } from '../../../runtime/mpi/mpi.ts';

const enc = new TextEncoder();

/** The C string of `len` bytes that strncpy leaves: the text, then NULs. */
function cstr(text: string, len: number): Uint8Array {
  const b = new Uint8Array(len);
  b.set(enc.encode(text).subarray(0, len));
  return b;
}

/** strcmp of two NUL-terminated byte strings: 0 when equal. */
function strcmp(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; ; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x - y;
    if (x === 0) return 0;
  }
}

export default async function bsend1(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi.COMM_WORLD;
  const dest = 0;
  const src = 0;
  const tag = 1;
  let errs = 0;
  const rank = comm.rank;
  // MPI_Pack_size of 7 and 17 MPI_CHAR and of 2 MPI_DOUBLE: their bytes
  const s1 = 7;
  const s2 = 2 * 8;
  const s3 = 17;
  const bufsize = 3 * BSEND_OVERHEAD + s1 + s2 + s3;
  comm.bufferAttach(bufsize);
  const msg1 = cstr('012345', 7);
  const msg3 = cstr('0123401234012341', 17);
  const msg2 = Float64Array.of(1.23, 3.21);
  const rmsg1 = new Uint8Array(64);
  const rmsg2 = new Float64Array(64);
  const rmsg3 = new Uint8Array(64);
  if (rank === src) {
    await comm.bsend(msg1, dest, tag);
    await comm.bsend(msg2, dest, tag);
    await comm.bsend(msg3, dest, tag);
  }
  if (rank === dest) {
    await comm.recv(rmsg1.subarray(0, 7), src, tag);
    await comm.recv(rmsg2.subarray(0, 10), src, tag);
    await comm.recv(rmsg3.subarray(0, 17), src, tag);
    if (strcmp(rmsg1, msg1) !== 0) {
      errs++;
      mt.printf('message 1 should be 012345');
    }
    if (rmsg2[0] !== msg2[0] || rmsg2[1] !== msg2[1]) {
      errs++;
      mt.printf(`message 2 incorrect, values are (${rmsg2[0]},${rmsg2[1]}) but should be (${msg2[0]},${msg2[1]})`);
    }
    if (strcmp(rmsg3, msg3) !== 0) {
      errs++;
      mt.printf('message 3 should be 0123401234012341');
    }
  }
  // we can't guarantee that messages arrive until the detach
  await comm.bufferDetach();
  return mt.finalize(errs);
}
