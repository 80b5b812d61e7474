// MPICH test/mpi/rma/transpose3.c: rank 0 puts its 100 x 100 matrix of ints into rank 1's window
// transposed (a vector column inside an hvector, Example 3.32 of MPI 1.1) in a start/complete
// epoch that rank 1 exposes with post/wait, over a communicator of ranks 0 and 1; rank 1 checks
// every element. transpose3_shm is the -DUSE_WIN_ALLOCATE build (MPI_Win_allocate windows).
import type { Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';

const NROWS = 100;
const NCOLS = 100;

function transpose3Build(allocate: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const sq = new Squelch(mt);
    let errs = 0;
    const nprocs = mpi.size;
    const rank = mpi.rank;
    if (nprocs < 2) throw new Error('MPI_Abort: Run this program with 2 or more processes');
    const commDeuce = (await mpi.split(rank < 2 ? 1 : 0, rank))!;
    if (rank < 2) {
      const commGroup = commDeuce.group;
      let win: Win;
      if (rank === 0) {
        const A = new Int32Array(NROWS * NCOLS);
        for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = i * NCOLS + j;
        // create datatype for one column
        const column = mpi.typeVector(NROWS, 1, NCOLS, mpi.INT);
        // create datatype for matrix in column-major order
        const xpose = mpi.typeCreateHvector(NCOLS, 1, 4, column);
        mpi.typeCommit(xpose);
        if (allocate) win = (await commDeuce.winAllocate(0, 1, mpi.INFO_NULL)).win;
        else win = await commDeuce.winCreate(new Uint8Array(0), 1, mpi.INFO_NULL);
        const group = commGroup.incl([1]);
        await win.start(group, 0);
        await win.put(A, NROWS * NCOLS, mpi.INT, 1, 0, 1, xpose);
        mpi.typeFree(column);
        mpi.typeFree(xpose);
        await win.complete();
      } else {
        let mem: Uint8Array;
        if (allocate) {
          const a = await commDeuce.winAllocate(NROWS * NCOLS * 4, 4, mpi.INFO_NULL);
          win = a.win;
          mem = a.buf;
        } else {
          mem = mpi.allocMem(NROWS * NCOLS * 4, mpi.INFO_NULL);
          win = await commDeuce.winCreate(mem, 4, mpi.INFO_NULL);
        }
        const A = new Int32Array(mem.buffer, mem.byteOffset, NROWS * NCOLS);
        await win.lock(mpi.LOCK_SHARED, rank, 0);
        for (let i = 0; i < NROWS; i++) for (let j = 0; j < NCOLS; j++) A[i * NCOLS + j] = -1;
        await win.unlock(rank);
        const group = commGroup.incl([0]);
        await win.post(group, 0);
        await win.wait();
        for (let j = 0; j < NCOLS; j++) {
          for (let i = 0; i < NROWS; i++) {
            if (A[j * NROWS + i] !== i * NCOLS + j) {
              if (errs < 50) sq.printf(`Error: A[${j}][${i}]=${A[j * NROWS + i]} should be ${i * NCOLS + j}`);
              errs++;
            }
          }
        }
        if (errs >= 50) mt.printf(`Total number of errors: ${errs}`);
        if (!allocate) mpi.freeMem(mem);
      }
      await win.free();
    }
    await commDeuce.free();
    return mt.finalize(errs);
  };
}

export default transpose3Build(false);
/** transpose3_shm: the USE_WIN_ALLOCATE build. */
export const transpose3Shm = transpose3Build(true);
