// MPICH test/mpi/datatype/transpose_pack.c: MPI_Pack of a 100x100 int matrix with a transposing
// type (an hvector of int-stride of column vectors), unpacked as 10,000 ints: the transpose.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function transposePack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  const a = new Int32Array(100 * 100);
  const b = new Int32Array(100 * 100);
  // a with known values
  for (let i = 0; i < 100; i++) {
    for (let j = 0; j < 100; j++) {
      a[i * 100 + j] = i * 1000 + j;
      b[i * 100 + j] = -1;
    }
  }
  const sizeofint = mpi.typeGetExtent(mpi.INT).extent;
  // the datatypes
  const row = mpi.typeVector(100, 1, 100, mpi.INT);
  const xpose = mpi.typeCreateHvector(100, 1, sizeofint, row);
  mpi.typeCommit(xpose);
  // pack it
  const bufsize = mpi.packSize(1, xpose);
  const buffer = new Uint8Array(bufsize);
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  mpi.pack(a, 1, xpose, buffer, 0);
  // unpack the buffer into b
  mpi.unpack(buffer, 0, b, 100 * 100, mpi.INT);
  for (let i = 0; i < 100; i++) {
    for (let j = 0; j < 100; j++) {
      if (b[i * 100 + j] !== a[j * 100 + i]) {
        errs++;
        if (verbose) mt.printf(`b[${i}][${j}] = ${b[i * 100 + j]}, should be ${a[j * 100 + i]}`);
      }
    }
  }
  mpi.typeFree(xpose);
  mpi.typeFree(row);
  return mt.finalize(errs);
}
