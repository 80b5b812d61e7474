// MPICH test/mpi/rma/lockopts.c: the lock optimisations for a derived origin type (a vector of
// 10 ints 4 apart) and a predefined target type: rank 1, under a shared lock on rank 0, accumulates
// (SUM), puts, gets an int and then puts, and puts and then gets an int; rank 0 checks its window
// under an exclusive lock after each, and rank 1 the int it got.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function lockopts(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const nprocs = mpi.size;
  const wrank = mpi.rank;
  if (nprocs < 2) throw new Error('MPI_Abort: Run this program with 2 or more processes');
  const memsize = 10 * 4 * nprocs;
  // create and initialize data areas
  const srcbuf = new Int32Array(memsize);
  const rmaMem = mpi.allocMem(4 * memsize, mpi.INFO_NULL);
  const rmabuf = new Int32Array(rmaMem.buffer, rmaMem.byteOffset, memsize);
  for (let i = 0; i < memsize; i++) {
    rmabuf[i] = -i;
    srcbuf[i] = i;
  }
  const win = await mpi.winCreate(rmaMem, 4, mpi.INFO_NULL);
  // vector of 10 elements, separated by 4
  const vectype = mpi.typeVector(10, 1, 4, mpi.INT);
  mpi.typeCommit(vectype);
  /** Rank 0's check after each phase: the first ten ints hold `want(i)`, the rest -i; resets them. */
  const check = async (label: string, want: (i: number) => number): Promise<void> => {
    await mpi.barrier();
    await win.lock(mpi.LOCK_EXCLUSIVE, 0, 0);
    for (let i = 0; i < 10; i++) {
      if (rmabuf[i] !== want(i)) {
        errs++;
        mt.printf(`${label}: expected rmabuf[${i}] = ${want(i)} but saw ${rmabuf[i]}`);
      }
      rmabuf[i] = -i;
    }
    for (let i = 10; i < memsize; i++) {
      if (rmabuf[i] !== -i) {
        errs++;
        mt.printf(`${label}: expected rmabuf[${i}] = ${-i} but saw ${rmabuf[i]}`);
        rmabuf[i] = -i;
      }
    }
    await win.unlock(0);
  };
  const val = new Int32Array(1);
  const checkVal = (): void => {
    if (val[0] !== -10) {
      errs++;
      mt.printf(`Get: Expected -10, got ${val[0]}`);
    }
  };
  // accumulate with a derived origin type and target predefined type
  if (wrank === 0) await check('Acc', (i) => -i + 4 * i);
  else if (wrank === 1) {
    await win.lock(mpi.LOCK_SHARED, 0, 0);
    await win.accumulate(srcbuf, 1, vectype, 0, 0, 10, mpi.INT, mpi.SUM);
    await win.unlock(0);
    await mpi.barrier();
  } else await mpi.barrier();
  await mpi.barrier();
  // put with a derived origin type and target predefined type
  if (wrank === 0) await check('Put', (i) => 4 * i);
  else if (wrank === 1) {
    await win.lock(mpi.LOCK_SHARED, 0, 0);
    await win.put(srcbuf, 1, vectype, 0, 0, 10, mpi.INT);
    await win.unlock(0);
    await mpi.barrier();
  } else await mpi.barrier();
  await mpi.barrier();
  // the same with a get before it (see the move-to-end optimization)
  if (wrank === 0) await check('Put', (i) => 4 * i);
  else if (wrank === 1) {
    await win.lock(mpi.LOCK_SHARED, 0, 0);
    await win.get(val, 1, mpi.INT, 0, 10, 1, mpi.INT);
    await win.put(srcbuf, 1, vectype, 0, 0, 10, mpi.INT);
    await win.unlock(0);
    await mpi.barrier();
    checkVal();
  } else await mpi.barrier();
  await mpi.barrier();
  // the same with a get already at the end
  if (wrank === 0) await check('Put', (i) => 4 * i);
  else if (wrank === 1) {
    await win.lock(mpi.LOCK_SHARED, 0, 0);
    await win.put(srcbuf, 1, vectype, 0, 0, 10, mpi.INT);
    await win.get(val, 1, mpi.INT, 0, 10, 1, mpi.INT);
    await win.unlock(0);
    await mpi.barrier();
    checkVal();
  } else await mpi.barrier();
  await win.free();
  mpi.freeMem(rmaMem);
  mpi.typeFree(vectype);
  return mt.finalize(errs);
}
