// MPICH test/mpi/rma/strided_acc_subarray.c: ten times, each rank accumulates (SUM) a 512 x 512 patch of its
// 1024 x 1024 array of doubles into the same patch of the next rank's window, both sides as
// MPI_Type_create_subarray (MPI_ORDER_C, starts 0, 0), each under an exclusive
// lock; the patch ends as -1 plus ten times the previous rank's value, the rest stays -1.
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';
import { checkPatch } from './strided.ts';

const XDIM = 1024;
const YDIM = 1024;
const SUB_XDIM = 512;
const SUB_YDIM = 512;
const ITERATIONS = 10;

export default async function stridedAccSubarray(mt: MTest): Promise<MTestResult> {
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
  for (let i = 0; i < ITERATIONS; i++) {
    const srcType = mpi.typeCreateSubarray(2, [XDIM, YDIM], [SUB_XDIM, SUB_YDIM], [0, 0], mpi.ORDER_C, mpi.DOUBLE);
    const dstType = mpi.typeCreateSubarray(2, [XDIM, YDIM], [SUB_XDIM, SUB_YDIM], [0, 0], mpi.ORDER_C, mpi.DOUBLE);
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

