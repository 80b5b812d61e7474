/**
 * Sequence numbers per peer rank: the next one to send to each peer, or to accept from it. A
 * table of open addressing over two typed arrays (keys and values side by side in memory), as
 * every message looks its pair up once on each side; a `Map` per endpoint cost several
 * dependent loads per lookup across the thousands of endpoints of a large run. Peers never
 * seen read as 0.
 */
export class PeerSeq {
  /** Peer rank + 1 in each slot; 0 marks an empty slot. */
  private keys: Int32Array;
  private vals: Float64Array;
  private used = 0;
  private mask: number;

  constructor(capacity = 8) {
    let cap = 8;
    while (cap < capacity * 2) cap *= 2;
    this.keys = new Int32Array(cap);
    this.vals = new Float64Array(cap);
    this.mask = cap - 1;
  }

  /** The number kept for `peer` (0 if none yet). */
  get(peer: number): number {
    const keys = this.keys;
    const k = peer + 1;
    for (let i = Math.imul(k, 0x9e3779b1) & this.mask; ; i = (i + 1) & this.mask) {
      const s = keys[i]!;
      if (s === k) return this.vals[i]!;
      if (s === 0) return 0;
    }
  }

  /** Sets the number kept for `peer`. */
  set(peer: number, value: number): void {
    const keys = this.keys;
    const k = peer + 1;
    for (let i = Math.imul(k, 0x9e3779b1) & this.mask; ; i = (i + 1) & this.mask) {
      const s = keys[i]!;
      if (s === k) {
        this.vals[i] = value;
        return;
      }
      if (s === 0) {
        keys[i] = k;
        this.vals[i] = value;
        if (++this.used * 2 > keys.length) this.grow();
        return;
      }
    }
  }

  /** Returns the number kept for `peer` and counts it up by one. */
  next(peer: number): number {
    const keys = this.keys;
    const k = peer + 1;
    for (let i = Math.imul(k, 0x9e3779b1) & this.mask; ; i = (i + 1) & this.mask) {
      const s = keys[i]!;
      if (s === k) {
        const v = this.vals[i]!;
        this.vals[i] = v + 1;
        return v;
      }
      if (s === 0) {
        keys[i] = k;
        this.vals[i] = 1;
        if (++this.used * 2 > keys.length) this.grow();
        return 0;
      }
    }
  }

  /** Peers with a number kept. */
  get size(): number {
    return this.used;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    const cap = oldKeys.length * 2;
    this.keys = new Int32Array(cap);
    this.vals = new Float64Array(cap);
    this.mask = cap - 1;
    this.used = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== 0) this.set(oldKeys[i]! - 1, oldVals[i]!);
  }
}
