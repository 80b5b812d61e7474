// SOS test/unit/c11_shmem_team_reduce.c and shmem_team_reduce.c (the same checks through the
// generic and the typed names), cxx_test_shmem_max_min_reduce.cpp and
// cxx_test_shmem_sum_prod_reduce.cpp (two of their operators, typed names): for each operator and
// every type OpenSHMEM 1.5 gives it (Table 10: the bitwise ones the unsigned and fixed-width
// integers, min and max the real types with long double, sum and prod those and the complex
// types), a reduction over TEAM_WORLD of npes elements of 1 from each PE, checked on every PE
// after a barrier: 1 for and, or, max, min and prod, npes % 2 for xor, npes for sum; the
// floating types (the complex ones too in C, where `is_floating_point` says so; not in C++,
// whose std::is_floating_point does not) within 1e-6 of it, real and imaginary part. One port for
// the four, told apart by the test's name.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ReduceElemType } from '../../../runtime/shmem/reduce-ops.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';
import { cast, cget, cset, ctype, cview, eq, num, type CType, type CTypeName } from '../../shmem/ctypes.ts';

const MAX_NPES = 32;
const FLOATING_POINT_TOLERANCE = 1e-6;

type Op = 'and' | 'or' | 'xor' | 'max' | 'min' | 'sum' | 'prod';
type Complex = 'double _Complex' | 'float _Complex';
type TypeName = CTypeName | Complex;

const BITWISE: readonly TypeName[] = ['unsigned char', 'unsigned short', 'unsigned int', 'unsigned long', 'unsigned long long', 'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'size_t'];
const REAL: readonly TypeName[] = [
  'char',
  'signed char',
  'short',
  'int',
  'long',
  'long long',
  'ptrdiff_t',
  'unsigned char',
  'unsigned short',
  'unsigned int',
  'unsigned long',
  'unsigned long long',
  'int8_t',
  'int16_t',
  'int32_t',
  'int64_t',
  'uint8_t',
  'uint16_t',
  'uint32_t',
  'uint64_t',
  'size_t',
  'float',
  'double',
  'long double',
];
const ARITH: readonly TypeName[] = [...REAL, 'double _Complex', 'float _Complex'];

/** The operators of each test, in its order, with the types it reduces and the name its messages give the operator. */
function plan(name: string): { op: Op; label: string; types: readonly TypeName[] }[] {
  if (name === 'cxx_test_shmem_max_min_reduce') {
    return [
      { op: 'max', label: 'OP_MAX', types: REAL },
      { op: 'min', label: 'OP_MIN', types: REAL },
    ];
  }
  if (name === 'cxx_test_shmem_sum_prod_reduce') {
    return [
      { op: 'sum', label: 'OP_SUM', types: ARITH },
      { op: 'prod', label: 'OP_PROD', types: ARITH },
    ];
  }
  const types: Readonly<Record<Op, readonly TypeName[]>> = { and: BITWISE, or: BITWISE, xor: BITWISE, max: REAL, min: REAL, sum: ARITH, prod: ARITH };
  return (['and', 'or', 'xor', 'max', 'min', 'sum', 'prod'] as const).map((op) => ({ op, label: op, types: types[op] }));
}

const isComplex = (n: TypeName): n is Complex => n === 'double _Complex' || n === 'float _Complex';
/** Bytes of one element. */
const bytesOf = (n: TypeName): number => (n === 'double _Complex' ? 16 : n === 'float _Complex' ? 8 : ctype(n).bytes);

/** A complex array at `s`: [re, im] pairs of float (float _Complex) or double. */
function complexView(n: Complex, s: Symmetric): Float32Array | Float64Array {
  const local = s.local;
  return n === 'float _Complex' ? new Float32Array(local.buffer, local.byteOffset, 2 * MAX_NPES) : new Float64Array(local.buffer, local.byteOffset, 2 * MAX_NPES);
}

export default async function teamReduce(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const cxx = t.name.startsWith('cxx_');
  const ops = plan(t.name);
  // static TYPE src[MAX_NPES], dest[MAX_NPES] per macro expansion
  const vars = await t.statics(ops.flatMap(({ types }) => types.flatMap((n) => [MAX_NPES * bytesOf(n), MAX_NPES * bytesOf(n)])));
  s.init();
  let rc = 0;
  const mype = s.myPe();
  const npes = s.nPes();
  if (npes > MAX_NPES) {
    if (mype === 0) t.printf(`ERR - Requires less than ${MAX_NPES} PEs`);
    await s.globalExit(1);
  }
  let k = 0;
  for (const { op, label, types } of ops) {
    for (const name of types) {
      const src = vars[k++]!;
      const dest = vars[k++]!;
      const T: CType | null = isComplex(name) ? null : ctype(name);
      // INIT_SRC_BUFFER: src[i] = (TYPE)1ULL
      if (T === null) {
        const v = complexView(name as Complex, src);
        for (let i = 0; i < MAX_NPES; i++) [v[2 * i], v[2 * i + 1]] = [1, 0];
      } else {
        const v = cview(T, src);
        for (let i = 0; i < MAX_NPES; i++) cset(T, v, i, 1);
      }
      const type: ReduceElemType = T === null ? (name === 'double _Complex' ? 'complexd' : 'complexf') : T.reduce!;
      const reduce = { and: s.andReduce, or: s.orReduce, xor: s.xorReduce, max: s.maxReduce, min: s.minReduce, sum: s.sumReduce, prod: s.prodReduce }[op];
      const r = await t.ret(() => reduce.call(s, s.TEAM_WORLD, dest, src, npes, type));
      if (r.ret !== 0) {
        t.printf(`Reduction returned non-zero value (${r.ret}) on PE (${mype}) with TEST_SHMEM_REDUCE(${label}, ${name})`);
        rc = 1;
      }
      await s.barrierAll();
      const correct = op === 'xor' ? npes % 2 : op === 'sum' ? npes : 1;
      // is_floating_point: true for the complex types in C's _Generic, false in C++'s trait
      const fp = T === null ? !cxx : T.float;
      for (let i = 0; i < npes; i++) {
        const [re, im] = T === null ? [complexView(name as Complex, dest)[2 * i]!, complexView(name as Complex, dest)[2 * i + 1]!] : [num(cget(T, cview(T, dest), i)), 0];
        if (fp) {
          if (Math.abs(re - correct) > FLOATING_POINT_TOLERANCE) {
            t.printf(`PE ${mype} received incorrect real value with TEST_SHMEM_REDUCE(${label}, ${name})`);
            rc = 1;
          }
          if (Math.abs(im - 0) > FLOATING_POINT_TOLERANCE) {
            t.printf(`PE ${mype} received incorrect imaginary value with TEST_SHMEM_REDUCE(${label}, ${name})`);
            rc = 1;
          }
        } else if (T === null ? re !== correct || im !== 0 : !eq(cget(T, cview(T, dest), i), cast(T, correct))) {
          t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_REDUCE(${label}, ${name})`);
          rc = 1;
        }
      }
    }
  }
  if (cxx) t.printf(`Test passed with ret = ${rc}`);
  await s.finalize();
  return rc;
}
