// MPICH test/mpi/coll/opprod.c: MPI_PROD on char, signed and unsigned char and long long, the
// product of 1 .. min(size, 5) - 1. The long double parts are compiled only with HAVE_LONG_DOUBLE
// (TypeScript has no long double), and the test skips MPI_DOUBLE_COMPLEX, a Fortran type, where it
// is not available, as here.
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opprod(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  const result = [1, 1, 2, 6, 24, 120];
  const maxsize = size > 5 ? 5 : size;
  const first = rank < maxsize && rank > 0 ? rank : 1;
  // type, C name, its third element (char and signed char use rank > 1, the others rank > 0)
  const cases: [string, Ctor, number][] = [
    ['char', Int8Array, rank > 1 ? 1 : 0],
    ['signed char', Int8Array, rank > 1 ? 1 : 0],
    ['unsigned char', Uint8Array, rank > 0 ? 1 : 0],
    ['long long', BigInt64Array, rank > 0 ? 1 : 0],
  ];
  for (const [name, T, third] of cases) {
    const got = await reduceTo0(mt, T, mpi.PROD, [first, 0, third]);
    if (got) {
      if (!got.is(0, result[maxsize - 1]!)) {
        errs++;
        mt.printf(`${name} PROD(rank) test failed (${got.at(0)}!=${result[maxsize]})`);
      }
      if (got.truthy(1)) {
        errs++;
        mt.printf(`${name} PROD(0) test failed`);
      }
      if (size > 1 && got.truthy(2)) {
        errs++;
        mt.printf(`${name} PROD(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
