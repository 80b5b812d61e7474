// MPICH test/mpi/coll/oplxor.c: MPI_LXOR on the optional types MPICH supports (char, signed and
// unsigned char, long long).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function oplxor(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  const cases: [string, Ctor][] = [
    ['char', Int8Array],
    ['signed char', Int8Array],
    ['unsigned char', Uint8Array],
    ['long long', BigInt64Array],
  ];
  for (const [name, T] of cases) {
    const got = await reduceTo0(mt, T, mpi.LXOR, [1, 0, rank > 0 ? 1 : 0]);
    if (got) {
      const failed = [
        !got.is(0, size % 2),
        got.truthy(1),
        got.is(2, size % 2) && size > 1,
      ];
      failed.forEach((bad, k) => {
        if (bad) {
          errs++;
          mt.printf(`${name} LXOR(${['1', '0', '>'][k]}) test failed`);
        }
      });
    }
  }
  return mt.finalize(errs);
}
