// MPICH test/mpi/pt2pt/huge_ssend.c: a huge synchronous send.
import type { MTest, MTestResult } from '../mtest.ts';

const COUNT = 4 * 1024 * 1024;

export default async function hugeSsend(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  if (mpi.size !== 2) throw new Error('Launch with two processes');
  const buff = new Int32Array(COUNT);
  if (mpi.rank === 0) await mpi.ssend(buff, 1, 0);
  else await mpi.recv(buff, 0, 0);
  return mt.finalize(0);
}
