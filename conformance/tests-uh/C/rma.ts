// tests-uh feature_tests/C/test_shmem_get.c, test_shmem_get_globals.c, test_shmem_get_shmem_malloc.c,
// test_shmem_put.c, test_shmem_put_globals.c and test_shmem_put_shmem_malloc.c: every PE gets
// from (puts to) its right neighbour 7 elements with the typed calls (short, int, long, long
// double, long long, double, float) and getmem (putmem), then with get32/64/128 (put...); the
// _globals and _shmem_malloc tests also with iget32/64/128 and the typed igets (iputs) with
// stride 2, from PE npes-1 (to the right neighbour); then one element with the typed g (p). PE 0
// checks each and prints Passed or Failed. The remote side is a global array (_globals) or a
// shmem_malloc'd one; the local side is a private array. One port for the six, told apart by
// the test's name; where C overruns an array (a 4-char shmem_malloc'd buffer that getmem reads
// or putmem writes 7 bytes of; test_shmem_put_shmem_malloc's strided puts of 7 elements with
// stride 2 read 13 elements of 7-element sources), the buffers here are large enough.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';
import { carray, cget, cset, ctype, cview, eq, g, get, iget, iput, p, put, type CArray, type CType, type CTypeName } from '../../shmem/ctypes.ts';

const N = 7;

/** The arrays dest1..dest8 / src1..src8: short, int, long, long double, long long, double, float, char. */
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
/** The scalars 9..13: short, int, long, double, float. */
const SCALARS: readonly { c: CTypeName; name: string }[] = [
  { c: 'short', name: 'short' },
  { c: 'int', name: 'int' },
  { c: 'long', name: 'long' },
  { c: 'double', name: 'double' },
  { c: 'float', name: 'float' },
];

export default async function rma(t: ShmemTest): Promise<number> {
  const isGet = t.name.startsWith('test_shmem_get');
  const globals = t.name.endsWith('_globals');
  // the strided sections are in the _globals and _shmem_malloc tests
  const strided = globals || t.name.endsWith('_shmem_malloc');
  // test_shmem_put_shmem_malloc's strided puts carry N elements, the others' N/2
  const iputCount = t.name === 'test_shmem_put_shmem_malloc' ? N : Math.trunc(N / 2);
  const op = isGet ? 'get' : 'put';
  const s = t.shmem;
  const Ts = ARRAYS.map((a) => ctype(a.c));
  const Ss = SCALARS.map((a) => ctype(a.c));
  // the remote side: global arrays and scalars, or shmem_malloc'd ones (below)
  const remoteBytes = [...Ts.map((T) => T.bytes * N), ...Ss.map((T) => T.bytes)];
  let remote: Symmetric[] = globals ? await t.statics(remoteBytes) : [];
  let failCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes > 1) {
    const success = new Array<number>(9).fill(0);
    // the local side: private arrays (C's char one is malloc'd)
    const local: CArray[] = Ts.map((T) => carray(T, 2 * N));
    const localScalar: CArray[] = Ss.map((T) => carray(T, 1));
    // the arrays that receive: private ones (gets) or the remote ones (puts)
    const destArr = (k: number): CArray => (isGet ? local[k]! : cview(Ts[k]!, remote[k]!));
    const destScalar = (k: number): CArray => (isGet ? localScalar[k]! : cview(Ss[k]!, remote[8 + k]!));
    const srcArr = (k: number): CArray => (isGet ? cview(Ts[k]!, remote[k]!) : local[k]!);
    if (isGet) for (let k = 0; k < 8; k++) for (let i = 0; i < N; i++) cset(Ts[k]!, local[k]!, i, -9);
    if (isGet) for (let k = 0; k < 5; k++) cset(Ss[k]!, localScalar[k]!, 0, -9);
    if (!globals) {
      remote = [];
      for (const b of remoteBytes) remote.push(await s.malloc(b));
    }
    // the sources hold this PE's number
    for (let k = 0; k < 8; k++) for (let i = 0; i < N; i++) cset(Ts[k]!, srcArr(k), i, me);
    for (let k = 0; k < 5; k++) cset(Ss[k]!, isGet ? cview(Ss[k]!, remote[8 + k]!) : localScalar[k]!, 0, me);
    if (!isGet) {
      for (let k = 0; k < 8; k++) for (let i = 0; i < N; i++) cset(Ts[k]!, destArr(k), i, -9);
      for (let k = 0; k < 5; k++) cset(Ss[k]!, destScalar(k), 0, -9);
    }
    const nextpe = (me + 1) % npes;
    // what PE 0 must see: its right neighbour's number (gets) or its left one's (puts)
    const want = isGet ? 1 : npes - 1;
    // the strided gets read PE npes-1
    const stridedPe = isGet ? npes - 1 : nextpe;
    const stridedWant = npes - 1;
    const verdict = (k: number, name: string): void => {
      if (success[k] === 0) t.printf(`Test ${name}: Passed`);
      else {
        t.printf(`Test ${name}: Failed`);
        failCount++;
      }
    };
    const checkArr = (k: number, n: number, w: number): void => {
      for (let i = 0; i < n; i += 1) if (!eq(cget(Ts[k]!, destArr(k), i), w)) success[k] = 1;
    };
    const reset = (ks: readonly number[]): void => {
      for (const k of ks) for (let i = 0; i < N; i++) cset(Ts[k]!, destArr(k), i, -9);
      for (const k of ks) success[k] = 0;
    };
    // the typed calls and getmem/putmem
    await s.barrierAll();
    for (let k = 0; k < 8; k++) {
      const T = Ts[k]!;
      if (k === 7) {
        if (isGet) await s.getmem(local[7]!, remote[7]!, N, nextpe);
        else await s.putmem(remote[7]!, local[7]!, N, nextpe);
      } else if (isGet) await get(s, T, local[k]!, remote[k]!, N, nextpe);
      else await put(s, T, remote[k]!, local[k]!, N, nextpe);
    }
    await s.barrierAll();
    if (me === 0) {
      for (let k = 0; k < 8; k++) checkArr(k, N, want);
      ARRAYS.forEach((a, k) => verdict(k, k === 7 ? `shmem_${op}mem` : `shmem_${a.name}_${op}`));
    }
    await s.barrierAll();
    // 32-, 64- and 128-bit elements (sizeof(int) == 4): int, long and long double arrays
    const sized: readonly [number, 32 | 64 | 128][] = [
      [1, 32],
      [2, 64],
      [3, 128],
    ];
    reset([1, 2, 3]);
    await s.barrierAll();
    for (const [k, bits] of sized) {
      const fn = `${op}${bits}` as const;
      if (isGet) await s[fn as 'get32'](local[k]!, remote[k]!, N, nextpe);
      else await s[fn as 'put32'](remote[k]!, local[k]!, N, nextpe);
    }
    await s.barrierAll();
    if (me === 0) {
      for (const [k] of sized) checkArr(k, N, want);
      for (const [k, bits] of sized) verdict(k, `shmem_${op}${bits}`);
    }
    if (strided) {
      // 32-, 64- and 128-bit elements, stride 2 on the remote side (gets) or the local one (puts)
      await s.barrierAll();
      reset([1, 2, 3]);
      await s.barrierAll();
      const n = isGet ? Math.trunc(N / 2) : iputCount;
      for (const [k, bits] of sized) {
        if (isGet) await s[`iget${bits}` as 'iget32'](local[k]!, remote[k]!, 1, 2, n, stridedPe);
        else await s[`iput${bits}` as 'iput32'](remote[k]!, local[k]!, 1, 2, n, stridedPe);
      }
      await s.barrierAll();
      if (me === 0) {
        for (const [k] of sized) checkArr(k, Math.trunc(N / 2), stridedWant);
        for (const [k, bits] of sized) verdict(k, `shmem_i${op}${bits}`);
      }
      // the typed strided calls: short, int, long, double, float
      const typed = [0, 1, 2, 5, 6];
      reset(typed);
      await s.barrierAll();
      for (const k of typed) {
        const T: CType = Ts[k]!;
        if (isGet) await iget(s, T, local[k]!, remote[k]!, 1, 2, n, stridedPe);
        else await iput(s, T, remote[k]!, local[k]!, 1, 2, n, stridedPe);
      }
      await s.barrierAll();
      if (me === 0) {
        for (const k of typed) checkArr(k, Math.trunc(N / 2), stridedWant);
        for (const k of typed) verdict(k, `shmem_${ARRAYS[k]!.name}_i${op}`);
      }
    }
    // one element: the typed g (p)
    await s.barrierAll();
    for (let k = 0; k < 5; k++) {
      const T = Ss[k]!;
      if (isGet) cset(T, localScalar[k]!, 0, await g(s, T, remote[8 + k]!, nextpe));
      else await p(s, T, remote[8 + k]!, cget(T, localScalar[k]!, 0), nextpe);
    }
    await s.barrierAll();
    if (me === 0) {
      SCALARS.forEach((a, k) => {
        if (eq(cget(Ss[k]!, destScalar(k), 0), want)) t.printf(`Test shmem_${a.name}_${isGet ? 'g' : 'p'}: Passed`);
        else {
          t.printf(`Test shmem_${a.name}_${isGet ? 'g' : 'p'}: Failed`);
          failCount++;
        }
      });
    }
    await s.barrierAll();
    if (me === 0) {
      if (failCount === 0) t.printf('All Tests Passed');
      else t.printf(`${failCount} Tests Failed`);
    }
    if (!globals) for (const r of remote.slice(0, 8)) await s.free(r);
  } else t.printf(`Number of PEs must be > 1 to test shmem ${op}, test skipped`);
  await s.finalize();
  return 0;
}
