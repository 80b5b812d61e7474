// MPICH test/mpi/pt2pt/huge_underflow.c: a huge receive matched by a 1-byte send.
import type { MTest, MTestResult } from '../mtest.ts';

const HUGE_SIZE = 10 * 1024 * 1024;

export default async function hugeUnderflow(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const buff = new Uint8Array(HUGE_SIZE);
  const dest = mpi.size - 1;
  if (mpi.rank === 0) await mpi.send(buff.subarray(0, 1), dest, 0);
  else if (mpi.rank === dest) await mpi.recv(buff, 0, 0);
  await mpi.barrier();
  return mt.finalize(0);
}
