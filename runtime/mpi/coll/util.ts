import type { Op, ReduceArray } from '../ops.ts';
import { MpiError, type Request } from '../request.ts';
import type { CollTransport } from './transport.ts';

/** A typed array a collective moves or combines; counts and offsets are in its elements. */
export type Buf = ReduceArray;

/**
 * Base tag of each collective; an algorithm's phases add 0..15. Messages of one collective
 * never match another's even when two run back to back between the same pair of ranks.
 */
export const TAG = {
  barrier: 0x100,
  bcast: 0x110,
  reduce: 0x120,
  allreduce: 0x130,
  allgather: 0x140,
  allgatherv: 0x150,
  alltoall: 0x160,
  alltoallv: 0x170,
  reduceScatter: 0x180,
  gather: 0x190,
  gatherv: 0x1a0,
  scatter: 0x1b0,
  scatterv: 0x1c0,
  scan: 0x1d0,
  exscan: 0x1e0,
  // neighbourhood collectives: one tag per neighbour slot of a Cartesian grid (up to 16)
  neighbor: 0x1f0,
} as const;

/** The bytes of elements [off, off + count) of `buf` (a view, no copy). */
export function bytes(buf: Buf, off = 0, count = buf.length - off): Uint8Array {
  const e = buf.BYTES_PER_ELEMENT;
  return new Uint8Array(buf.buffer, buf.byteOffset + off * e, count * e);
}

/** Whether `buf` is a skeleton buffer of the run (sizes only: its bytes never move). */
export function isSkeleton(t: CollTransport, buf: Buf): boolean {
  return t.skeleton?.holds(buf) === true;
}

/** A zeroed array of `n` elements of `like`'s type: a skeleton buffer when `like` is one. */
export function alloc<T extends Buf>(t: CollTransport, like: T, n: number): T {
  if (isSkeleton(t, like)) return t.skeleton!.allocLike(like, n);
  return new (like.constructor as new (n: number) => T)(n);
}

/** Copies `src` into `dst` at element `off`, without charging time (nothing when either is a skeleton buffer). */
export function setAt(t: CollTransport, dst: Buf, src: Buf, off = 0): void {
  if (isSkeleton(t, dst) || isSkeleton(t, src)) return;
  (dst as unknown as { set(a: ArrayLike<unknown>, o: number): void }).set(src, off);
}

/**
 * Copies `count` elements of `src` from `soff` into `dst` at `doff`, without charging time and
 * without a view per call: an element loop for a short run (a subarray would cost more than the
 * copy), `set` of a subarray for a long one. The caller has checked neither is a skeleton buffer.
 */
export function moveElems(dst: Buf, doff: number, src: Buf, soff: number, count: number): void {
  if (count > SHORT_RUN) {
    (dst as unknown as { set(a: ArrayLike<unknown>, o: number): void }).set(src.subarray(soff, soff + count), doff);
    return;
  }
  const d = dst as unknown as unknown[];
  const s = src as unknown as unknown[];
  for (let i = 0; i < count; i++) d[doff + i] = s[soff + i];
}

/** Elements up to which `moveElems` copies by a loop. */
const SHORT_RUN = 16;

/** Posts a send of elements [off, off + count) of `buf` to `dest`, described as `<what> to <dest>`. */
export function send(t: CollTransport, buf: Buf, off: number, count: number, dest: number, tag: number, what: string): Request {
  return t.isend(bytes(buf, off, count), dest, tag, what).namePeer(true, dest);
}

/** Posts a receive into elements [off, off + count) of `buf` from `source`, described as `<what> from <source>`. */
export function recv(t: CollTransport, buf: Buf, off: number, count: number, source: number, tag: number, what: string): Request {
  return t.irecv(bytes(buf, off, count), source, tag, what).namePeer(false, source);
}

/**
 * Sends [soff, soff + scount) of `sbuf` to `dest` while receiving [roff, roff + rcount) of
 * `rbuf` from `source`; an empty side is skipped (both ends compute the same sizes).
 */
export function exchange(
  t: CollTransport,
  sbuf: Buf,
  soff: number,
  scount: number,
  dest: number,
  rbuf: Buf,
  roff: number,
  rcount: number,
  source: number,
  tag: number,
  what: string,
): readonly Request[] {
  if (rcount > 0 && scount > 0) return [recv(t, rbuf, roff, rcount, source, tag, what), send(t, sbuf, soff, scount, dest, tag, what)];
  if (rcount > 0) return [recv(t, rbuf, roff, rcount, source, tag, what)];
  return scount > 0 ? [send(t, sbuf, soff, scount, dest, tag, what)] : NO_REQUESTS;
}

const NO_REQUESTS: readonly Request[] = [];

/**
 * `exchange` over byte views made once (`bytes`) and reused for every step of an algorithm
 * that moves whole buffers, so a message allocates no view: sends `sview` to `dest` while
 * receiving into `rview` from `source`; an empty side is skipped. The requests come back in
 * `into` (overwritten), an array the algorithm reuses from step to step: the library holds
 * a step's requests only until its wait is over. The algorithm must yield `into` at once and
 * not keep its requests: they are pooled (`once`), reused for later messages once taken.
 */
export function exchangeViews(t: CollTransport, sview: Uint8Array, dest: number, rview: Uint8Array, source: number, tag: number, what: string, into: Request[]): readonly Request[] {
  // written in place: emptying the array first would drop its storage
  let n = 0;
  if (rview.length > 0) into[n++] = t.irecv(rview, source, tag, what, true).namePeer(false, source);
  if (sview.length > 0) into[n++] = t.isend(sview, dest, tag, what, true).namePeer(true, dest);
  if (into.length !== n) into.length = n;
  return into;
}

/** Copies `count` elements of `src` from `soff` into `dst` at `doff`; returns the copy's CPU time (ps) to yield. */
export function copy(t: CollTransport, dst: Buf, doff: number, src: Buf, soff: number, count: number): number {
  if (count <= 0) return 0;
  setAt(t, dst, soff === 0 && count === src.length ? src : src.subarray(soff, soff + count), doff);
  return Math.ceil((count * src.BYTES_PER_ELEMENT) / t.copyBytesPerPs);
}

/** The CPU time (ps) of copying `count` elements of `like`'s type, to yield. */
export function chargeCopy(t: CollTransport, like: Buf, count: number): number {
  return count > 0 ? Math.ceil((count * like.BYTES_PER_ELEMENT) / t.copyBytesPerPs) : 0;
}

/**
 * Combines `other` into `acc` (same length) keeping rank order: `acc = acc ∘ other` when
 * `other` holds higher ranks' data, `acc = other ∘ acc` when it holds lower ranks'. In the
 * second case a non-commutative op needs a scratch array: `scratch` if given, else `other`
 * itself, which is then overwritten. Returns the CPU time (ps) of the combine (elements /
 * flopsPerPs) and any copy, to yield. With a skeleton buffer among them nothing is computed;
 * the time is the same.
 */
export function combine(t: CollTransport, op: Op, acc: Buf, other: Buf, otherIsLower: boolean, scratch?: Buf): number {
  const n = acc.length;
  if (n === 0) return 0;
  const real = !isSkeleton(t, acc) && !isSkeleton(t, other) && !(scratch && isSkeleton(t, scratch));
  let ps = n / t.flopsPerPs;
  if (otherIsLower && !op.commutative) {
    let left = other;
    if (scratch) {
      left = scratch.subarray(0, n);
      setAt(t, left, other);
      ps += (n * acc.BYTES_PER_ELEMENT) / t.copyBytesPerPs;
    }
    if (real) op.apply(left, acc);
    setAt(t, acc, left);
    ps += (n * acc.BYTES_PER_ELEMENT) / t.copyBytesPerPs;
  } else if (real) {
    op.apply(acc, other);
  }
  return Math.ceil(ps);
}

/** Largest power of two not above `n` (n >= 1). */
export function pof2Floor(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/** True when `n` is a power of two. */
export function isPof2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

/**
 * MPICH's fold of `n` ranks onto p2 = the largest power of two not above n: of the first
 * 2 * rem ranks (rem = n - p2) the even ones hand their data to the odd one above and sit out;
 * the others get new ranks 0..p2-1 in rank order, so each new rank stands for a contiguous run
 * of one or two old ranks.
 */
export class Fold {
  readonly p2: number;
  readonly rem: number;
  /** This rank's new rank, or -1 if it sits out. */
  readonly newrank: number;
  constructor(
    readonly me: number,
    readonly n: number,
  ) {
    this.p2 = pof2Floor(n);
    this.rem = n - this.p2;
    this.newrank = me < 2 * this.rem ? (me % 2 === 0 ? -1 : me >> 1) : me - this.rem;
  }
  /** True for a rank that sits out (hands its data up and gets the result back). */
  get out(): boolean {
    return this.newrank < 0;
  }
  /** True for a rank that takes a partner's data in (the odd one of a folded pair). */
  get absorbs(): boolean {
    return this.me < 2 * this.rem && this.me % 2 === 1;
  }
  /** The old rank that acts for new rank `nr`. */
  oldRank(nr: number): number {
    return nr < this.rem ? 2 * nr + 1 : nr + this.rem;
  }
  /** The first old rank new rank `nr` stands for (`first(p2)` is n). */
  first(nr: number): number {
    return nr < this.rem ? 2 * nr : nr + this.rem;
  }
}

/**
 * Element offset of part `i` of `parts` nearly equal parts of `count` elements, split only at
 * multiples of `unit` (`i = parts` gives `count`).
 */
export function partOffset(count: number, parts: number, i: number, unit: number): number {
  const items = count / unit;
  return unit * Math.floor((i * items) / parts);
}

/** Rejects a buffer whose length is not a whole number of the op's items. */
export function checkUnits(call: string, op: Op, count: number): void {
  if (count % op.unit !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${count} elements are not a whole number of ${op.name}'s ${op.unit}-element items`);
}

/** Exclusive prefix sums of `counts` (length n + 1). */
export function prefix(counts: ArrayLike<number>): number[] {
  const out = [0];
  for (let i = 0; i < counts.length; i++) out.push(out[i]! + counts[i]!);
  return out;
}

/** `x` modulo `n`, in 0..n-1 for any integer x. */
export function mod(x: number, n: number): number {
  return ((x % n) + n) % n;
}
