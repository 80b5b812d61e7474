/** Every app runs with correct data on every machine preset (issue: the same program runs on all five machines). */
import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { presets } from '../fabric/machines/index.ts';
import { simulate } from '../runtime/simulate.ts';
import { SMALL_APP_PARAMS as small } from './small-apps.ts';


describe.each(Object.keys(presets))('machine %s', (machine) => {
  it.each(Object.keys(apps))('runs %s with its data checks passing', async (name) => {
    const app = apps[name]!;
    const params = resolveParams(app, small[name] ?? {});
    // 8 nodes x 2 ranks: both the network and the on-node paths
    const r = await simulate({ machine, nodes: 8, ppn: 2, program: (ctx) => app.main(ctx, params) });
    const rows = (r.result as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(rows.length).toBeGreaterThan(0);
    if (['halo3d', 'cg', 'summa', 'lulesh', 'hpcg', 'npb-is', 'npb-lu', 'npb-mg', 'npb-bt', 'npb-sp', 'sweep3d', 'comd', 'minife', 'amg'].includes(name)) expect(rows[0]!.check).toBe('passed');
    if (name === 'npb-cg') expect(rows[0]!.rnorm as number).toBeLessThan(1e-10);
    if (name === 'npb-ft') expect(rows[0]!.check).toBe('passed (1 of 6 time steps)');
    expect(r.simulatedTimeUs).toBeGreaterThan(0);
    expect(r.packets).toBeGreaterThan(0);
  });

  it('names its seed file', () => {
    expect(presets[machine]!.seed).toMatch(/^00\d_[0-9a-f]+\.txt$/);
  });
});
