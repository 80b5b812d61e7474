// MPICH test/mpi/pt2pt/huge_dupcomm.c: huge messages over several communicators at once.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Request } from '../../../runtime/mpi/mpi.ts';

const COUNT = 4 * 1024 * 1024;
const NCOMMS = 4;

export default async function hugeDupcomm(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  if (mpi.size !== 2) throw new Error('Launch with two processes');
  const buff = new Int32Array(COUNT * NCOMMS);
  const comms: Comm[] = [];
  for (let i = 0; i < NCOMMS; i++) comms[i] = await mpi.dup();
  const reqs: Request[] = [];
  for (let i = 0; i < NCOMMS; i++) {
    const part = buff.subarray(COUNT * i, COUNT * (i + 1));
    reqs[i] = mpi.rank === 0 ? comms[i]!.isend(part, 1, 0) : comms[i]!.irecv(part, 0, 0);
  }
  await mpi.waitAll(reqs);
  for (let i = 0; i < NCOMMS; i++) await comms[i]!.free();
  return mt.finalize(0);
}
