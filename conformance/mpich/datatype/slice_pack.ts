// MPICH test/mpi/datatype/slice_pack.c: MPI_Pack of a 9x9x9 slice a[0-8][2-10][1, 3, ..., 17] of a
// 100x100x100 int array (vector, hvector, hvector), unpacked as 729 ints.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function slicePack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const a = new Int32Array(100 * 100 * 100);
  const e = new Int32Array(9 * 9 * 9);
  const at = (i: number, j: number, k: number): number => (i * 100 + j) * 100 + k;
  // a with known values
  for (let i = 0; i < 100; i++) for (let j = 0; j < 100; j++) for (let k = 0; k < 100; k++) a[at(i, j, k)] = i * 1000000 + j * 1000 + k;
  const sizeofint = mpi.typeGetExtent(mpi.INT).extent;
  const verbose = mt.argv[0] === '-v';
  // the datatypes: the slice is a[0-8][2-10][1, 3, 5, ..., 17]
  const oneslice = mpi.typeVector(9, 1, 2, mpi.INT);
  const twoslice = mpi.typeCreateHvector(9, 1, 100 * sizeofint, oneslice);
  const threeslice = mpi.typeCreateHvector(9, 1, 100 * 100 * sizeofint, twoslice);
  mpi.typeCommit(threeslice);
  // pack it into a buffer
  const bufsize = mpi.packSize(1, threeslice);
  const buffer = new Uint8Array(bufsize);
  // -1 to the sheet's indices, from Fortran to C
  mpi.pack(a.subarray(at(0, 2, 1)), 1, threeslice, buffer, 0);
  // unpack the buffer into e
  mpi.unpack(buffer, 0, e, 9 * 9 * 9, mpi.INT);
  for (let i = 0; i < 9; i++) {
    for (let j = 0; j < 9; j++) {
      for (let k = 0; k < 9; k++) {
        if (e[(i * 9 + j) * 9 + k] !== a[at(i, j + 2, k * 2 + 1)]) {
          errs++;
          if (verbose) mt.printf(`Error in location ${i} x ${j} x ${k}: ${e[(i * 9 + j) * 9 + k]}, should be ${a[at(i, j + 2, k * 2 + 1)]}.`);
        }
      }
    }
  }
  mpi.typeFree(oneslice);
  mpi.typeFree(twoslice);
  mpi.typeFree(threeslice);
  return mt.finalize(errs);
}
