// MPICH test/mpi/coll/opbor.c: MPI_BOR on the optional types MPICH supports (char, signed and
// unsigned char, byte, short, unsigned short, unsigned, int, long, unsigned long, long long).
import type { MTest, MTestResult } from '../mtest.ts';
import { reduceTo0, type Ctor } from './op-case.ts';

export default async function opbor(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  // type, C name, all ones, what ranks > 0 contribute, what rank 0 contributes
  const cases: [string, Ctor, number, number, number][] = [
    ['char', Int8Array, 0xff, 0x3c, 0xc3],
    ['signed char', Int8Array, 0xff, 0x3c, 0xc3],
    ['unsigned char', Uint8Array, 0xff, 0x3c, 0xc3],
    ['byte', Uint8Array, 0xff, 0x3c, 0xc3],
    ['short', Int16Array, 0xffff, 0x3c3c, 0xc3c3],
    ['unsigned short', Uint16Array, 0xffff, 0x3c3c, 0xc3c3],
    ['unsigned', Uint32Array, 0xffffffff, 0x3c3c3c3c, 0xc3c3c3c3],
    ['int', Int32Array, 0xffffffff, 0x3c3c3c3c, 0xc3c3c3c3],
    ['long', BigInt64Array, 0xffffffff, 0x3c3c3c3c, 0xc3c3c3c3],
    ['unsigned long', BigUint64Array, 0xffffffff, 0x3c3c3c3c, 0xc3c3c3c3],
    ['long long', BigInt64Array, 0xffffffff, 0x3c3c3c3c, 0xc3c3c3c3],
  ];
  for (const [name, T, ones, others, zero] of cases) {
    const got = await reduceTo0(mt, T, mpi.BOR, [ones, 0, rank > 0 ? others : zero]);
    if (got) {
      if (!got.is(0, ones)) {
        errs++;
        mt.printf(`${name} BOR(1) test failed`);
      }
      if (got.truthy(1)) {
        errs++;
        mt.printf(`${name} BOR(0) test failed`);
      }
      if (!got.is(2, ones) && size > 1) {
        errs++;
        mt.printf(`${name} BOR(>) test failed`);
      }
    }
  }
  return mt.finalize(errs);
}
