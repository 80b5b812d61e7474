import { ShmemError, type ShmemType } from './symmetric.ts';

/** Reduction operators of the team reductions (`shmem_TYPE_OP_reduce`) and the active-set `..._to_all` calls. */
export type ReduceOp = 'sum' | 'prod' | 'min' | 'max' | 'and' | 'or' | 'xor';

/** The element types each operator takes (OpenSHMEM 1.5 §9.9.8, Table 10, for the types phit has). */
export const OP_TYPES: Readonly<Record<ReduceOp, readonly ShmemType[]>> = {
  sum: ['int32', 'uint32', 'int64', 'uint64', 'float64'],
  prod: ['int32', 'uint32', 'int64', 'uint64', 'float64'],
  min: ['int32', 'uint32', 'int64', 'uint64', 'float64'],
  max: ['int32', 'uint32', 'int64', 'uint64', 'float64'],
  and: ['int32', 'uint32', 'int64', 'uint64'],
  or: ['int32', 'uint32', 'int64', 'uint64'],
  xor: ['int32', 'uint32', 'int64', 'uint64'],
};

/** Checks that `op` takes `type`, or a ShmemError naming `call` and the valid types. */
export function checkOpType(call: string, op: ReduceOp, type: ShmemType): void {
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
export function fold(op: ReduceOp, type: ShmemType, all: Uint8Array, n: number, count: number, out: Uint8Array): void {
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
  const src = numView(type, all, len);
  const dst = numView(type, out, count);
  const f = (type === 'float64' ? NUM : type === 'int32' ? INT32 : UINT32)[op];
  for (let j = 0; j < count; j++) {
    let acc = src[j]!;
    for (let p = 1; p < n; p++) acc = f(acc, src[p * count + j]!);
    dst[j] = acc;
  }
}

function bigView(type: 'int64' | 'uint64', b: Uint8Array, len: number): BigInt64Array | BigUint64Array {
  return type === 'int64' ? new BigInt64Array(b.buffer, b.byteOffset, len) : new BigUint64Array(b.buffer, b.byteOffset, len);
}

function numView(type: ShmemType, b: Uint8Array, len: number): Float64Array | Int32Array | Uint32Array {
  if (type === 'float64') return new Float64Array(b.buffer, b.byteOffset, len);
  return type === 'int32' ? new Int32Array(b.buffer, b.byteOffset, len) : new Uint32Array(b.buffer, b.byteOffset, len);
}
