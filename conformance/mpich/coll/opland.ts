// MPICH test/mpi/coll/opland.c: MPI_LAND on the optional types MPICH supports (char, signed and
// unsigned char, long long).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opland(mt: MTest): Promise<MTestResult> {
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
    const got = await reduceTo0(mt, T, mpi.LAND, [1, 0, rank > 0 ? 1 : 0]);
    if (got) {
      const failed = [
        !got.truthy(0),
        got.truthy(1),
        got.truthy(2) && size > 1,
      ];
      failed.forEach((bad, k) => {
        if (bad) {
          errs++;
          mt.printf(`${name} LAND(${['1', '0', '>'][k]}) test failed`);
        }
      });
    }
  }
  return mt.finalize(errs);
}
