import { checkCount, checkType, type Datatype } from '../datatype.ts';
import { userBytes } from '../datatype-pack.ts';
import type { ReduceArray } from '../ops.ts';
import { MpiError } from '../request.ts';

/** One piece of a typed one-sided transfer: bytes at `origin` of the origin buffer to or from `target` bytes past the target displacement. */
export interface Segment {
  readonly origin: number;
  readonly target: number;
  readonly bytes: number;
}

/** A one-sided call's long form, checked: the origin's bytes, the segments to move, the bytes the target layout spans. */
export interface TypedTransfer {
  readonly user: Uint8Array;
  readonly segments: readonly Segment[];
  /** Bytes from the target displacement to the end of the last target byte touched. */
  readonly span: number;
  readonly bytes: number;
}

/** The contiguous runs (offset, length) of `count` elements of `t`, in type-map order. */
function runs(t: Datatype, count: number): [number, number][] {
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

/**
 * The segments of a typed put or get (MPI_Put(origin, originCount, originType, target,
 * targetDisp, targetCount, targetType)): the origin's and the target's runs walked together, one
 * segment wherever both are contiguous, as a NIC without scatter/gather moves them (Cray MPICH
 * issues one FMA or BTE transfer per contiguous piece of a derived type).
 */
export function typedTransfer(call: string, buf: unknown, originCount: unknown, originType: unknown, targetCount: unknown, targetType: unknown): TypedTransfer {
  const ot = checkType(call, 'originType', originType);
  const oc = checkCount(call, 'originCount', originCount);
  const tt = checkType(call, 'targetType', targetType);
  const tc = checkCount(call, 'targetCount', targetCount);
  const user = userBytes(call, 'origin', buf, oc, ot);
  const bytes = oc * ot.size;
  if (tc * tt.size !== bytes) throw new MpiError('MPI_ERR_TYPE', `${call}: the origin's ${oc} x ${ot.name} are ${bytes} bytes, the target's ${tc} x ${tt.name} ${tc * tt.size}; their type signatures must match`);
  const { lo, hi } = tt.span(tc);
  if (lo < 0) throw new MpiError('MPI_ERR_RMA_RANGE', `${call}: ${tc} x ${tt.name} reach ${-lo} bytes before the target displacement`);
  const o = runs(ot, oc);
  const t = runs(tt, tc);
  const segments: Segment[] = [];
  let i = 0;
  let j = 0;
  let oi = 0;
  let ti = 0;
  while (i < o.length && j < t.length) {
    const n = Math.min(o[i]![1] - oi, t[j]![1] - ti);
    segments.push({ origin: o[i]![0] + oi, target: t[j]![0] + ti, bytes: n });
    oi += n;
    ti += n;
    if (oi === o[i]![1]) {
      i++;
      oi = 0;
    }
    if (ti === t[j]![1]) {
      j++;
      ti = 0;
    }
  }
  return { user, segments, span: hi, bytes };
}

/**
 * The values of an accumulate's long form: `count` elements of `type` at `buf` as a typed array
 * of its basic type. One-sided accumulates here take predefined datatypes and contiguous types of
 * one (what MPI_Accumulate is mostly called with); other layouts are MPI_ERR_TYPE.
 */
export function accumulateValues(call: string, name: string, buf: unknown, count: unknown, type: unknown): ReduceArray {
  const t = checkType(call, `${name}Type`, type);
  const n = checkCount(call, `${name}Count`, count);
  const A = t.basic?.array;
  if (!A || t.pair || !t.contiguous(n) || t.trueLb !== 0) throw new MpiError('MPI_ERR_TYPE', `${call}: ${t.name} is neither a predefined datatype nor a contiguous type of one at offset 0; one-sided accumulates here take those`);
  const user = userBytes(call, name, buf, n, t);
  const k = (n * t.size) / A.BYTES_PER_ELEMENT;
  if (user.byteOffset % A.BYTES_PER_ELEMENT === 0) return new A(user.buffer as ArrayBuffer, user.byteOffset, k) as ReduceArray;
  throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} is not aligned for ${t.name} (byte offset ${user.byteOffset})`);
}
