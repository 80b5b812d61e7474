import { ShmemError, type ElemType, type ShmemType } from './symmetric.ts';

/** Reduction operators of the team reductions (`shmem_TYPE_OP_reduce`) and the active-set `..._to_all` calls. */
export type ReduceOp = 'sum' | 'prod' | 'min' | 'max' | 'and' | 'or' | 'xor';

/**
 * Element types of the team reductions and the 1.4 `..._to_all` calls: every standard RMA type
 * (ElemType: the 1-, 2-, 4- and 8-byte integers, float32 and float64), `longdouble` and the
 * complex types of sum and product, `complexf` (float _Complex: two float32, real part first)
 * and `complexd` (double _Complex: two float64).
 *
 * `longdouble` is C's long double as x86-64 lays it out (16 bytes an element, 16-byte aligned,
 * as the System V AMD64 ABI gives it), the layout phit's 128-bit RMA calls carry it in:
 * JavaScript has no 80-bit type, so its value is a double in the element's first 8 bytes and
 * the other 8 are zero. Its arithmetic is double's (53-bit significand, not the x87's 64).
 */
export type ReduceElemType = ElemType | 'longdouble' | 'complexf' | 'complexd';

/** Bytes per element of each reduction type. */
export const REDUCE_BYTES: Readonly<Record<ReduceElemType, 1 | 2 | 4 | 8 | 16>> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8, longdouble: 16, complexf: 8, complexd: 16 };
/** The alignment of each reduction type, as C's on x86-64: a complex type's is its part's, long double's 16. */
export const REDUCE_ALIGN: Readonly<Record<ReduceElemType, 1 | 2 | 4 | 8 | 16>> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8, longdouble: 16, complexf: 4, complexd: 8 };

const INTS: readonly ReduceElemType[] = ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
const ARITH: readonly ReduceElemType[] = [...INTS, 'float32', 'float64', 'longdouble'];
const COMPLEX: readonly ReduceElemType[] = [...ARITH, 'complexf', 'complexd'];

/**
 * The element types each operator takes (OpenSHMEM 1.5 §9.9.8, Table 10): the bitwise ones the
 * integers, min and max the real types (long double too), sum and product the complex ones too.
 */
export const OP_TYPES: Readonly<Record<ReduceOp, readonly ReduceElemType[]>> = {
  sum: COMPLEX,
  prod: COMPLEX,
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
  if (type === 'complexf' || type === 'complexd') {
    foldComplex(op as 'sum' | 'prod', type, all, len, n, count, out);
    return;
  }
  if (type === 'longdouble') {
    // the value in each element's first 8 bytes, the padding after it zero
    const src = new Float64Array(all.buffer, all.byteOffset, 2 * len);
    const dst = new Float64Array(out.buffer, out.byteOffset, 2 * count);
    const f = NUM[op];
    for (let j = 0; j < count; j++) {
      let acc = src[2 * j]!;
      for (let p = 1; p < n; p++) acc = f(acc, src[2 * (p * count + j)]!);
      dst[2 * j] = acc;
      dst[2 * j + 1] = 0;
    }
    return;
  }
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

/**
 * `fold` on complex elements (real part, then imaginary): a sum adds the parts; a product is
 * (a + bi)(c + di) = (ac - bd) + (ad + bc)i, each product and sum rounded to the part's type, as
 * C's complex multiplication of finite values is (libgcc's __mulsc3 and __muldc3).
 */
function foldComplex(op: 'sum' | 'prod', type: 'complexf' | 'complexd', all: Uint8Array, len: number, n: number, count: number, out: Uint8Array): void {
  const f32 = type === 'complexf';
  const r = f32 ? Math.fround : (v: number): number => v;
  const src = f32 ? new Float32Array(all.buffer, all.byteOffset, 2 * len) : new Float64Array(all.buffer, all.byteOffset, 2 * len);
  const dst = f32 ? new Float32Array(out.buffer, out.byteOffset, 2 * count) : new Float64Array(out.buffer, out.byteOffset, 2 * count);
  for (let j = 0; j < count; j++) {
    let re = src[2 * j]!;
    let im = src[2 * j + 1]!;
    for (let p = 1; p < n; p++) {
      const c = src[2 * (p * count + j)]!;
      const d = src[2 * (p * count + j) + 1]!;
      if (op === 'sum') {
        re = r(re + c);
        im = r(im + d);
      } else {
        const ac = r(re * c);
        const bd = r(im * d);
        const ad = r(re * d);
        const bc = r(im * c);
        re = r(ac - bd);
        im = r(ad + bc);
      }
    }
    dst[2 * j] = re;
    dst[2 * j + 1] = im;
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
