/** `phit collectives --study`: every algorithm over machines, node counts and sizes; the best per point and MPICH's choice. */
import { describe, expect, it } from 'vitest';
import { parseSizes, runStudy } from '../cli/coll-study.ts';
import { ALGORITHMS } from '../runtime/mpi/coll/index.ts';
import { phit } from './helpers.ts';

describe('collective studies', () => {
  it('time every allreduce algorithm per size, name the best and what MPICH picks, and the links they load', async () => {
    const r = await runStudy({ collective: 'allreduce', machines: ['xe6'], nodes: [8], sizes: '8,64KiB', set: { 'fabric.fidelity': 'flow' }, inline: true });
    expect(r.algorithms).toEqual(Object.keys(ALGORITHMS.allreduce));
    expect(r.points).toHaveLength(2 * r.algorithms.length);
    for (const p of r.points) expect(p.us).toBeGreaterThan(0);
    const at = (a: string, b: number): number => r.points.find((p) => p.algorithm === a && p.bytes === b)!.us!;
    // at 8 bytes, three exchanges beat a ring's 14 steps; at 64 KiB halving the data (Rabenseifner) beats whole-buffer exchanges
    expect(at('recursiveDoubling', 8)).toBeLessThan(at('ring', 8));
    expect(at('rabenseifner', 65536)).toBeLessThan(at('recursiveDoubling', 65536));
    for (const row of r.rows) {
      const times = r.points.filter((p) => p.bytes === row.bytes).map((p) => p.us!);
      expect(row.bestUs).toBe(Math.min(...times));
      expect(row.selectorUs).toBeGreaterThanOrEqual(row.bestUs!);
      expect(row.selectorExcess).toBeCloseTo(row.selectorUs! / row.bestUs! - 1, 3);
    }
    // xe6's selector (cray) picks as MPICH does with one rank a node
    expect(r.rows.map((x) => x.selector)).toEqual(['recursiveDoubling', 'rabenseifner']);
    // the exchanges cross the torus: some link was busy
    expect(Math.max(...r.points.map((p) => p.maxLinkUtil!))).toBeGreaterThan(0);
  });

  it('sizes parse as a doubling range or a list; bad input names the flag', async () => {
    expect(parseSizes('8B..64')).toEqual([8, 16, 32, 64]);
    expect(parseSizes('8,1KiB')).toEqual([8, 1024]);
    expect(() => parseSizes('0..8')).toThrow(/--sizes/);
    await expect(runStudy({ collective: 'nosuch', machines: ['xe6'], nodes: [2], sizes: '8' })).rejects.toThrow(/--study nosuch: valid: barrier/);
    await expect(runStudy({ collective: 'bcast', machines: ['xe6'], nodes: [2], sizes: '8', algorithms: ['ring'] })).rejects.toThrow(/bcast has no algorithm 'ring'/);
    const bad = await phit('collectives', '--study', 'allreduce', '--nodes', 'x');
    expect(bad.code).toBe(2);
    expect(bad.err.join('\n')).toContain('--nodes x');
  });

  it('the command prints the tables, or JSON', async () => {
    const r = await phit('collectives', '--study', 'bcast', '--nodes', '4', '--sizes', '8', '--algorithms', 'binomial,linear', '--json', '--set', 'fabric.fidelity=flow');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out.join('\n')) as { rows: { best: string }[]; points: unknown[] };
    expect(j.points).toHaveLength(2);
    expect(['binomial', 'linear']).toContain(j.rows[0]!.best);
  });
});
