// MPICH test/mpi/pt2pt/sendrecv2.c: a vector of 8 to 60 rows of 128 chars with a stride of 129:
// the 129th char of each row must not be touched by the receive.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function sendrecv2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  if (size < 2) {
    errs++;
    return mt.finalize(errs);
  }
  const buf = new Int8Array(64 * 129);
  for (let i = 8; i < 64; i += 4) {
    const newtype = mpi.typeCommit(mpi.typeVector(i, 128, 129, mpi.CHAR));
    buf.fill(0);
    if (rank === 0) {
      for (let j = 0; j < i; j++) for (let k = 0; k < 129; k++) buf[129 * j + k] = j;
      await mpi.send(buf, 1, newtype, 1, i);
    } else if (rank === 1) {
      await mpi.recv(buf, 1, newtype, 0, i);
      for (let j = 0; j < i; j++) {
        for (let k = 0; k < 129; k++) {
          if (k < 128 && buf[129 * j + k] !== j) errs++;
          else if (k === 128 && buf[129 * j + k] !== 0) errs++;
        }
      }
    }
    mpi.typeFree(newtype);
  }
  if (rank === 0) {
    const recvErrs = new Int32Array(1);
    await mpi.recv(recvErrs, 1, 0);
    errs += recvErrs[0]!;
  } else if (rank === 1) {
    await mpi.send(Int32Array.of(errs), 0, 0);
  }
  return mt.finalize(errs);
}
