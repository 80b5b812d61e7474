import * as dt from './datatype.ts';
import type { Datatype } from './datatype.ts';
import { MpiError } from './request.ts';

/** A numeric typed array of Number elements (any element type MPI reductions accept). */
export type NumericArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

/** A typed array of 64-bit integers. */
export type BigIntArray = BigInt64Array | BigUint64Array;

/** Any typed array a reduction accepts. */
export type ReduceArray = NumericArray | BigIntArray;

/**
 * A reduction operation. `apply(inout, input)` sets `inout[i] = inout[i] ∘ input[i]` for
 * every element: `inout` is the left operand and `input` the right one. Collectives feed
 * operands in rank order, so for a non-commutative op `inout` always holds the contribution of
 * the lower ranks and `input` that of the higher ones (MPI-3.1 §5.9.1: the result is
 * v0 ∘ v1 ∘ ... ∘ v(n-1)).
 */
export interface Op {
  readonly name: string;
  /** True when the operands may be combined in any order. */
  readonly commutative: boolean;
  /**
   * Elements that make up one reduction item: 2 for MINLOC/MAXLOC's (value, index) pairs, else
   * 1. Algorithms that split a buffer split it only at multiples of this.
   */
  readonly unit: number;
  apply(inout: ReduceArray, input: ReduceArray): void;
  /** The user function of an op made by opCreate (absent on the predefined ops). */
  readonly user?: UserFunction;
}

/**
 * A user-defined reduction's function, MPI's MPI_User_function (MPI-4.0 §6.9.5) with phit's
 * operand order: it sets `inout = inout ∘ input` for `len` elements of `datatype`, `inout`
 * holding the lower ranks' operand. Both arrays are laid out as `datatype` describes: a
 * non-contiguous type's values sit where its type map puts them, element i at byte i * extent
 * (see opOnType). Called with typed arrays alone (the short forms), `datatype` is the
 * predefined type of their element type and `len` their length.
 */
export type UserFunction = (inout: ReduceArray, input: ReduceArray, len: number, datatype: Datatype) => void;

/** Element-wise body of a predefined op over Number arrays. */
type NumBody = (a: ArrayLike<number> & { [i: number]: number }, b: ArrayLike<number>, n: number) => void;
/** Element-wise body of a predefined op over BigInt arrays. */
type BigBody = (a: ArrayLike<bigint> & { [i: number]: bigint }, b: ArrayLike<bigint>, n: number) => void;

const INT_KINDS = new Set(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array']);

/** Name of a typed array's element type, e.g. `Float64Array`. */
function kindOf(a: ReduceArray): string {
  return a.constructor.name;
}

function predefined(name: string, num: NumBody | null, numIntOnly: boolean, big: BigBody | null, unit = 1): Op {
  return {
    name,
    commutative: true,
    unit,
    apply(inout, input) {
      const kind = kindOf(inout);
      if (kindOf(input) !== kind || input.length < inout.length) {
        throw new MpiError('MPI_ERR_TYPE', `${name}: operands must have the same type and length (got ${kind}[${inout.length}] and ${kindOf(input)}[${input.length}])`);
      }
      if (inout.length % unit !== 0) throw new MpiError('MPI_ERR_COUNT', `${name}: ${inout.length} elements are not whole (value, index) pairs`);
      if (inout instanceof BigInt64Array || inout instanceof BigUint64Array) {
        if (!big) throw new MpiError('MPI_ERR_OP', `${name} is not defined on ${kind}`);
        big(inout, input as BigIntArray, inout.length);
        return;
      }
      if (!num || (numIntOnly && !INT_KINDS.has(kind))) throw new MpiError('MPI_ERR_OP', `${name} is not defined on ${kind}`);
      num(inout, input as NumericArray, inout.length);
    },
  };
}

/** MPI_SUM (integers wrap as in C). */
export const SUM = predefined(
  'MPI_SUM',
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! + b[i]!;
  },
  false,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! + b[i]!;
  },
);

/** MPI_PROD (32-bit integer products keep their exact low 32 bits, as in C). */
export const PROD = predefined(
  'MPI_PROD',
  (a, b, n) => {
    if (a instanceof Int32Array || a instanceof Uint32Array) {
      for (let i = 0; i < n; i++) a[i] = Math.imul(a[i]!, b[i]!);
    } else {
      for (let i = 0; i < n; i++) a[i] = a[i]! * b[i]!;
    }
  },
  false,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! * b[i]!;
  },
);

/** MPI_MIN. */
export const MIN = predefined(
  'MPI_MIN',
  (a, b, n) => {
    for (let i = 0; i < n; i++) if (b[i]! < a[i]!) a[i] = b[i]!;
  },
  false,
  (a, b, n) => {
    for (let i = 0; i < n; i++) if (b[i]! < a[i]!) a[i] = b[i]!;
  },
);

/** MPI_MAX. */
export const MAX = predefined(
  'MPI_MAX',
  (a, b, n) => {
    for (let i = 0; i < n; i++) if (b[i]! > a[i]!) a[i] = b[i]!;
  },
  false,
  (a, b, n) => {
    for (let i = 0; i < n; i++) if (b[i]! > a[i]!) a[i] = b[i]!;
  },
);

/** MPI_LAND: 1 if both are non-zero, else 0 (integer types only, as MPI-3.1 §5.9.2 allows). */
export const LAND = predefined(
  'MPI_LAND',
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! !== 0 && b[i]! !== 0 ? 1 : 0;
  },
  true,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! !== 0n && b[i]! !== 0n ? 1n : 0n;
  },
);

/** MPI_LOR: 1 if either is non-zero, else 0 (integer types only). */
export const LOR = predefined(
  'MPI_LOR',
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! !== 0 || b[i]! !== 0 ? 1 : 0;
  },
  true,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! !== 0n || b[i]! !== 0n ? 1n : 0n;
  },
);

/** MPI_LXOR: 1 if exactly one is non-zero, else 0 (integer types only). */
export const LXOR = predefined(
  'MPI_LXOR',
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = (a[i]! !== 0) !== (b[i]! !== 0) ? 1 : 0;
  },
  true,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = (a[i]! !== 0n) !== (b[i]! !== 0n) ? 1n : 0n;
  },
);

/** MPI_BAND (integer types only). */
export const BAND = predefined(
  'MPI_BAND',
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! & b[i]!;
  },
  true,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! & b[i]!;
  },
);

/** MPI_BOR (integer types only). */
export const BOR = predefined(
  'MPI_BOR',
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! | b[i]!;
  },
  true,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! | b[i]!;
  },
);

/** MPI_BXOR (integer types only). */
export const BXOR = predefined(
  'MPI_BXOR',
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! ^ b[i]!;
  },
  true,
  (a, b, n) => {
    for (let i = 0; i < n; i++) a[i] = a[i]! ^ b[i]!;
  },
);

/** Body of MINLOC/MAXLOC over (value, index) pairs: `wins(v, cur)` keeps v; a tie keeps the lower index. */
function locBody<T extends number | bigint>(wins: (v: T, cur: T) => boolean): (a: ArrayLike<T> & { [i: number]: T }, b: ArrayLike<T>, n: number) => void {
  return (a, b, n) => {
    for (let i = 0; i < n; i += 2) {
      const v = b[i]!;
      if (wins(v, a[i]!) || (v === a[i]! && b[i + 1]! < a[i + 1]!)) {
        a[i] = v;
        a[i + 1] = b[i + 1]!;
      }
    }
  };
}

/**
 * MPI_MINLOC on interleaved pairs: element 2k is a value and 2k+1 its index (MPI's
 * MPI_DOUBLE_INT and friends, stored in one typed array). Keeps the smaller value; on a tie, the
 * lower index (MPI-3.1 §5.9.4).
 */
export const MINLOC = predefined(
  'MPI_MINLOC',
  locBody<number>((v, cur) => v < cur),
  false,
  locBody<bigint>((v, cur) => v < cur),
  2,
);

/** MPI_MAXLOC on interleaved (value, index) pairs: the larger value; on a tie, the lower index. */
export const MAXLOC = predefined(
  'MPI_MAXLOC',
  locBody<number>((v, cur) => v > cur),
  false,
  locBody<bigint>((v, cur) => v > cur),
  2,
);

/** Every predefined op by its MPI name. */
export const PREDEFINED_OPS: Readonly<Record<string, Op>> = Object.freeze(
  Object.fromEntries([SUM, PROD, MIN, MAX, MINLOC, MAXLOC, LAND, LOR, LXOR, BAND, BOR, BXOR].map((o) => [o.name, o])),
);

/** The predefined datatype whose values a typed array of kind `a` holds (the datatype a user function is given in the short forms). */
export function typeOfArray(a: ReduceArray): Datatype {
  if (a instanceof Int32Array) return dt.INT;
  if (a instanceof Float64Array) return dt.DOUBLE;
  if (a instanceof Float32Array) return dt.FLOAT;
  if (a instanceof Int8Array) return dt.SIGNED_CHAR;
  if (a instanceof Int16Array) return dt.SHORT;
  if (a instanceof Uint16Array) return dt.UNSIGNED_SHORT;
  if (a instanceof Uint32Array) return dt.UNSIGNED;
  if (a instanceof BigInt64Array) return dt.LONG;
  if (a instanceof BigUint64Array) return dt.UNSIGNED_LONG;
  return dt.UNSIGNED_CHAR;
}

/** Options of a user-defined op. */
export interface OpOptions {
  /** Name in messages (default `user op`). */
  readonly name?: string;
  /** Elements per reduction item (default 1); buffers are split only at multiples of it. */
  readonly unit?: number;
}

/**
 * MPI_Op_create: `fn(inout, input, len, datatype)` must set `inout = inout ∘ input` element-wise
 * (or item-wise), where `inout` holds the lower ranks' operand. With `commute` false, every
 * algorithm that accepts the op keeps rank order. On typed arrays alone the op is applied as it
 * is, with their predefined type; a long form (count, datatype) applies it through opOnType.
 */
export function opCreate(fn: UserFunction, commute: boolean, options: OpOptions = {}): Op {
  if (typeof fn !== 'function') throw new MpiError('MPI_ERR_ARG', `opCreate: fn must be a function, got ${typeof fn}`);
  const unit = options.unit ?? 1;
  if (!Number.isInteger(unit) || unit < 1) throw new MpiError('MPI_ERR_ARG', `opCreate: unit must be a positive integer, got ${unit}`);
  return { name: options.name ?? 'user op', commutative: Boolean(commute), unit, apply: (inout, input) => fn(inout, input, inout.length, typeOfArray(inout)), user: fn };
}
