/** flowRoute (fabric/flow/flow-route.ts): idle-network routes on the presets, hop by hop, with their zero-load latency. */
import { describe, expect, it } from 'vitest';
import { flowRoute, flowSalt, sampleRoutes, type FlowRoute } from '../fabric/flow/flow-route.ts';
import { linksByClass, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { PORT_NODE, routerDistances } from '../fabric/topology/port-graph.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';
import type { TorusGraph } from '../fabric/topology/torus.ts';

function built(name: string, nodes: number) {
  const config = resolveMachine(machineSpec(name), nodes);
  const t = buildTopology(config.topology);
  return { config, ...t, params: { ...config.network, vcs: t.vcs, links: linksByClass(config, t.graph) } };
}

/**
 * What is wrong with a route, or null: it must start at the source's NIC injection channel, leave
 * each router it reaches by a group whose ports all lead to one router, and end at the
 * destination's node port. (Plain checks: an expect per hop would take most of the test's time.)
 */
function routeFault(m: ReturnType<typeof built>, r: FlowRoute): string | null {
  const g = m.graph;
  const hops = r.hops;
  const first = hops[0]!;
  if (first.channel !== g.routers * g.radix + r.src || first.count !== 1) return `starts at ${first.channel}+${first.count}, not node ${r.src}'s injection channel`;
  const last = hops[hops.length - 1]!;
  if (last.channel !== g.nodeRouter[r.dst]! * g.radix + g.nodePort[r.dst]! || last.count !== 1) return `ends at ${last.channel}+${last.count}, not node ${r.dst}'s port`;
  if (g.portClass[last.channel] !== PORT_NODE) return 'ends at a port that is not a node port';
  let router = g.nodeRouter[r.src]!;
  for (let i = 1; i < hops.length; i++) {
    const h = hops[i]!;
    if (Math.floor(h.channel / g.radix) !== router || Math.floor((h.channel + h.count - 1) / g.radix) !== router) return `hop ${i} does not leave router ${router}`;
    if (i === hops.length - 1) break;
    const peer = g.peerRouter[h.channel]!;
    for (let k = 0; k < h.count; k++) if (g.peerRouter[h.channel + k] !== peer) return `hop ${i}: the ports of its group lead to different routers`;
    router = peer;
  }
  return router === g.nodeRouter[r.dst] ? null : `reaches router ${router}, not the destination's`;
}

describe('flowRoute on xe6 (64 nodes, dimension order over 8/4/8 parallel links)', () => {
  const m = built('xe6', 64);
  const g = m.graph as TorusGraph;

  it('hop counts equal the router distance, hops are whole direction groups, and the route ends at the destination node port', () => {
    const faults: string[] = [];
    let routes = 0;
    for (let src = 0; src < g.nodes; src++) {
      const dist = routerDistances(g, g.nodeRouter[src]!);
      for (let dst = 0; dst < g.nodes; dst++) {
        for (const vcClass of [0, 1]) {
          const r = flowRoute({ graph: g, route: m.route, params: m.params, src, dst, vcClass });
          routes++;
          const at = `${src} -> ${dst} class ${vcClass}`;
          if (r.routerHops !== dist[g.nodeRouter[dst]!]) faults.push(`${at}: ${r.routerHops} hops, distance ${dist[g.nodeRouter[dst]!]}`);
          if (r.hops.length !== r.routerHops + 2) faults.push(`${at}: ${r.hops.length} hops for ${r.routerHops} router hops`);
          for (const h of r.hops.slice(1, -1)) {
            const e = g.groupPort.indexOf(h.channel % g.radix);
            if (e < 0 || h.count !== g.links[e >> 1]) faults.push(`${at}: hop ${h.channel}+${h.count} is not a whole direction group`);
          }
          const f = routeFault(m, r);
          if (f) faults.push(`${at}: ${f}`);
        }
      }
    }
    expect(routes).toBe(64 * 64 * 2);
    expect(faults.slice(0, 5)).toEqual([]);
  });

  it('zero-load latency: every wire and every router crossed (xe6: 5 ns NIC links, 15 ns links, 90 ns routers)', () => {
    const far = flowRoute({ graph: g, route: m.route, params: m.params, src: 0, dst: 63, vcClass: 0 });
    const h = far.routerHops;
    expect(h).toBeGreaterThan(1);
    expect(far.wireLatencyPs).toBe(5000 + 15000 * h + 5000);
    expect(far.routerLatencyPs).toBe(90000 * (h + 1));
    expect(far.latencyPs).toBe(far.wireLatencyPs + far.routerLatencyPs);
    // two nodes of one Gemini: in and out of one router
    const near = flowRoute({ graph: g, route: m.route, params: m.params, src: 0, dst: 1, vcClass: 0 });
    expect(near.hops).toEqual([
      { channel: g.routers * g.radix, count: 1 },
      { channel: g.nodePort[1]!, count: 1 },
    ]);
    expect(near.latencyPs).toBe(5000 + 90000 + 5000);
  });

  it('refuses a bad node or class, naming it', () => {
    expect(() => flowRoute({ graph: g, route: m.route, params: m.params, src: 64, dst: 0, vcClass: 0 })).toThrow(/flow source 64: not a node \(0\.\.63\)/);
    expect(() => flowRoute({ graph: g, route: m.route, params: m.params, src: 0, dst: -1, vcClass: 0 })).toThrow(/flow destination -1/);
    expect(() => flowRoute({ graph: g, route: m.route, params: m.params, src: 0, dst: 1, vcClass: 2 })).toThrow(/VC class 2/);
  });
});

describe('flowRoute on the other presets', () => {
  it.each([
    ['xt4', 64],
    ['xc30', 512],
    ['bw', 256],
    ['sc5832', 108],
  ] as const)('%s: minimal on an idle network, connected, ending at the destination', (name, nodes) => {
    const m = built(name, nodes);
    const g = m.graph;
    const faults: string[] = [];
    for (let src = 0; src < g.nodes; src += 7) {
      const dist = routerDistances(g, g.nodeRouter[src]!);
      for (let dst = 0; dst < g.nodes; dst += 5) {
        const r = flowRoute({ graph: g, route: m.route, params: m.params, src, dst, vcClass: (src + dst) % 2 });
        if (r.routerHops !== dist[g.nodeRouter[dst]!]) faults.push(`${src} -> ${dst}: ${r.routerHops} hops, distance ${dist[g.nodeRouter[dst]!]}`);
        const f = routeFault(m, r);
        if (f) faults.push(`${src} -> ${dst}: ${f}`);
      }
    }
    expect(faults.slice(0, 5)).toEqual([]);
  });

  it('salts: bw spreads consecutive samples over its four slices; the dimension-order torus ignores them', () => {
    const bw = built('bw', 256);
    const seconds = new Set([0, 1, 2, 3].map((k) => flowRoute({ graph: bw.graph, route: bw.route, params: bw.params, src: 0, dst: 255, vcClass: 0, salt: flowSalt(0, 255, k) }).hops[1]!.channel));
    expect(seconds.size).toBe(4);
    // merged: the NIC channels carry every sample, each slice's groups a quarter
    const merged = sampleRoutes({ graph: bw.graph, route: bw.route, params: bw.params, src: 0, dst: 255, vcClass: 0 }, 4);
    expect(merged.routes).toHaveLength(4);
    expect(merged.hops[0]).toEqual({ channel: bw.graph.routers * bw.graph.radix, count: 1, share: 1 });
    expect(merged.hops.filter((h) => h.share === 0.25)).toHaveLength(4 * (merged.routes[0]!.hops.length - 2));
    expect(merged.hops.reduce((a, h) => a + h.share, 0)).toBe(merged.routes[0]!.hops.length);
    const xe6 = built('xe6', 64);
    const routes = [0, 1, 2, 3].map((k) => flowRoute({ graph: xe6.graph, route: xe6.route, params: xe6.params, src: 0, dst: 63, vcClass: 0, salt: flowSalt(0, 63, k) }).hops);
    for (const r of routes) expect(r).toEqual(routes[0]);
  });
});
