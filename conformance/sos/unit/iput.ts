// SOS test/unit/iput_short.c, iput_long.c, iput_longlong.c, iput_float.c, iput_double.c,
// iput_longdouble.c (shmem_TYPE_iput), iput32.c, iput64.c, iput128.c (shmem_iputN): PE 0 puts
// every second element of its 10 to 5 consecutive elements of every other PE's static target.
// The tests differ only in the call and type: one port, told apart by the test's name.
import type { ShmemTest } from '../../shmem/harness.ts';
import { carray, cget, cset, ctype, cview, iput, type CType, type CTypeName } from '../../shmem/ctypes.ts';

/** Each test's element type and call: a typed iput, or a sized one of the type's bytes. */
const TESTS: Readonly<Record<string, { type: CTypeName; sized?: 32 | 64 | 128 }>> = {
  iput_short: { type: 'short' },
  iput_long: { type: 'long' },
  iput_longlong: { type: 'long long' },
  iput_float: { type: 'float' },
  iput_double: { type: 'double' },
  iput_longdouble: { type: 'long double' },
  iput32: { type: 'uint32_t', sized: 32 },
  iput64: { type: 'uint64_t', sized: 64 },
  // DataType long double (x86-64: 16 bytes)
  iput128: { type: 'long double', sized: 128 },
};

export default async function iputTest(t: ShmemTest): Promise<number> {
  const spec = TESTS[t.name];
  if (!spec) throw new Error(`iput: no test ${t.name}`);
  const T: CType = ctype(spec.type);
  const s = t.shmem;
  const source = carray(T, 10);
  for (let i = 0; i < 10; i++) cset(T, source, i, i + 1);
  const [targetSym] = await t.statics([T.bytes * 10]);
  const target = cview(T, targetSym!);
  let rc = 0;
  s.init();
  const me = s.myPe();
  const nProcs = s.nPes();
  if (me === 0) {
    // put 5 words into target on PEs 1 .. nProcs-1
    for (let j = 1; j < nProcs; j++) {
      if (spec.sized === 32) await s.iput32(targetSym!, source, 1, 2, 5, j);
      else if (spec.sized === 64) await s.iput64(targetSym!, source, 1, 2, 5, j);
      else if (spec.sized === 128) await s.iput128(targetSym!, source, 1, 2, 5, j);
      else await iput(s, T, targetSym!, source, 1, 2, 5, j);
    }
  }
  await s.barrierAll(); // sync sender and receiver
  if (me !== 0) {
    const v = [0, 1, 2, 3, 4].map((i) => Number(cget(T, target, i)));
    if (v[0] !== 1 || v[1] !== 3 || v[2] !== 5 || v[3] !== 7 || v[4] !== 9) {
      t.printf(`ERR: target on PE ${me} is ${v.join(' ')}\n  Expected 1,3,5,7,9?`);
      rc = 1;
    }
  }
  await s.finalize();
  return rc;
}
