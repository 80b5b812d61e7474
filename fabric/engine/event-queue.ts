/**
 * Event queue keyed by (time in ps, sequence number): a binary min-heap of slot indices over
 * struct-of-arrays event storage. Pushing and popping allocate nothing once capacity is reached;
 * same-time events pop in the order they were pushed, which makes every run deterministic.
 */
export class EventQueue {
  private time: Float64Array;
  private seq: Float64Array;
  private target: Int32Array;
  private kind: Int32Array;
  private arg: Float64Array;
  /** heap[i] is a slot index; slots not in the heap are on the free stack. */
  private heap: Int32Array;
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
    this.time = new Float64Array(n);
    this.seq = new Float64Array(n);
    this.target = new Int32Array(n);
    this.kind = new Int32Array(n);
    this.arg = new Float64Array(n);
    this.heap = new Int32Array(n);
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
    return this.count === 0 ? Infinity : this.time[this.heap[0]!]!;
  }

  /** Adds an event; same-time events keep their push order. */
  push(time: number, target: number, kind: number, arg: number): void {
    if (this.freeTop === 0) this.grow();
    const slot = this.free[--this.freeTop]!;
    this.time[slot] = time;
    this.seq[slot] = this.nextSeq++;
    this.target[slot] = target;
    this.kind[slot] = kind;
    this.arg[slot] = arg;
    // sift up
    const heap = this.heap;
    const times = this.time;
    const seqs = this.seq;
    const s = this.seq[slot]!;
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      const pt = times[p]!;
      if (pt < time || (pt === time && seqs[p]! < s)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = slot;
  }

  /** Removes the earliest event into the pop* fields; returns false when empty. */
  pop(): boolean {
    if (this.count === 0) return false;
    const heap = this.heap;
    const top = heap[0]!;
    this.popTime = this.time[top]!;
    this.popTarget = this.target[top]!;
    this.popKind = this.kind[top]!;
    this.popArg = this.arg[top]!;
    this.free[this.freeTop++] = top;
    const n = --this.count;
    if (n > 0) {
      const last = heap[n]!;
      const times = this.time;
      const seqs = this.seq;
      const lt = times[last]!;
      const ls = seqs[last]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        let cs = heap[c]!;
        const r = c + 1;
        if (r < n) {
          const rs = heap[r]!;
          const ct = times[cs]!;
          const rt = times[rs]!;
          if (rt < ct || (rt === ct && seqs[rs]! < seqs[cs]!)) {
            c = r;
            cs = rs;
          }
        }
        const ct = times[cs]!;
        if (lt < ct || (lt === ct && ls < seqs[cs]!)) break;
        heap[i] = cs;
        i = c;
      }
      heap[i] = last;
    }
    return true;
  }

  private grow(): void {
    const old = this.time.length;
    const n = old * 2;
    const t = new Float64Array(n);
    t.set(this.time);
    this.time = t;
    const s = new Float64Array(n);
    s.set(this.seq);
    this.seq = s;
    const g = new Int32Array(n);
    g.set(this.target);
    this.target = g;
    const k = new Int32Array(n);
    k.set(this.kind);
    this.kind = k;
    const a = new Float64Array(n);
    a.set(this.arg);
    this.arg = a;
    const h = new Int32Array(n);
    h.set(this.heap);
    this.heap = h;
    const f = new Int32Array(n);
    // all old slots are in use when we grow: the free stack holds the new ones
    for (let i = 0; i < n - old; i++) f[i] = n - 1 - i;
    this.free = f;
    this.freeTop = n - old;
  }
}
