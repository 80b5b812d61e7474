// tests-uh feature_tests/Fortran/reductions/test_shmem_{and,or,xor,max,min,sum,prod}_01_<type>.f90:
// a shmem_<type>_<op>_to_all over all PEs (3 or more) of 10 elements me+i, checked by every PE
// against the value computed here; PE 0 prints the verdict. One port for the 22 tests, told
// apart by the test's name; the tests' pSync is declared `integer` (4 bytes): a pSync is of
// longs, as here.
import type { ShmemTest } from '../../../shmem/harness.ts';
import type { Symmetric } from '../../../../runtime/shmem/shmem.ts';
import { cast, cget, cset, cview, eq, type CValue } from '../../../shmem/ctypes.ts';
import { FTYPES, parseName } from '../../fortran.ts';

const MIN_NPES = 3;
const NELEMS = 10;
type Op = 'and' | 'or' | 'xor' | 'max' | 'min' | 'sum' | 'prod';
/** The C name of the _to_all call of each Fortran type. */
const CNAME: Readonly<Record<string, string>> = { int4: 'int', int8: 'long', real4: 'float', real8: 'double' };

export default async function fortranReduction(t: ShmemTest): Promise<number> {
  const { family, type } = parseName(t.name);
  const op = family.replace('test_shmem_', '') as Op;
  const F = FTYPES[type];
  const T = F.T;
  const s = t.shmem;
  const wrk = Math.max(Math.trunc(NELEMS / 2) + 1, s.REDUCE_MIN_WRKDATA_SIZE);
  const [srcS, destS, pSync, pWrk] = await t.statics([NELEMS * T.bytes, NELEMS * T.bytes, 8 * s.REDUCE_SYNC_SIZE, wrk * T.bytes]);
  const TEST_NAME = `shmem_${op}`;
  let success = true;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes >= MIN_NPES) {
    pSync!.int64().fill(s.SYNC_VALUE, 0, s.REDUCE_SYNC_SIZE);
    const src = cview(T, srcS!);
    const dest = cview(T, destS!);
    const expected: CValue[] = [];
    for (let i = 1; i <= NELEMS; i++) {
      cset(T, dest, i - 1, op === 'prod' ? -9 : 0);
      cset(T, src, i - 1, me + i);
    }
    // dest_expected, computed as the test does, each step in the type (integers wrap, real*4 rounds to single)
    const big = (v: CValue): bigint => BigInt(v);
    for (let i = 1; i <= NELEMS; i++) {
      let e: CValue;
      if (op === 'max') e = npes - 1 + i;
      else if (op === 'min') e = i;
      else if (op === 'sum' || op === 'prod') {
        e = op === 'sum' ? 0 : 1;
        for (let pe = 0; pe < npes; pe++) e = cast(T, T.float ? (op === 'sum' ? Number(e) + (pe + i) : Number(e) * (pe + i)) : op === 'sum' ? big(e) + BigInt(pe + i) : big(e) * BigInt(pe + i));
      } else {
        let acc = BigInt(i);
        for (let pe = 1; pe < npes; pe++) acc = op === 'and' ? acc & BigInt(pe + i) : op === 'or' ? acc | BigInt(pe + i) : acc ^ BigInt(pe + i);
        e = acc;
      }
      expected.push(cast(T, e));
    }
    await s.barrierAll();
    const call = `${CNAME[type]}${op[0]!.toUpperCase()}${op.slice(1)}ToAll`;
    const f = (s as unknown as Record<string, (...a: unknown[]) => Promise<void>>)[call];
    if (!f) throw new Error(`phit has no ${call} (shmem_${type}_${op}_to_all)`);
    await f.call(s, destS! as Symmetric, srcS!, NELEMS, 0, 0, npes, pWrk!, pSync!);
    for (let i = 0; i < NELEMS; i++) if (!eq(cget(T, dest, i), expected[i]!)) success = false;
    if (me === 0) t.printf(` ${TEST_NAME}: ${success ? 'Passed' : 'Failed'}`);
  } else if (me === 0) t.printf(` This test requires ${MIN_NPES} or more PEs.`);
  await s.finalize();
  return 0;
}
