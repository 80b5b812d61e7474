// MPICH test/mpi/coll/allred4.c: MPI_Allreduce with a non-commutative user-defined operation on
// 3x3 rotation matrices (a contiguous type of 9 ints: one op item of 9 elements here), 1 to
// size-1 matrices per call, plain and MPI_IN_PLACE: I^k A I^(p-2-k-j) B I^j is always the same
// rotation.
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

/** cout = cin x cout for each of count 3x3 matrices. */
function matmult(cin: Int32Array, cout: Int32Array, count: number): void {
  const tempcol = new Int32Array(3);
  for (let nmat = 0; nmat < count; nmat++) {
    const o = nmat * 9;
    for (let j = 0; j < 3; j++) {
      for (let i = 0; i < 3; i++) {
        tempcol[i] = 0;
        for (let k = 0; k < 3; k++) tempcol[i]! += cin[o + k + i * 3]! * cout[o + j + k * 3]!;
      }
      for (let i = 0; i < 3; i++) cout[o + j + i * 3] = tempcol[i]!;
    }
  }
}

/** The identity, or A on rank size/4 and B on rank 3 size/4 (A on 0, B on 1 for two ranks). */
function initMat(rank: number, size: number, mat: Int32Array): void {
  mat.fill(0, 0, 9);
  let kind = 0;
  if (size === 2) {
    kind = 1 + rank;
  } else {
    if (rank === Math.floor(size / 4)) kind = 1;
    if (rank === Math.floor((3 * size) / 4)) kind = 2;
  }
  switch (kind) {
    case 0:
      mat[0] = 1;
      mat[4] = 1;
      mat[8] = 1;
      break;
    case 1:
      mat[0] = 1;
      mat[5] = 1;
      mat[7] = 1;
      break;
    case 2:
      mat[1] = 1;
      mat[3] = 1;
      mat[8] = 1;
      break;
  }
}

const SOLUTION = [0, 1, 0, 0, 0, 1, 1, 0, 0];

export default async function allred4(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const wrank = mpi.rank;
  const checkResult = (nmat: number, mat: Int32Array, msg: string): number => {
    let e = 0;
    for (let n = 0; n < nmat; n++) {
      for (let k = 0; k < 9; k++) {
        if (mat[n * 9 + k] !== SOLUTION[k]) {
          e++;
          if (e === 1) mt.printf(`Errors for communicators ${mt.getIntracommName()}`);
          if (e < 10) mt.printf(`[${wrank}]matrix #${n}(${msg}): Expected mat[${Math.floor(k / 3)},${k % 3}] = ${SOLUTION[k]}, got ${mat[n * 9 + k]}`);
        }
      }
    }
    return e;
  };
  const op = userOp(mpi, matmult, false, 9);
  // sanity check: the routines work
  {
    const buf = new Int32Array(4 * 9);
    for (let r = 0; r < 4; r++) initMat(r, 4, buf.subarray(9 * r));
    matmult(buf.subarray(0), buf.subarray(9), 1);
    matmult(buf.subarray(9), buf.subarray(18), 1);
    matmult(buf.subarray(18), buf.subarray(27), 1);
    checkResult(1, buf.subarray(27), 'Sanity Check');
  }
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    for (let count = 1; count < size; count++) {
      const buf = new Int32Array(count * 9);
      const bufout = new Int32Array(count * 9);
      for (let i = 0; i < count; i++) initMat(rank, size, buf.subarray(i * 9));
      await comm.allreduce(buf, bufout, op);
      errs += checkResult(count, bufout, '');
      // the same test with MPI_IN_PLACE
      for (let i = 0; i < count; i++) initMat(rank, size, bufout.subarray(i * 9));
      await comm.allreduce(mpi.IN_PLACE, bufout, op);
      errs += checkResult(count, bufout, 'IN_PLACE');
    }
  }
  return mt.finalize(errs);
}
