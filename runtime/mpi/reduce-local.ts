/**
 * MPI_Reduce_local (MPI-3.1 §5.9.7): `inoutbuf = inbuf ∘ inoutbuf` element by element on this
 * rank alone, `inbuf` the left operand, so a non-commutative op sees the operands in that order.
 * It costs the rank's CPU what a collective's combine costs: one op per element at the node's
 * flop rate, plus a copy for a non-commutative op.
 */
import { describe } from './constants.ts';
import { reduction, valuesOf } from './datatype-coll.ts';
import { checkCount, checkType } from './datatype.ts';
import type { Packer } from './datatype-pack.ts';
import type { Op, ReduceArray } from './ops.ts';
import { MpiError } from './request.ts';
import { opOnType } from './user-op-layout.ts';

/** The arguments: (inbuf, inoutbuf, op) on typed arrays, or (inbuf, inoutbuf, count, datatype, op). */
export type ReduceLocalArgs = readonly unknown[];

/** Reduces `inbuf` into `inoutbuf`; returns the CPU time (ps) the rank spends on it. */
export function reduceLocal(pk: Packer, flopsPerPs: number, a: ReduceLocalArgs): number {
  const call = 'reduceLocal';
  let input: ReduceArray, inout: ReduceArray, op: Op, store = (): void => {};
  if (a.length >= 5) {
    const t = checkType(call, 'datatype', a[3]);
    const n = checkCount(call, 'count', a[2]);
    const kind = reduction(call, t, checkOp(call, a[4]));
    op = opOnType(kind.op, t, kind.per);
    input = valuesOf(pk, call, 'inbuf', a[0], n, t, kind).array;
    const v = valuesOf(pk, call, 'inoutbuf', a[1], n, t, kind);
    inout = v.array;
    store = () => v.store();
  } else {
    op = checkOp(call, a[2]);
    input = checkArray(call, 'inbuf', a[0]);
    inout = checkArray(call, 'inoutbuf', a[1]);
    if (input.constructor !== inout.constructor || input.length !== inout.length) {
      throw new MpiError('MPI_ERR_TYPE', `${call}: inbuf (${describe(input)}) and inoutbuf (${describe(inout)}) must be typed arrays of one type and length`);
    }
  }
  const n = inout.length;
  let ps = n / flopsPerPs;
  const skeleton = pk.proc.isSkeleton(input) || pk.proc.isSkeleton(inout);
  if (!skeleton && n > 0) {
    if (op.commutative) op.apply(inout, input);
    else {
      const left = input.slice() as ReduceArray;
      op.apply(left, inout);
      (inout as unknown as { set(a: ArrayLike<unknown>): void }).set(left as ArrayLike<unknown>);
      ps += (n * inout.BYTES_PER_ELEMENT) / pk.params.copyBytesPerPs;
    }
  }
  store();
  return Math.ceil(ps);
}

function checkOp(call: string, op: unknown): Op {
  if (!op || typeof (op as Op).apply !== 'function') throw new MpiError('MPI_ERR_OP', `${call}: op must be an MPI op (mpi.SUM, mpi.MAX, ..., or mpi.opCreate(...)), got ${describe(op)}`);
  return op as Op;
}

function checkArray(call: string, name: string, v: unknown): ReduceArray {
  if (!ArrayBuffer.isView(v) || v instanceof DataView) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} must be a typed array (or use the long form with count and datatype), got ${describe(v)}`);
  return v as unknown as ReduceArray;
}
