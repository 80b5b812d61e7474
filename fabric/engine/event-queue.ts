/**
 * Event queue keyed by (time in ps, sequence number): same-time events pop in the order they were
 * pushed, which makes every run deterministic. Nothing is allocated per event once capacity is
 * reached: events live in struct-of-arrays slots.
 *
 * Two tiers hold the slots. Most events of a network simulation fall due within a few
 * microseconds, so a timing wheel of Wheel.Buckets buckets, each Wheel.BucketPs wide, takes every
 * event whose bucket lies within the wheel's horizon from the bucket being drained: pushing
 * prepends to a bucket's list, and a bucket is sorted by (time, sequence) once, when the queue
 * reaches it. Events beyond the horizon, or earlier than the bucket being drained, go to a
 * binary min-heap. A pop takes the smaller of the wheel's first event and the heap's top, so the
 * order is exactly (time, sequence) whichever tier holds an event.
 */
/**
 * The queue's constants, as const enums so that they compile to literals: a module-level
 * constant costs a context load at every use on the hot path.
 */
const enum Wheel {
  // 16 ps buckets: one to three fabric events each at 1,000 nodes, so sorting a bucket stays
  // short; the wheel spans 1.05 us, which holds a fabric's latencies and most packet intervals
  BucketShift = 4,
  BucketPs = 1 << BucketShift,
  Buckets = 65536,
  Mask = Buckets - 1,
  Words = Buckets >> 5,
  /** Longest walk to keep the bucket being drained sorted; an event due deeper goes to the heap. */
  InsertSteps = 8,
  /** Buckets of up to this many events are sorted in their list; longer ones by merge sort. */
  ShortBucket = 16,
}
/** Event kinds take the low Tk.KindBits bits of a word, handler ids the rest. */
const enum Tk {
  KindBits = 8,
  KindMask = (1 << KindBits) - 1,
}
/** Most handlers a queue serves (handler ids below it). */
export const MAX_HANDLERS = 1 << (31 - Tk.KindBits);
/** Most event kinds per handler (kinds below it). */
export const MAX_KINDS = 1 << Tk.KindBits;
/** How far ahead of the current bucket the wheel holds events (ps); later ones wait in the heap. */
export const WHEEL_HORIZON_PS = Wheel.Buckets * Wheel.BucketPs;

export class EventQueue {
  // per-slot payload
  private time: Float64Array;
  private seq: Float64Array;
  /** Target and kind in one word (target shifted left by Tk.KindBits, or kind): one array less to touch per event. */
  private tk: Int32Array;
  private arg: Float64Array;
  /** Next slot in the same wheel bucket, or -1. */
  private link: Int32Array;
  private free: Int32Array;
  private freeTop = 0;
  private nextSeq = 0;
  // the wheel: a list per bucket, a bit per non-empty bucket
  private readonly head = new Int32Array(Wheel.Buckets).fill(-1);
  private readonly bits = new Uint32Array(Wheel.Words);
  /** Absolute index (time over the bucket width) of the bucket being drained; the wheel holds [cur, cur + Wheel.Buckets). */
  private cur = 0;
  /** Whether bucket `cur` is sorted (then pushes into it keep it sorted). */
  private curSorted = false;
  /** While bucket `cur` is sorted: its last event. */
  private curTail = -1;
  private wheelCount = 0;
  private sortScratch = new Int32Array(64);
  private mergeScratch = new Int32Array(64);
  // the heap, in heap order: each position's time (compared most) and slot
  private hTime: Float64Array;
  private hSlot: Int32Array;
  private heapCount = 0;

  /** Fields of the event returned by the last `pop()`. */
  popTime = 0;
  popTarget = 0;
  popKind = 0;
  popArg = 0;

  constructor(initialCapacity = 1024) {
    const n = Math.max(16, initialCapacity);
    this.time = new Float64Array(n);
    this.seq = new Float64Array(n);
    this.tk = new Int32Array(n);
    this.arg = new Float64Array(n);
    this.link = new Int32Array(n);
    this.hTime = new Float64Array(n);
    this.hSlot = new Int32Array(n);
    this.free = new Int32Array(n);
    for (let i = 0; i < n; i++) this.free[i] = n - 1 - i;
    this.freeTop = n;
  }

  /** Number of pending events. */
  get size(): number {
    return this.wheelCount + this.heapCount;
  }

  /** Time of the earliest pending event, or Infinity when empty. */
  peekTime(): number {
    const w = this.wheelFront();
    const wt = w === -1 ? Infinity : this.time[w]!;
    const ht = this.heapCount === 0 ? Infinity : this.hTime[0]!;
    return wt < ht ? wt : ht;
  }

  /** Adds an event; same-time events keep their push order. `kind` is an integer in [0, MAX_KINDS). */
  push(time: number, target: number, kind: number, arg: number): void {
    if ((kind & Tk.KindMask) !== kind) throw new RangeError(`engine: event kind ${kind}, not an integer in [0, ${MAX_KINDS})`);
    if (this.freeTop === 0) this.grow();
    const slot = this.free[--this.freeTop]!;
    this.time[slot] = time;
    this.seq[slot] = this.nextSeq++;
    this.tk[slot] = (target << Tk.KindBits) | kind;
    this.arg[slot] = arg;
    const b = Math.floor(time / Wheel.BucketPs);
    if (b >= this.cur && b < this.cur + Wheel.Buckets) this.wheelAdd(slot, b);
    else this.heapAdd(slot);
  }

  /**
   * Removes the earliest event into the pop* fields if it is due at or before `limitPs`; returns
   * false (and removes nothing) when the queue is empty or its earliest event is later.
   */
  pop(limitPs = Infinity): boolean {
    const w = this.wheelFront();
    let slot: number;
    if (w !== -1 && (this.heapCount === 0 || this.before(w, this.hSlot[0]!))) {
      if (this.time[w]! > limitPs) return false;
      // unlink the first event of bucket cur
      const i = this.cur & Wheel.Mask;
      const nx = this.link[w]!;
      this.head[i] = nx;
      if (nx === -1) {
        this.bits[i >> 5]! &= ~(1 << (i & 31));
        this.curSorted = false;
      }
      this.wheelCount--;
      slot = w;
    } else if (this.heapCount > 0) {
      if (this.hTime[0]! > limitPs) return false;
      slot = this.heapTake();
      // an empty wheel moves to the new time, so that the events pushed from now on fit in it
      if (this.wheelCount === 0) {
        this.cur = Math.floor(this.time[slot]! / Wheel.BucketPs);
        this.curSorted = false;
      }
    } else {
      return false;
    }
    this.popTime = this.time[slot]!;
    const tk = this.tk[slot]!;
    this.popTarget = tk >>> Tk.KindBits;
    this.popKind = tk & Tk.KindMask;
    this.popArg = this.arg[slot]!;
    this.free[this.freeTop++] = slot;
    return true;
  }

  /** Whether slot a pops before slot b. */
  private before(a: number, b: number): boolean {
    const ta = this.time[a]!;
    const tb = this.time[b]!;
    return ta < tb || (ta === tb && this.seq[a]! < this.seq[b]!);
  }

  // --- the wheel

  private wheelAdd(slot: number, b: number): void {
    const i = b & Wheel.Mask;
    const h = this.head[i]!;
    this.wheelCount++;
    if (h === -1) {
      this.link[slot] = -1;
      this.head[i] = slot;
      this.bits[i >> 5]! |= 1 << (i & 31);
      return;
    }
    if (b !== this.cur || !this.curSorted) {
      // a bucket not yet sorted keeps its events newest first: one write, and no tail to keep
      this.link[slot] = h;
      this.head[i] = slot;
      return;
    }
    const t = this.curTail;
    if (this.before(t, slot)) {
      // the new event goes last
      this.link[slot] = -1;
      this.link[t] = slot;
      this.curTail = slot;
      return;
    }
    // the bucket being drained stays sorted; deep inside a crowded bucket the heap takes it
    let prev = -1;
    let n = this.head[i]!;
    let steps = 0;
    while (n !== -1 && this.before(n, slot)) {
      if (++steps > Wheel.InsertSteps) {
        this.wheelCount--;
        this.heapAdd(slot);
        return;
      }
      prev = n;
      n = this.link[n]!;
    }
    this.link[slot] = n;
    if (prev === -1) this.head[i] = slot;
    else this.link[prev] = slot;
  }

  /** The wheel's earliest event (advancing to the next non-empty bucket and sorting it), or -1. */
  private wheelFront(): number {
    if (this.wheelCount === 0) return -1;
    let i = this.cur & Wheel.Mask;
    if (this.head[i] === -1) {
      const next = this.nextBucket(i);
      this.cur += (next - i) & Wheel.Mask;
      this.curSorted = false;
      i = next;
    }
    if (!this.curSorted) {
      this.sortBucket(i);
      this.curSorted = true;
    }
    return this.head[i]!;
  }

  /** First non-empty bucket at or after index `from`, going round the wheel (some bucket is non-empty). */
  private nextBucket(from: number): number {
    const bits = this.bits;
    let w = from >> 5;
    let word = bits[w]! & (~0 << (from & 31));
    for (let k = 0; k <= Wheel.Words; k++) {
      if (word !== 0) return (w << 5) + (31 - Math.clz32(word & -word));
      w = w + 1 === Wheel.Words ? 0 : w + 1;
      word = bits[w]!;
    }
    throw new Error('event queue: the wheel count says non-empty but no bucket is');
  }

  /**
   * Sorts bucket `i` by (time, sequence): insertion sort in the list when short, bottom-up merge
   * sort when crowded. A bucket not yet reached holds its events newest first, the reverse of sequence
   * order, so a stable sort by time of the reversed list gives (time, sequence) order.
   */
  private sortBucket(i: number): void {
    const link = this.link;
    const time = this.time;
    const first = this.head[i]!;
    if (link[first] === -1) {
      this.curTail = first;
      return;
    }
    let n = 0;
    for (let s = first; s !== -1 && n <= Wheel.ShortBucket; s = link[s]!) n++;
    if (n <= Wheel.ShortBucket) {
      // a short bucket (nearly all): insertion into a new list, taking the events newest first so
      // that each goes before the events of its time already placed, which are newer
      let out = -1;
      let last = -1;
      for (let s = first; s !== -1; ) {
        const next = link[s]!;
        const t = time[s]!;
        let prev = -1;
        let q = out;
        while (q !== -1 && time[q]! < t) {
          prev = q;
          q = link[q]!;
        }
        link[s] = q;
        if (prev === -1) out = s;
        else link[prev] = s;
        if (q === -1) last = s;
        s = next;
      }
      this.head[i] = out;
      this.curTail = last;
      return;
    }
    // a crowded bucket: oldest first into the scratch array, then a stable bottom-up merge sort
    n = 0;
    for (let s = first; s !== -1; s = link[s]!) {
      if (n === this.sortScratch.length) this.growScratch();
      this.sortScratch[n++] = s;
    }
    let a = this.sortScratch;
    for (let x = 0, y = n - 1; x < y; x++, y--) {
      const t = a[x]!;
      a[x] = a[y]!;
      a[y] = t;
    }
    let b = this.mergeScratch;
    for (let width = 1; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = Math.min(lo + width, n);
        const hi = Math.min(lo + 2 * width, n);
        let x = lo;
        let y = mid;
        for (let k = lo; k < hi; k++) {
          if (x < mid && (y >= hi || time[a[y]!]! >= time[a[x]!]!)) b[k] = a[x++]!;
          else b[k] = a[y++]!;
        }
      }
      const t = a;
      a = b;
      b = t;
    }
    for (let k = 0; k < n - 1; k++) link[a[k]!] = a[k + 1]!;
    link[a[n - 1]!] = -1;
    this.head[i] = a[0]!;
    this.curTail = a[n - 1]!;
  }

  private growScratch(): void {
    const n = this.sortScratch.length * 2;
    const a = new Int32Array(n);
    a.set(this.sortScratch);
    this.sortScratch = a;
    this.mergeScratch = new Int32Array(n);
  }

  // --- the heap

  private heapAdd(slot: number): void {
    const time = this.time[slot]!;
    const s = this.seq[slot]!;
    const hTime = this.hTime;
    const hSlot = this.hSlot;
    const seqs = this.seq;
    let i = this.heapCount++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = hTime[parent]!;
      if (pt < time || (pt === time && seqs[hSlot[parent]!]! < s)) break;
      hTime[i] = pt;
      hSlot[i] = hSlot[parent]!;
      i = parent;
    }
    hTime[i] = time;
    hSlot[i] = slot;
  }

  /** Removes and returns the heap's top slot. */
  private heapTake(): number {
    const hTime = this.hTime;
    const hSlot = this.hSlot;
    const top = hSlot[0]!;
    const n = --this.heapCount;
    if (n > 0) {
      const seqs = this.seq;
      const lt = hTime[n]!;
      const lslot = hSlot[n]!;
      const ls = seqs[lslot]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        let ct = hTime[c]!;
        const r = c + 1;
        if (r < n) {
          const rt = hTime[r]!;
          if (rt < ct || (rt === ct && seqs[hSlot[r]!]! < seqs[hSlot[c]!]!)) {
            c = r;
            ct = rt;
          }
        }
        if (lt < ct || (lt === ct && ls < seqs[hSlot[c]!]!)) break;
        hTime[i] = ct;
        hSlot[i] = hSlot[c]!;
        i = c;
      }
      hTime[i] = lt;
      hSlot[i] = lslot;
    }
    return top;
  }

  private grow(): void {
    const old = this.seq.length;
    const n = old * 2;
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.time = f64(this.time);
    this.seq = f64(this.seq);
    this.tk = i32(this.tk);
    this.arg = f64(this.arg);
    this.link = i32(this.link);
    this.hTime = f64(this.hTime);
    this.hSlot = i32(this.hSlot);
    // all old slots are in use when we grow: the free stack holds the new ones
    const f = new Int32Array(n);
    for (let i = 0; i < n - old; i++) f[i] = n - 1 - i;
    this.free = f;
    this.freeTop = n - old;
  }
}
