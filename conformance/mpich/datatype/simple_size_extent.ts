// MPICH test/mpi/datatype/simple_size_extent.c: the size, lb and extent of MPI_INT (4, 0, 4) and of
// MPI_FLOAT_INT (size 8, lb 0, extent that of C's struct { float; int; }: 8) (errors returned and
// counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function simpleSizeExtent(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  // sizeof(int), sizeof(float) and sizeof(struct { float a; int b; }) on the C ABI MPICH builds for
  const SIZEOF_INT = 4;
  const SIZEOF_FLOAT = 4;
  const SIZEOF_FOO = 8;
  for (const [type, name, wantSize, wantExtent] of [
    [mpi.INT, 'MPI_INT', SIZEOF_INT, SIZEOF_INT],
    [mpi.FLOAT_INT, 'MPI_FLOAT_INT', SIZEOF_FLOAT + SIZEOF_INT, SIZEOF_FOO],
  ] as const) {
    let size = -1;
    let lb = -1;
    let extent = -1;
    if (
      await rc(() => {
        size = mpi.typeSize(type);
      })
    ) {
      if (verbose) mt.printf(`MPI_Type_size of ${name} failed.`);
      errs++;
    }
    if (size !== wantSize) {
      if (verbose) mt.printf(`MPI_Type_size of ${name} returned incorrect size (${size}); should be ${wantSize}.`);
      errs++;
    }
    if (
      await rc(() => {
        ({ lb, extent } = mpi.typeGetExtent(type));
      })
    ) {
      if (verbose) mt.printf(`MPI_Type_get_extent of ${name} failed.`);
      errs++;
    }
    if (extent !== wantExtent) {
      if (verbose) mt.printf(`MPI_Type_get_extent of ${name} returned incorrect extent (${extent}); should be ${wantExtent}.`);
      errs++;
    }
    if (lb !== 0) {
      if (verbose) mt.printf(`MPI_Type_get_extent of ${name} returned incorrect lb (${lb}); should be 0.`);
      errs++;
    }
  }
  return mt.finalize(errs);
}
