// MPICH test/mpi/rma/lockcontention.c: rank 0 puts and rank 2 gets, one int per exclusive-lock
// epoch each, on rank 1's window at the same time.
import type { MTest, MTestResult } from '../mtest.ts';

const SIZE1 = 100;
const SIZE2 = 200;

export default async function lockcontention(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const trank = 1;
  const rank = mpi.rank;
  if (mpi.size < 3) throw new Error('Run this program with 3 or more processes');
  const commThree = (await mpi.split(rank < 3 ? 1 : 0, rank))!;
  const A = new Int32Array(SIZE2);
  const B = new Int32Array(SIZE2);
  if (rank < 3) {
    if (rank === 0) {
      for (let i = 0; i < SIZE2; i++) A[i] = B[i] = i;
    } else if (rank === 2) {
      for (let i = 0; i < SIZE2; i++) A[i] = B[i] = -1;
    } else if (rank === 1) {
      for (let i = 0; i < SIZE2; i++) B[i] = -4 * i;
    }
    const win = await commThree.winCreate(B, 4);
    if (rank === 0) {
      for (let i = 0; i < SIZE1; i++) {
        await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
        await win.put(A.subarray(i), 1, mpi.INT, trank, i, 1, mpi.INT);
        await win.unlock(trank);
      }
      await win.free();
    } else if (rank === 2) {
      for (let i = 0; i < SIZE1; i++) {
        await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
        await win.get(A.subarray(i), 1, mpi.INT, trank, SIZE1 + i, 1, mpi.INT);
        await win.unlock(trank);
      }
      await win.free();
      for (let i = 0; i < SIZE1; i++) {
        if (A[i] !== -4 * (i + SIZE1)) {
          mt.printf(`Get Error: A[${i}] is ${A[i]}, should be ${-4 * (i + SIZE1)}`);
          errs++;
        }
      }
    } else if (rank === 1) {
      // the target
      await win.free();
      for (let i = 0; i < SIZE1; i++) {
        if (B[i] !== i) {
          mt.printf(`Put Error: B[${i}] is ${B[i]}, should be ${i}`);
          errs++;
        }
      }
    }
  }
  await commThree.free();
  return mt.finalize(errs);
}
