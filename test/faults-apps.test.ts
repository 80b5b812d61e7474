/**
 * Issue 24's "done when", run in the long tier (PHIT_LONG=1): every app, with a bit-error rate of
 * 1e-6 on every link and failed links drawn from the run's seed, keeps its data checks on all five
 * machines; with one node dead, every app ends with the error status naming it (never a hang, never
 * a wrong result).
 */
import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { presets } from '../fabric/machines/index.ts';
import { simulate } from '../runtime/simulate.ts';
import { LONG } from './helpers.ts';
import { SMALL_APP_PARAMS } from './small-apps.ts';

/** Nodes and ranks a node per machine: 16 ranks (bw: 64), on enough nodes that xc30 and bw have links between routers that carry traffic. */
const LAYOUT: Readonly<Record<string, { nodes: number; ppn: number }>> = { xc30: { nodes: 16, ppn: 1 }, bw: { nodes: 64, ppn: 1 } };
const layoutOf = (machine: string): { nodes: number; ppn: number } => LAYOUT[machine] ?? { nodes: 8, ppn: 2 };

/** An app's parameters on `machine`: the small ones, with a class large enough for 64 ranks on bw. */
function paramsOf(machine: string, name: string): Readonly<Record<string, string>> {
  const small = SMALL_APP_PARAMS[name] ?? {};
  return machine === 'bw' && ['npb-lu', 'npb-bt', 'npb-sp'].includes(name) ? { ...small, class: 'W', iterations: '1' } : small;
}

/**
 * Up to `count` router-to-router links of `machine` (at its layout's nodes), drawn with a seeded generator,
 * as a faults.links text the machine accepts (a set that would disconnect nodes or leave no route
 * is drawn again, one link fewer at a time).
 */
function failedLinks(machine: string, count: number, seed: number): string {
  const nodes = layoutOf(machine).nodes;
  const base = buildMachine(resolveMachine(machineSpec(machine), nodes));
  const g = base.graph;
  const withNodes = new Set(Array.from(g.nodeRouter.subarray(0, g.nodes)));
  const rng = new Prng(seed);
  for (let want = count; want > 0; want--) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const items = new Set<string>();
      for (let tries = 0; items.size < want && tries < 1000; tries++) {
        const gp = rng.int(g.routers * g.radix);
        // a link leaving a router that carries nodes, so that traffic meets it
        if (g.peerRouter[gp]! < 0 || g.peerRouter[gp] === Math.floor(gp / g.radix) || !withNodes.has(Math.floor(gp / g.radix))) continue;
        items.add(`${Math.floor(gp / g.radix)}:${gp % g.radix}`);
      }
      const text = [...items].join(',');
      try {
        buildMachine(resolveMachine(machineSpec(machine), nodes, { 'faults.links': text }));
        return text;
      } catch {
        // disconnects nodes or leaves a pair without a route: draw again
      }
    }
  }
  return 'none';
}

/** The app's result rows checked as the machines test checks them. */
function checkRows(name: string, result: unknown): void {
  const rows = (result as { rows: Record<string, unknown>[] }).rows;
  expect(rows.length).toBeGreaterThan(0);
  if (['halo3d', 'cg', 'summa', 'lulesh', 'hpcg', 'npb-is', 'npb-lu', 'npb-mg', 'npb-bt', 'npb-sp', 'sweep3d', 'comd'].includes(name)) expect(rows[0]!.check, name).toBe('passed');
  if (name === 'npb-cg') expect(rows[0]!.rnorm as number).toBeLessThan(1e-10);
  if (name === 'npb-ft') expect(rows[0]!.check).toBe('passed (1 of 6 time steps)');
}

describe.runIf(LONG).each(Object.keys(presets))('machine %s under faults', (machine) => {
  let drawn: string | undefined;
  const links = (): string => (drawn ??= failedLinks(machine, 3, 7));

  it('a fault set of failed links is drawn that the machine routes around', () => {
    expect(links()).not.toBe('none');
  });

  it('the failed links are in the way: routing masks them or detours around them', async () => {
    const app = apps.alltoall!;
    const params = resolveParams(app, { maxBytes: '4KiB', iterations: '2' });
    const r = await simulate({ machine, ...layoutOf(machine), set: { 'faults.links': links() }, metrics: true, program: (ctx) => app.main(ctx, params) });
    const f = r.metrics?.fabric.faults;
    expect(f, 'fault metrics').toBeDefined();
    expect(f!.masked + f!.detours).toBeGreaterThan(0);
  });

  it.each(Object.keys(apps))('%s: BER 1e-6 and failed links, the data checks pass', async (name) => {
    const app = apps[name]!;
    const params = resolveParams(app, paramsOf(machine, name));
    const set = { 'link.ber': '1e-6', 'faults.links': links() };
    const r = await simulate({ machine, ...layoutOf(machine), set, metrics: true, program: (ctx) => app.main(ctx, params) });
    checkRows(name, r.result);
  });

  it.each(Object.keys(apps))('%s: node 3 dead at 2 us, the run ends with the error naming it', async (name) => {
    const app = apps[name]!;
    const params = resolveParams(app, paramsOf(machine, name));
    const run = simulate({ machine, ...layoutOf(machine), set: { 'link.ber': '1e-6', 'faults.nodes': '3@2us' }, program: (ctx) => app.main(ctx, params) });
    await expect(run).rejects.toThrow(/node 3|dead/);
  });
});
