// The body shared by MPICH's contig_zero_count.c, struct_zero_count.c and
// blockindexed_zero_count.c: a type of zero count is made, has size 0 and extent 0, and is freed
// (errors returned and counted; -v prints them).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

export async function zeroCount(mt: MTest, test: string, what: string, creating: string, make: (mpi: Mpi) => Datatype): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  // some tests
  const runTest = async (): Promise<number> => {
    let e = 0;
    let newtype: Datatype | null = null;
    let size = -1;
    let extent = -1;
    let err = await rc(() => {
      newtype = make(mpi);
    });
    if (err) {
      if (verbose) mt.printf(`error creating ${creating} in ${test}()`);
      e++;
    }
    err = await rc(() => {
      size = mpi.typeSize(newtype!);
    });
    if (err) {
      if (verbose) mt.printf(`error obtaining type size in ${test}()`);
      e++;
    }
    if (size !== 0) {
      if (verbose) mt.printf(`error: size != 0 in ${test}()`);
      e++;
    }
    err = await rc(() => {
      extent = mpi.typeGetExtent(newtype!).extent;
    });
    if (err) {
      if (verbose) mt.printf(`error obtaining type extent in ${test}()`);
      e++;
    }
    if (extent !== 0) {
      if (verbose) mt.printf(`error: extent != 0 in ${test}()`);
      e++;
    }
    mpi.typeFree(newtype!);
    return e;
  };
  const err = await runTest();
  if (err && verbose) mt.printf(`${err} errors in ${what} test.`);
  errs += err;
  return mt.finalize(errs);
}
