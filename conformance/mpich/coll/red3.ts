// MPICH test/mpi/coll/red3.c: MPI_Reduce must respect the non-commutative flag: the product of
// permutation matrices P_0 ... P_{size-1} (MPI-1 4.9.4), a left shift by one, at every root, plain
// and MPI_IN_PLACE (one size x size matrix, a contiguous type of size^2 ints: one op item here).
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

export default async function red3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let matSize = 0;
  const uop = (cin: Int32Array, cout: Int32Array): void => {
    const tempCol = new Int32Array(matSize);
    for (let j = 0; j < matSize; j++) {
      for (let i = 0; i < matSize; i++) {
        tempCol[i] = 0;
        for (let k = 0; k < matSize; k++) tempCol[i]! += cin[k + i * matSize]! * cout[j + k * matSize]!;
      }
      for (let i = 0; i < matSize; i++) cout[j + i * matSize] = tempCol[i]!;
    }
  };
  const initMat = (rank: number, size: number, mat: Int32Array): void => {
    mat.fill(0, 0, size * size);
    for (let i = 0; i < size; i++) {
      if (rank !== size - 1) {
        if (i === rank) mat[((i + 1) % size) + i * size] = 1;
        else if (i === (rank + 1) % size) mat[((i + size - 1) % size) + i * size] = 1;
        else mat[i + i * size] = 1;
      } else {
        mat[i + i * size] = 1;
      }
    }
  };
  const isShiftLeft = (size: number, mat: Int32Array): number => {
    let e = 0;
    for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) if (mat[j + i * size] !== (i === (j + 1) % size ? 1 : 0)) e++;
    return e;
  };
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const size = comm.size;
    const rank = comm.rank;
    matSize = size;
    const count = 1;
    const op = userOp(mpi, uop, false, size * size);
    const buf = new Int32Array(count * size * size);
    const bufout = new Int32Array(count * size * size);
    for (let root = 0; root < size; root++) {
      initMat(rank, size, buf);
      await comm.reduce(buf, bufout, op, root);
      if (rank === root) errs += isShiftLeft(size, bufout);
      // the same test with MPI_IN_PLACE
      initMat(rank, size, bufout);
      if (rank === root) await comm.reduce(mpi.IN_PLACE, bufout, op, root);
      else await comm.reduce(bufout, null, op, root);
      if (rank === root) errs += isShiftLeft(size, bufout);
    }
  }
  return mt.finalize(errs);
}
