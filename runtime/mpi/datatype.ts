/**
 * MPI's derived datatypes (MPI-3.1 chapter 4): a datatype is a type map, a sequence of (basic type,
 * byte displacement) entries, with a lower bound and an extent that say where element i+1 of a
 * buffer starts. A type is held flattened: the contiguous data blocks of one element as (byte
 * offset, byte length) pairs in type-map order, adjacent ones merged, so that packing `count`
 * elements is a loop over blocks; and its signature (the sequence of basic types) run-length coded.
 * Sizes and alignments are those of C on x86-64 Linux (long is 8 bytes).
 */
import { describe } from './constants.ts';
import { MpiError } from './request.ts';

/** A typed-array class a reduction on a basic type works with. */
export type ValueArrayType =
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor;

/** One of C's basic types as MPI sees it: size and alignment in bytes, and the typed array of its values. */
export interface Basic {
  readonly name: string;
  readonly size: number;
  readonly align: number;
  /**
   * The typed array reductions on it use, one element per value; null where no typed array holds
   * its values one to one (MPI_PACKED, long double, complex: see `parts`).
   */
  readonly array: ValueArrayType | null;
  /** For long double and the complex types: the floats one value is made of (see Parts). */
  readonly parts?: Parts;
}

/**
 * How a value no typed array holds one to one is laid out in floats: x86-64's long double is an
 * 80-bit number in a 16-byte slot, which phit holds as a double and 8 bytes of padding (a
 * Float64Array of (value, padding) pairs, as phit's SHMEM long double calls do); a complex value
 * is its real part then its imaginary part (C11 §6.2.5). `per` floats of `array` make one value.
 */
export interface Parts {
  readonly array: Float32ArrayConstructor | Float64ArrayConstructor;
  readonly per: number;
  readonly complex: boolean;
}

/** `n` consecutive entries of one basic type in a type signature. */
export interface SigRun {
  readonly basic: Basic;
  readonly n: number;
}

/** A MINLOC/MAXLOC pair type (MPI_DOUBLE_INT, ...): its value and index, and the typed array the pair reduces in. */
export interface Pair {
  readonly value: Basic;
  /** Byte offset of the int index. */
  readonly indexOffset: number;
  /** Interleaved (value, index) elements: wide enough for both exactly. */
  readonly array: Float64ArrayConstructor | Int32ArrayConstructor | BigInt64ArrayConstructor;
}

/** What a datatype is, apart from its life cycle. */
export interface Shape {
  readonly name: string;
  /** Bytes of data in one element (MPI_Type_size). */
  readonly size: number;
  readonly lb: number;
  readonly extent: number;
  readonly trueLb: number;
  readonly trueExtent: number;
  /** Alignment of its strictest basic type. */
  readonly align: number;
  /** Its bounds were set by typeCreateResized (itself or a component): the struct constructor adds no padding. */
  readonly sticky: boolean;
  readonly offsets: Float64Array;
  readonly lengths: Float64Array;
  readonly signature: readonly SigRun[];
}

/**
 * An MPI datatype (MPI_Datatype). Predefined ones are constants on `mpi` (`mpi.DOUBLE`); derived
 * ones come from the `mpi.type...` constructors and must be committed (`mpi.typeCommit`) before
 * a communication call uses them; `mpi.typeFree` frees one (types built from it stay valid).
 */
export class Datatype {
  readonly name: string;
  /** Bytes of data in one element (MPI_Type_size). */
  readonly size: number;
  /** Lower bound (bytes, relative to the element's start). */
  readonly lb: number;
  /** Distance from one element to the next (bytes). */
  readonly extent: number;
  /** Lower bound of the bytes the data really occupies. */
  readonly trueLb: number;
  /** Span of the bytes the data really occupies. */
  readonly trueExtent: number;
  /** Alignment (bytes) of its strictest basic type. */
  readonly align: number;
  /** Bounds set by typeCreateResized, here or in a component (the struct constructor then adds no padding). */
  readonly sticky: boolean;
  /** Byte offsets of the data blocks of one element, in type-map order (adjacent blocks merged). */
  readonly offsets: Float64Array;
  /** Byte lengths of those blocks. */
  readonly lengths: Float64Array;
  /** The type signature: basic types in order, run-length coded. */
  readonly signature: readonly SigRun[];
  /** Life cycle: built (may build other types), committed (may be communicated), freed. */
  private state: 'built' | 'committed' | 'freed';

  constructor(
    shape: Shape,
    /** One of MPI's predefined types (committed, never freed). */
    readonly predefined = false,
    /** MINLOC/MAXLOC's pair layout, for the predefined pair types. */
    readonly pair: Pair | null = null,
  ) {
    this.name = shape.name;
    this.size = shape.size;
    this.lb = shape.lb;
    this.extent = shape.extent;
    this.trueLb = shape.trueLb;
    this.trueExtent = shape.trueExtent;
    this.align = shape.align;
    this.sticky = shape.sticky;
    this.offsets = shape.offsets;
    this.lengths = shape.lengths;
    this.signature = shape.signature;
    this.state = predefined ? 'committed' : 'built';
  }

  /** Upper bound: lb + extent. */
  get ub(): number {
    return this.lb + this.extent;
  }

  get committed(): boolean {
    return this.state === 'committed';
  }

  get freed(): boolean {
    return this.state === 'freed';
  }

  /** The one basic type of every entry, or null for a mixed (or empty) signature. */
  get basic(): Basic | null {
    const s = this.signature;
    if (s.length === 0) return null;
    const b = s[0]!.basic;
    for (let i = 1; i < s.length; i++) if (s[i]!.basic !== b) return null;
    return b;
  }

  /** Whether `count` elements occupy one contiguous run of bytes (no packing needed). */
  contiguous(count: number): boolean {
    return this.size === 0 || (this.offsets.length === 1 && (count <= 1 || this.extent === this.size));
  }

  /**
   * The bytes `count` elements touch, relative to the buffer's start: [lo, hi). Empty (0, 0)
   * when there is no data.
   */
  span(count: number): { lo: number; hi: number } {
    if (count === 0 || this.size === 0) return { lo: 0, hi: 0 };
    const step = (count - 1) * this.extent;
    return { lo: this.trueLb + Math.min(0, step), hi: this.trueLb + this.trueExtent + Math.max(0, step) };
  }

  /** Data blocks the first `bytes` bytes of a packed stream of this type fill (the last one maybe in part). */
  blocksIn(bytes: number): number {
    if (bytes <= 0 || this.size === 0) return 0;
    const nb = this.lengths.length;
    const whole = Math.floor(bytes / this.size);
    let left = bytes - whole * this.size;
    let blocks = whole * nb;
    for (let j = 0; j < nb && left > 0; j++, blocks++) left -= this.lengths[j]!;
    return blocks;
  }

  /** Marks the type committed (MPI_Type_commit); committing twice is allowed, as in MPI. */
  commit(call: string): void {
    if (this.state === 'freed') throw new MpiError('MPI_ERR_TYPE', `${call}: ${this.name} has been freed`);
    this.state = 'committed';
  }

  /** Marks the type freed (MPI_Type_free); types built from it and pending operations are unaffected. */
  free(call: string): void {
    if (this.predefined) throw new MpiError('MPI_ERR_TYPE', `${call}: ${this.name} is predefined and cannot be freed`);
    if (this.state === 'freed') throw new MpiError('MPI_ERR_TYPE', `${call}: ${this.name} has already been freed`);
    this.state = 'freed';
  }
}

// ---------------------------------------------------------------- predefined types

function basicType(name: string, size: number, array: ValueArrayType | null, align = size, parts?: Parts): Datatype {
  const basic: Basic = parts ? { name, size, align, array, parts } : { name, size, align, array };
  return new Datatype(
    { name, size, lb: 0, extent: size, trueLb: 0, trueExtent: size, align, sticky: false, offsets: Float64Array.of(0), lengths: Float64Array.of(size), signature: [{ basic, n: 1 }] },
    true,
  );
}

/** MPI_BYTE: 1 byte, reduced as Uint8Array. */
export const BYTE = basicType('MPI_BYTE', 1, Uint8Array);
/** C's char (signed on x86-64). */
export const CHAR = basicType('MPI_CHAR', 1, Int8Array);
/** MPI_SIGNED_CHAR: 1 byte, reduced as Int8Array. */
export const SIGNED_CHAR = basicType('MPI_SIGNED_CHAR', 1, Int8Array);
/** MPI_UNSIGNED_CHAR: 1 byte, reduced as Uint8Array. */
export const UNSIGNED_CHAR = basicType('MPI_UNSIGNED_CHAR', 1, Uint8Array);
/** MPI_SHORT: 2 bytes, reduced as Int16Array. */
export const SHORT = basicType('MPI_SHORT', 2, Int16Array);
/** MPI_UNSIGNED_SHORT: 2 bytes, reduced as Uint16Array. */
export const UNSIGNED_SHORT = basicType('MPI_UNSIGNED_SHORT', 2, Uint16Array);
/** MPI_INT: 4 bytes, reduced as Int32Array. */
export const INT = basicType('MPI_INT', 4, Int32Array);
/** MPI_UNSIGNED: 4 bytes, reduced as Uint32Array. */
export const UNSIGNED = basicType('MPI_UNSIGNED', 4, Uint32Array);
/** MPI_LONG: 8 bytes, reduced as BigInt64Array. */
export const LONG = basicType('MPI_LONG', 8, BigInt64Array);
/** MPI_UNSIGNED_LONG: 8 bytes, reduced as BigUint64Array. */
export const UNSIGNED_LONG = basicType('MPI_UNSIGNED_LONG', 8, BigUint64Array);
/** MPI_LONG_LONG: 8 bytes, reduced as BigInt64Array. */
export const LONG_LONG = basicType('MPI_LONG_LONG', 8, BigInt64Array);
/** MPI_UNSIGNED_LONG_LONG: 8 bytes, reduced as BigUint64Array. */
export const UNSIGNED_LONG_LONG = basicType('MPI_UNSIGNED_LONG_LONG', 8, BigUint64Array);
/** MPI_FLOAT: 4 bytes, reduced as Float32Array. */
export const FLOAT = basicType('MPI_FLOAT', 4, Float32Array);
/** MPI_DOUBLE: 8 bytes, reduced as Float64Array. */
export const DOUBLE = basicType('MPI_DOUBLE', 8, Float64Array);
/** MPI_INT8_T: 1 byte, reduced as Int8Array. */
export const INT8_T = basicType('MPI_INT8_T', 1, Int8Array);
/** MPI_INT16_T: 2 bytes, reduced as Int16Array. */
export const INT16_T = basicType('MPI_INT16_T', 2, Int16Array);
/** MPI_INT32_T: 4 bytes, reduced as Int32Array. */
export const INT32_T = basicType('MPI_INT32_T', 4, Int32Array);
/** MPI_INT64_T: 8 bytes, reduced as BigInt64Array. */
export const INT64_T = basicType('MPI_INT64_T', 8, BigInt64Array);
/** MPI_UINT8_T: 1 byte, reduced as Uint8Array. */
export const UINT8_T = basicType('MPI_UINT8_T', 1, Uint8Array);
/** MPI_UINT16_T: 2 bytes, reduced as Uint16Array. */
export const UINT16_T = basicType('MPI_UINT16_T', 2, Uint16Array);
/** MPI_UINT32_T: 4 bytes, reduced as Uint32Array. */
export const UINT32_T = basicType('MPI_UINT32_T', 4, Uint32Array);
/** MPI_UINT64_T: 8 bytes, reduced as BigUint64Array. */
export const UINT64_T = basicType('MPI_UINT64_T', 8, BigUint64Array);
/** MPI_C_BOOL: 1 byte, reduced as Uint8Array. */
export const C_BOOL = basicType('MPI_C_BOOL', 1, Uint8Array);
/** Packed data (MPI_PACKED): bytes made by `mpi.pack`. */
export const PACKED = basicType('MPI_PACKED', 1, null);
/** MPI_WCHAR: C's wchar_t, 4 bytes on x86-64 Linux (a signed int), reduced as Int32Array. */
export const WCHAR = basicType('MPI_WCHAR', 4, Int32Array);
/** MPI_AINT: an address or displacement (MPI_Aint), 8 bytes, reduced as BigInt64Array. */
export const AINT = basicType('MPI_AINT', 8, BigInt64Array);
/** MPI_OFFSET: a file offset (MPI_Offset), 8 bytes, reduced as BigInt64Array. */
export const OFFSET = basicType('MPI_OFFSET', 8, BigInt64Array);
/** MPI_COUNT: a count (MPI_Count), 8 bytes, reduced as BigInt64Array. */
export const COUNT = basicType('MPI_COUNT', 8, BigInt64Array);
/**
 * MPI_LONG_DOUBLE: x86-64's 80-bit long double in a 16-byte, 16-byte aligned slot (System V AMD64
 * ABI §3.1.2), held as a Float64Array of (value, padding) pairs: its precision is a double's.
 */
export const LONG_DOUBLE = basicType('MPI_LONG_DOUBLE', 16, null, 16, { array: Float64Array, per: 2, complex: false });
/** MPI_C_FLOAT_COMPLEX (also MPI_C_COMPLEX): two floats, real part first (8 bytes, aligned as a float). */
export const C_FLOAT_COMPLEX = basicType('MPI_C_FLOAT_COMPLEX', 8, null, 4, { array: Float32Array, per: 2, complex: true });
/** MPI_C_DOUBLE_COMPLEX: two doubles, real part first (16 bytes, aligned as a double). */
export const C_DOUBLE_COMPLEX = basicType('MPI_C_DOUBLE_COMPLEX', 16, null, 8, { array: Float64Array, per: 2, complex: true });
/** MPI_C_LONG_DOUBLE_COMPLEX: two long doubles (32 bytes), each a (value, padding) pair of float64s as MPI_LONG_DOUBLE. */
export const C_LONG_DOUBLE_COMPLEX = basicType('MPI_C_LONG_DOUBLE_COMPLEX', 32, null, 16, { array: Float64Array, per: 4, complex: true });

/** A predefined (value, int) pair type, laid out as the C struct it stands for. */
function pairType(name: string, value: Datatype, array: Pair['array']): Datatype {
  // the int follows the value at the int's alignment
  const at = Math.ceil(value.size / INT.align) * INT.align;
  return new Datatype(build(name, [0, at], [1, 1], [value, INT], true), true, { value: value.signature[0]!.basic, indexOffset: at, array });
}

/** struct { float; int } for MINLOC/MAXLOC (8 bytes). */
export const FLOAT_INT = pairType('MPI_FLOAT_INT', FLOAT, Float64Array);
/** struct { double; int } (12 bytes of data, extent 16). */
export const DOUBLE_INT = pairType('MPI_DOUBLE_INT', DOUBLE, Float64Array);
/** struct { long; int } (12 bytes of data, extent 16). */
export const LONG_INT = pairType('MPI_LONG_INT', LONG, BigInt64Array);
/** struct { short; int } (6 bytes of data, extent 8). */
export const SHORT_INT = pairType('MPI_SHORT_INT', SHORT, Int32Array);
/** struct { int; int } (MPI_2INT). */
export const TWO_INT = pairType('MPI_2INT', INT, Int32Array);

/** Array order of typeCreateSubarray: row-major, the last dimension fastest (MPI_ORDER_C). */
export const ORDER_C = 56;
/** Column-major, the first dimension fastest (MPI_ORDER_FORTRAN). */
export const ORDER_FORTRAN = 57;

// ---------------------------------------------------------------- building type maps

/**
 * The shape of the type made of pieces: piece i is `counts[i]` consecutive elements of
 * `types[i]` starting `disps[i]` bytes from the new element's start. Bounds follow MPI-3.1
 * §4.1.6-4.1.7: the lower bound is the least of the pieces' lower bounds, the upper bound the
 * greatest of their upper bounds; a struct with no resized component rounds its extent up to its
 * strictest alignment (the padding C adds; MPICH does this for structs only). Empty pieces count
 * for nothing.
 */
export function build(name: string, disps: ArrayLike<number>, counts: ArrayLike<number>, types: Datatype | readonly Datatype[], struct = false): Shape {
  const offs: number[] = [];
  const lens: number[] = [];
  const sig: { basic: Basic; n: number }[] = [];
  let size = 0;
  let lb = Infinity;
  let ub = -Infinity;
  let align = 1;
  let sticky = false;
  const one = types instanceof Datatype ? types : null;
  // consecutive pieces of one type join the signature together
  let prev: Datatype | null = null;
  let times = 0;
  for (let i = 0; i < disps.length; i++) {
    const t = one ?? (types as readonly Datatype[])[i]!;
    const b = counts[i]!;
    if (b === 0) continue;
    const d = disps[i]!;
    const ext = t.extent;
    size += b * t.size;
    if (t.align > align) align = t.align;
    sticky ||= t.sticky;
    const run = (b - 1) * ext;
    const lo = d + t.lb + (run < 0 ? run : 0);
    const hi = d + t.lb + ext + (run > 0 ? run : 0);
    if (lo < lb) lb = lo;
    if (hi > ub) ub = hi;
    if (t !== prev) {
      if (prev) appendSignature(sig, prev.signature, times);
      prev = t;
      times = 0;
    }
    times += b;
    const nb = t.offsets.length;
    if (nb === 1 && t.lengths[0] === ext) {
      // copies of one block that fill the extent: one run
      appendBlock(offs, lens, d + t.offsets[0]!, b * ext);
      continue;
    }
    for (let k = 0; k < b; k++) {
      const base = d + k * ext;
      for (let j = 0; j < nb; j++) appendBlock(offs, lens, base + t.offsets[j]!, t.lengths[j]!);
    }
  }
  if (prev) appendSignature(sig, prev.signature, times);
  if (lb === Infinity) {
    lb = 0;
    ub = 0;
  }
  if (struct && !sticky && (ub - lb) % align !== 0) ub = lb + Math.ceil((ub - lb) / align) * align;
  let trueLb = 0;
  let trueUb = 0;
  if (offs.length > 0) {
    trueLb = Infinity;
    trueUb = -Infinity;
    for (let j = 0; j < offs.length; j++) {
      trueLb = Math.min(trueLb, offs[j]!);
      trueUb = Math.max(trueUb, offs[j]! + lens[j]!);
    }
  }
  return { name, size, lb, extent: ub - lb, trueLb, trueExtent: trueUb - trueLb, align, sticky, offsets: Float64Array.from(offs), lengths: Float64Array.from(lens), signature: sig };
}

/** Appends the data block (off, len) to the blocks so far, merging it with the last one if they touch. */
function appendBlock(offs: number[], lens: number[], off: number, len: number): void {
  const k = offs.length - 1;
  if (k >= 0 && offs[k]! + lens[k]! === off) lens[k] = lens[k]! + len;
  else {
    offs.push(off);
    lens.push(len);
  }
}

/** Appends `n` entries of `basic` to a signature, merging them into its last run if of the same type. */
function pushRun(out: { basic: Basic; n: number }[], basic: Basic, n: number): void {
  const last = out[out.length - 1];
  // runs in `out` are its own (made here), so the last one may grow in place
  if (last && last.basic === basic) last.n += n;
  else out.push({ basic, n });
}

/** Appends `times` copies of signature `s` to `out`, merging runs of one basic type. */
function appendSignature(out: { basic: Basic; n: number }[], s: readonly SigRun[], times: number): void {
  if (s.length === 0) return;
  let same = true;
  let n = 0;
  for (const r of s) {
    same &&= r.basic === s[0]!.basic;
    n += r.n;
  }
  if (same) {
    pushRun(out, s[0]!.basic, n * times);
    return;
  }
  for (let k = 0; k < times; k++) for (const r of s) pushRun(out, r.basic, r.n);
}

// ---------------------------------------------------------------- argument checks

/** `v` as a datatype that may build others: a Datatype not freed. */
export function checkOldType(call: string, name: string, v: unknown): Datatype {
  if (!(v instanceof Datatype)) throw new MpiError('MPI_ERR_TYPE', `${call}: ${name} must be an MPI datatype (mpi.DOUBLE, mpi.typeVector(...), ...), got ${describe(v)}`);
  if (v.freed) throw new MpiError('MPI_ERR_TYPE', `${call}: ${name} (${v.name}) has been freed`);
  return v;
}

/** `v` as a datatype a communication may use: committed and not freed. */
export function checkType(call: string, name: string, v: unknown): Datatype {
  const t = checkOldType(call, name, v);
  if (!t.committed) throw new MpiError('MPI_ERR_TYPE', `${call}: ${name} (${t.name}) is not committed; call mpi.typeCommit on it first`);
  return t;
}

/** A count: a non-negative safe integer. */
export function checkCount(call: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name}=${String(v)} must be a non-negative integer`);
  if (!Number.isSafeInteger(v)) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name}=${String(v)} must be a safe integer (at most 2^53 - 1)`);
  return v;
}

// ---------------------------------------------------------------- counting received data

/** Basic elements in the first `bytes` bytes of a packed stream of `t`, or -1 if they end inside one. */
export function basicElements(t: Datatype, bytes: number): number {
  if (t.size === 0) return bytes === 0 ? 0 : -1;
  let perElement = 0;
  for (const r of t.signature) perElement += r.n;
  const whole = Math.floor(bytes / t.size);
  let left = bytes - whole * t.size;
  let n = whole * perElement;
  for (const r of t.signature) {
    if (left === 0) break;
    const k = Math.min(r.n, Math.floor(left / r.basic.size));
    n += k;
    left -= k * r.basic.size;
    if (k < r.n) break;
  }
  return left === 0 ? n : -1;
}
