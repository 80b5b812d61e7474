// MPICH test/mpi/coll/opmaxloc.c: MPI_MAXLOC on MPI_2INT, MPI_FLOAT_INT, MPI_LONG_INT,
// MPI_SHORT_INT and MPI_DOUBLE_INT (interleaved (value, location) pairs of the value's type here;
// MPI_LONG_DOUBLE_INT is compiled only with HAVE_LONG_DOUBLE, and TypeScript has no long double).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opmaxloc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  const cases: [string, Ctor][] = [
    ['2int', Int32Array],
    ['float-int', Float32Array],
    ['long-int', BigInt64Array],
    ['short-int', Int16Array],
    ['double-int', Float64Array],
  ];
  for (const [name, T] of cases) {
    const got = await reduceTo0(mt, T, mpi.MAXLOC, [1, rank, 0, rank, rank, rank], [0, 0, 0, 0, 0, 0]);
    if (got) {
      if (!got.is(0, 1) || !got.is(1, 0)) {
        errs++;
        mt.printf(`${name} MAXLOC(1) test failed`);
      }
      if (!got.is(2, 0)) {
        errs++;
        mt.printf(`${name} MAXLOC(0) test failed, value = ${got.at(2)}, should be zero`);
      }
      if (!got.is(3, 0)) {
        errs++;
        mt.printf(`${name} MAXLOC(0) test failed, location of max = ${got.at(3)}, should be zero`);
      }
      if (!got.is(4, size - 1) || !got.is(5, size - 1)) {
        errs++;
        mt.printf(`${name} MAXLOC(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
