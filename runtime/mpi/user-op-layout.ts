/**
 * A user-defined op applied to a datatype's elements as MPI applies it (MPI-4.0 §6.9.5): the
 * user function is called with (invec, inoutvec, len, datatype) and its buffers hold `len`
 * elements of `datatype` laid out as the datatype describes, so a C function on a non-contiguous
 * type walks them by the extent (MPICH's coll/nonblocking2 does `inout[i * stride]`). phit's
 * reductions carry a datatype's values packed (typed arrays of its basic type); for a layout that
 * differs from the packed one, each application spreads both operands into buffers of that layout,
 * calls the function, and packs the result back. That copying stands for the temporary buffers of
 * the datatype's layout MPICH reduces in; its cost is in the packing the long forms already charge.
 */
import type { Datatype } from './datatype.ts';
import type { Op, ReduceArray } from './ops.ts';
import { MpiError } from './request.ts';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Whether `len` packed elements of `t` sit exactly where `t`'s layout puts them. */
function packedIsLayout(t: Datatype): boolean {
  return t.size === t.extent && t.lb === 0 && t.trueLb === 0 && t.offsets.length <= 1;
}

/**
 * The op a long-form reduction on `t` applies: `op` itself when it is predefined; a user op
 * called with `t` and its element count, on operands laid out as `t` describes. `per` is the
 * values of one element of `t` in the packed arrays (its basic values, or 2 for a pair type,
 * whose elements the op sees as interleaved (value, index) values). Algorithms split the
 * buffers only at whole elements of `t`.
 */
export function opOnType(op: Op, t: Datatype, per: number): Op {
  const fn = op.user;
  if (!fn) return op;
  const unit = (op.unit / gcd(op.unit, per)) * per;
  const direct = t.pair !== null || packedIsLayout(t);
  return {
    name: op.name,
    commutative: op.commutative,
    unit,
    user: fn,
    apply(inout: ReduceArray, input: ReduceArray): void {
      const len = inout.length / per;
      if (direct || len === 0) {
        fn(inout, input, len, t);
        return;
      }
      const a = spread(op.name, t, inout, len);
      const b = spread(op.name, t, input, len);
      fn(a.layout, b.layout, len, t);
      gather(t, a.layout, a.origin, inout, len);
    },
  };
}

/** The typed array of kind `packed` over a new buffer holding its `len` elements of `t` where `t`'s layout puts them; `origin` is the byte of element 0's start. */
function spread(name: string, t: Datatype, packed: ReduceArray, len: number): { layout: ReduceArray; origin: number } {
  const el = packed.BYTES_PER_ELEMENT;
  const span = t.span(len);
  // a negative displacement has no index in a typed array: element 0 then starts past byte 0
  const origin = span.lo < 0 ? Math.ceil(-span.lo / el) * el : 0;
  if (t.extent % el !== 0 || t.offsets.some((o) => (o + origin) % el !== 0)) {
    throw new MpiError('MPI_ERR_TYPE', `${name}: ${t.name} places its values off ${el}-byte boundaries (extent ${t.extent}); a user op sees them through a typed array of ${el}-byte elements`);
  }
  const bytes = new Uint8Array(Math.ceil((origin + span.hi) / el) * el);
  const src = new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength);
  let at = 0;
  for (let i = 0; i < len; i++) {
    const base = origin + i * t.extent;
    for (let j = 0; j < t.offsets.length; j++) {
      const n = t.lengths[j]!;
      bytes.set(src.subarray(at, at + n), base + t.offsets[j]!);
      at += n;
    }
  }
  const A = packed.constructor as new (b: ArrayBuffer) => ReduceArray;
  return { layout: new A(bytes.buffer), origin };
}

/** Packs the `len` elements of `t` in `layout` (element 0 at byte `origin`) back into `packed`. */
function gather(t: Datatype, layout: ReduceArray, origin: number, packed: ReduceArray, len: number): void {
  const src = new Uint8Array(layout.buffer, layout.byteOffset, layout.byteLength);
  const dst = new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength);
  let at = 0;
  for (let i = 0; i < len; i++) {
    const base = origin + i * t.extent;
    for (let j = 0; j < t.offsets.length; j++) {
      const n = t.lengths[j]!;
      dst.set(src.subarray(base + t.offsets[j]!, base + t.offsets[j]! + n), at);
      at += n;
    }
  }
}
