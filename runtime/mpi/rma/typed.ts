import { checkCount, checkType, type Datatype } from '../datatype.ts';
import { userBytes } from '../datatype-pack.ts';
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
