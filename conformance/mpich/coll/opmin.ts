// MPICH test/mpi/coll/opmin.c: MPI_MIN on char, signed and unsigned char and long long (the long
// double part is compiled only with HAVE_LONG_DOUBLE; TypeScript has no long double).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opmin(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const cases: [string, Ctor, number][] = [
    ['char', Int8Array, rank & 0x7f],
    ['signed char', Int8Array, rank & 0x7f],
    ['unsigned char', Uint8Array, rank & 0x7f],
    ['long long', BigInt64Array, rank],
  ];
  for (const [name, T, third] of cases) {
    const got = await reduceTo0(mt, T, mpi.MIN, [1, 0, third]);
    if (got) {
      if (!got.is(0, 1)) {
        errs++;
        mt.printf(`${name} MIN(1) test failed`);
      }
      if (got.truthy(1)) {
        errs++;
        mt.printf(`${name} MIN(0) test failed`);
      }
      if (!got.is(2, 0)) {
        errs++;
        mt.printf(`${name} MIN(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
