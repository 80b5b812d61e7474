/**
 * The layouts of one-sided accumulates (MPI-3.1 §11.3.4): what the op works on (a basic type, or a
 * MINLOC/MAXLOC pair type), how those elements sit in packed bytes, and the long form's origin,
 * result and target checked and laid out. MPI's rule: the origin, result and target types of an
 * accumulate are derived from one predefined type (a basic type or a pair type), with the same
 * signature at both ends; anything else is MPI_ERR_TYPE.
 */
import { BYTE, checkCount, checkType, TWO_INT, DOUBLE_INT, FLOAT_INT, LONG_INT, SHORT_INT, INT, type Datatype, type Pair, type ValueArrayType } from '../datatype.ts';
import { readValue, writeValue } from '../datatype-coll.ts';
import { landing, scratch, sendBytes, userBytes, type Packer } from '../datatype-pack.ts';
import { MAXLOC, MINLOC, PREDEFINED_OPS, type Op, type ReduceArray } from '../ops.ts';
import { MpiError } from '../request.ts';
import { NO_OP, REPLACE } from './constants.ts';

/** What an accumulate's op combines: its typed array, and the packed bytes of one item. */
export interface AccKind {
  /** The predefined type, for messages (MPI_INT, MPI_DOUBLE_INT, ...). */
  readonly name: string;
  readonly array: ValueArrayType;
  /** A pair type's layout; null for a basic type. */
  readonly pair: Pair | null;
  /** Packed bytes of one item: the basic type's size, or a pair's value and int. */
  readonly itemBytes: number;
  /** Array elements of one item: 1, or 2 for a (value, index) pair. */
  readonly per: number;
}

const PAIRS: readonly Datatype[] = [FLOAT_INT, DOUBLE_INT, LONG_INT, SHORT_INT, TWO_INT];

/** The kind of a typed array's elements (the short form: the array is the values). */
export function kindOfArray(a: ReduceArray): AccKind {
  const A = a.constructor as ValueArrayType;
  return { name: a.constructor.name.replace('Array', ''), array: A, pair: null, itemBytes: A.BYTES_PER_ELEMENT, per: 1 };
}

function pairKind(t: Datatype): AccKind {
  const p = t.pair!;
  return { name: t.name, array: p.array, pair: p, itemBytes: p.value.size + INT.size, per: 2 };
}

/**
 * The predefined type `t` is made of, as an accumulate with `op` sees it: a pair type (itself, or
 * a type whose signature is its (value, int) repeated), or one basic type with MPI's ops defined
 * on it; MPI_ERR_TYPE for a mixed signature.
 */
export function accKind(call: string, name: string, t: Datatype, op: Op): AccKind {
  if (t.pair) return pairKind(t);
  const loc = op === MINLOC || op === MAXLOC;
  const b = t.basic;
  if (b?.array && !(loc && b === INT.signature[0]!.basic)) return { name: b.name, array: b.array, pair: null, itemBytes: b.size, per: 1 };
  if (b?.parts) throw new MpiError('MPI_ERR_TYPE', `${call}: ${name} ${t.name} is made of ${b.name}, which phit's one-sided accumulates do not take yet (point-to-point and collectives do)`);
  // a derived type of a pair type: its signature is (value, int) repeated
  const s = t.signature;
  for (const p of PAIRS) {
    const v = p.pair!.value;
    const i = INT.signature[0]!.basic;
    if (v === i) {
      if (s.length === 1 && s[0]!.basic === i && s[0]!.n % 2 === 0) return pairKind(p);
      continue;
    }
    if (s.length > 0 && s.length % 2 === 0 && s.every((r, k) => r.n === 1 && r.basic === (k % 2 === 0 ? v : i))) return pairKind(p);
  }
  throw new MpiError('MPI_ERR_TYPE', `${call}: ${name} ${t.name} is not made of one predefined type; an accumulate takes a basic type, a pair type, or a type derived from one of them (MPI-3.1 §11.3.4)`);
}

/**
 * Checks that `op` can combine items of `kind` in a one-sided call: MPI's predefined ops and
 * REPLACE (NO_OP too when `fetching`); the pair types take MINLOC, MAXLOC, REPLACE and NO_OP only,
 * and MINLOC/MAXLOC take pairs only (in the short form, an array of interleaved pairs).
 */
export function checkAccOp(call: string, kind: AccKind, op: Op, fetching: boolean, short: boolean): void {
  const predefined = Object.values(PREDEFINED_OPS).includes(op);
  if (op !== NO_OP && op !== REPLACE && !predefined) {
    const name = op && typeof op === 'object' && 'name' in op ? String(op.name) : String(op);
    throw new MpiError('MPI_ERR_OP', `${call}: op ${name} cannot be used; one-sided accumulates take MPI's predefined ops and REPLACE${fetching ? ' or NO_OP' : ''} (MPI-3.1 §11.3.4)`);
  }
  if (op === NO_OP && !fetching) throw new MpiError('MPI_ERR_OP', `${call}: NO_OP is for getAccumulate and fetchAndOp only`);
  const loc = op === MINLOC || op === MAXLOC;
  if (kind.pair && predefined && !loc) throw new MpiError('MPI_ERR_OP', `${call}: ${op.name} is not defined on ${kind.name}; pair types take MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE and MPI_NO_OP`);
  if (!kind.pair && loc && !short) throw new MpiError('MPI_ERR_OP', `${call}: ${op.name} works on the pair types (mpi.DOUBLE_INT, mpi.TWO_INT, ...), not ${kind.name}`);
  // a zero-length probe: the op checks that it is defined on the type, at no cost
  op.apply(new kind.array(0), new kind.array(0));
}

/** The op's values of `items` packed items in `bytes`: a view where the layout allows, else a copy. */
export function decode(kind: AccKind, bytes: Uint8Array, items: number): ReduceArray {
  const A = kind.array;
  const n = items * kind.per;
  if (!kind.pair) {
    if (bytes.byteOffset % A.BYTES_PER_ELEMENT === 0) return new A(bytes.buffer as ArrayBuffer, bytes.byteOffset, n);
    return new A(bytes.slice(0, n * A.BYTES_PER_ELEMENT).buffer, 0, n);
  }
  const p = kind.pair;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new A(n);
  const vs = p.value.size;
  for (let i = 0; i < items; i++) {
    const at = i * kind.itemBytes;
    out[2 * i] = readValue(view, at, p) as never;
    const idx = view.getInt32(at + vs, true);
    out[2 * i + 1] = (A === BigInt64Array ? BigInt(idx) : idx) as never;
  }
  return out;
}

/** Writes `values` back into the packed `bytes` they were decoded from (nothing for a view of them). */
export function encode(kind: AccKind, values: ReduceArray, bytes: Uint8Array): void {
  if (!kind.pair) {
    if (values.buffer !== bytes.buffer || values.byteOffset !== bytes.byteOffset) bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    return;
  }
  const p = kind.pair;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vs = p.value.size;
  for (let i = 0; 2 * i < values.length; i++) {
    const at = i * kind.itemBytes;
    writeValue(view, at, p, values[2 * i]!);
    view.setInt32(at + vs, Number(values[2 * i + 1]!), true);
  }
}

/** A contiguous run of the target's bytes: `bytes` bytes at `target` past the displacement, `from` bytes into the packed stream. */
export interface Run {
  readonly target: number;
  readonly from: number;
  readonly bytes: number;
}

/** An accumulate's buffers and target layout, checked, in the op's terms. */
export interface AccSpec {
  readonly kind: AccKind;
  /** The origin's values (null: NO_OP without an origin). */
  readonly origin: ReduceArray | null;
  /** Where the old target values go (null: not fetching). */
  readonly result: ReduceArray | null;
  /** Items moved. */
  readonly items: number;
  /** The target's contiguous runs in packed order. */
  readonly runs: readonly Run[];
  /** Bytes from the displacement to the end of the last target byte touched. */
  readonly span: number;
  /** `result` is the user's own bytes: a NIC atomic may fetch straight into them. */
  readonly resultInPlace: boolean;
  /** Buffers of skeleton memory are involved (no bytes move). */
  readonly skeleton: boolean;
  /** Stores `result` into the user's result buffer and charges the unpacking; after the values are in. */
  finish(): void;
}

/** The short form's spec: typed arrays that are the values, the target one contiguous run. */
export function shortSpec(origin: ReduceArray | null, result: ReduceArray | null, kind: AccKind): AccSpec {
  const o = origin ?? result!;
  const bytes = o.length * kind.array.BYTES_PER_ELEMENT;
  return { kind, origin, result, items: o.length, runs: bytes ? [{ target: 0, from: 0, bytes }] : [], span: bytes, resultInPlace: true, skeleton: false, finish: () => {} };
}

/** The contiguous runs (offset, length) of `count` elements of `t`, in type-map order, adjacent ones merged. */
export function runsOf(t: Datatype, count: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const base = i * t.extent;
    for (let j = 0; j < t.offsets.length; j++) {
      const at = base + t.offsets[j]!;
      const len = t.lengths[j]!;
      if (len === 0) continue;
      const last = out[out.length - 1];
      if (last && last[0] + last[1] === at) last[1] += len;
      else out.push([at, len]);
    }
  }
  return out;
}

/** One buffer of the long form: (buf, count, type). */
export interface Side {
  readonly buf: unknown;
  readonly count: unknown;
  readonly type: unknown;
}

/**
 * The long form's spec: the origin packed into the op's values (its packing charged as
 * point-to-point charges it, `mpi.copyBytes` and `mpi.packBlock`), the result received
 * contiguously and unpacked into the user's layout when `finish` is called, and the target
 * type's runs. The target type must have the origin's (or, with no origin, the result's)
 * predefined type and size.
 */
export function longSpec(call: string, pk: Packer, origin: Side | null, result: Side | null, target: { count: unknown; type: unknown }, op: Op): AccSpec {
  const tt = checkType(call, 'targetType', target.type);
  const tc = checkCount(call, 'targetCount', target.count);
  const lead = origin ?? result!;
  const leadName = origin ? 'origin' : 'result';
  const lt = checkType(call, `${leadName}Type`, lead.type);
  // no data (a zero count or size): any type goes, as in MPI; MPI_BYTE stands for the kind
  const empty = checkCount(call, `${leadName}Count`, lead.count) * lt.size === 0;
  const kind = empty ? accKind(call, `${leadName}Type`, BYTE, op) : accKind(call, `${leadName}Type`, lt, op);
  const side = (name: string, s: Side): { user: Uint8Array; n: number; t: Datatype } => {
    const t = checkType(call, `${name}Type`, s.type);
    const n = checkCount(call, `${name}Count`, s.count);
    if (n > 0 && t.size > 0 && !empty) {
      const k = accKind(call, `${name}Type`, t, op);
      if (k.name !== kind.name) throw new MpiError('MPI_ERR_TYPE', `${call}: ${name}Type ${t.name} is made of ${k.name}, ${leadName}Type ${lt.name} of ${kind.name}; they must be made of the same predefined type`);
    }
    return { user: userBytes(call, name, s.buf, n, t), n, t };
  };
  const o = origin ? side('origin', origin) : null;
  const r = result ? side('result', result) : null;
  const bytes = (o ?? r)!.n * (o ?? r)!.t.size;
  if (r && o && r.n * r.t.size !== bytes) throw new MpiError('MPI_ERR_TYPE', `${call}: the result's ${r.n} x ${r.t.name} are ${r.n * r.t.size} bytes, the origin's ${o.n} x ${o.t.name} ${bytes}; their type signatures must match`);
  if (tc * tt.size > 0 && !empty) {
    const k = accKind(call, 'targetType', tt, op);
    if (k.name !== kind.name) throw new MpiError('MPI_ERR_TYPE', `${call}: targetType ${tt.name} is made of ${k.name}, ${leadName}Type ${lt.name} of ${kind.name}; they must be made of the same predefined type`);
  }
  if (tc * tt.size !== bytes) {
    const l = (o ?? r)!;
    throw new MpiError('MPI_ERR_TYPE', `${call}: the target's ${tc} x ${tt.name} are ${tc * tt.size} bytes, the ${leadName}'s ${l.n} x ${l.t.name} ${bytes}; their type signatures must match`);
  }
  if (bytes % kind.itemBytes !== 0) throw new MpiError('MPI_ERR_TYPE', `${call}: ${bytes} bytes are not whole items of ${kind.name}`);
  const items = bytes / kind.itemBytes;
  const { lo, hi } = tt.span(tc);
  if (lo < 0) throw new MpiError('MPI_ERR_RMA_RANGE', `${call}: ${tc} x ${tt.name} reach ${-lo} bytes before the target displacement`);
  const runs: Run[] = [];
  let from = 0;
  for (const [at, len] of runsOf(tt, tc)) {
    runs.push({ target: at, from, bytes: len });
    from += len;
  }
  const skeleton = (o !== null && pk.proc.isSkeleton(o.user)) || (r !== null && pk.proc.isSkeleton(r.user));
  const values = o ? decode(kind, alignedCopy(pk, sendBytes(pk, o.user, 0, o.n, o.t), kind), items) : null;
  let res: ReduceArray | null = null;
  let finish = (): void => {};
  let inPlace = false;
  if (r) {
    const land = landing(pk, r.user, 0, r.n, r.t);
    inPlace = land.unpack === null && !kind.pair && land.bytes.byteOffset % kind.array.BYTES_PER_ELEMENT === 0;
    const into = inPlace ? land.bytes : scratch(pk, r.user, bytes);
    res = decode(kind, into, items);
    finish = () => {
      if (skeleton) return;
      if (!inPlace) {
        encode(kind, res!, into);
        land.bytes.set(into);
      }
      if (land.unpack) pk.proc.charge(land.unpack(bytes));
    };
  }
  return { kind, origin: values, result: res, items, runs, span: hi, resultInPlace: inPlace, skeleton, finish };
}

/** `b` itself when its offset suits the kind's typed array, else an aligned copy. */
function alignedCopy(pk: Packer, b: Uint8Array, kind: AccKind): Uint8Array {
  if (kind.pair || b.byteOffset % kind.array.BYTES_PER_ELEMENT === 0 || pk.proc.isSkeleton(b)) return b;
  return b.slice();
}
