import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { chooseMerit, compare } from '../cli/compare.ts';
import { phit } from './helpers.ts';
import { simulate } from '../runtime/simulate.ts';


interface JsonRow {
  machine: string;
  simulatedTimeUs: number | null;
  commShare: number | null;
  merit: number | null;
  meritKey: string | null;
  error?: string;
}

const tmp = mkdtempSync(join(tmpdir(), 'phit-compare-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('phit compare', () => {
  it('pingpong on xe6,xc30 --json: one row per machine in order, times equal to simulate() run directly', async () => {
    const r = await phit('compare', '--app', 'pingpong', '--machines', 'xe6,xc30', '--param', 'maxBytes=64', '--seed', '3', '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const j = JSON.parse(r.out[0]!) as { app: string; nodes: number; ppn: number; rows: JsonRow[] };
    expect(Object.keys(j).sort()).toEqual(['app', 'nodes', 'ppn', 'rows']);
    expect(j).toMatchObject({ app: 'pingpong', nodes: 2, ppn: 1 });
    expect(j.rows.map((x) => x.machine)).toEqual(['xe6', 'xc30']);
    const app = findApp('pingpong');
    const params = resolveParams(app, { maxBytes: '64' });
    for (const row of j.rows) {
      expect(Object.keys(row).sort()).toEqual(['commShare', 'machine', 'merit', 'meritKey', 'simulatedTimeUs']);
      const direct = await simulate({ machine: row.machine, nodes: 2, seed: 3, program: (ctx) => app.main(ctx, params) });
      expect(row.simulatedTimeUs).toBe(direct.simulatedTimeUs);
      // pingpong's last row is its largest message; it declares no merit, so bandwidthGBs is taken
      const rows = (direct.result as { rows: Record<string, number>[] }).rows;
      expect(row.meritKey).toBe('bandwidthGBs');
      expect(row.merit).toBe(rows[rows.length - 1]!.bandwidthGBs);
      // pingpong never computes: all of its time is communication
      expect(row.commShare).toBe(1);
    }
    expect(j.rows[0]!.simulatedTimeUs).not.toBe(j.rows[1]!.simulatedTimeUs);
  });

  it('halo3d on two machines: the communication share lies strictly between 0 and 1', async () => {
    const r = await compare({ app: 'halo3d', machines: ['xe6', 'bw'], nodes: 2, params: { nx: '8', ny: '8', nz: '8', iterations: '2' } });
    expect(r.rows.map((x) => x.machine)).toEqual(['xe6', 'bw']);
    for (const row of r.rows) {
      expect(row.error).toBeUndefined();
      expect(row.simulatedTimeUs).toBeGreaterThan(0);
      expect(row.commShare).toBeGreaterThan(0);
      expect(row.commShare).toBeLessThan(1);
    }
  });

  it('an unknown machine is bad input: exit 2, the name in a one-line message, nothing run', async () => {
    const r = await phit('compare', '--app', 'pingpong', '--machines', 'xe6,cm5');
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^phit: unknown machine "cm5"/);
  });

  it('too few ranks for the app and an unknown app parameter are bad input (exit 2)', async () => {
    const few = await phit('compare', '--app', 'pingpong', '--machines', 'xe6', '--nodes', '1');
    expect(few.code).toBe(2);
    expect(few.err[0]).toMatch(/pingpong needs at least 2 ranks/);
    const bad = await phit('compare', '--app', 'pingpong', '--machines', 'xe6', '--param', 'size=3');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toMatch(/unknown parameter "size"/);
  });

  it('a machine that cannot take the configuration shows an error row, the others still run, exit 1', async () => {
    // torus.dims exists on the torus machines only
    const r = await phit('compare', '--app', 'pingpong', '--machines', 'xe6,xc30', '--param', 'maxBytes=64', '--set', 'torus.dims=2x1x1', '--json');
    expect(r.code).toBe(1);
    const rows = (JSON.parse(r.out[0]!) as { rows: JsonRow[] }).rows;
    expect(rows.map((x) => x.machine)).toEqual(['xe6', 'xc30']);
    expect(rows[0]!.error).toBeUndefined();
    expect(rows[0]!.simulatedTimeUs).toBeGreaterThan(0);
    expect(rows[1]).toMatchObject({ simulatedTimeUs: null, commShare: null, merit: null, meritKey: null });
    expect(rows[1]!.error).toMatch(/unknown parameter "torus.dims" for machine xc30/);
  });

  it('a user program that fails in its worker on one machine: error cell in the table, exit 1', async () => {
    const file = join(tmp, 'picky.ts');
    writeFileSync(
      file,
      [
        "export const merit = { key: 'answer', higherIsBetter: true };",
        'export default async (ctx: { machine: { name: string }; compute: (w: { us: number }) => Promise<void> }) => {',
        "  if (ctx.machine.name === 'xc30') throw new Error('not on xc30');",
        '  await ctx.compute({ us: 5 });',
        '  return { rows: [{ answer: 42 }] };',
        '};',
        '',
      ].join('\n'),
    );
    const r = await phit('compare', '--app', file, '--machines', 'xc30,xe6');
    expect(r.code).toBe(1);
    const text = r.out.join('\n').split('\n');
    expect(text[1]!.trim().split(/\s+/)).toEqual(['machine', 'simulatedTimeUs', 'commShare', 'answer', 'error']);
    expect(text[3]).toMatch(/^xc30 .*not on xc30$/);
    // a program that only computes has no communication
    expect(text[4]!.trim().split(/\s+/)).toEqual(['xe6', '5', '0', '42']);
  });
});

describe('chooseMerit', () => {
  const result = { rows: [{ bytes: 8, latencyUs: 2, bandwidthGBs: 0.004 }, { bytes: 64, latencyUs: 3, bandwidthGBs: 0.021, mbsMean: 7 }] };

  it("takes the app's declared key from the last row", () => {
    expect(chooseMerit({ key: 'mbsMean', higherIsBetter: true, label: 'MB/s' }, result)).toEqual({ key: 'mbsMean', label: 'MB/s', higherIsBetter: true, value: 7 });
  });

  it('else the first rate or bandwidth key of the last row (any case), higher is better', () => {
    expect(chooseMerit(undefined, result)).toEqual({ key: 'bandwidthGBs', label: 'bandwidthGBs', higherIsBetter: true, value: 0.021 });
    expect(chooseMerit(undefined, { rows: [{ timeUs: 9, gflops: 1.5 }] })?.key).toBe('gflops');
    expect(chooseMerit(undefined, { rows: [{ timeUs: 9, gups: 0.01 }] })?.key).toBe('gups');
  });

  it('else latencyUs, lower is better; null without rows or a usable key', () => {
    expect(chooseMerit(undefined, { rows: [{ bytes: 8, latencyUs: 2.5 }] })).toEqual({ key: 'latencyUs', label: 'latencyUs', higherIsBetter: false, value: 2.5 });
    expect(chooseMerit(undefined, { rows: [{ timeUs: 3 }] })).toBeNull();
    expect(chooseMerit({ key: 'missing', higherIsBetter: true }, result)).toBeNull();
    expect(chooseMerit(undefined, undefined)).toBeNull();
    expect(chooseMerit(undefined, { rows: [] })).toBeNull();
  });
});
