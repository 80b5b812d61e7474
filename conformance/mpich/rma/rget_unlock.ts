// MPICH test/mpi/rma/rget_unlock.c: 128 single-int MPI_Rget requests in a lock_all epoch are
// complete at MPI_Win_unlock_all: the buffer written afterwards keeps its values after MPI_Waitall.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const N_ELMS = 128;
const BLOCKSIZE = 1;
const N_BLOCKS = N_ELMS / BLOCKSIZE;

export default async function rgetUnlock(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  const trg = (rank + 1) % size;
  const rbuf = new Int32Array(N_ELMS).fill(rank);
  const lbuf = new Int32Array(N_ELMS).fill(-1);
  const reqs: Request[] = [];
  const win = await mpi.winCreate(rbuf, 4);
  await win.lockAll(mpi.MODE_NOCHECK);
  for (let i = 0; i < N_BLOCKS; i++) reqs[i] = await win.rget(lbuf.subarray(i * BLOCKSIZE), BLOCKSIZE, mpi.INT, trg, i * BLOCKSIZE, BLOCKSIZE, mpi.INT);
  await win.unlockAll();
  lbuf.fill(-2);
  await mpi.waitAll(reqs);
  for (let i = 0; i < N_ELMS; i++) {
    const v = lbuf[i];
    if (v !== -2) {
      mt.printf(`lbuf[${i}]=${v}, expected -2`);
      errs++;
    }
  }
  await win.free();
  return mt.finalize(errs);
}
