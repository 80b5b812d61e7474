import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mix, modU32 } from '../fabric/routing/routing.ts';

describe('routing hashes', () => {
  it('modU32 gives u % n for every unsigned 32-bit u and n from 1 to 2^21 (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1, max: (1 << 21) - 1 }), (u, n) => modU32(u, n) === u % n),
      { seed: 20261122, numRuns: 20000 },
    );
  });

  it('modU32 is exact at the edges: u next to multiples of n, the largest u, n = 1 and n = 2^21 - 1', () => {
    const ns = [1, 2, 3, 7, 96, 288, 1000, 65535, 65537, (1 << 21) - 1];
    for (const n of ns) {
      for (const base of [0xffffffff - (0xffffffff % n), Math.floor(2 ** 31 / n) * n, n * 12345]) {
        for (const d of [-1, 0, 1]) {
          const u = base + d;
          if (u < 0 || u > 0xffffffff) continue;
          expect(modU32(u, n)).toBe(u % n);
        }
      }
      expect(modU32(0xffffffff, n)).toBe(0xffffffff % n);
    }
  });

  it('mix returns unsigned 32-bit values spread over small moduli', () => {
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 70_000; i++) {
      const h = mix(i, 42);
      expect(h >= 0 && h <= 0xffffffff && Number.isInteger(h)).toBe(true);
      counts[modU32(h, 7)]!++;
    }
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });
});
