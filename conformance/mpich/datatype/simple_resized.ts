// MPICH test/mpi/datatype/simple_resized.c: a contiguous type of 2 ints resized to lb 0, extent
// 2 ints + 10 bytes keeps its size (8) and takes the new extent (18) (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';

const SIZEOF_INT = 4;

export default async function simpleResized(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  // derived_resized_test: resizing of a simple derived type
  const derivedResizedTest = async (): Promise<number> => {
    let e = 0;
    const count = 2;
    let newtype = mpi.INT;
    if (
      await rc(() => {
        newtype = mpi.typeContiguous(count, mpi.INT);
      })
    ) {
      if (verbose) mt.printf('error creating type in derived_resized_test()');
      e++;
    }
    const resizedtype = mpi.typeCreateResized(newtype, 0, 2 * SIZEOF_INT + 10);
    let size = -1;
    if (
      await rc(() => {
        size = mpi.typeSize(resizedtype);
      })
    ) {
      if (verbose) mt.printf('error obtaining type size in derived_resized_test()');
      e++;
    }
    if (size !== 2 * SIZEOF_INT) {
      if (verbose) mt.printf(`error: size != ${2 * SIZEOF_INT} in derived_resized_test()`);
      e++;
    }
    let extent = -1;
    if (
      await rc(() => {
        extent = mpi.typeGetExtent(resizedtype).extent;
      })
    ) {
      if (verbose) mt.printf('error obtaining type extent in derived_resized_test()');
      e++;
    }
    if (extent !== 2 * SIZEOF_INT + 10) {
      if (verbose) mt.printf(`error: invalid extent (${extent}) in derived_resized_test(); should be ${2 * SIZEOF_INT + 10}`);
      e++;
    }
    mpi.typeFree(newtype);
    mpi.typeFree(resizedtype);
    return e;
  };
  const err = await derivedResizedTest();
  if (verbose && err) mt.printf(`${err} errors in derived_resized test.`);
  errs += err;
  return mt.finalize(errs);
}
