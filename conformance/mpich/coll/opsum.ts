// MPICH test/mpi/coll/opsum.c: MPI_SUM on char, signed and unsigned char and long long. The long
// double parts are compiled only with HAVE_LONG_DOUBLE (TypeScript has no long double), and the
// test skips MPI_DOUBLE_COMPLEX, a Fortran type, where it is not available, as here.
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opsum(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  // type, C name, whether the checks hold only below 128 ranks
  const cases: [string, Ctor, boolean][] = [
    ['char', Int8Array, true],
    ['signed char', Int8Array, true],
    ['unsigned char', Uint8Array, true],
    ['long long', BigInt64Array, false],
  ];
  for (const [name, T, small] of cases) {
    const got = await reduceTo0(mt, T, mpi.SUM, [1, 0, rank > 0 ? 1 : 0]);
    if (got) {
      const fits = !small || size < 128;
      if (fits && !got.is(0, size)) {
        errs++;
        mt.printf(`${name} SUM(1) test failed`);
      }
      if (fits && got.truthy(1)) {
        errs++;
        mt.printf(`${name} SUM(0) test failed`);
      }
      if (fits && !got.is(2, size - 1)) {
        errs++;
        mt.printf(`${name} SUM(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
