// MPICH test/mpi/pt2pt/huge_anysrc.c: many outstanding large transfers received with wildcard
// receives.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const N_TRY = 32;
const BLKSIZE = 10 * 1024 * 1024;

export default async function hugeAnysrc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const buff = new Uint8Array(N_TRY * BLKSIZE).fill(0xff);
  const rank = mpi.rank;
  const dest = mpi.size - 1;
  const reqs: Request[] = [];
  if (rank === 0) {
    for (let i = 0; i < N_TRY; i++) reqs[i] = mpi.isend(buff.subarray(BLKSIZE * i, BLKSIZE * (i + 1)), dest, 0);
    await mpi.waitAll(reqs);
  } else if (rank === dest) {
    for (let i = 0; i < N_TRY; i++) reqs[i] = mpi.irecv(buff.subarray(BLKSIZE * i, BLKSIZE * (i + 1)), mpi.ANY_SOURCE, 0);
    await mpi.waitAll(reqs);
  }
  return mt.finalize(0);
}
