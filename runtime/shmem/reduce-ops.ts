import { ShmemError, type ShmemType } from './symmetric.ts';

/** Reduction operators of the team reductions (`shmem_TYPE_OP_reduce`) and the active-set `..._to_all` calls. */
export type ReduceOp = 'sum' | 'prod' | 'min' | 'max' | 'and' | 'or' | 'xor';

/**
 * Element types of the team reductions: those of the other typed calls and the 1- and 2-byte
 * integers and float32 (char, schar, uchar, short, ushort, int8, int16, uint8, uint16, float).
 */
export type ReduceElemType = ShmemType | 'int8' | 'uint8' | 'int16' | 'uint16' | 'float32';

/** Bytes per element of each reduction type. */
export const REDUCE_BYTES: Readonly<Record<ReduceElemType, 1 | 2 | 4 | 8>> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8 };

const INTS: readonly ReduceElemType[] = ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
const ARITH: readonly ReduceElemType[] = [...INTS, 'float32', 'float64'];

/** The element types each operator takes (OpenSHMEM 1.5 §9.9.8, Table 10; long double and the complex types are left out). */
export const OP_TYPES: Readonly<Record<ReduceOp, readonly ReduceElemType[]>> = {
  sum: ARITH,
  prod: ARITH,
  min: ARITH,
  max: ARITH,
  and: INTS,
  or: INTS,
  xor: INTS,
};

/** Checks that `op` takes `type`, or a ShmemError naming `call` and the valid types. */
export function checkOpType(call: string, op: ReduceOp, type: ReduceElemType): void {
  const valid = OP_TYPES[op];
  if (!valid.includes(type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${valid.join(', ')}`);
}

type Num = (a: number, b: number) => number;
type Big = (a: bigint, b: bigint) => bigint;

const NUM: Readonly<Record<ReduceOp, Num>> = {
  sum: (a, b) => a + b,
  prod: (a, b) => a * b,
  min: (a, b) => Math.min(a, b),
  max: (a, b) => Math.max(a, b),
  and: (a, b) => a & b,
  or: (a, b) => a | b,
  xor: (a, b) => a ^ b,
};
const INT32: Readonly<Record<ReduceOp, Num>> = { ...NUM, sum: (a, b) => (a + b) | 0, prod: (a, b) => Math.imul(a, b) };
const UINT32: Readonly<Record<ReduceOp, Num>> = {
  ...NUM,
  sum: (a, b) => (a + b) >>> 0,
  prod: (a, b) => Math.imul(a, b) >>> 0,
  and: (a, b) => (a & b) >>> 0,
  or: (a, b) => (a | b) >>> 0,
  xor: (a, b) => (a ^ b) >>> 0,
};
const BIG: Readonly<Record<ReduceOp, Big>> = {
  sum: (a, b) => a + b,
  prod: (a, b) => a * b,
  min: (a, b) => (b < a ? b : a),
  max: (a, b) => (b > a ? b : a),
  and: (a, b) => a & b,
  or: (a, b) => a | b,
  xor: (a, b) => a ^ b,
};

/**
 * Folds `n` blocks of `count` elements of `type` (block p at element p * count of `all`) with
 * `op`, in block order (so every PE that folds the same blocks gets bit-identical results), into
 * the first `count` elements of `out`. Integers wrap as C's fixed-width types do.
 */
export function fold(op: ReduceOp, type: ReduceElemType, all: Uint8Array, n: number, count: number, out: Uint8Array): void {
  const len = n * count;
  if (type === 'int64' || type === 'uint64') {
    const wrap = type === 'int64' ? (v: bigint): bigint => BigInt.asIntN(64, v) : (v: bigint): bigint => BigInt.asUintN(64, v);
    const src = bigView(type, all, len);
    const dst = bigView(type, out, count);
    const f = BIG[op];
    for (let j = 0; j < count; j++) {
      let acc = src[j]!;
      for (let p = 1; p < n; p++) acc = wrap(f(acc, src[p * count + j]!));
      dst[j] = acc;
    }
    return;
  }
  if (type !== 'int32' && type !== 'uint32' && type !== 'float64') {
    // each step rounds or wraps to the type, as C's arithmetic on it does
    const { view, wrap } = SMALL[type];
    const src = view(all, len);
    const dst = view(out, count);
    const f = NUM[op];
    for (let j = 0; j < count; j++) {
      let acc = src[j]!;
      for (let p = 1; p < n; p++) acc = wrap(f(acc, src[p * count + j]!));
      dst[j] = acc;
    }
    return;
  }
  const src = numView(type, all, len);
  const dst = numView(type, out, count);
  const f = (type === 'float64' ? NUM : type === 'int32' ? INT32 : UINT32)[op];
  for (let j = 0; j < count; j++) {
    let acc = src[j]!;
    for (let p = 1; p < n; p++) acc = f(acc, src[p * count + j]!);
    dst[j] = acc;
  }
}

type SmallView = Int8Array | Uint8Array | Int16Array | Uint16Array | Float32Array;
const SMALL: Readonly<Record<'int8' | 'uint8' | 'int16' | 'uint16' | 'float32', { view: (b: Uint8Array, len: number) => SmallView; wrap: (v: number) => number }>> = {
  int8: { view: (b, len) => new Int8Array(b.buffer, b.byteOffset, len), wrap: (v) => (v << 24) >> 24 },
  uint8: { view: (b, len) => new Uint8Array(b.buffer, b.byteOffset, len), wrap: (v) => v & 0xff },
  int16: { view: (b, len) => new Int16Array(b.buffer, b.byteOffset, len), wrap: (v) => (v << 16) >> 16 },
  uint16: { view: (b, len) => new Uint16Array(b.buffer, b.byteOffset, len), wrap: (v) => v & 0xffff },
  float32: { view: (b, len) => new Float32Array(b.buffer, b.byteOffset, len), wrap: Math.fround },
};

function bigView(type: 'int64' | 'uint64', b: Uint8Array, len: number): BigInt64Array | BigUint64Array {
  return type === 'int64' ? new BigInt64Array(b.buffer, b.byteOffset, len) : new BigUint64Array(b.buffer, b.byteOffset, len);
}

function numView(type: ShmemType, b: Uint8Array, len: number): Float64Array | Int32Array | Uint32Array {
  if (type === 'float64') return new Float64Array(b.buffer, b.byteOffset, len);
  return type === 'int32' ? new Int32Array(b.buffer, b.byteOffset, len) : new Uint32Array(b.buffer, b.byteOffset, len);
}
