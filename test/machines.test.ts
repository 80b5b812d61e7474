/** Every app runs with correct data on every machine preset (issue: the same program runs on all five machines). */
import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { presets } from '../fabric/machines/index.ts';
import { simulate } from '../runtime/simulate.ts';

const small: Record<string, Record<string, string>> = {
  pingpong: { maxBytes: '64KiB', iterations: '2' },
  putget: { maxBytes: '16KiB', iterations: '2', window: '4' },
  halo3d: { nx: '8', ny: '8', nz: '8', iterations: '2' },
  cg: { n: '6', iterations: '5' },
  summa: { n: '64' },
  lulesh: { s: '3', iterations: '2' },
  hpcg: { n: '4', iterations: '2', levels: '3' },
  'npb-cg': { iterations: '1' },
  'npb-ft': { iterations: '1' },
  'npb-is': { iterations: '2' },
  'npb-lu': { iterations: '2' },
  'npb-mg': { iterations: '1' },
  sweep3d: { it: '4', jt: '4', kt: '16', mk: '4', iterations: '1' },
  comd: { n: '6', steps: '2' },
  randomring: { bytes: '4KiB', patterns: '2', loops: '1' },
  allreduce: { maxBytes: '1KiB', iterations: '2' },
  alltoall: { maxBytes: '1KiB', iterations: '2' },
  'osu-latency': { maxBytes: '4KiB', iterations: '2' },
  'osu-bw': { maxBytes: '16KiB', iterations: '2', window: '4' },
  'osu-bibw': { maxBytes: '16KiB', iterations: '2', window: '4' },
  // the FFTs, PTRANS and the traffic apps at their defaults took 5 to 16 s each per machine
  fft2d: { n: '64' },
  fft3d: { n: '16' },
  ptrans: { n: '256', nb: '16' },
  pattern: { bytes: '16KiB', rounds: '1' },
  randpairs: { bytes: '16KiB', rounds: '2' },
};

describe.each(Object.keys(presets))('machine %s', (machine) => {
  it.each(Object.keys(apps))('runs %s with its data checks passing', async (name) => {
    const app = apps[name]!;
    const params = resolveParams(app, small[name] ?? {});
    // 8 nodes x 2 ranks: both the network and the on-node paths
    const r = await simulate({ machine, nodes: 8, ppn: 2, program: (ctx) => app.main(ctx, params) });
    const rows = (r.result as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(rows.length).toBeGreaterThan(0);
    if (['halo3d', 'cg', 'summa', 'lulesh', 'hpcg', 'npb-is', 'npb-lu', 'npb-mg', 'sweep3d', 'comd'].includes(name)) expect(rows[0]!.check).toBe('passed');
    if (name === 'npb-cg') expect(rows[0]!.rnorm as number).toBeLessThan(1e-10);
    if (name === 'npb-ft') expect(rows[0]!.check).toBe('passed (1 of 6 time steps)');
    expect(r.simulatedTimeUs).toBeGreaterThan(0);
    expect(r.packets).toBeGreaterThan(0);
  });

  it('names its seed file', () => {
    expect(presets[machine]!.seed).toMatch(/^00\d_[0-9a-f]+\.txt$/);
  });
});
