// MPICH test/mpi/rma/strided_acc_onelock.c: ten times, each rank accumulates (SUM) a 1024 x 1024
// array of doubles into the next rank's window row by row, 1024 accumulates under one exclusive
// lock; every element ends as its own value plus ten times the previous rank's.
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';

const XDIM = 1024;
const YDIM = 1024;
const ITERATIONS = 10;

export default async function stridedAccOnelock(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const sq = new Squelch(mt);
  const rank = mpi.rank;
  const nranks = mpi.size;
  const bufsize = XDIM * YDIM * 8;
  const bufMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const srcMem = mpi.allocMem(bufsize, mpi.INFO_NULL);
  const buffer = new Float64Array(bufMem.buffer, bufMem.byteOffset, XDIM * YDIM);
  const srcBuf = new Float64Array(srcMem.buffer, srcMem.byteOffset, XDIM * YDIM);
  for (let i = 0; i < XDIM * YDIM; i++) {
    buffer[i] = 1.0 + rank;
    srcBuf[i] = 1.0 + rank;
  }
  const bufWin = await mpi.winCreate(buffer, 1, mpi.INFO_NULL);
  const peer = (rank + 1) % nranks;
  for (let i = 0; i < ITERATIONS; i++) {
    await bufWin.lock(mpi.LOCK_EXCLUSIVE, peer, 0);
    for (let j = 0; j < YDIM; j++) await bufWin.accumulate(srcBuf.subarray(j * XDIM), XDIM, mpi.DOUBLE, peer, j * XDIM * 8, XDIM, mpi.DOUBLE, mpi.SUM);
    await bufWin.unlock(peer);
  }
  await mpi.barrier();
  await bufWin.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
  let errors = 0;
  for (let i = 0; i < XDIM; i++) {
    for (let j = 0; j < YDIM; j++) {
      const actual = buffer[i + j * XDIM]!;
      const expected = 1.0 + rank + (1.0 + ((rank + nranks - 1) % nranks)) * ITERATIONS;
      if (Math.abs(actual - expected) > 1.0e-10) {
        sq.printf(`${rank}: Data validation failed at [${j}, ${i}] expected=${expected} actual=${actual}`);
        errors++;
      }
    }
  }
  await bufWin.unlock(rank);
  await bufWin.free();
  mpi.freeMem(bufMem);
  mpi.freeMem(srcMem);
  return mt.finalize(errors);
}
