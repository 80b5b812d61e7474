/**
 * Sequence numbers per peer rank: the next one to send to each peer, or to accept from it. Every
 * message looks its pair up once on each side, so the table is typed arrays, not a `Map` (a
 * `Map` per endpoint cost several dependent loads per lookup across the thousands of endpoints
 * of a large run, and about 100 bytes per entry): while a rank has few peers, a table of open
 * addressing (keys and values side by side); once the table would take more room than one
 * 32-bit number per rank of the world, that array (an all-to-all at 4,096 ranks: 32 KB per table
 * instead of 200 KB of table or about 400 KB of `Map`). Peers never seen read as 0.
 */
export class PeerSeq {
  /** Peer rank + 1 in each slot; 0 marks an empty slot (null once dense). */
  private keys: Int32Array | null;
  private vals: Float64Array | null;
  private used = 0;
  private mask: number;
  /** One number per rank once the table went dense (null before). */
  private dense: Uint32Array | Float64Array | null = null;

  constructor(private readonly worldSize: number) {
    this.keys = new Int32Array(8);
    this.vals = new Float64Array(8);
    this.mask = 7;
  }

  /** The number kept for `peer` (0 if none yet). */
  get(peer: number): number {
    const keys = this.keys;
    if (keys === null) return this.dense![peer]!;
    const k = peer + 1;
    for (let i = Math.imul(k, 0x9e3779b1) & this.mask; ; i = (i + 1) & this.mask) {
      const s = keys[i]!;
      if (s === k) return this.vals![i]!;
      if (s === 0) return 0;
    }
  }

  /** Sets the number kept for `peer`. */
  set(peer: number, value: number): void {
    const keys = this.keys;
    if (keys === null) {
      this.setDense(peer, value);
      return;
    }
    const k = peer + 1;
    for (let i = Math.imul(k, 0x9e3779b1) & this.mask; ; i = (i + 1) & this.mask) {
      const s = keys[i]!;
      if (s === k) {
        this.vals![i] = value;
        return;
      }
      if (s === 0) {
        keys[i] = k;
        this.vals![i] = value;
        if (++this.used * 2 > keys.length) this.grow();
        return;
      }
    }
  }

  /** Returns the number kept for `peer` and counts it up by one. */
  next(peer: number): number {
    const v = this.get(peer);
    this.set(peer, v + 1);
    return v;
  }

  /** Peers with a number kept (dense: every rank of the world). */
  get size(): number {
    return this.keys === null ? this.worldSize : this.used;
  }

  private setDense(peer: number, value: number): void {
    const d = this.dense!;
    // a pair past 2^32 - 1 messages moves the numbers to doubles
    if (value > 0xffffffff && d instanceof Uint32Array) this.dense = Float64Array.from(d);
    this.dense![peer] = value;
  }

  private grow(): void {
    const oldKeys = this.keys!;
    const oldVals = this.vals!;
    const cap = oldKeys.length * 2;
    // 12 bytes a slot against 4 a rank: past a third of the world, one number per rank is smaller
    if (cap * 3 >= this.worldSize) {
      this.keys = null;
      this.vals = null;
      this.dense = new Uint32Array(this.worldSize);
      for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== 0) this.setDense(oldKeys[i]! - 1, oldVals[i]!);
      return;
    }
    this.keys = new Int32Array(cap);
    this.vals = new Float64Array(cap);
    this.mask = cap - 1;
    this.used = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== 0) this.set(oldKeys[i]! - 1, oldVals[i]!);
  }
}
