// MPICH test/mpi/rma/transpose6.c: one rank accumulates (SUM) its 100 x 100 matrix of ints into a
// copy of it in its own window on MPI_COMM_SELF, transposed (a vector column inside an hvector,
// Example 3.32 of MPI 1.1), in a fence epoch; every element must be B[j][i] + B[i][j].
import type { MTest, MTestResult } from '../mtest.ts';

const NROWS = 100;
const NCOLS = 100;

export default async function transpose6(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  if (rank === 0) {
    // A[i][j] and B[i][j] at i * NCOLS + j
    const A = new Int32Array(NROWS * NCOLS);
    const B = new Int32Array(NROWS * NCOLS);
    for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = B[i * NCOLS + j] = i * NCOLS + j;
    // create datatype for one column
    const column = mpi.typeVector(NROWS, 1, NCOLS, mpi.INT);
    // create datatype for matrix in column-major order
    const xpose = mpi.typeCreateHvector(NCOLS, 1, 4, column);
    mpi.typeCommit(xpose);
    const win = await mpi.COMM_SELF.winCreate(B, 4, mpi.INFO_NULL);
    await win.fence(0);
    await win.accumulate(A, NROWS * NCOLS, mpi.INT, 0, 0, 1, xpose, mpi.SUM);
    mpi.typeFree(column);
    mpi.typeFree(xpose);
    await win.fence(0);
    for (let j = 0; j < NCOLS; j++) {
      for (let i = 0; i < NROWS; i++) {
        if (B[j * NCOLS + i] !== i * NCOLS + j + j * NCOLS + i) {
          if (errs < 20) mt.printf(`Error: B[${j}][${i}]=${B[j * NCOLS + i]} should be ${i * NCOLS + j + j * NCOLS + i}`);
          errs++;
        }
      }
    }
    if (errs >= 20) mt.printf(`Total number of errors: ${errs}`);
    await win.free();
  }
  return mt.finalize(errs);
}
