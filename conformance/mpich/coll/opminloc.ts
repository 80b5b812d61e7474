// MPICH test/mpi/coll/opminloc.c: MPI_MINLOC on MPI_2INT, MPI_FLOAT_INT, MPI_LONG_INT,
// MPI_SHORT_INT and MPI_DOUBLE_INT (interleaved (value, location) pairs of the value's type here;
// MPI_LONG_DOUBLE_INT is compiled only with HAVE_LONG_DOUBLE, and TypeScript has no long double).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opminloc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  // type, its name, the third value, whether the checks use C's && (the first two types) or ||
  const cases: [string, Ctor, number, boolean][] = [
    ['2int', Int32Array, rank & 0x7f, true],
    ['float-int', Float32Array, rank, true],
    ['long-int', BigInt64Array, rank, false],
    ['short-int', Int16Array, rank, false],
    ['double-int', Float64Array, rank, false],
  ];
  for (const [name, T, third, and] of cases) {
    const got = await reduceTo0(mt, T, mpi.MINLOC, [1, rank, 0, rank, third, rank], [0, 0, 0, 0, 0, 0]);
    if (got) {
      const bad = (k: number, val: number, loc: number): boolean => (and ? !got.is(2 * k, val) && !got.is(2 * k + 1, loc) : !got.is(2 * k, val) || !got.is(2 * k + 1, loc));
      if (bad(0, 1, and ? -1 : 0)) {
        errs++;
        mt.printf(`${name} MINLOC(1) test failed`);
      }
      if (bad(1, 0, and ? -1 : 0)) {
        errs++;
        mt.printf(`${name} MINLOC(0) test failed`);
      }
      if (bad(2, 0, 0)) {
        errs++;
        mt.printf(`${name} MINLOC(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
