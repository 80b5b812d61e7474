// tests-uh feature_tests/C/test_shmem_reduction.c: the 1.4 active-set reductions over all PEs
// of 3 elements, max, min, sum and prod on short, int, long, float, double, long double and long
// long, and, or and xor on short, int, long and long long, alternating two pSyncs call by call;
// PE 0 checks each and prints its verdict, then "All Tests Passed" or the count of failures. The
// product takes 2 from the first pe_bound PEs and 1 from the others, pe_bound the least of npes
// and the bits a short holds (14 with SHRT_MAX 32767), so that 1 << pe_bound fits every type.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';
import { cast, cget, cset, ctype, cview, eq, type CTypeName, type CValue } from '../../shmem/ctypes.ts';

const N = 3;
const SHRT_MAX = 32767;
/** src0/dst0/pWrk0 .. src6/dst6/pWrk6: C type and the name in the call. */
const TYPES: readonly [CTypeName, string][] = [
  ['short', 'short'],
  ['int', 'int'],
  ['long', 'long'],
  ['float', 'float'],
  ['double', 'double'],
  ['long double', 'longdouble'],
  ['long long', 'longlong'],
];
type Op = 'max' | 'min' | 'sum' | 'and' | 'prod' | 'or' | 'xor';

export default async function testShmemReduction(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const T = TYPES.map(([c]) => ctype(c));
  const wrk = Math.max(Math.trunc(N / 2) + 1, s.REDUCE_MIN_WRKDATA_SIZE);
  // long pSync[SHMEM_REDUCE_SYNC_SIZE], pSync1[...]; TYPE srcK[N], dstK[N]; TYPE pWrkK[WRKDATA_SIZE]
  const vars = await t.statics([8 * s.REDUCE_SYNC_SIZE, 8 * s.REDUCE_SYNC_SIZE, ...T.flatMap((x) => [N * x.bytes, N * x.bytes]), ...T.map((x) => wrk * x.bytes)]);
  const [pSync, pSync1] = [vars[0]!, vars[1]!];
  const src = (k: number): Symmetric => vars[2 + 2 * k]!;
  const dst = (k: number): Symmetric => vars[3 + 2 * k]!;
  const pWrk = (k: number): Symmetric => vars[2 + 2 * T.length + k]!;
  let failCount = 0;
  let peBound = 1;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  for (let i = 2; i < SHRT_MAX; ) {
    i = 2 * i;
    peBound++;
  }
  peBound--;
  if (npes < peBound) peBound = npes;
  pSync.int64().fill(s.SYNC_VALUE, 0, s.REDUCE_SYNC_SIZE);
  pSync1.int64().fill(s.SYNC_VALUE, 0, s.REDUCE_SYNC_SIZE);
  const setAll = (ks: readonly number[], buf: (k: number) => Symmetric, v: (i: number) => CValue): void => {
    for (const k of ks) {
      const a = cview(T[k]!, buf(k));
      for (let i = 0; i < N; i++) cset(T[k]!, a, i, v(i));
    }
  };
  /** The calls of one operator in the test's order, the pSyncs alternating from pSync. */
  const reduce = async (op: Op, ks: readonly number[]): Promise<void> => {
    for (const [n, k] of ks.entries()) {
      const name = `${TYPES[k]![1]}${op[0]!.toUpperCase()}${op.slice(1)}ToAll`;
      const f = (s as unknown as Record<string, (...a: unknown[]) => Promise<void>>)[name];
      if (!f) throw new Error(`phit has no ${name} (shmem_${TYPES[k]![1]}_${op}_to_all)`);
      await f.call(s, dst(k), src(k), N, 0, 0, npes, pWrk(k), n % 2 === 0 ? pSync : pSync1);
    }
  };
  /** PE 0's verdicts, in the test's order. */
  const verdict = (op: Op, ks: readonly number[], ok: (v: CValue, i: number, k: number) => boolean): void => {
    if (me !== 0) return;
    for (const k of ks) {
      const d = cview(T[k]!, dst(k));
      let success = 0;
      for (let i = 0; i < N; i++) if (!ok(cget(T[k]!, d, i), i, k)) success = 1;
      const line = `Reduction operation shmem_${TYPES[k]![1]}_${op}_to_all: `;
      if (success === 1) {
        t.printf(`${line}Failed`);
        failCount++;
      } else t.printf(`${line}Passed`);
    }
  };
  const SEVEN = [0, 1, 2, 3, 4, 5, 6];
  const BITWISE = [0, 1, 2, 6];

  setAll(SEVEN, src, (i) => me + i);
  await s.barrierAll();
  await reduce('max', SEVEN);
  verdict('max', SEVEN, (v, i) => Number(v) === npes + i - 1);

  setAll(SEVEN, src, (i) => me + i);
  setAll(SEVEN, dst, () => -9);
  await s.barrierAll();
  await reduce('min', SEVEN);
  verdict('min', SEVEN, (v, i) => Number(v) === i);

  setAll(SEVEN, src, () => me);
  setAll(SEVEN, dst, () => -9);
  await s.barrierAll();
  await reduce('sum', SEVEN);
  verdict('sum', SEVEN, (v) => Number(v) === Math.trunc((npes * (npes - 1)) / 2));

  setAll(BITWISE, src, () => me);
  setAll(BITWISE, dst, () => -9);
  await s.barrierAll();
  await reduce('and', BITWISE);
  verdict('and', BITWISE, (v) => Number(v) === 0);

  setAll(SEVEN, src, () => (me < peBound ? 2 : 1));
  setAll(SEVEN, dst, () => -9);
  // expected_resultK = 1 << pe_bound, stored in each type
  const expected = T.map((x) => cast(x, 1 << peBound));
  await s.barrierAll();
  await reduce('prod', SEVEN);
  verdict('prod', SEVEN, (v, _i, k) => eq(v, expected[k]!));

  setAll(BITWISE, src, () => (me + 1) % 4);
  setAll(BITWISE, dst, () => -9);
  await s.barrierAll();
  await reduce('or', BITWISE);
  verdict('or', BITWISE, (v) => Number(v) === 3);

  setAll(BITWISE, src, () => me % 2);
  setAll(BITWISE, dst, () => -9);
  const expectedResult = Math.trunc(npes / 2) % 2;
  await s.barrierAll();
  await reduce('xor', BITWISE);
  verdict('xor', BITWISE, (v) => Number(v) === expectedResult);

  if (me === 0) t.printf(failCount === 0 ? 'All Tests Passed' : `${failCount} Tests Failed`);
  await s.finalize();
  return 0;
}
