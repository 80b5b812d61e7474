/**
 * Flows by completion time: an indexed binary min-heap over flow slots keyed by (time, tie), so
 * that a flow's time can move either way in O(log n) and the flow network keeps one engine event
 * for the earliest completion instead of one per flow per solve (whose stale copies would fill the
 * engine's queue). Typed arrays, grown by doubling; nothing allocated per operation.
 */
export class CompletionHeap {
  private slots = new Int32Array(16);
  /** Per slot its position in the heap, or -1. */
  private pos = new Int32Array(16).fill(-1);
  private time = new Float64Array(16);
  private tie = new Float64Array(16);
  private n = 0;

  /** Flows in the heap. */
  get size(): number {
    return this.n;
  }

  /** The slot due first (ties: smaller tie first); only while size > 0. */
  get topSlot(): number {
    return this.slots[0]!;
  }

  /** The earliest completion time, or Infinity when empty. */
  get topTime(): number {
    return this.n > 0 ? this.time[this.slots[0]!]! : Infinity;
  }

  /** Whether `slot` is in the heap. */
  has(slot: number): boolean {
    return slot < this.pos.length && this.pos[slot]! >= 0;
  }

  /** Puts `slot` in the heap at (time, tie), or moves it there. */
  set(slot: number, time: number, tie: number): void {
    if (slot >= this.pos.length) this.growSlots(slot + 1);
    this.time[slot] = time;
    this.tie[slot] = tie;
    let i = this.pos[slot]!;
    if (i < 0) {
      if (this.n === this.slots.length) {
        const s = new Int32Array(2 * this.n);
        s.set(this.slots);
        this.slots = s;
      }
      i = this.n++;
      this.slots[i] = slot;
      this.pos[slot] = i;
    }
    this.down(this.up(i));
  }

  /** Takes `slot` out of the heap, if it is in. */
  remove(slot: number): void {
    if (!this.has(slot)) return;
    const i = this.pos[slot]!;
    this.pos[slot] = -1;
    const last = --this.n;
    if (i === last) return;
    const moved = this.slots[last]!;
    this.slots[i] = moved;
    this.pos[moved] = i;
    this.down(this.up(i));
  }

  private less(a: number, b: number): boolean {
    const ta = this.time[a]!;
    const tb = this.time[b]!;
    return ta < tb || (ta === tb && this.tie[a]! < this.tie[b]!);
  }

  /** Moves position i up while it precedes its parent; returns where it ends. */
  private up(i: number): number {
    const slots = this.slots;
    const s = slots[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const ps = slots[parent]!;
      if (!this.less(s, ps)) break;
      slots[i] = ps;
      this.pos[ps] = i;
      i = parent;
    }
    slots[i] = s;
    this.pos[s] = i;
    return i;
  }

  private down(i: number): void {
    const slots = this.slots;
    const n = this.n;
    const s = slots[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.less(slots[r]!, slots[l]!) ? r : l;
      const cs = slots[c]!;
      if (!this.less(cs, s)) break;
      slots[i] = cs;
      this.pos[cs] = i;
      i = c;
    }
    slots[i] = s;
    this.pos[s] = i;
  }

  private growSlots(n: number): void {
    const size = Math.max(n, 2 * this.pos.length);
    const pos = new Int32Array(size).fill(-1);
    pos.set(this.pos);
    this.pos = pos;
    const time = new Float64Array(size);
    time.set(this.time);
    this.time = time;
    const tie = new Float64Array(size);
    tie.set(this.tie);
    this.tie = tie;
  }
}
