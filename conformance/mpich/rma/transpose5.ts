// MPICH test/mpi/rma/transpose5.c: rank 0 accumulates (SUM) its 1000 x 1000 matrix of ints into
// rank 1's copy of it transposed (a vector column inside an hvector, Example 3.32 of MPI 1.1) in
// a fence epoch over a communicator of ranks 0 and 1; rank 1 checks that every element is
// A[j][i] + A[i][j].
import type { Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const NROWS = 1000;
const NCOLS = 1000;

export default async function transpose5(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const nprocs = mpi.size;
  const rank = mpi.rank;
  if (nprocs < 2) throw new Error('MPI_Abort: Run this program with 2 or more processes');
  const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
  if (rank < 2) {
    // A[i][j] at i * NCOLS + j
    const A = new Int32Array(NROWS * NCOLS);
    let win: Win;
    if (rank === 0) {
      for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = i * NCOLS + j;
      // create datatype for one column
      const column = mpi.typeVector(NROWS, 1, NCOLS, mpi.INT);
      // create datatype for matrix in column-major order
      const xpose = mpi.typeCreateHvector(NCOLS, 1, 4, column);
      mpi.typeCommit(xpose);
      win = await commDeuce.winCreate(new Uint8Array(0), 1, mpi.INFO_NULL);
      await win.fence(0);
      await win.accumulate(A, NROWS * NCOLS, mpi.INT, 1, 0, 1, xpose, mpi.SUM);
      mpi.typeFree(column);
      mpi.typeFree(xpose);
      await win.fence(0);
    } else {
      for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = i * NCOLS + j;
      win = await commDeuce.winCreate(A, 4, mpi.INFO_NULL);
      await win.fence(0);
      await win.fence(0);
      for (let j = 0; j < NCOLS; j++) {
        for (let i = 0; i < NROWS; i++) {
          if (A[j * NCOLS + i] !== i * NCOLS + j + j * NCOLS + i) {
            if (errs < 50) mt.printf(`Error: A[${j}][${i}]=${A[j * NCOLS + i]} should be ${i * NCOLS + j + j * NCOLS + i}`);
            errs++;
          }
        }
      }
      if (errs >= 50) mt.printf(`Total number of errors: ${errs}`);
    }
    await win.free();
  }
  await commDeuce.free();
  return mt.finalize(errs);
}
