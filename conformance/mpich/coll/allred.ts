// MPICH test/mpi/coll/allred.c: MPI_Allreduce of every predefined op on every predefined type it
// is defined for, against precomputed solutions, with the testlist's -count (MTEST_COLL_COUNT).
// Types map to typed arrays as C's do on LP64 (long, MPI_AINT, MPI_OFFSET and MPI_COUNT are 64
// bits: BigInt64Array); the pair types of MAXLOC/MINLOC are interleaved (value, index) pairs of
// the value's type. phit has no complex element type: the MPI_C_FLOAT_COMPLEX sum and product
// checks are left out.
import { assert, type MTest, type MTestResult } from '../mtest.ts';
import type { Op, ReduceArray } from '../../../runtime/mpi/mpi.ts';

type Ctor = { new (n: number): ReduceArray; readonly name: string };
interface TypeDesc {
  readonly name: string;
  readonly T: Ctor;
}

const t = (name: string, T: Ctor): TypeDesc => ({ name, T });
const INT_TYPES: readonly TypeDesc[] = [
  t('MPI_INT', Int32Array),
  t('MPI_LONG', BigInt64Array),
  t('MPI_SHORT', Int16Array),
  t('MPI_UNSIGNED_SHORT', Uint16Array),
  t('MPI_UNSIGNED', Uint32Array),
  t('MPI_UNSIGNED_LONG', BigUint64Array),
  t('MPI_UNSIGNED_CHAR', Uint8Array),
  t('MPI_INT8_T', Int8Array),
  t('MPI_INT16_T', Int16Array),
  t('MPI_INT32_T', Int32Array),
  t('MPI_INT64_T', BigInt64Array),
  t('MPI_UINT8_T', Uint8Array),
  t('MPI_UINT16_T', Uint16Array),
  t('MPI_UINT32_T', Uint32Array),
  t('MPI_UINT64_T', BigUint64Array),
  t('MPI_AINT', BigInt64Array),
  t('MPI_OFFSET', BigInt64Array),
  t('MPI_COUNT', BigInt64Array),
];
const FLOAT_TYPES: readonly TypeDesc[] = [t('MPI_FLOAT', Float32Array), t('MPI_DOUBLE', Float64Array)];
const BYTE_TYPES: readonly TypeDesc[] = [t('MPI_BYTE', Uint8Array)];
const LOGICAL_TYPES: readonly TypeDesc[] = [t('MPI_C_BOOL', Uint8Array)];
const PAIR_TYPES: readonly TypeDesc[] = [t('MPI_2INT', Int32Array), t('MPI_LONG_INT', BigInt64Array), t('MPI_SHORT_INT', Int16Array), t('MPI_FLOAT_INT', Float32Array), t('MPI_DOUBLE_INT', Float64Array)];

const isBig = (a: ReduceArray): a is BigInt64Array | BigUint64Array => a instanceof BigInt64Array || a instanceof BigUint64Array;

/** Element i = val, converted as C converts a long long to the element type. */
function setValue(a: ReduceArray, i: number, val: number): void {
  if (isBig(a)) a[i] = BigInt(val);
  else a[i] = val;
}

function getPow(base: number, n: number): number {
  let ans = 1;
  for (let i = 0; i < n; i++) ans *= base;
  return ans;
}

export default async function allred(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const size = mpi.size;
  if (size < 2) throw new Error('At least 2 processes required');
  const count = mt.argInt('count', 0);
  let errs = 0;

  let inp: ReduceArray = new Int32Array(0);
  let out: ReduceArray = new Int32Array(0);
  let sol: ReduceArray = new Int32Array(0);
  const alloc = (d: TypeDesc, pairs: boolean): void => {
    const n = pairs ? 2 * count : count;
    inp = new d.T(n);
    out = new d.T(n);
    sol = new d.T(n);
  };
  const setConst = (a: ReduceArray, val: number): void => {
    for (let i = 0; i < count; i++) setValue(a, i, val);
  };
  const setSum = (a: ReduceArray, val: number): void => {
    for (let i = 0; i < count; i++) setValue(a, i, i + val);
  };
  const setFactor = (a: ReduceArray, val: number): void => {
    for (let i = 0; i < count; i++) setValue(a, i, i * val);
  };
  const setPower = (a: ReduceArray, val: number): void => {
    for (let i = 0; i < count; i++) setValue(a, i, getPow(i, val));
  };
  const setPairConst = (a: ReduceArray, va: number, vb: number): void => {
    for (let i = 0; i < count; i++) {
      setValue(a, 2 * i, va);
      setValue(a, 2 * i + 1, vb);
    }
  };
  const setPairSum = (a: ReduceArray, va: number, vb: number): void => {
    for (let i = 0; i < count; i++) {
      setValue(a, 2 * i, i + va);
      setValue(a, 2 * i + 1, vb);
    }
  };

  const allreduceAndCheck = async (d: TypeDesc, op: Op): Promise<number> => {
    let lerrcnt = 0;
    await mpi.allreduce(inp, out, op);
    // elements compare as C compares them: memcmp for integers, == for floats, both members of a pair
    const step = op === mpi.MAXLOC || op === mpi.MINLOC ? 2 : 1;
    for (let i = 0; i < count; i++) {
      const k = i * step;
      if (out[k] !== sol[k] || (step === 2 && out[k + 1] !== sol[k + 1])) lerrcnt++;
    }
    if (lerrcnt > 0) mt.printf(`(${rank}) Error for type ${d.name} and op ${op.name}`);
    return lerrcnt;
  };

  const sumTest1 = (d: TypeDesc) => {
    alloc(d, false);
    setSum(inp, 0);
    setFactor(sol, size);
    setConst(out, 0);
    return allreduceAndCheck(d, mpi.SUM);
  };
  const prodTest1 = (d: TypeDesc) => {
    alloc(d, false);
    setSum(inp, 0);
    setPower(sol, size);
    setConst(out, 0);
    return allreduceAndCheck(d, mpi.PROD);
  };
  const maxTest1 = (d: TypeDesc) => {
    alloc(d, false);
    setSum(inp, rank);
    setSum(sol, size - 1);
    setConst(out, 0);
    return allreduceAndCheck(d, mpi.MAX);
  };
  const minTest1 = (d: TypeDesc) => {
    alloc(d, false);
    setSum(inp, rank);
    setSum(sol, 0);
    setConst(out, 0);
    return allreduceAndCheck(d, mpi.MIN);
  };
  const constTest = (d: TypeDesc, op: Op, v1: number, v2: number, v3: number) => {
    alloc(d, false);
    setConst(inp, v1);
    setConst(sol, v2);
    setConst(out, v3);
    return allreduceAndCheck(d, op);
  };
  const lorTest1 = (d: TypeDesc) => constTest(d, mpi.LOR, rank & 0x1, size > 1 ? 1 : 0, 0);
  const lorTest2 = (d: TypeDesc) => constTest(d, mpi.LOR, 0, 0, 0);
  const lxorTest1 = (d: TypeDesc) => constTest(d, mpi.LXOR, rank === 1 ? 1 : 0, size > 1 ? 1 : 0, 0);
  const lxorTest2 = (d: TypeDesc) => constTest(d, mpi.LXOR, 0, 0, 0);
  const lxorTest3 = (d: TypeDesc) => constTest(d, mpi.LXOR, 1, size & 0x1, 0);
  const landTest1 = (d: TypeDesc) => constTest(d, mpi.LAND, rank & 0x1, 0, 0);
  const landTest2 = (d: TypeDesc) => constTest(d, mpi.LAND, 1, 1, 0);
  const borTest1 = (d: TypeDesc) => constTest(d, mpi.BOR, rank & 0x3, size < 3 ? size - 1 : 0x3, 0);
  const bxorTest1 = (d: TypeDesc) => constTest(d, mpi.BXOR, (rank === 1 ? 1 : 0) * 0xf0, (size > 1 ? 1 : 0) * 0xf0, 0);
  const bxorTest2 = (d: TypeDesc) => constTest(d, mpi.BXOR, 0, 0, 0);
  const bxorTest3 = (d: TypeDesc) => constTest(d, mpi.BXOR, ~0, size & 0x1 ? ~0 : 0, 0);
  const bandTest1 = (d: TypeDesc) => {
    alloc(d, false);
    if (rank === size - 1) setSum(inp, 0);
    else setConst(inp, ~0);
    setSum(sol, 0);
    setConst(out, 0);
    return allreduceAndCheck(d, mpi.BAND);
  };
  const bandTest2 = (d: TypeDesc) => {
    alloc(d, false);
    if (rank === size - 1) setSum(inp, 0);
    else setConst(inp, 0);
    setConst(sol, 0);
    setConst(out, 0);
    return allreduceAndCheck(d, mpi.BAND);
  };
  const maxlocTest = (d: TypeDesc) => {
    alloc(d, true);
    setPairSum(inp, rank, rank);
    setPairSum(sol, size - 1, size - 1);
    setPairConst(out, 0, -1);
    return allreduceAndCheck(d, mpi.MAXLOC);
  };
  const minlocTest = (d: TypeDesc) => {
    alloc(d, true);
    setPairSum(inp, rank, rank);
    setPairSum(sol, 0, 0);
    setPairConst(out, 0, 0);
    return allreduceAndCheck(d, mpi.MINLOC);
  };

  // test_allred, once (host memory)
  assert(count > 0, 'count > 0');
  for (const d of INT_TYPES) {
    errs += await sumTest1(d);
    errs += await prodTest1(d);
    errs += await maxTest1(d);
    errs += await minTest1(d);
    errs += await lorTest1(d);
    errs += await lorTest2(d);
    errs += await lxorTest1(d);
    errs += await lxorTest2(d);
    errs += await lxorTest3(d);
    errs += await landTest1(d);
    errs += await landTest2(d);
    errs += await borTest1(d);
    errs += await bandTest1(d);
    errs += await bandTest2(d);
    errs += await bxorTest1(d);
    errs += await bxorTest2(d);
    errs += await bxorTest3(d);
  }
  for (const d of FLOAT_TYPES) {
    errs += await sumTest1(d);
    errs += await prodTest1(d);
    errs += await maxTest1(d);
    errs += await minTest1(d);
  }
  for (const d of BYTE_TYPES) {
    errs += await borTest1(d);
    errs += await bandTest1(d);
    errs += await bandTest2(d);
    errs += await bxorTest1(d);
    errs += await bxorTest2(d);
    errs += await bxorTest3(d);
  }
  for (const d of LOGICAL_TYPES) {
    errs += await lorTest1(d);
    errs += await lorTest2(d);
    errs += await lxorTest1(d);
    errs += await lxorTest2(d);
    errs += await lxorTest3(d);
    errs += await landTest1(d);
    errs += await landTest2(d);
  }
  for (const d of PAIR_TYPES) {
    errs += await maxlocTest(d);
    errs += await minlocTest(d);
  }
  return mt.finalize(errs);
}
