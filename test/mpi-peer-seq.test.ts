import { describe, expect, it } from 'vitest';
import { PeerSeq } from '../runtime/mpi/peer-seq.ts';
import { Prng } from '../fabric/engine/prng.ts';

/** Runs `ops` seeded random operations on a PeerSeq of `world` ranks and on a Map, checking every answer. */
function against(world: number, ops: number, farShare: number, seed: number): PeerSeq {
  const rng = new Prng(seed);
  const t = new PeerSeq(world);
  const m = new Map<number, number>();
  for (let i = 0; i < ops; i++) {
    // a few close peers often, and others from the whole world
    const peer = rng.next() < 1 - farShare ? Math.floor(rng.next() * 12) : Math.floor(rng.next() * world);
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
  for (let r = 0; r < world; r++) expect(t.get(r)).toBe(m.get(r) ?? 0);
  return t;
}

describe('PeerSeq', () => {
  it('keeps the same numbers as a Map while few peers are seen (a table)', () => {
    const t = against(100_000, 20_000, 0.01, 7);
    expect(t.size).toBeLessThan(1_000);
  });

  it('keeps them when most of the world is seen (one number per rank), numbers past 2^32 included', () => {
    const t = against(3_000, 60_000, 0.5, 11);
    expect(t.size).toBe(3_000);
    t.set(5, 2 ** 40 + 3);
    expect(t.next(5)).toBe(2 ** 40 + 3);
    expect(t.get(5)).toBe(2 ** 40 + 4);
  });

  it('a world of two ranks', () => {
    const t = new PeerSeq(2);
    expect(t.next(1)).toBe(0);
    expect(t.next(1)).toBe(1);
    expect(t.get(0)).toBe(0);
  });
});
