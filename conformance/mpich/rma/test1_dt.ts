// MPICH test/mpi/rma/test1_dt.c: test1 with a derived target type: rank 0 puts and rank 1 gets
// pairs of ints as one MPI_Type_contiguous(2, MPI_INT) each, and rank 1 accumulates the last pair,
// in one fence epoch between ranks 0 and 1.
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';

const SIZE = 100;

export default async function test1Dt(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const sq = new Squelch(mt);
  let errs = 0;
  const nprocs = mpi.size;
  const rank = mpi.rank;
  if (nprocs < 2) throw new Error('MPI_Abort: Run this program with 2 or more processes');
  const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
  if (rank < 2) {
    const A = new Int32Array(SIZE);
    const B = new Int32Array(SIZE);
    if (rank === 0) {
      for (let i = 0; i < SIZE; i++) A[i] = B[i] = i;
    } else {
      for (let i = 0; i < SIZE; i++) {
        A[i] = -3 * i;
        B[i] = -4 * i;
      }
    }
    const contig2ints = mpi.typeContiguous(2, mpi.INT);
    mpi.typeCommit(contig2ints);
    const win = await commDeuce.winCreate(B, 4, mpi.INFO_NULL);
    await win.fence(0);
    if (rank === 0) {
      for (let i = 0; i < SIZE - 2; i += 2) await win.put(A.subarray(i), 2, mpi.INT, 1, i, 1, contig2ints);
    } else {
      for (let i = 0; i < SIZE - 2; i += 2) await win.get(A.subarray(i), 2, mpi.INT, 0, i, 1, contig2ints);
      await win.accumulate(A.subarray(SIZE - 2), 2, mpi.INT, 0, SIZE - 2, 1, contig2ints, mpi.SUM);
    }
    await win.fence(0);
    if (rank === 1) {
      for (let i = 0; i < SIZE - 2; i++) {
        if (A[i] !== B[i]) {
          sq.printf(`Put/Get Error: A[i]=${A[i]}, B[i]=${B[i]}`);
          errs++;
        }
      }
    } else if (B[SIZE - 1] !== SIZE - 1 - 3 * (SIZE - 1)) {
      sq.printf(`Accumulate Error: B[SIZE-1] is ${B[SIZE - 1]}, should be ${SIZE - 1 - 3 * (SIZE - 1)}`);
      errs++;
    }
    await win.free();
    mpi.typeFree(contig2ints);
  }
  await commDeuce.free();
  return mt.finalize(errs);
}
