/** The start-up deadlock check (Dally and Seitz): every preset's routing is refused if its channel dependencies can cycle. */
import { describe, expect, it } from 'vitest';
import { assertDeadlockFree, checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { presets } from '../fabric/machines/index.ts';
import { bindRoute, type RouteFn } from '../fabric/routing/routing.ts';
import { torusDor } from '../fabric/routing/torus-routing.ts';
import { buildTorus, type TorusGraph } from '../fabric/topology/torus.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';

/** Dimension-order routing without the dateline VCs: deadlocks on rings of 4 or more. */
const singleVc: RouteFn<TorusGraph> = (g, r, pk, p, out) => {
  torusDor(g, r, pk, p, out);
  out.vc = 2 * pk.vcClass[p]!;
};

describe('channel-dependency check', () => {
  const g = buildTorus({ dims: [5, 4], links: [1, 1], nodesPerRouter: 1 });

  it('finds the cycle of a torus without dateline VCs and names its channels', () => {
    const r = checkDeadlockFreedom(g, bindRoute(g, singleVc), 4);
    expect(r.cycle).not.toBeNull();
    expect(r.cycle!.length).toBeGreaterThanOrEqual(3);
    expect(r.cycle![0]).toMatch(/^router \d+ port \d+ \([xy][+-]\) vc [02]$/);
    expect(() => assertDeadlockFree('single-VC torus', g, bindRoute(g, singleVc), 4)).toThrow(/single-VC torus can deadlock: .*cycle: router/);
  });

  it('accepts the dateline routing on the same torus', () => {
    const r = checkDeadlockFreedom(g, bindRoute(g, torusDor), 4);
    expect(r.cycle).toBeNull();
    expect(r.routes).toBe(20 * 20 * 2 * 4);
    expect(r.dependencies).toBeGreaterThan(0);
  });

  it.each(Object.keys(presets))('%s: every routing algorithm of the preset is deadlock-free', (name) => {
    const spec = machineSpec(name);
    const algorithms: Record<string, string[]> = { xe6: ['dor'], xc30: ['minimal', 'valiant', 'adaptive', 'hash'], sc5832: ['shortest', 'multipath'] };
    for (const algorithm of algorithms[name] ?? []) {
      const c = resolveMachine(spec, name === 'xc30' ? 768 : 128, { 'routing.algorithm': algorithm });
      const t = buildTopology(c.topology);
      const r = checkDeadlockFreedom(t.graph, t.route, t.vcs, { salts: 4, maxPairs: 6000 });
      expect(r.cycle, `${name} ${algorithm}`).toBeNull();
      expect(r.routes).toBeGreaterThan(1000);
    }
  });
});
