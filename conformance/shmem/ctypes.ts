import type { ElemKind } from '../../runtime/shmem/elements.ts';
import type { ReduceElemType } from '../../runtime/shmem/reduce-ops.ts';
import type { Symmetric } from '../../runtime/shmem/shmem.ts';
import type { ShmemSignals } from '../../runtime/shmem/signals.ts';
import type { AtomicType, FloatAtomicType } from '../../runtime/shmem/symmetric.ts';
import type { CollElemType } from '../../runtime/shmem/team-collectives.ts';
import type { WaitType } from '../../runtime/shmem/wait.ts';

/**
 * The C types of the OpenSHMEM test suites as phit's typed calls take them, for the ports of tests
 * that run one check per C type (SOS's c11_ and cxx_ tests, `rma_coverage`, tests-uh's typed
 * put/get tests): the element kind of phit's typed RMA (`putInt16`, ...), the type name of the
 * atomics, waits, reductions and typed team collectives, and C's conversion `(TYPE)v` on LP64.
 *
 * `long double` has no JavaScript type: it is carried as x86-64 lays it out, 16 bytes an element,
 * by phit's 128-bit calls (`put128`, `iget128`, ...), its value in the first 8 bytes as a double;
 * the suites only store small integers and rand() values in it, which a double holds exactly.
 * phit's reductions and typed team collectives take it in that layout (`longdouble`).
 */
export interface CType {
  /** The C spelling: `unsigned long long`, `int32_t`. */
  readonly name: string;
  /** Element kind of phit's typed RMA calls; `LongDouble` for the 16-byte emulation. */
  readonly kind: ElemKind | 'LongDouble';
  readonly bytes: 1 | 2 | 4 | 8 | 16;
  /** Values are bigints (the 64-bit integers). */
  readonly big: boolean;
  /** A floating-point type. */
  readonly float: boolean;
  readonly signed: boolean;
  /** Type of the atomics, when OpenSHMEM defines atomics on it. */
  readonly atomic?: AtomicType | FloatAtomicType;
  /** Type of the point-to-point waits and tests, when OpenSHMEM defines them on it. */
  readonly wait?: WaitType;
  /** Type of the team reductions. */
  readonly reduce?: ReduceElemType;
  /** Type of the typed team collectives (broadcast, collect, fcollect, alltoall, alltoalls). */
  readonly coll: CollElemType;
}

/** A value of a C type: a bigint for the 64-bit integers, a number otherwise. */
export type CValue = number | bigint;

/** A private array of a C type (a Float64Array of two doubles an element for long double). */
export type CArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array;

const COLL: Readonly<Record<CType['kind'], CollElemType>> = {
  Int8: 'int8',
  Uint8: 'uint8',
  Int16: 'int16',
  Uint16: 'uint16',
  Int32: 'int32',
  Uint32: 'uint32',
  Int64: 'int64',
  Uint64: 'uint64',
  Float32: 'float32',
  Float64: 'float64',
  LongDouble: 'longdouble',
};

const t = (name: string, kind: CType['kind'], bytes: CType['bytes'], more: Partial<CType> = {}): CType => ({
  name,
  kind,
  bytes,
  coll: COLL[kind],
  big: kind === 'Int64' || kind === 'Uint64',
  float: kind === 'Float32' || kind === 'Float64' || kind === 'LongDouble',
  signed: !kind.startsWith('Uint'),
  ...more,
});

/** Every C type of the suites, by its C spelling (LP64: long is 64 bits, char is signed). */
export const CTYPES = {
  float: t('float', 'Float32', 4, { atomic: 'float32', reduce: 'float32' }),
  double: t('double', 'Float64', 8, { atomic: 'float64', reduce: 'float64' }),
  'long double': t('long double', 'LongDouble', 16, { reduce: 'longdouble' }),
  char: t('char', 'Int8', 1, { reduce: 'int8' }),
  'signed char': t('signed char', 'Int8', 1, { reduce: 'int8' }),
  short: t('short', 'Int16', 2, { wait: 'int16', reduce: 'int16' }),
  int: t('int', 'Int32', 4, { atomic: 'int32', wait: 'int32', reduce: 'int32' }),
  long: t('long', 'Int64', 8, { atomic: 'int64', wait: 'int64', reduce: 'int64' }),
  'long long': t('long long', 'Int64', 8, { atomic: 'int64', wait: 'int64', reduce: 'int64' }),
  'unsigned char': t('unsigned char', 'Uint8', 1, { reduce: 'uint8' }),
  'unsigned short': t('unsigned short', 'Uint16', 2, { wait: 'uint16', reduce: 'uint16' }),
  'unsigned int': t('unsigned int', 'Uint32', 4, { atomic: 'uint32', wait: 'uint32', reduce: 'uint32' }),
  'unsigned long': t('unsigned long', 'Uint64', 8, { atomic: 'uint64', wait: 'uint64', reduce: 'uint64' }),
  'unsigned long long': t('unsigned long long', 'Uint64', 8, { atomic: 'uint64', wait: 'uint64', reduce: 'uint64' }),
  int8_t: t('int8_t', 'Int8', 1, { reduce: 'int8' }),
  int16_t: t('int16_t', 'Int16', 2, { reduce: 'int16' }),
  int32_t: t('int32_t', 'Int32', 4, { atomic: 'int32', wait: 'int32', reduce: 'int32' }),
  int64_t: t('int64_t', 'Int64', 8, { atomic: 'int64', wait: 'int64', reduce: 'int64' }),
  uint8_t: t('uint8_t', 'Uint8', 1, { reduce: 'uint8' }),
  uint16_t: t('uint16_t', 'Uint16', 2, { reduce: 'uint16' }),
  uint32_t: t('uint32_t', 'Uint32', 4, { atomic: 'uint32', wait: 'uint32', reduce: 'uint32' }),
  uint64_t: t('uint64_t', 'Uint64', 8, { atomic: 'uint64', wait: 'uint64', reduce: 'uint64' }),
  size_t: t('size_t', 'Uint64', 8, { atomic: 'uint64', wait: 'uint64', reduce: 'uint64' }),
  ptrdiff_t: t('ptrdiff_t', 'Int64', 8, { atomic: 'int64', wait: 'int64', reduce: 'int64' }),
} as const satisfies Record<string, CType>;

export type CTypeName = keyof typeof CTYPES;

/** The C type named `name`. */
export function ctype(name: CTypeName): CType {
  return CTYPES[name];
}

/** C's conversion `(TYPE)v`: integers wrap to the type's width, floats round (float to single precision). */
export function cast(T: CType, v: CValue): CValue {
  if (T.float) {
    const x = Number(v);
    return T.kind === 'Float32' ? Math.fround(x) : x;
  }
  const bits = T.bytes * 8;
  const b = typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  const w = T.signed ? BigInt.asIntN(bits, b) : BigInt.asUintN(bits, b);
  return T.big ? w : Number(w);
}

/** `v` as a number (for arithmetic in checks). */
export function num(v: CValue): number {
  return Number(v);
}

/** Whether two values of a type are equal, as C's `==` on them. */
export function eq(a: CValue, b: CValue): boolean {
  return typeof a === typeof b ? a === b : Number(a) === Number(b);
}

/** A zeroed private array of `n` elements of `T`. */
export function carray(T: CType, n: number): CArray {
  switch (T.kind) {
    case 'Int8':
      return new Int8Array(n);
    case 'Uint8':
      return new Uint8Array(n);
    case 'Int16':
      return new Int16Array(n);
    case 'Uint16':
      return new Uint16Array(n);
    case 'Int32':
      return new Int32Array(n);
    case 'Uint32':
      return new Uint32Array(n);
    case 'Int64':
      return new BigInt64Array(n);
    case 'Uint64':
      return new BigUint64Array(n);
    case 'Float32':
      return new Float32Array(n);
    case 'Float64':
      return new Float64Array(n);
    case 'LongDouble':
      return new Float64Array(2 * n);
  }
}

/** This PE's copy of the symmetric `s` as an array of `T` (the whole allocation from `s` on). */
export function cview(T: CType, s: Symmetric): CArray {
  const local = s.local;
  const n = Math.floor(local.byteLength / T.bytes);
  const at = local.byteOffset;
  const buf = local.buffer;
  switch (T.kind) {
    case 'Int8':
      return new Int8Array(buf, at, n);
    case 'Uint8':
      return new Uint8Array(buf, at, n);
    case 'Int16':
      return new Int16Array(buf, at, n);
    case 'Uint16':
      return new Uint16Array(buf, at, n);
    case 'Int32':
      return new Int32Array(buf, at, n);
    case 'Uint32':
      return new Uint32Array(buf, at, n);
    case 'Int64':
      return new BigInt64Array(buf, at, n);
    case 'Uint64':
      return new BigUint64Array(buf, at, n);
    case 'Float32':
      return new Float32Array(buf, at, n);
    case 'Float64':
      return new Float64Array(buf, at, n);
    case 'LongDouble':
      return new Float64Array(buf, at, 2 * n);
  }
}

/** Element `i` of an array of `T`. */
export function cget(T: CType, a: CArray, i: number): CValue {
  return a[T.kind === 'LongDouble' ? 2 * i : i]!;
}

/** Stores `(TYPE)v` in element `i` of an array of `T`. */
export function cset(T: CType, a: CArray, i: number, v: CValue): void {
  (a as unknown as CValue[])[T.kind === 'LongDouble' ? 2 * i : i] = cast(T, v);
}

/** The address of element `i` of an array of `T` at `s` (`&s[i]`). */
export function cat(T: CType, s: Symmetric, i: number): Symmetric {
  return s.at(i * T.bytes);
}

/** The part of phit's SHMEM a context and the default context share: RMA, atomics, put-with-signal, quiet, fence. */
export type Rma = ShmemSignals;

type Fn = (...a: unknown[]) => Promise<unknown>;
const call = (s: Rma, name: string): Fn => {
  const f = (s as unknown as Record<string, Fn>)[name];
  if (typeof f !== 'function') throw new TypeError(`phit's SHMEM has no ${name}`);
  return f.bind(s);
};

/** `shmem_TYPE_put(dest, source, nelems, pe)` on `s`. */
export function put(s: Rma, T: CType, dest: Symmetric, src: CArray, nelems: number, pe: number): Promise<unknown> {
  return T.kind === 'LongDouble' ? s.put128(dest, src, nelems, pe) : call(s, `put${T.kind}`)(dest, src, nelems, pe);
}
/** `shmem_TYPE_get(dest, source, nelems, pe)`. */
export function get(s: Rma, T: CType, dest: CArray, src: Symmetric, nelems: number, pe: number): Promise<unknown> {
  return T.kind === 'LongDouble' ? s.get128(dest, src, nelems, pe) : call(s, `get${T.kind}`)(dest, src, nelems, pe);
}
/** `shmem_TYPE_put_nbi`. */
export function putNbi(s: Rma, T: CType, dest: Symmetric, src: CArray, nelems: number, pe: number): Promise<unknown> {
  return T.kind === 'LongDouble' ? s.put128Nbi(dest, src, nelems, pe) : call(s, `put${T.kind}Nbi`)(dest, src, nelems, pe);
}
/** `shmem_TYPE_get_nbi`. */
export function getNbi(s: Rma, T: CType, dest: CArray, src: Symmetric, nelems: number, pe: number): Promise<unknown> {
  return T.kind === 'LongDouble' ? s.get128Nbi(dest, src, nelems, pe) : call(s, `get${T.kind}Nbi`)(dest, src, nelems, pe);
}
/** `shmem_TYPE_iput(dest, source, dst, sst, nelems, pe)`. */
export function iput(s: Rma, T: CType, dest: Symmetric, src: CArray, dst: number, sst: number, nelems: number, pe: number): Promise<unknown> {
  return T.kind === 'LongDouble' ? s.iput128(dest, src, dst, sst, nelems, pe) : call(s, `iput${T.kind}`)(dest, src, dst, sst, nelems, pe);
}
/** `shmem_TYPE_iget(dest, source, dst, sst, nelems, pe)`. */
export function iget(s: Rma, T: CType, dest: CArray, src: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<unknown> {
  return T.kind === 'LongDouble' ? s.iget128(dest, src, dst, sst, nelems, pe) : call(s, `iget${T.kind}`)(dest, src, dst, sst, nelems, pe);
}
/** `shmem_TYPE_p(dest, value, pe)`. */
export async function p(s: Rma, T: CType, dest: Symmetric, value: CValue, pe: number): Promise<void> {
  if (T.kind === 'LongDouble') await s.put128(dest, Float64Array.of(Number(value), 0), 1, pe);
  else await call(s, `p${T.kind}`)(dest, cast(T, value), pe);
}
/** `shmem_TYPE_g(source, pe)`. */
export async function g(s: Rma, T: CType, src: Symmetric, pe: number): Promise<CValue> {
  if (T.kind === 'LongDouble') {
    const v = new Float64Array(2);
    await s.get128(v, src, 1, pe);
    return v[0]!;
  }
  return (await call(s, `g${T.kind}`)(src, pe)) as CValue;
}

/** The atomic type of `T`, or a TypeError naming the C type (a port calls only what the C test calls). */
function atomicOf(T: CType): AtomicType | FloatAtomicType {
  if (T.atomic === undefined) throw new TypeError(`OpenSHMEM has no atomics on ${T.name}`);
  return T.atomic;
}

/** A value of `T` as an atomic's operand: a bigint for the integer types. */
function operand(T: CType, v: CValue): bigint | number {
  const c = cast(T, v);
  return T.float ? Number(c) : BigInt(c);
}

/** An atomic's result as a value of `T`. */
function result(T: CType, v: unknown): CValue {
  return T.float || !T.big ? Number(v) : (v as bigint);
}

/** The operations of the atomics on an integer or float type, as C names them (`shmem_atomic_fetch_add`, ...). */
export const atomic = {
  fetch: async (s: Rma, T: CType, src: Symmetric, pe: number): Promise<CValue> => result(T, await s.atomicFetch(src, pe, atomicOf(T))),
  set: (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicSet(dest, operand(T, v) as never, pe, atomicOf(T)),
  swap: async (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<CValue> => result(T, await s.atomicSwap(dest, operand(T, v) as never, pe, atomicOf(T))),
  compareSwap: async (s: Rma, T: CType, dest: Symmetric, cond: CValue, v: CValue, pe: number): Promise<CValue> => result(T, await s.atomicCompareSwap(dest, operand(T, cond), operand(T, v), pe, atomicOf(T) as AtomicType)),
  add: (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicAdd(dest, operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchAdd: async (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<CValue> => result(T, await s.atomicFetchAdd(dest, operand(T, v), pe, atomicOf(T) as AtomicType)),
  inc: (s: Rma, T: CType, dest: Symmetric, pe: number): Promise<void> => s.atomicInc(dest, pe, atomicOf(T) as AtomicType),
  fetchInc: async (s: Rma, T: CType, dest: Symmetric, pe: number): Promise<CValue> => result(T, await s.atomicFetchInc(dest, pe, atomicOf(T) as AtomicType)),
  and: (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicAnd(dest, operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchAnd: async (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<CValue> => result(T, await s.atomicFetchAnd(dest, operand(T, v), pe, atomicOf(T) as AtomicType)),
  or: (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicOr(dest, operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchOr: async (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<CValue> => result(T, await s.atomicFetchOr(dest, operand(T, v), pe, atomicOf(T) as AtomicType)),
  xor: (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicXor(dest, operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchXor: async (s: Rma, T: CType, dest: Symmetric, v: CValue, pe: number): Promise<CValue> => result(T, await s.atomicFetchXor(dest, operand(T, v), pe, atomicOf(T) as AtomicType)),
  // the non-blocking fetching forms: the old value lands in fetch[index] by the next quiet
  fetchNbi: (s: Rma, T: CType, fetch: CArray, index: number, src: Symmetric, pe: number): Promise<void> => s.atomicFetchNbi(fetch as never, index, src, pe, atomicOf(T)),
  swapNbi: (s: Rma, T: CType, fetch: CArray, index: number, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicSwapNbi(fetch as never, index, dest, operand(T, v), pe, atomicOf(T)),
  compareSwapNbi: (s: Rma, T: CType, fetch: CArray, index: number, dest: Symmetric, cond: CValue, v: CValue, pe: number): Promise<void> =>
    s.atomicCompareSwapNbi(fetch as never, index, dest, operand(T, cond), operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchAddNbi: (s: Rma, T: CType, fetch: CArray, index: number, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicFetchAddNbi(fetch as never, index, dest, operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchIncNbi: (s: Rma, T: CType, fetch: CArray, index: number, dest: Symmetric, pe: number): Promise<void> => s.atomicFetchIncNbi(fetch as never, index, dest, pe, atomicOf(T) as AtomicType),
  fetchAndNbi: (s: Rma, T: CType, fetch: CArray, index: number, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicFetchAndNbi(fetch as never, index, dest, operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchOrNbi: (s: Rma, T: CType, fetch: CArray, index: number, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicFetchOrNbi(fetch as never, index, dest, operand(T, v), pe, atomicOf(T) as AtomicType),
  fetchXorNbi: (s: Rma, T: CType, fetch: CArray, index: number, dest: Symmetric, v: CValue, pe: number): Promise<void> => s.atomicFetchXorNbi(fetch as never, index, dest, operand(T, v), pe, atomicOf(T) as AtomicType),
};

/** The wait type of `T`, or a TypeError naming the C type. */
export function waitOf(T: CType): WaitType {
  if (T.wait === undefined) throw new TypeError(`OpenSHMEM has no point-to-point waits on ${T.name}`);
  return T.wait;
}

/** A value of `T` as a wait's comparison value. */
export function waitValue(T: CType, v: CValue): bigint {
  return BigInt(cast(T, v));
}

/** The standard RMA types of OpenSHMEM 1.5 (Table 5) in the order SOS's C11 tests list them. */
export const RMA_TYPES: readonly CTypeName[] = [
  'float',
  'double',
  'long double',
  'char',
  'signed char',
  'short',
  'int',
  'long',
  'long long',
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
  'ptrdiff_t',
];

/** `shmem_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe)` on `s` for an array of `T`. */
export function putSignal(s: Rma, T: CType, dest: Symmetric, src: CArray, nelems: number, sigAddr: Symmetric, signal: bigint | number, sigOp: 'set' | 'add', pe: number): Promise<void> {
  return T.kind === 'LongDouble' ? s.putmemSignal(dest, src, nelems * 16, sigAddr, signal, sigOp, pe) : s.putSignal(dest, src, nelems, sigAddr, signal, sigOp, pe);
}
/** `shmem_put_signal_nbi`. */
export function putSignalNbi(s: Rma, T: CType, dest: Symmetric, src: CArray, nelems: number, sigAddr: Symmetric, signal: bigint | number, sigOp: 'set' | 'add', pe: number): Promise<void> {
  return T.kind === 'LongDouble' ? s.putmemSignalNbi(dest, src, nelems * 16, sigAddr, signal, sigOp, pe) : s.putSignalNbi(dest, src, nelems, sigAddr, signal, sigOp, pe);
}

/** The integer types of SOS's C11 atomic tests (add, inc, compare-swap). */
export const ATOMIC_INT_TYPES: readonly CTypeName[] = ['int', 'long', 'long long', 'unsigned int', 'unsigned long', 'unsigned long long', 'int32_t', 'int64_t', 'uint32_t', 'uint64_t', 'size_t', 'ptrdiff_t'];
/** The types of SOS's C11 fetch, set and swap tests: float, double and the integer ones. */
export const ATOMIC_ALL_TYPES: readonly CTypeName[] = ['float', 'double', ...ATOMIC_INT_TYPES];
/** The types of SOS's C11 bitwise atomic tests. */
export const ATOMIC_BITWISE_TYPES: readonly CTypeName[] = ['unsigned int', 'unsigned long', 'unsigned long long', 'int32_t', 'int64_t', 'uint32_t', 'uint64_t'];
