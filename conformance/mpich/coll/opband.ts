// MPICH test/mpi/coll/opband.c: MPI_BAND on the optional types MPICH supports (char, signed and
// unsigned char, byte, short, unsigned short, unsigned, long, unsigned long, long long).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opband(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  // type, C name, all ones, the pattern rank 0 contributes
  const cases: [string, Ctor, number, number][] = [
    ['char', Int8Array, 0xff, 0xf0],
    ['signed char', Int8Array, 0xff, 0xf0],
    ['unsigned char', Uint8Array, 0xff, 0xf0],
    ['byte', Uint8Array, 0xff, 0xf0],
    ['short', Int16Array, 0xffff, 0xf0f0],
    ['unsigned short', Uint16Array, 0xffff, 0xf0f0],
    ['unsigned', Uint32Array, 0xffffffff, 0xf0f0f0f0],
    ['long', BigInt64Array, 0xffffffff, 0xf0f0f0f0],
    ['unsigned long', BigUint64Array, 0xffffffff, 0xf0f0f0f0],
    ['long long', BigInt64Array, 0xffffffff, 0xf0f0f0f0],
  ];
  for (const [name, T, ones, pattern] of cases) {
    const got = await reduceTo0(mt, T, mpi.BAND, [ones, 0, rank > 0 ? ones : pattern]);
    if (got) {
      if (!got.is(0, ones)) {
        errs++;
        mt.printf(`${name} BAND(1) test failed`);
      }
      if (got.truthy(1)) {
        errs++;
        mt.printf(`${name} BAND(0) test failed`);
      }
      if (!got.is(2, pattern) && size > 1) {
        errs++;
        mt.printf(`${name} BAND(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
