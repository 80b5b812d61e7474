// MPICH test/mpi/coll/red4.c: MPI_Reduce with a non-commutative user-defined operation whose result
// tells P_0 ... P_{size-1} (what MPI requires) from P_root ... P_{root-1}, at every root, plain and
// MPI_IN_PLACE (one size x size matrix, a contiguous type of size^2 ints: one op item here).
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

const MAXCOL = 256;

export default async function red4(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let matSize = 0;
  const uop = (cin: Int32Array, cout: Int32Array, count: number): void => {
    const tempCol = new Int32Array(MAXCOL);
    if (count !== 1) mt.printf('Panic!');
    for (let nmat = 0; nmat < count; nmat++) {
      const o = nmat * matSize * matSize;
      for (let j = 0; j < matSize; j++) {
        for (let i = 0; i < matSize; i++) {
          tempCol[i] = 0;
          for (let k = 0; k < matSize; k++) tempCol[i]! += cin[o + k + i * matSize]! * cout[o + j + k * matSize]!;
        }
        for (let i = 0; i < matSize; i++) cout[o + j + i * matSize] = tempCol[i]!;
      }
    }
  };
  const initMat = (rank: number, size: number, mat: Int32Array): void => {
    matSize = size;
    mat.fill(0, 0, matSize * matSize);
    for (let i = 0; i < matSize; i++) {
      if (i === rank) mat[((i + 1) % matSize) + i * matSize] = 1;
      else if (i === (rank + 1) % matSize) mat[((i + matSize - 1) % matSize) + i * matSize] = 1;
      else mat[i + i * matSize] = 1;
    }
  };
  const isPermutedIdentity = (size: number, mat: Int32Array): number => {
    let e = 0;
    const check = (i: number, j: number, want: number): void => {
      if (mat[j + i * size] !== want) {
        mt.printf(`mat(${i},${j}) = ${mat[j + i * size]}, should = ${want}`);
        e++;
      }
    };
    // the first two rows
    for (let j = 0; j < size; j++) check(0, j, j === 0 ? 1 : 0);
    for (let j = 0; j < size; j++) check(1, j, j === size - 1 ? 1 : 0);
    // the remaining rows are shifted down by one
    for (let i = 2; i < size; i++) for (let j = 0; j < size; j++) check(i, j, j === i - 1 ? 1 : 0);
    return e;
  };
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    // skip when there are too many processes
    if (size > MAXCOL) continue;
    const count = 1;
    const op = userOp(mpi, uop, false, size * size);
    const buf = new Int32Array(count * size * size);
    const bufout = new Int32Array(count * size * size);
    for (let root = 0; root < size; root++) {
      initMat(rank, size, buf);
      await comm.reduce(buf, bufout, op, root);
      if (rank === root) errs += isPermutedIdentity(size, bufout);
      initMat(rank, size, bufout);
      if (rank === root) await comm.reduce(mpi.IN_PLACE, bufout, op, root);
      else await comm.reduce(bufout, null, op, root);
      if (rank === root) errs += isPermutedIdentity(size, bufout);
    }
  }
  return mt.finalize(errs);
}
