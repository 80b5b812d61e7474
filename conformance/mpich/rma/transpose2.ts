// MPICH test/mpi/rma/transpose2.c: rank 0 puts its 100 x 100 matrix of ints into rank 1's window
// transposed, as NCOLS columns (a vector resized to the extent of one int; Example 3.33 of
// MPI 1.1), in one fence epoch over a communicator of ranks 0 and 1; rank 1 checks every element.
import type { Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const NROWS = 100;
const NCOLS = 100;

export default async function transpose2(mt: MTest): Promise<MTestResult> {
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
      // create datatype for one column, with the extent of one integer
      const column1 = mpi.typeCreateResized(column, 0, 4);
      mpi.typeCommit(column1);
      win = await commDeuce.winCreate(new Uint8Array(0), 1, mpi.INFO_NULL);
      await win.fence(0);
      await win.put(A, NROWS * NCOLS, mpi.INT, 1, 0, NCOLS, column1);
      mpi.typeFree(column);
      mpi.typeFree(column1);
      await win.fence(0);
    } else {
      for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = -1;
      win = await commDeuce.winCreate(A, 4, mpi.INFO_NULL);
      await win.fence(0);
      await win.fence(0);
      for (let j = 0; j < NCOLS; j++) {
        for (let i = 0; i < NROWS; i++) {
          if (A[j * NCOLS + i] !== i * NCOLS + j) {
            if (errs < 50) mt.printf(`Error: A[${j}][${i}]=${A[j * NCOLS + i]} should be ${i * NCOLS + j}`);
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
