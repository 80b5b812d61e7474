// SOS test/unit/to_all.c: the team reductions over TEAM_WORLD of 128 elements, max, min, sum and
// prod on short, int, long, float, double, long double and long long, and, or and xor on their
// unsigned twins (ushort, uint, ulong, ulonglong), in the test's order (max, min, sum, and, prod,
// or, xor), PE 0 checking each against the value the test computes. As the C test does: the and
// check reduces src7..src10, which it never sets (zero, as statics start); a float, double or long
// double product that rounds differently from the exact one is not checked (the test's
// "rounding error" skip; never at these PE counts). Without options: every reduction, no
// serialising barriers, not verbose (failures print; PE 0 prints the count if any failed).
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';
import { cast, cget, cset, ctype, cview, eq, type CType, type CTypeName, type CValue } from '../../shmem/ctypes.ts';

const N = 128;
/** src0/dst0 .. src6/dst6: the seven types of max, min, sum and prod, by the C test's numbering. */
const TYPES: readonly [CTypeName, string][] = [
  ['short', 'short'],
  ['int', 'int'],
  ['long', 'long'],
  ['float', 'float'],
  ['double', 'double'],
  ['long double', 'longdouble'],
  ['long long', 'longlong'],
];
/** src7/dst7 .. src10/dst10: the bitwise reductions' types. */
const UTYPES: readonly [CTypeName, string][] = [
  ['unsigned short', 'ushort'],
  ['unsigned int', 'uint'],
  ['unsigned long', 'ulong'],
  ['unsigned long long', 'ulonglong'],
];

type Op = 'max' | 'min' | 'sum' | 'prod' | 'and' | 'or' | 'xor';

export default async function toAll(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const all = [...TYPES, ...UTYPES].map(([c]) => ctype(c));
  // short src0[N], dst0[N]; ... unsigned long long src10[N], dst10[N]
  const vars = await t.statics(all.flatMap((T) => [N * T.bytes, N * T.bytes]));
  const src = (k: number): Symmetric => vars[2 * k]!;
  const dst = (k: number): Symmetric => vars[2 * k + 1]!;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const setAll = (ks: readonly number[], buf: (k: number) => Symmetric, v: (i: number) => CValue): void => {
    for (const k of ks) {
      const T = all[k]!;
      const a = cview(T, buf(k));
      for (let i = 0; i < N; i++) cset(T, a, i, v(i));
    }
  };
  const reduce = async (op: Op, ks: readonly number[]): Promise<void> => {
    const f = { max: s.maxReduce, min: s.minReduce, sum: s.sumReduce, prod: s.prodReduce, and: s.andReduce, or: s.orReduce, xor: s.xorReduce }[op];
    for (const k of ks) await f.call(s, s.TEAM_WORLD, dst(k), src(k), N, all[k]!.reduce!);
  };
  /** PE 0's verdicts: one line for each failed reduction; 1 when all passed. */
  const verdict = (op: Op, ks: readonly number[], ok: (T: CType, v: CValue, i: number, k: number) => boolean): number => {
    let pass = 0;
    for (const k of ks) {
      const T = all[k]!;
      const d = cview(T, dst(k));
      let bad = false;
      for (let i = 0; i < N; i++) if (!ok(T, cget(T, d, i), i, k)) bad = true;
      const name = k < TYPES.length ? TYPES[k]![1] : UTYPES[k - TYPES.length]![1];
      if (bad) t.printf(`Reduction operation shmem_${name}_${op}_reduce: Failed`);
      else pass++;
    }
    return pass === ks.length ? 1 : 0;
  };
  const SEVEN = [0, 1, 2, 3, 4, 5, 6];
  const FOUR = [7, 8, 9, 10];
  let tests = 0;
  let passed = 0;
  await s.barrierAll();

  // max_reduce
  setAll(SEVEN, src, (i) => me + i);
  await s.barrierAll();
  await reduce('max', SEVEN);
  if (me === 0) passed += verdict('max', SEVEN, (T, v, i) => eq(v, cast(T, npes + i - 1)));
  tests++;

  // min_reduce
  setAll(SEVEN, src, (i) => me + i);
  setAll(SEVEN, dst, () => -9);
  await s.barrierAll();
  await reduce('min', SEVEN);
  if (me === 0) passed += verdict('min', SEVEN, (T, v, i) => eq(v, cast(T, i)));
  tests++;

  // sum_reduce
  setAll(SEVEN, src, () => me);
  setAll(SEVEN, dst, () => -9);
  await s.barrierAll();
  await reduce('sum', SEVEN);
  if (me === 0) passed += verdict('sum', SEVEN, (T, v) => eq(v, cast(T, (npes * (npes - 1)) / 2)));
  tests++;

  // and_reduce: sets src0, src1, src2, src6 and their dst, reduces src7..src10 (never set)
  setAll([0, 1, 2, 6], src, () => me);
  setAll([0, 1, 2, 6], dst, () => -9);
  await s.barrierAll();
  await reduce('and', FOUR);
  if (me === 0) passed += verdict('and', FOUR, (_T, v) => eq(v, 0));
  tests++;

  // prod_reduce: the expected products as the test computes them, each in its type
  setAll(SEVEN, src, () => me + 1);
  setAll(SEVEN, dst, () => -9);
  const expected: CValue[] = SEVEN.map((k) => cast(all[k]!, 1));
  let floatRoundingErr = false;
  let doubleRoundingErr = false;
  for (let i = 1; i <= npes; i++) {
    for (const k of [0, 1, 2, 6]) expected[k] = cast(all[k]!, BigInt(expected[k]!) * BigInt(i));
    expected[3] = Math.fround(Number(expected[3]) * i);
    expected[4] = Number(expected[4]) * i;
    if (expected[3] !== expected[4]) floatRoundingErr = true;
    // long double is carried as a double here: its product is the double's
    expected[5] = Number(expected[5]) * i;
    if (expected[4] !== expected[5]) doubleRoundingErr = true;
  }
  await s.barrierAll();
  await reduce('prod', SEVEN);
  if (me === 0) {
    passed += verdict('prod', SEVEN, (_T, v, _i, k) => {
      if (k === 3 && floatRoundingErr) return true;
      if ((k === 4 || k === 5) && doubleRoundingErr) return true;
      return eq(v, expected[k]!);
    });
  }
  tests++;

  // or_reduce
  setAll(FOUR, src, () => (me + 1) % 4);
  setAll(FOUR, dst, () => -9);
  await s.barrierAll();
  await reduce('or', FOUR);
  if (me === 0) passed += verdict('or', FOUR, (_T, v) => eq(v, npes === 1 ? 1 : 3));
  tests++;

  // xor_reduce
  const expectedXor = Math.trunc(npes / 2) % 2;
  setAll(FOUR, src, () => me % 2);
  setAll(FOUR, dst, () => -9);
  await s.barrierAll();
  await reduce('xor', FOUR);
  if (me === 0) passed += verdict('xor', FOUR, (_T, v) => eq(v, expectedXor));
  tests++;

  let c = 0;
  if (me === 0) {
    if (tests !== passed) t.printf(`to_all[${me}] ${passed} of ${tests} tests passed`);
    c = tests === passed ? 0 : 1;
  }
  await s.finalize();
  return c;
}
