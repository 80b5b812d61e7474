/**
 * Event queue keyed by (time in ps, sequence number): a binary min-heap of slot indices over
 * struct-of-arrays event storage. Pushing and popping allocate nothing once capacity is reached;
 * same-time events pop in the order they were pushed, which makes every run deterministic.
 */
export class EventQueue {
  // per-slot payload
  private seq: Float64Array;
  private target: Int32Array;
  private kind: Int32Array;
  private arg: Float64Array;
  // the heap, in heap order: each position's time (compared most) and slot
  private hTime: Float64Array;
  private hSlot: Int32Array;
  private free: Int32Array;
  private freeTop = 0;
  private count = 0;
  private nextSeq = 0;

  /** Fields of the event returned by the last `pop()`. */
  popTime = 0;
  popTarget = 0;
  popKind = 0;
  popArg = 0;

  constructor(initialCapacity = 1024) {
    const n = Math.max(16, initialCapacity);
    this.seq = new Float64Array(n);
    this.target = new Int32Array(n);
    this.kind = new Int32Array(n);
    this.arg = new Float64Array(n);
    this.hTime = new Float64Array(n);
    this.hSlot = new Int32Array(n);
    this.free = new Int32Array(n);
    for (let i = 0; i < n; i++) this.free[i] = n - 1 - i;
    this.freeTop = n;
  }

  /** Number of pending events. */
  get size(): number {
    return this.count;
  }

  /** Time of the earliest pending event, or Infinity when empty. */
  peekTime(): number {
    return this.count === 0 ? Infinity : this.hTime[0]!;
  }

  /** Adds an event; same-time events keep their push order. */
  push(time: number, target: number, kind: number, arg: number): void {
    if (this.freeTop === 0) this.grow();
    const slot = this.free[--this.freeTop]!;
    const s = this.nextSeq++;
    this.seq[slot] = s;
    this.target[slot] = target;
    this.kind[slot] = kind;
    this.arg[slot] = arg;
    const hTime = this.hTime;
    const hSlot = this.hSlot;
    const seqs = this.seq;
    let i = this.count++;
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

  /** Removes the earliest event into the pop* fields; returns false when empty. */
  pop(): boolean {
    if (this.count === 0) return false;
    const hTime = this.hTime;
    const hSlot = this.hSlot;
    const top = hSlot[0]!;
    this.popTime = hTime[0]!;
    this.popTarget = this.target[top]!;
    this.popKind = this.kind[top]!;
    this.popArg = this.arg[top]!;
    this.free[this.freeTop++] = top;
    const n = --this.count;
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
    return true;
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
    this.seq = f64(this.seq);
    this.target = i32(this.target);
    this.kind = i32(this.kind);
    this.arg = f64(this.arg);
    this.hTime = f64(this.hTime);
    this.hSlot = i32(this.hSlot);
    // all old slots are in use when we grow: the free stack holds the new ones
    const f = new Int32Array(n);
    for (let i = 0; i < n - old; i++) f[i] = n - 1 - i;
    this.free = f;
    this.freeTop = n - old;
  }
}
