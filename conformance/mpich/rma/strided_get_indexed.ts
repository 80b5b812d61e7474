// MPICH test/mpi/rma/strided_get_indexed.c: each rank gets an 8 x 256 patch of the next rank's
// 8 x 1024 window of doubles into the same patch of its local array, both sides as
// MPI_Type_indexed, under an exclusive lock; the patch ends as the peer's value, the rest stays -1.
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';
import { checkPatch } from './strided.ts';

const XDIM = 8;
const YDIM = 1024;
const SUB_XDIM = 8;
const SUB_YDIM = 256;

export default async function stridedGetIndexed(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const sq = new Squelch(mt);
  const rank = mpi.rank;
  const nranks = mpi.size;
  const bufsize = XDIM * YDIM * 8;
  const winMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const locMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const winBuf = new Float64Array(winMem.buffer, winMem.byteOffset, XDIM * YDIM);
  const locBuf = new Float64Array(locMem.buffer, locMem.byteOffset, XDIM * YDIM);
  for (let i = 0; i < XDIM * YDIM; i++) {
    winBuf[i] = 1.0 + rank;
    locBuf[i] = -1.0;
  }
  const bufWin = await mpi.winCreate(winBuf, 1, mpi.INFO_NULL);
  const peer = (rank + 1) % nranks;
  // build the datatype
  const idxRem: number[] = [];
  const blkLen: number[] = [];
  for (let i = 0; i < SUB_YDIM; i++) {
    idxRem.push(i * XDIM);
    blkLen.push(SUB_XDIM);
  }
  const locType = mpi.typeIndexed(SUB_YDIM, blkLen, idxRem, mpi.DOUBLE);
  const remType = mpi.typeIndexed(SUB_YDIM, blkLen, idxRem, mpi.DOUBLE);
  mpi.typeCommit(locType);
  mpi.typeCommit(remType);
  // perform get operation
  await bufWin.lock(mpi.LOCK_EXCLUSIVE, peer, 0);
  await bufWin.get(locBuf, 1, locType, peer, 0, 1, remType);
  await bufWin.unlock(peer);
  mpi.typeFree(locType);
  mpi.typeFree(remType);
  await mpi.barrier();
  const errors = checkPatch(sq, rank, locBuf, { xdim: XDIM, ydim: YDIM, subX: SUB_XDIM, subY: SUB_YDIM }, 1.0 + peer);
  await bufWin.free();
  mpi.freeMem(winMem);
  mpi.freeMem(locMem);
  return mt.finalize(errors);
}
