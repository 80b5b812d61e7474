import { describe, expect, it } from 'vitest';
import { PacketPool } from '../fabric/packet.ts';

describe('packet pool', () => {
  it('keeps every payload across growth and chunks (more than 64 Ki packets live)', () => {
    const pool = new PacketPool(4096, 16);
    const n = 70_000;
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = pool.alloc();
      ids.push(p);
      const d = pool.dataOf(p);
      const at = pool.dataAt(p);
      // first and last byte of the slot: neighbours must not overlap
      d[at] = i & 0xff;
      d[at + 4095] = (i >> 8) & 0xff;
    }
    expect(pool.live).toBe(n);
    expect(new Set(ids).size).toBe(n);
    for (let i = 0; i < n; i++) {
      const p = ids[i]!;
      expect(pool.dataOf(p)[pool.dataAt(p)]).toBe(i & 0xff);
      expect(pool.dataOf(p)[pool.dataAt(p) + 4095]).toBe((i >> 8) & 0xff);
    }
    // at least two chunks, and no chunk past V8's largest typed array
    expect(pool.dataOf(ids[n - 1]!)).not.toBe(pool.dataOf(ids[0]!));
  });
});
