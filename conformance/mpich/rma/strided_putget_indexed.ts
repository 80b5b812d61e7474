// MPICH test/mpi/rma/strided_putget_indexed.c and its three sibling sources: ten times, each rank
// writes an 8 x 255 patch (strided_getacc_indexed: 1 x 2) of its 8 x 1024 array of doubles into
// the same patch of the next rank's window and reads it back, both sides as MPI_Type_indexed, each
// under its own exclusive lock: with MPI_Put and MPI_Get, or (getacc) with MPI_Get_accumulate's
// REPLACE and NO_OP; the patch ends as the previous rank's value, the rest stays -1. The _shared
// sources make the window with MPI_Win_allocate_shared over MPI_Comm_split_type(SHARED) and fence
// around the initialisation.
import type { Comm, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';
import { checkPatch } from './strided.ts';

const XDIM = 8;
const YDIM = 1024;
const ITERATIONS = 10;

async function stridedPutget(mt: MTest, getacc: boolean, shared: boolean): Promise<MTestResult> {
  const { mpi } = mt;
  const sq = new Squelch(mt);
  const SUB_XDIM = getacc ? 1 : 8;
  const SUB_YDIM = getacc ? 2 : 255;
  const comm: Comm = shared ? ((await mpi.splitType(mpi.COMM_TYPE_SHARED, mpi.rank)) as Comm) : mpi;
  const rank = comm.rank;
  const nranks = comm.size;
  const bufsize = XDIM * YDIM * 8;
  let winMem: Uint8Array;
  let bufWin!: Win;
  if (shared) {
    const a = await comm.winAllocateShared(bufsize, 1, mpi.INFO_NULL);
    bufWin = a.win;
    winMem = a.buf;
    await bufWin.fence(0);
  } else {
    winMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  }
  const winBuf = new Float64Array(winMem.buffer, winMem.byteOffset, XDIM * YDIM);
  const srcMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const dstMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const srcBuf = new Float64Array(srcMem.buffer, srcMem.byteOffset, XDIM * YDIM);
  const dstBuf = new Float64Array(dstMem.buffer, dstMem.byteOffset, XDIM * YDIM);
  for (let i = 0; i < XDIM * YDIM; i++) {
    winBuf[i] = -1.0;
    srcBuf[i] = 1.0 + rank;
  }
  if (shared) await bufWin.fence(0);
  else bufWin = await mpi.winCreate(winBuf, 1, mpi.INFO_NULL);
  const peer = (rank + 1) % nranks;
  for (let i = 0; i < ITERATIONS; i++) {
    const idxRem: number[] = [];
    const blkLen: number[] = [];
    for (let j = 0; j < SUB_YDIM; j++) {
      idxRem.push(j * XDIM);
      blkLen.push(SUB_XDIM);
    }
    const srcType = mpi.typeIndexed(SUB_YDIM, blkLen, idxRem, mpi.DOUBLE);
    const dstType = mpi.typeIndexed(SUB_YDIM, blkLen, idxRem, mpi.DOUBLE);
    mpi.typeCommit(srcType);
    mpi.typeCommit(dstType);
    await bufWin.lock(mpi.LOCK_EXCLUSIVE, peer, 0);
    if (getacc) await bufWin.getAccumulate(srcBuf, 1, srcType, dstBuf, 1, srcType, peer, 0, 1, dstType, mpi.REPLACE);
    else await bufWin.put(srcBuf, 1, srcType, peer, 0, 1, dstType);
    await bufWin.unlock(peer);
    await bufWin.lock(mpi.LOCK_EXCLUSIVE, peer, 0);
    if (getacc) await bufWin.getAccumulate(srcBuf, 1, srcType, dstBuf, 1, srcType, peer, 0, 1, dstType, mpi.NO_OP);
    else await bufWin.get(dstBuf, 1, srcType, peer, 0, 1, dstType);
    await bufWin.unlock(peer);
    mpi.typeFree(srcType);
    mpi.typeFree(dstType);
  }
  await comm.barrier();
  await bufWin.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
  const errors = checkPatch(sq, rank, winBuf, { xdim: XDIM, ydim: YDIM, subX: SUB_XDIM, subY: SUB_YDIM }, 1.0 + ((rank + nranks - 1) % nranks));
  await bufWin.unlock(rank);
  await bufWin.free();
  if (!shared) mpi.freeMem(winMem);
  mpi.freeMem(srcMem);
  mpi.freeMem(dstMem);
  if (shared) await comm.free();
  return mt.finalize(errors);
}

export default (mt: MTest): Promise<MTestResult> => stridedPutget(mt, false, false);
/** strided_putget_indexed_shared.c. */
export const stridedPutgetIndexedShared = (mt: MTest): Promise<MTestResult> => stridedPutget(mt, false, true);
/** strided_getacc_indexed.c. */
export const stridedGetaccIndexed = (mt: MTest): Promise<MTestResult> => stridedPutget(mt, true, false);
/** strided_getacc_indexed_shared.c. */
export const stridedGetaccIndexedShared = (mt: MTest): Promise<MTestResult> => stridedPutget(mt, true, true);
