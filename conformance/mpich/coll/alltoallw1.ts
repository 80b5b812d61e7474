// MPICH test/mpi/coll/alltoallw1.c: the transpose of a 20 x 30 matrix of floats distributed by
// rows, with MPI_Alltoallw and a pair of derived types per block (a resized column vector tiled by
// a contiguous type out, a vector of rows in) as in "MPI: The Complete Reference" (with the book's
// errors fixed as the original fixes them); the extents of the types are checked and printed.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

const MAX_ERRORS = 10;

/** An m x n submatrix of an M-column matrix of `type` (the destination in the transpose). */
function submatrixType(mt: MTest, mpi: Mpi, M: number, m: number, n: number, type: Datatype): Datatype {
  // the book's type constructor has n times the intended stride: use the vector's blocklength
  const submatrix = mpi.typeVector(n, m, M, type);
  mpi.typeCommit(submatrix);
  // consistency test: the extent should be ((n-1)*M+m) * sizeof(type)
  const tsize = mpi.typeSize(type);
  const textent = mpi.typeGetExtent(submatrix).extent;
  if (textent !== tsize * (M * (n - 1) + m)) mt.printf(`Submatrix extent is ${textent}, expected ${tsize * (M * (n - 1) + m)} (${M},${n},${m})`);
  return submatrix;
}

/** The transpose of an m x n submatrix of an N-column matrix of `type`, read by columns. */
function transposeType(mt: MTest, mpi: Mpi, N: number, m: number, n: number, type: Datatype): Datatype {
  const subrow = mpi.typeVector(m, 1, N, type);
  const { extent } = mpi.typeGetExtent(type);
  const subrow1 = mpi.typeCreateResized(subrow, 0, extent);
  const submatrix = mpi.typeContiguous(n, subrow1);
  mpi.typeCommit(submatrix);
  mpi.typeFree(subrow);
  mpi.typeFree(subrow1);
  // consistency test: the true extent should be ((m-1)*N+n) * sizeof(type)
  const tsize = mpi.typeSize(type);
  const textent = mpi.typeGetTrueExtent(submatrix).extent;
  if (textent !== tsize * (N * (m - 1) + n)) mt.printf(`Transpose Submatrix extent is ${textent}, expected ${tsize * (N * (m - 1) + n)} (${N},${n},${m})`);
  return submatrix;
}

/** The alltoallw call a build of the test makes (alltoallw1's blocking one, p_alltoallw's persistent one). */
export type AlltoallwCall = (comm: Comm, ...args: Parameters<Comm['alltoallw']>) => Promise<void>;

const blocking: AlltoallwCall = (comm, ...args) => comm.alltoallw(...args);

/** Transposes the M x N matrix A, block distributed by rows on comm, into B, block distributed likewise. */
async function transpose(mt: MTest, localA: Float32Array, localB: Float32Array, M: number, N: number, comm: Comm, exchange: AlltoallwCall): Promise<void> {
  const { mpi } = mt;
  const p = comm.size;
  const myrank = comm.rank;
  const extent = 4; // sizeof(float)
  // block sizes
  const m = [Math.trunc(M / p), M - (p - 1) * Math.trunc(M / p)];
  const n = [Math.trunc(N / p), N - (p - 1) * Math.trunc(N / p)];
  const xtype: Datatype[][] = [[], []];
  const stype: Datatype[][] = [[], []];
  for (let i = 0; i <= 1; i++) {
    for (let j = 0; j <= 1; j++) {
      xtype[i]![j] = transposeType(mt, mpi, N, m[i]!, n[j]!, mpi.FLOAT);
      stype[i]![j] = submatrixType(mt, mpi, M, m[i]!, n[j]!, mpi.FLOAT);
    }
  }
  const sendcounts = new Int32Array(p);
  const recvcounts = new Int32Array(p);
  const sdispls = new Int32Array(p);
  const rdispls = new Int32Array(p);
  const sendtypes: Datatype[] = [];
  const recvtypes: Datatype[] = [];
  const lasti = myrank === p - 1 ? 1 : 0;
  for (let j = 0; j < p; j++) {
    const lastj = j === p - 1 ? 1 : 0;
    sendcounts[j] = 1;
    sdispls[j] = j * n[0]! * extent;
    sendtypes[j] = xtype[lasti]![lastj]!;
    recvcounts[j] = 1;
    rdispls[j] = j * m[0]! * extent;
    recvtypes[j] = stype[lastj]![lasti]!;
  }
  await exchange(comm, localA, sendcounts, sdispls, sendtypes, localB, recvcounts, rdispls, recvtypes);
  for (let i = 0; i <= 1; i++) {
    for (let j = 0; j <= 1; j++) {
      mpi.typeFree(xtype[i]![j]!);
      mpi.typeFree(stype[i]![j]!);
    }
  }
}

export default function alltoallw1(mt: MTest): Promise<MTestResult> {
  return transposeTest(mt, blocking);
}

/** The test's main: a 20 x 30 float matrix transposed with `exchange`, every element checked. */
export async function transposeTest(mt: MTest, exchange: AlltoallwCall): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi;
  const size = comm.size;
  const rank = comm.rank;
  const gM = 20;
  const gN = 30;
  // each block is lm x ln, except the last process's, lmlast x lnlast
  const lm = Math.trunc(gM / size);
  const lmlast = gM - (size - 1) * lm;
  const ln = Math.trunc(gN / size);
  const lnlast = gN - (size - 1) * ln;
  // the input matrix holds consecutive integers by row, starting at 0
  const rows = rank === size - 1 ? lmlast : lm;
  const cols = rank === size - 1 ? lnlast : ln;
  const localA = new Float32Array(gN * rows);
  const localB = new Float32Array(gM * cols);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < gN; j++) localA[i * gN + j] = i * gN + j + rank * gN * lm;
  }
  await transpose(mt, localA, localB, gM, gN, comm, exchange);
  // in the global matrix, the transpose has consecutive integers, organized by columns
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < gM; j++) {
      const expected = i + gN * j + rank * ln;
      if (Math.trunc(localB[i * gM + j]!) !== expected) {
        if (errs < MAX_ERRORS) mt.printf(`Found ${Math.trunc(localB[i * gM + j]!)} but expected ${expected}`);
        errs++;
      }
    }
  }
  return mt.finalize(errs);
}
