// MPICH test/mpi/rma/test4_am.c: puts and gets between two ranks, each in its own shared-lock
// epoch, the buffers from MPI_Alloc_mem (test4.c without its second pass with MPI_MODE_NOCHECK).
import type { MTest, MTestResult } from '../mtest.ts';
import { ints } from './win-over.ts';

const SIZE1 = 100;
const SIZE2 = 200;

export default async function test4Am(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let sq = 0;
  const rank = mpi.rank;
  if (mpi.size < 2) throw new Error('Run this program with 2 or more processes');
  const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
  if (rank < 2) {
    const A = ints(mpi, SIZE2, true);
    const B = ints(mpi, SIZE2, true);
    if (rank === 0) {
      for (let i = 0; i < SIZE2; i++) A[i] = B[i] = i;
      const win = await commDeuce.winCreate(new Uint8Array(0), 1);
      for (let i = 0; i < SIZE1; i++) {
        await win.lock(mpi.LOCK_SHARED, 1, 0);
        await win.put(A.subarray(i), 1, mpi.INT, 1, i, 1, mpi.INT);
        await win.unlock(1);
      }
      for (let i = 0; i < SIZE1; i++) {
        await win.lock(mpi.LOCK_SHARED, 1, 0);
        await win.get(B.subarray(i), 1, mpi.INT, 1, SIZE1 + i, 1, mpi.INT);
        await win.unlock(1);
      }
      await win.free();
      for (let i = 0; i < SIZE1; i++) {
        if (B[i] !== -4 * (i + SIZE1)) {
          if (sq++ < 10) mt.printf(`Get Error: B[${i}] is ${B[i]}, should be ${-4 * (i + SIZE1)}`);
          errs++;
        }
      }
    } else {
      // rank 1
      for (let i = 0; i < SIZE2; i++) B[i] = -4 * i;
      const win = await commDeuce.winCreate(B, 4);
      await win.free();
      for (let i = 0; i < SIZE1; i++) {
        if (B[i] !== i) {
          if (sq++ < 10) mt.printf(`Put Error: B[${i}] is ${B[i]}, should be ${i}`);
          errs++;
        }
      }
    }
    mpi.freeMem(A);
    mpi.freeMem(B);
  }
  await commDeuce.free();
  return mt.finalize(errs);
}
