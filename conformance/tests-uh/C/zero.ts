// tests-uh feature_tests/C/test_shmem_zero_get.c and test_shmem_zero_put.c: every PE gets from
// (puts to) its right neighbour zero elements with the typed calls (short, int, long, long
// double, long long, double, float), getmem (putmem) and get32/64/128 (put...); PE 0 checks that
// its shmem_malloc'd arrays still hold -9. One port for the two, told apart by the test's name;
// test_shmem_zero_put's 4-char dest8, which its initialisation writes 7 chars of, has 7 here.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';
import { carray, cget, cset, ctype, cview, eq, get, put, type CArray, type CTypeName } from '../../shmem/ctypes.ts';

const N = 7;
const ARRAYS: readonly { c: CTypeName; name: string }[] = [
  { c: 'short', name: 'short' },
  { c: 'int', name: 'int' },
  { c: 'long', name: 'long' },
  { c: 'long double', name: 'longdouble' },
  { c: 'long long', name: 'longlong' },
  { c: 'double', name: 'double' },
  { c: 'float', name: 'float' },
  { c: 'char', name: 'mem' },
];
const SCALARS: readonly CTypeName[] = ['short', 'int', 'long', 'double', 'float'];

export default async function zero(t: ShmemTest): Promise<number> {
  const isGet = t.name === 'test_shmem_zero_get';
  const op = isGet ? 'get' : 'put';
  const s = t.shmem;
  const Ts = ARRAYS.map((a) => ctype(a.c));
  // test_shmem_zero_get's sources are static arrays (src8 is shmem_malloc'd)
  const statics = isGet ? await t.statics(Ts.slice(0, 7).map((T) => T.bytes * N)) : [];
  let failCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes > 1) {
    const success = new Array<number>(8).fill(0);
    // the sources: statics and a shmem_malloc'd char array (gets), private arrays (puts)
    const srcSym: Symmetric[] = isGet ? [...statics, await s.malloc(N)] : [];
    const srcLocal: CArray[] = isGet ? [] : Ts.map((T) => carray(T, N));
    for (let k = 0; k < 8; k++) for (let i = 0; i < N; i++) cset(Ts[k]!, isGet ? cview(Ts[k]!, srcSym[k]!) : srcLocal[k]!, i, me);
    const srcScalar = SCALARS.map((c) => carray(ctype(c), 1));
    if (!isGet) srcScalar.forEach((a, k) => cset(ctype(SCALARS[k]!), a, 0, me));
    // the shmem_malloc'd destinations
    const dest: Symmetric[] = [];
    for (const T of Ts) dest.push(await s.malloc(T.bytes * N));
    const destScalar: Symmetric[] = [];
    for (const c of SCALARS) destScalar.push(await s.malloc(ctype(c).bytes));
    const view = (k: number): CArray => cview(Ts[k]!, dest[k]!);
    for (let k = 0; k < 8; k++) for (let i = 0; i < N; i++) cset(Ts[k]!, view(k), i, -9);
    destScalar.forEach((d, k) => cset(ctype(SCALARS[k]!), cview(ctype(SCALARS[k]!), d), 0, -9));
    const nextpe = (me + 1) % npes;
    const verdict = (k: number, name: string): void => {
      if (success[k] === 0) t.printf(`Test ${name} of zero length: Passed`);
      else {
        t.printf(`Test ${name} of zero length: Failed`);
        failCount++;
      }
    };
    const untouched = (k: number): void => {
      for (let i = 0; i < N; i++) if (!eq(cget(Ts[k]!, view(k), i), -9)) success[k] = 1;
    };
    await s.barrierAll();
    for (let k = 0; k < 8; k++) {
      const T = Ts[k]!;
      if (k === 7) {
        if (isGet) await s.getmem(view(7), srcSym[7]!, 0, nextpe);
        else await s.putmem(dest[7]!, srcLocal[7]!, 0, nextpe);
      } else if (isGet) await get(s, T, view(k), srcSym[k]!, 0, nextpe);
      else await put(s, T, dest[k]!, srcLocal[k]!, 0, nextpe);
    }
    await s.barrierAll();
    if (me === 0) {
      for (let k = 0; k < 8; k++) untouched(k);
      ARRAYS.forEach((a, k) => verdict(k, k === 7 ? `shmem_${op}mem` : `shmem_${a.name}_${op}`));
    }
    await s.barrierAll();
    // 32-, 64- and 128-bit elements (sizeof(int) == 4): int, long and long double arrays
    const sized: readonly [number, 32 | 64 | 128][] = [
      [1, 32],
      [2, 64],
      [3, 128],
    ];
    for (const [k] of sized) {
      for (let i = 0; i < N; i++) cset(Ts[k]!, view(k), i, -9);
      success[k] = 0;
    }
    await s.barrierAll();
    for (const [k, bits] of sized) {
      if (isGet) await s[`get${bits}` as 'get32'](view(k), srcSym[k]!, 0, nextpe);
      else await s[`put${bits}` as 'put32'](dest[k]!, srcLocal[k]!, 0, nextpe);
    }
    await s.barrierAll();
    if (me === 0) {
      for (const [k] of sized) untouched(k);
      for (const [k, bits] of sized) verdict(k, `shmem_${op}${bits}`);
    }
    await s.barrierAll();
    if (me === 0) {
      if (failCount === 0) t.printf('All Tests Passed');
      else t.printf(`${failCount} Tests Failed`);
    }
    for (const d of [...dest, ...destScalar]) await s.free(d);
  } else t.printf(`Number of PEs must be > 1 to test shmem ${op} of zero length, test skipped`);
  await s.finalize();
  return 0;
}
