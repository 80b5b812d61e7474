// MPICH test/mpi/rma/strided_acc_indexed.c: each rank accumulates (SUM) an 8 x 8 patch of its
// 16 x 16 array of doubles into the same patch of the next rank's window, both sides as
// MPI_Type_indexed (the relative build; the -DABSOLUTE one needs MPI_BOTTOM), under an exclusive
// lock; the patch ends as -1 plus the previous rank's value, the rest stays -1.
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';
import { checkPatch } from './strided.ts';

const XDIM = 16;
const YDIM = 16;
const SUB_XDIM = 8;
const SUB_YDIM = 8;
const ITERATIONS = 1;

export default async function stridedAccIndexed(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const sq = new Squelch(mt);
  const rank = mpi.rank;
  const nranks = mpi.size;
  const bufsize = XDIM * YDIM * 8;
  const winMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const srcMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const winBuf = new Float64Array(winMem.buffer, winMem.byteOffset, XDIM * YDIM);
  const srcBuf = new Float64Array(srcMem.buffer, srcMem.byteOffset, XDIM * YDIM);
  for (let i = 0; i < XDIM * YDIM; i++) {
    winBuf[i] = -1.0;
    srcBuf[i] = 1.0 + rank;
  }
  const bufWin = await mpi.winCreate(winBuf, 1, mpi.INFO_NULL);
  const peer = (rank + 1) % nranks;
  for (let itr = 0; itr < ITERATIONS; itr++) {
    const idxRem: number[] = [];
    const blkLen: number[] = [];
    for (let i = 0; i < SUB_YDIM; i++) {
      idxRem.push(i * XDIM);
      blkLen.push(SUB_XDIM);
    }
    const srcType = mpi.typeIndexed(SUB_YDIM, blkLen, idxRem, mpi.DOUBLE);
    const dstType = mpi.typeIndexed(SUB_YDIM, blkLen, idxRem, mpi.DOUBLE);
    mpi.typeCommit(srcType);
    mpi.typeCommit(dstType);
    await bufWin.lock(mpi.LOCK_EXCLUSIVE, peer, 0);
    await bufWin.accumulate(srcBuf, 1, srcType, peer, 0, 1, dstType, mpi.SUM);
    await bufWin.unlock(peer);
    mpi.typeFree(srcType);
    mpi.typeFree(dstType);
  }
  await mpi.barrier();
  await bufWin.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
  const errors = checkPatch(sq, rank, winBuf, { xdim: XDIM, ydim: YDIM, subX: SUB_XDIM, subY: SUB_YDIM }, -1.0 + (1.0 + ((rank + nranks - 1) % nranks)) * ITERATIONS);
  await bufWin.unlock(rank);
  await bufWin.free();
  mpi.freeMem(winMem);
  mpi.freeMem(srcMem);
  return mt.finalize(errors);
}

