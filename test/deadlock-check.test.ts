/** The start-up deadlock check (Dally and Seitz): every preset's routing is refused if its channel dependencies can cycle. */
import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';
import { assertDeadlockFree, checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { presets } from '../fabric/machines/index.ts';
import { bindRoute, type RouteFn } from '../fabric/routing/routing.ts';
import { torusDor } from '../fabric/routing/torus-routing.ts';
import { buildTorus, type TorusGraph } from '../fabric/topology/torus.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';

/** Dimension-order routing without the dateline VCs: deadlocks on rings of 4 or more. */
const singleVc: RouteFn<TorusGraph> = (g, r, pk, p, out, load) => {
  torusDor(g, r, pk, p, out, load);
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
    const algorithms: Record<string, string[]> = {
      xt4: ['table', 'dor'],
      xe6: ['dor', 'table'],
      xc30: ['minimal', 'valiant', 'adaptive', 'hash'],
      sc5832: ['shortest', 'multipath'],
      bw: ['adaptive', 'hash'],
    };
    expect(algorithms[name], `no algorithms listed for preset ${name}`).toBeDefined();
    for (const algorithm of algorithms[name]!) {
      const nodes = name === 'xc30' ? 768 : name === 'bw' ? 2048 : 128;
      const c = resolveMachine(spec, nodes, { 'routing.algorithm': algorithm });
      const t = buildTopology(c.topology);
      const r = checkDeadlockFreedom(t.graph, t.route, t.vcs, { salts: 4, maxPairs: 6000 });
      expect(r.cycle, `${name} ${algorithm}`).toBeNull();
      expect(r.routes).toBeGreaterThan(1000);
    }
  });
});

describe('xt4 with broken links (seed 000, S9 fault rules)', () => {
  const broken = 'x+@1.1.1,y-@2.0.3,z+@0.2.2';

  it('the routing tables route around them without a dependency cycle, and the graph lacks them', () => {
    const c = resolveMachine(machineSpec('xt4'), 64, { 'torus.brokenLinks': broken });
    expect(c.topologySummary).toContain(broken);
    const t = buildTopology(c.topology);
    const r = checkDeadlockFreedom(t.graph, t.route, t.vcs, { salts: 2 });
    expect(r.cycle).toBeNull();
    expect(r.routes).toBe(64 * 64 * 2 * 2);
    // 4x4x4 torus: 192 links less the 3 broken ones, seen from both ends
    let wired = 0;
    for (let gp = 0; gp < t.graph.routers * t.graph.radix; gp++) if (t.graph.peerRouter[gp]! >= 0) wired++;
    expect(wired).toBe(2 * (192 - 3));
  });

  it('an app runs on the faulty machine with its data checks passing', async () => {
    const r = await simulate({ machine: 'xt4', nodes: 64, set: { 'torus.brokenLinks': broken }, program: (ctx) => apps.halo3d!.main(ctx, resolveParams(apps.halo3d!, { nx: '8', ny: '8', nz: '8', iterations: '2' })) });
    const rows = (r.result as unknown as { rows: { check: string }[] }).rows;
    expect(rows[0]!.check).toBe('passed');
  });

  it('refuses broken links with plain dimension-order routing, and unparseable ones, naming the parameter', () => {
    expect(() => resolveMachine(machineSpec('xt4'), 64, { 'torus.brokenLinks': broken, 'routing.algorithm': 'dor' })).toThrow(/torus.brokenLinks: broken links need routing "table"/);
    const c = resolveMachine(machineSpec('xt4'), 64, { 'torus.brokenLinks': 'x+@9.9.9' });
    expect(() => buildTopology(c.topology)).toThrow(RangeError);
  });
});
