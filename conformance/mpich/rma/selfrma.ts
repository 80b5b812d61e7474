// MPICH test/mpi/rma/selfrma.c: RMA to self with a vector type (250 ints, every other one) at both
// ends: a put under an exclusive lock, an accumulate (SUM) and a get under shared locks, each
// checked element by element.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function selfrma(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi;
  const rank = comm.rank;
  // allocate and initialize sbuf
  const scount = 1000;
  const count = 1000;
  const sbuf = new Int32Array(scount);
  for (let i = 0; i < scount; i++) sbuf[i] = i;
  const winMem = mpi.allocMem(count * 4, mpi.INFO_NULL);
  const winbuf = new Int32Array(winMem.buffer, winMem.byteOffset, count);
  // a simple vector type
  const vcount = Math.trunc(count / 4);
  const vectype = mpi.typeVector(vcount, 1, 2, mpi.INT);
  mpi.typeCommit(vectype);
  const win = await comm.winCreate(winMem, 4, mpi.INFO_NULL);
  const check = (label: string): void => {
    let j = 0;
    for (let i = 0; i < vcount; i++) {
      if (winbuf[j] !== sbuf[j]) {
        errs++;
        mt.printf(`${label}: winbuf[${j}] = ${winbuf[j]}, should = ${sbuf[j]}`);
      }
      j += 2;
    }
  };
  // different combinations of types, including non-contiguous on both sides; clear winbuf
  winbuf.fill(0);
  await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
  await win.put(sbuf, 1, vectype, rank, 0, 1, vectype);
  await win.unlock(rank);
  check('VecPut');
  winbuf.fill(0);
  await win.lock(mpi.LOCK_SHARED, rank, 0);
  await win.accumulate(sbuf, 1, vectype, rank, 0, 1, vectype, mpi.SUM);
  await win.unlock(rank);
  check('VecAcc');
  // now, use get to fetch back the results that we just wrote
  sbuf.fill(0);
  await win.lock(mpi.LOCK_SHARED, rank, 0);
  await win.get(sbuf, 1, vectype, rank, 0, 1, vectype);
  await win.unlock(rank);
  check('VecAcc');
  await win.free();
  mpi.freeMem(winMem);
  mpi.typeFree(vectype);
  return mt.finalize(errs);
}
