import { describe, expect, it } from 'vitest';
import { PeerSeq } from '../runtime/mpi/peer-seq.ts';
import { Prng } from '../fabric/engine/prng.ts';

describe('PeerSeq', () => {
  it('keeps the same numbers as a Map through growth, for peers near and far', () => {
    const rng = new Prng(7);
    const t = new PeerSeq();
    const m = new Map<number, number>();
    for (let i = 0; i < 50_000; i++) {
      // a few close peers often, and some of up to 100,000 ranks
      const peer = rng.next() < 0.7 ? Math.floor(rng.next() * 12) : Math.floor(rng.next() * 100_000);
      const op = rng.next();
      if (op < 0.5) {
        expect(t.next(peer)).toBe(m.get(peer) ?? 0);
        m.set(peer, (m.get(peer) ?? 0) + 1);
      } else if (op < 0.8) {
        expect(t.get(peer)).toBe(m.get(peer) ?? 0);
      } else {
        const v = Math.floor(rng.next() * 3e9);
        t.set(peer, v);
        m.set(peer, v);
      }
    }
    expect(t.size).toBe(m.size);
    for (const [k, v] of m) expect(t.get(k)).toBe(v);
    expect(t.get(100_001)).toBe(0);
  });
});
