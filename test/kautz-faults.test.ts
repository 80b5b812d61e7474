/**
 * Kautz routes around failed links (seed 002, §5: d independent routes between any two routers
 * even with a link failed, the diameter one hop longer; §6.3: the SC5832 reconfigured around a
 * failed link): on sc5832 at 36 and 108 nodes, every single failed link and seeded random sets of
 * up to 3 are accepted unless they cut nodes off; every pair's route avoids the failed links,
 * the channel dependency graph stays acyclic, and packets and data arrive intact and in order.
 */
import { describe, expect, it } from 'vitest';
import { checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { setupFaults } from '../fabric/fault-setup.ts';
import { checkConnected, downAt, parseFaults } from '../fabric/faults.ts';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { PacketPool } from '../fabric/packet.ts';
import { FaultRouting } from '../fabric/routing/fault-routing.ts';
import { KautzFaultRoutes } from '../fabric/routing/kautz-fault-routes.ts';
import { kautzRouting, kautzVcs, kautzVcsPerClass } from '../fabric/routing/kautz-routing.ts';
import { bindRoute, pickRouting, type BoundRoute, type LoadView, type RouteChoice } from '../fabric/routing/routing.ts';
import { buildKautz, type KautzGraph } from '../fabric/topology/kautz.ts';
import { PORT_NODE } from '../fabric/topology/port-graph.ts';
import { LONG, phit } from './helpers.ts';

const idle: LoadView = { groupLoad: () => 0 };

/** Every out-link of graph g as a faults.links item. */
function allLinks(g: KautzGraph): string[] {
  const out: string[] = [];
  for (let gp = 0; gp < g.routers * g.radix; gp++) if (g.peerRouter[gp]! >= 0) out.push(`${Math.floor(gp / g.radix)}:${gp % g.radix}`);
  return out;
}

/** `count` seeded random sets of 2 or 3 distinct links of g. */
function randomSets(g: KautzGraph, count: number, seed: number): string[][] {
  const links = allLinks(g);
  const rng = new Prng(seed);
  const sets: string[][] = [];
  for (let i = 0; i < count; i++) {
    const want = 2 + rng.int(2);
    const s = new Set<string>();
    while (s.size < want) s.add(links[rng.int(links.length)]!);
    sets.push([...s]);
  }
  return sets;
}

/**
 * Whether failing the links of `down` (per global port) leaves some node unable to reach or be
 * reached by another: a test of its own, by depth-first search from every router with a node
 * (the slow way, so as not to share code with faults.ts).
 */
function disconnects(g: KautzGraph, down: Uint8Array): boolean {
  for (let a = 0; a < g.nodes; a++) {
    const seen = new Set<number>([g.nodeRouter[a]!]);
    const stack = [g.nodeRouter[a]!];
    while (stack.length > 0) {
      const r = stack.pop()!;
      for (let q = 0; q < g.radix; q++) {
        const s = g.peerRouter[r * g.radix + q]!;
        if (s >= 0 && !down[r * g.radix + q] && !seen.has(s)) {
          seen.add(s);
          stack.push(s);
        }
      }
    }
    for (let b = 0; b < g.nodes; b++) if (!seen.has(g.nodeRouter[b]!)) return true;
  }
  return false;
}

/**
 * Walks the route of every `stride`-th pair of nodes (both VC classes, two route draws) under
 * routing `route`; returns the problems found (a failed link crossed, a wrong arrival, a VC out
 * of range) and the longest route in hops.
 */
function walkAll(g: KautzGraph, route: BoundRoute, vcs: number, down: Uint8Array, stride = 1): { problems: string[]; longest: number } {
  const pool = new PacketPool(8, 4);
  const out: RouteChoice = { port: 0, count: 1, vc: 0 };
  const per = kautzVcsPerClass(g.diameter);
  const problems: string[] = [];
  let longest = 0;
  for (let i = 0; i < g.nodes * g.nodes; i += stride) {
    const src = Math.floor(i / g.nodes);
    const dst = i % g.nodes;
    for (let cls = 0; cls < 2; cls++) {
      for (const salt of [0, 0x9e3779b9]) {
        const p = pool.alloc();
        pool.src[p] = src;
        pool.dst[p] = dst;
        pool.vcClass[p] = cls;
        pool.vc[p] = cls * per;
        pool.startRoute(p, salt);
        let r = g.nodeRouter[src]!;
        pool.at[p] = r * g.radix + g.nodePort[src]!;
        for (let hops = 0; ; hops++) {
          route(r, pool, p, out, idle);
          const gp = r * g.radix + out.port;
          if (g.portClass[gp] === PORT_NODE) {
            if (r !== g.nodeRouter[dst]) problems.push(`${src} -> ${dst}: ejected at router ${r}`);
            if (hops > longest) longest = hops;
            break;
          }
          if (down[gp]) problems.push(`${src} -> ${dst}: crosses failed link ${r}:${out.port}`);
          if (out.vc < 0 || out.vc >= vcs) problems.push(`${src} -> ${dst}: VC ${out.vc} of ${vcs}`);
          if (hops > 4 * g.diameter) {
            problems.push(`${src} -> ${dst}: no arrival after ${hops} hops`);
            break;
          }
          pool.vc[p] = out.vc;
          const next = g.peerRouter[gp]!;
          pool.at[p] = next * g.radix + g.peerPort[gp]!;
          r = next;
        }
        pool.free(p);
      }
    }
  }
  return { problems, longest };
}

/** The fault setup of sc5832's Kautz graph `g` with routing `alg` and failed links `links` (what a machine build does), or the refusal. */
function setup(g: KautzGraph, alg: string, links: string[]): ReturnType<typeof setupFaults> | Error {
  const route = bindRoute(g, pickRouting(kautzRouting, 'kautz', alg));
  try {
    return setupFaults({ links: links.join(','), routers: 'none', lanes: 'none', quiescePausePs: 0 }, g, route, kautzVcs(g.diameter), g.classNames.map(() => 8), 'kautz', true);
  } catch (e) {
    return e as Error;
  }
}

/**
 * What setup() builds, without the build's deadlock check over a sample of pairs (the test runs
 * its own): the routing with the link's fault set, refused where setupFaults would refuse it for
 * want of a route.
 */
function light(g: KautzGraph, alg: string, links: string[]): { route: BoundRoute; vcs: number; faults: { routing: FaultRouting } } | Error {
  const route = bindRoute(g, pickRouting(kautzRouting, 'kautz', alg));
  const vcs = kautzVcs(g.diameter);
  const fr = new FaultRouting(g, route, vcs, true, new KautzFaultRoutes(g, route, vcs));
  const down = downAt(parseFaults({ links: links.join(','), routers: 'none', lanes: 'none' }, g, g.classNames.map(() => 8), 0), g, 0);
  try {
    checkConnected(g, down, 'from the start');
    fr.setDown(down.ports, down.routers);
    fr.checkRoutes('from the start');
  } catch (e) {
    return e as Error;
  }
  fr.masked = 0;
  fr.detours = 0;
  return { route: fr.route, vcs: fr.vcs, faults: { routing: fr } };
}

/** The down ports of failed links `links` of g. */
function downOf(g: KautzGraph, links: string[]): Uint8Array {
  return downAt(parseFaults({ links: links.join(','), routers: 'none', lanes: 'none' }, g, g.classNames.map(() => 8), 0), g, 0).ports;
}

describe('Kautz routes around failed links (seed 002 §5, §6.3)', () => {
  // sc5832 at 36 nodes is K(3,3), at 108 nodes K(3,4): one router per node
  for (const [nodes, k] of [
    [36, 3],
    [108, 4],
  ] as const) {
    const g = buildKautz({ degree: 3, diameter: k, nodes });
    // every pair is walked on 36 nodes; on 108 a sample (every pair, both algorithms and the
    // build's own checks for every link in the long tier)
    const full = nodes === 36 || LONG;
    const stride = full ? 1 : 29;

    it(`${nodes} nodes: every single failed link is accepted, every route avoids it within k + 2 hops, the dependency graph is acyclic`, () => {
      const links = allLinks(g);
      expect(links).toHaveLength(3 * nodes);
      const problems: string[] = [];
      let longest = 0;
      let rerouted = 0;
      for (const alg of full ? ['shortest', 'multipath'] : ['shortest']) {
        for (const link of links) {
          // the machine build's own setup for some links, the same routing without its sampled check for the rest
          const s = links.indexOf(link) % 37 === 0 ? setup(g, alg, [link]) : light(g, alg, [link]);
          if (s instanceof Error || s === null) {
            problems.push(`${alg} ${link}: ${s === null ? 'no setup' : s.message}`);
            continue;
          }
          const fr = s.faults.routing;
          fr.setDown(downOf(g, [link]), new Uint8Array(g.routers));
          const w = walkAll(g, s.route, s.vcs, downOf(g, [link]), stride);
          problems.push(...w.problems.map((x) => `${alg} ${link}: ${x}`));
          longest = Math.max(longest, w.longest);
          rerouted += fr.masked + fr.detours;
          // every pair's channel dependencies: for every link on 36 nodes, for some on 108 (all in the long tier)
          if (full || links.indexOf(link) % 37 === 0) {
            const c = checkDeadlockFreedom(g, s.route, s.vcs, { salts: 2, classVcs: kautzVcs(k) });
            if (c.cycle) problems.push(`${alg} ${link}: cycle ${c.cycle.join(' -> ')}`);
          }
        }
      }
      expect(problems.slice(0, 5)).toEqual([]);
      // one failure lengthens the diameter by one hop (seed 002 §5); the VC scheme may take one more
      expect(longest).toBeGreaterThan(k);
      expect(longest).toBeLessThanOrEqual(k + 2);
      expect(rerouted).toBeGreaterThan(0);
    });

    it(`${nodes} nodes: seeded random sets of 2 or 3 failed links are accepted unless they cut nodes off, and then refused naming them`, () => {
      const sets = randomSets(g, nodes === 36 ? 40 : 12, 2024 + nodes);
      // and one that certainly cuts: every out-link of router 5
      sets.push([1, 2, 3].map((q) => `5:${q}`));
      const problems: string[] = [];
      let accepted = 0;
      let refused = 0;
      for (const set of sets) {
        const down = downOf(g, set);
        const cuts = disconnects(g, down);
        const s = setup(g, 'shortest', set);
        if (cuts) {
          refused++;
          if (!(s instanceof Error) || !/disconnect \d+ nodes?: /.test(s.message)) problems.push(`${set.join(',')}: cuts nodes off but ${s instanceof Error ? s.message : 'accepted'}`);
          continue;
        }
        if (s instanceof Error || s === null) {
          problems.push(`${set.join(',')}: ${s === null ? 'no setup' : s.message}`);
          continue;
        }
        accepted++;
        s.faults.routing.setDown(down, new Uint8Array(g.routers));
        problems.push(...walkAll(g, s.route, s.vcs, down, stride).problems.map((x) => `${set.join(',')}: ${x}`));
        const c = checkDeadlockFreedom(g, s.route, s.vcs, { salts: 2, classVcs: kautzVcs(k), ...(nodes === 36 || LONG ? {} : { maxPairs: 3000 }) });
        if (c.cycle) problems.push(`${set.join(',')}: cycle ${c.cycle.join(' -> ')}`);
      }
      expect(problems.slice(0, 5)).toEqual([]);
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(accepted).toBeGreaterThan(sets.length / 2);
      const cut = setup(g, 'shortest', [1, 2, 3].map((q) => `5:${q}`));
      expect(cut).toBeInstanceOf(Error);
      expect((cut as Error).message).toMatch(/faults \(from the start\) disconnect 1 node: 5 \(router 5\)/);
    });
  }

  for (const [N, k, set] of [
    [36, 3, ['0:1', '0:2', '1:3']],
    [108, 4, ['0:1', '5:2', '17:3']],
  ] as const) {
    it(`${N} nodes, links ${set.join(',')} failed: every pair's packets arrive at their node in order, none crosses a failed link`, () => {
      const g0 = buildKautz({ degree: 3, diameter: k, nodes: N });
      expect(disconnects(g0, downOf(g0, [...set]))).toBe(false);
      const m = buildMachine(resolveMachine(machineSpec('sc5832'), N, { 'faults.links': set.join(',') }));
      const g = m.graph;
      const pk = m.net.pkts;
      const down = downOf(g0, [...set]);
      const next = new Int32Array(N * N * 2);
      const bad: string[] = [];
      let arrived = 0;
      m.net.onHop = (p, c) => {
        if (c < g.routers * g.radix && down[c]) bad.push(`packet ${pk.src[p]} -> ${pk.dst[p]} on failed link ${Math.floor(c / g.radix)}:${c % g.radix}`);
      };
      for (let n = 0; n < N; n++) {
        m.net.attach(n, {
          deliver: (p) => {
            // order is kept per pair and VC class (requests and responses travel on VCs of their own)
            const pair = (pk.src[p]! * N + pk.dst[p]!) * 2 + pk.vcClass[p]!;
            if (pk.dst[p] !== n) bad.push(`packet for ${pk.dst[p]} delivered to ${n}`);
            if (pk.txn[p] !== next[pair]) bad.push(`pair ${pk.src[p]} -> ${n}: packet ${pk.txn[p]} arrived when ${next[pair]} was due`);
            next[pair] = pk.txn[p]! + 1;
            arrived++;
            m.net.ejectCredit(n, pk.vc[p]!, pk.phits[p]!, m.engine.now);
            pk.free(p);
          },
        });
      }
      const per = N === 36 ? 6 : 2;
      for (let i = 0; i < per; i++) {
        for (let s = 0; s < N; s++) {
          for (let d = 0; d < N; d++) {
            if (d === s) continue;
            const p = pk.alloc();
            pk.src[p] = s;
            pk.dst[p] = d;
            pk.phits[p] = 20;
            pk.vcClass[p] = i % 2;
            pk.bytes[p] = 0;
            pk.ordered[p] = 1;
            pk.txn[p] = i >> 1;
            m.net.inject(s, p);
          }
        }
      }
      m.engine.drain();
      expect(bad.slice(0, 5)).toEqual([]);
      expect(arrived).toBe(per * N * (N - 1));
      expect(m.net.faultCounters()!.masked).toBeGreaterThan(0);
    });
  }

  // every rank sends its own block to every rank directly (MPICH's scattered algorithm from 512 B: 32 partners at a time) and checks every element it receives
  for (const [nodes, links] of [
    [36, '0:1,0:2,1:3'],
    [36, '0:1@20us,7:2@20us,20:3@40us'],
    [108, '0:1,5:2,17:3'],
  ] as const) {
    const size = nodes === 36 ? ['--param', 'minBytes=512', '--param', 'maxBytes=1024', '--param', 'iterations=2'] : ['--param', 'minBytes=512', '--param', 'maxBytes=512', '--param', 'iterations=1'];
    it(`alltoall on ${nodes} sc5832 nodes with links ${links} failed: every element checked`, async () => {
      const r = await phit('run', 'alltoall', '--machine', 'sc5832', '--nodes', String(nodes), ...size, '--param', 'warmup=0', '--set', `faults.links=${links}`, '--metrics');
      const text = r.out.join('\n');
      expect(r.code, r.err.join('\n') + text).toBe(0);
      expect(text).toMatch(/^\s+512\s+\d+\s+scattered/m);
      const f = /faults: (\d+) packets detoured.* (\d+) routing choices masked/.exec(text);
      expect(f).not.toBeNull();
      expect(Number(f![1]) + Number(f![2])).toBeGreaterThan(0);
    });
  }
});
