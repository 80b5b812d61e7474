/** Synthetic traffic: pattern destinations and the offered/accepted/latency measurement. */
import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { destinations, runTraffic, type Pattern } from '../fabric/traffic.ts';
import { main } from '../cli/main.ts';

describe('traffic patterns', () => {
  const rng = new Prng(3);
  const all = (p: Pattern, n: number, o = {}): number[] => {
    const f = destinations(p, n, o);
    return Array.from({ length: n }, (_, i) => f(i, rng));
  };

  it('are permutations where the pattern says so', () => {
    expect(all('neighbor', 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
    expect(all('tornado', 8)).toEqual([3, 4, 5, 6, 7, 0, 1, 2]);
    expect(all('bitcomplement', 8)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    // transpose on a 4x4 grid of nodes; the diagonal stays silent
    expect(all('transpose', 16)).toEqual([-1, 4, 8, 12, 1, -1, 9, 13, 2, 6, -1, 14, 3, 7, 11, -1]);
    expect(all('hotspot', 5, { hotspot: 2 })).toEqual([2, 2, -1, 2, 2]);
  });

  it('uniform never picks the source and covers every other node', () => {
    const f = destinations('uniform', 6);
    const seen = new Set<number>();
    for (let i = 0; i < 600; i++) {
      const d = f(2, rng);
      expect(d).not.toBe(2);
      seen.add(d);
    }
    expect([...seen].sort()).toEqual([0, 1, 3, 4, 5]);
  });

  it('worstcase sends every node of group i to group i+1', () => {
    const f = destinations('worstcase', 12, { nodesPerGroup: 4 });
    for (let src = 0; src < 12; src++) expect(Math.floor(f(src, rng) / 4)).toBe((Math.floor(src / 4) + 1) % 3);
  });

  it('refuses patterns that do not apply, naming the reason', () => {
    expect(() => destinations('transpose', 8)).toThrow(/square/);
    expect(() => destinations('bitcomplement', 6)).toThrow(/power-of-two/);
    expect(() => destinations('worstcase', 8)).toThrow(/dragonfl/);
    expect(() => destinations('hotspot', 4, { hotspot: 9 })).toThrow(RangeError);
  });
});

describe('traffic measurement (xe6, 16 nodes)', () => {
  const config = resolveMachine(machineSpec('xe6'), 16);

  it('accepts all offered load at light load, with latency near the quiet-network figure', () => {
    const r = runTraffic(config, { pattern: 'uniform', load: 0.1, windowUs: 10, warmupUs: 2 });
    expect(r.packets).toBeGreaterThan(100);
    expect(Math.abs(r.acceptedFraction - 0.1) / 0.1).toBeLessThan(0.1);
    // a one-way short message on a quiet network: about half a put round trip plus the host write
    expect(r.latencyMeanUs).toBeGreaterThan(0.3);
    expect(r.latencyMeanUs).toBeLessThan(1.5);
    expect(r.latencyP99Us).toBeGreaterThanOrEqual(r.latencyMeanUs);
  });

  it('a hotspot saturates: the accepted load is one NIC worth shared by all sources', () => {
    const r = runTraffic(config, { pattern: 'hotspot', load: 1, windowUs: 10, warmupUs: 2, perSource: true });
    // 15 sources into one NIC: at most 1/15 each
    expect(r.acceptedFraction).toBeLessThan(1 / 15 + 0.01);
    expect(r.acceptedFraction).toBeGreaterThan(0.5 / 15);
    expect(r.latencyMeanUs).toBeGreaterThan(5);
    const shares = r.sourceShares!;
    expect(shares[0]).toBe(0); // the hotspot itself sends nothing
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
  });

  it('is deterministic for a seed', () => {
    const a = runTraffic(config, { pattern: 'uniform', load: 0.3, windowUs: 5, seed: 7 });
    const b = runTraffic(config, { pattern: 'uniform', load: 0.3, windowUs: 5, seed: 7 });
    expect(a).toEqual(b);
  });

  it('phit traffic --json prints rows with the documented keys; a bad pattern exits 2', async () => {
    const out: string[] = [];
    const code = await main(['traffic', '--nodes', '8', '--load', '0.2', '--window', '4', '--json'], { out: (s) => out.push(s), err: () => {} });
    expect(code).toBe(0);
    const j = JSON.parse(out[0]!) as { rows: Record<string, number>[] };
    expect(Object.keys(j.rows[0]!)).toEqual(expect.arrayContaining(['offeredFraction', 'acceptedFraction', 'latencyMeanUs', 'latencyP99Us']));
    const err: string[] = [];
    expect(await main(['traffic', '--pattern', 'zigzag'], { out: () => {}, err: (s) => err.push(s) })).toBe(2);
    expect(err[0]).toMatch(/zigzag.*uniform/);
  });
});
