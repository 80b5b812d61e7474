// MPICH test/mpi/rma/transpose4.c: rank 0 puts its 100 x 100 matrix of ints into rank 1's window
// transposed (a vector column inside an hvector, Example 3.32 of MPI 1.1) under a shared lock, over
// a communicator of ranks 0 and 1; rank 1 checks every element after freeing the window.
import type { MTest, MTestResult } from '../mtest.ts';

const NROWS = 100;
const NCOLS = 100;

export default async function transpose4(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const nprocs = mpi.size;
  const rank = mpi.rank;
  if (nprocs < 2) throw new Error('MPI_Abort: Run this program with 2 or more processes');
  const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
  if (rank < 2) {
    // A[i][j] at i * NCOLS + j
    const A = new Int32Array(NROWS * NCOLS);
    if (rank === 0) {
      for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = i * NCOLS + j;
      // create datatype for one column
      const column = mpi.typeVector(NROWS, 1, NCOLS, mpi.INT);
      // create datatype for matrix in column-major order
      const xpose = mpi.typeCreateHvector(NCOLS, 1, 4, column);
      mpi.typeCommit(xpose);
      const win = await commDeuce.winCreate(new Uint8Array(0), 1, mpi.INFO_NULL);
      await win.lock(mpi.LOCK_SHARED, 1, 0);
      await win.put(A, NROWS * NCOLS, mpi.INT, 1, 0, 1, xpose);
      mpi.typeFree(column);
      mpi.typeFree(xpose);
      await win.unlock(1);
      await win.free();
    } else {
      for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = -1;
      const win = await commDeuce.winCreate(A, 4, mpi.INFO_NULL);
      await win.free();
      for (let j = 0; j < NCOLS; j++) {
        for (let i = 0; i < NROWS; i++) {
          if (A[j * NCOLS + i] !== i * NCOLS + j) {
            mt.printf(`Error: A[${j}][${i}]=${A[j * NCOLS + i]} should be ${i * NCOLS + j}`);
            errs++;
          }
        }
      }
    }
  }
  await commDeuce.free();
  return mt.finalize(errs);
}
