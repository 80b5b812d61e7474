// MPICH test/mpi/coll/opmax.c: MPI_MAX on char, signed and unsigned char and long long (the long
// double part is compiled only with HAVE_LONG_DOUBLE; TypeScript has no long double).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opmax(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  // type, C name, the communicator size below which the rank fits the type (0: always)
  const cases: [string, Ctor, number][] = [
    ['char', Int8Array, 128],
    ['signed char', Int8Array, 128],
    ['unsigned char', Uint8Array, 256],
    ['long long', BigInt64Array, 0],
  ];
  for (const [name, T, fits] of cases) {
    const got = await reduceTo0(mt, T, mpi.MAX, [1, 0, rank]);
    if (got) {
      if (!got.is(0, 1)) {
        errs++;
        mt.printf(`${name} MAX(1) test failed`);
      }
      if (got.truthy(1)) {
        errs++;
        mt.printf(`${name} MAX(0) test failed`);
      }
      if ((fits === 0 || size < fits) && !got.is(2, size - 1)) {
        errs++;
        mt.printf(`${name} MAX(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
