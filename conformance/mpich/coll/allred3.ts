// MPICH test/mpi/coll/allred3.c: MPI_Allreduce with a non-commutative user-defined operation, the
// product of permutation matrices (one size x size matrix per rank, a contiguous type of size^2
// ints: one op item of size^2 elements here), plain and MPI_IN_PLACE.
import { assert, userOp, type MTest, type MTestResult } from '../mtest.ts';

export default async function allred3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let matSize = 0;
  let maxOffset = 0;
  // c(i,j) is cin[j+i*matSize]; cout = cin x cout for each of count matrices
  const uop = (cin: Int32Array, cout: Int32Array, count: number): void => {
    const tempcol = new Int32Array(matSize);
    const msq = matSize * matSize;
    for (let nmat = 0; nmat < count; nmat++) {
      const ci = nmat * msq;
      for (let j = 0; j < matSize; j++) {
        for (let i = 0; i < matSize; i++) {
          tempcol[i] = 0;
          for (let k = 0; k < matSize; k++) {
            const offset1 = k + i * matSize;
            const offset2 = j + k * matSize;
            assert(offset1 < maxOffset, 'offset1 < max_offset');
            assert(offset2 < maxOffset, 'offset2 < max_offset');
            tempcol[i]! += cin[ci + offset1]! * cout[ci + offset2]!;
          }
        }
        for (let i = 0; i < matSize; i++) cout[ci + j + i * matSize] = tempcol[i]!;
      }
    }
  };
  // P_r permutes r with r+1; P_0 ... P_{size-2} shifts left by one, and the last rank's matrix
  // shifts right by one, so the product is the identity
  const initMat = (rank: number, size: number, mat: Int32Array): void => {
    mat.fill(0, 0, size * size);
    if (rank < size - 1) {
      for (let i = 0; i < size; i++) {
        if (i === rank) mat[((i + 1) % size) + i * size] = 1;
        else if (i === (rank + 1) % size) mat[((i + size - 1) % size) + i * size] = 1;
        else mat[i + i * size] = 1;
      }
    } else {
      for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) mat[j + i * size] = (j - i + size) % size === 1 ? 1 : 0;
    }
  };
  const isIdentity = (rank: number, size: number, mat: Int32Array): number => {
    let lerrs = 0;
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        const want = i === j ? 1 : 0;
        if (mat[j + i * size] !== want) {
          lerrs++;
          if (errs + lerrs < 10) mt.printf(`[${rank}] mat[${i},${j}] = ${mat[j + i * size]}, expected ${want} for comm ${mt.getIntracommName()}`);
        }
      }
    }
    return lerrs;
  };
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    matSize = size;
    const count = 1;
    const op = userOp(mpi, uop, false, size * size);
    maxOffset = count * size * size;
    const buf = new Int32Array(maxOffset);
    const bufout = new Int32Array(maxOffset);
    initMat(rank, size, buf);
    await comm.allreduce(buf, bufout, op);
    errs += isIdentity(rank, size, bufout);
    initMat(rank, size, bufout);
    await comm.allreduce(mpi.IN_PLACE, bufout, op);
    errs += isIdentity(rank, size, bufout);
  }
  return mt.finalize(errs);
}
