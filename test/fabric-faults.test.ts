import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { downAt, parseFaults } from '../fabric/faults.ts';
import { buildMachine, machineSpec, resolveMachine, type Machine } from '../fabric/machine.ts';
import { FaultRouting } from '../fabric/routing/fault-routing.ts';
import { bindRoute, pickRouting } from '../fabric/routing/routing.ts';
import { torusRouting } from '../fabric/routing/torus-routing.ts';
import { buildTorus } from '../fabric/topology/torus.ts';
import { putRequestPhits } from '../fabric/nic/packet-format.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { phit } from './helpers.ts';

/** A machine of `nodes` nodes with `set` overrides. */
function machine(name: string, nodes: number, set: Record<string, string> = {}): Machine {
  return buildMachine(resolveMachine(machineSpec(name), nodes, set));
}

/**
 * `count` router-to-router links of a machine drawn with a seeded generator, as faults.links
 * items, such that every router keeps a link to each neighbour it had (no connectivity between
 * two routers lost): so adaptive routing can mask each failure.
 */
function someLinks(m: Machine, count: number, seed: number, whole = false): string[] {
  const g = m.graph;
  const rng = new Prng(seed);
  const picked = new Set<number>();
  const items: string[] = [];
  for (let tries = 0; items.length < count && tries < 10_000; tries++) {
    const gp = rng.int(g.routers * g.radix);
    const peer = g.peerRouter[gp]!;
    if (peer < 0 || picked.has(gp)) continue;
    const r = Math.floor(gp / g.radix);
    const back = peer * g.radix + g.peerPort[gp]!;
    if (!whole) {
      // keep another link to the same neighbour, or the failure cuts the pair
      let left = 0;
      for (let q = 0; q < g.radix; q++) if (g.peerRouter[r * g.radix + q] === peer && !picked.has(r * g.radix + q) && r * g.radix + q !== gp) left++;
      if (left === 0) continue;
    }
    picked.add(gp);
    picked.add(back);
    items.push(`${r}:${gp % g.radix}`);
  }
  return items;
}

/** Every link from the router of item `R:P` to the router port P leads to, as faults.links items. */
function pairLinks(m: Machine, item: string): string[] {
  const g = m.graph;
  const [r, p] = item.split(':').map(Number) as [number, number];
  const peer = g.peerRouter[r * g.radix + p]!;
  const out: string[] = [];
  for (let q = 0; q < g.radix; q++) if (g.peerRouter[r * g.radix + q] === peer) out.push(`${r}:${q}`);
  return out;
}

/** Runs halo3d and returns its simulated time (us), its check and the fault line of --metrics. */
async function halo(name: string, nodes: number, set: Record<string, string>): Promise<{ us: number; check: string; faults: string }> {
  const sets = Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const r = await phit('run', 'halo3d', '--machine', name, '--nodes', String(nodes), '--param', 'iterations=3', '--param', 'computeUs=5', '--param', 'nx=8', '--param', 'ny=8', '--param', 'nz=8', ...sets, '--metrics');
  const text = r.out.join('\n');
  expect(r.code, r.err.join('\n') + text).toBe(0);
  const us = Number(/simulated time ([\d.]+) us/.exec(text)?.[1]);
  return { us, check: /passed|FAILED|failed/.exec(text)?.[0] ?? '', faults: text.split('\n').find((l) => l.startsWith('faults:')) ?? '' };
}

describe('fault parameters: one-line errors naming the parameter and item', () => {
  const bad: [Record<string, string>, RegExp][] = [
    [{ 'faults.links': '1-2' }, /faults\.links: "1-2" is not a list of failed links; expected none, or router:port/],
    [{ 'faults.links': '999:3' }, /faults\.links: item "999:3": router 999 does not exist \(routers 0\.\.7\)/],
    [{ 'faults.links': '0:0' }, /faults\.links: item "0:0": port 0 of router 0 is a node port/],
    [{ 'faults.links': '0:2@soon' }, /faults\.links: item "0:2@soon": bad time "soon"/],
    [{ 'faults.routers': '8' }, /faults\.routers: item "8": router 8 does not exist/],
    [{ 'faults.lanes': '0:2/3' }, /faults\.lanes: item "0:2\/3": 3 lanes lost of 3: from 1 to 2/],
    [{ 'faults.quiescePause': 'long' }, /faults\.quiescePause/],
  ];
  for (const [set, re] of bad) {
    it(`refuses ${JSON.stringify(set)}`, async () => {
      const sets = Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
      const r = await phit('run', 'pingpong', '--machine', 'xe6', '--nodes', '16', ...sets);
      expect(r.code).toBe(2);
      const msg = r.err.join('\n');
      expect(msg).toMatch(re);
      expect(msg.trim().split('\n')).toHaveLength(1);
    });
  }

  it('refuses a fault set that disconnects nodes, naming them, from the start or at its time', () => {
    // router 0 of an xe6 carries nodes 0 and 1
    expect(() => machine('xe6', 16, { 'faults.routers': '0' })).toThrow(/faults \(from the start\) disconnect 2 nodes: 0 \(router 0\), 1 \(router 0\)/);
    // every link of router 3 failed 5 us into the run: its nodes 6 and 7 are cut off then
    const m = machine('xe6', 16);
    const g = m.graph;
    const all: string[] = [];
    for (let q = 0; q < g.radix; q++) if (g.peerRouter[3 * g.radix + q]! >= 0) all.push(`3:${q}@5us`);
    expect(() => machine('xe6', 16, { 'faults.links': all.join(',') })).toThrow(/faults \(from 5 us\) disconnect 2 nodes: 6 \(router 3\), 7 \(router 3\)/);
  });
});

describe('lane failures: a link serializes over the lanes left', () => {
  for (const [name, lanes, lost] of [
    ['xc30', 3, 1],
    ['xe6', 3, 2],
  ] as const) {
    it(`${name}: ${lost} of ${lanes} lanes lost, the link's busy time per packet is lanes / (lanes - lost) times the full link's`, () => {
      const runOn = (set: Record<string, string>): { busy: number; chan: number; link: number } => {
        const m = machine(name, 16, set);
        const g = m.graph;
        const pk = m.net.pkts;
        const f = m.config.nic.format;
        const full = putRequestPhits(f, f.maxPayloadBytes);
        m.net.enableMetrics();
        // node 0's router to the next router that carries nodes, one link of the pair used
        const src = 0;
        const r0 = g.nodeRouter[src]!;
        let dst = -1;
        for (let n = 0; n < g.nodes && dst < 0; n++) {
          const r = g.nodeRouter[n]!;
          for (let q = 0; q < g.radix && dst < 0; q++) if (g.peerRouter[r0 * g.radix + q] === r && r !== r0) dst = n;
        }
        let chan = -1;
        m.net.onHop = (_p, c) => {
          if (c < g.routers * g.radix && g.peerRouter[c]! >= 0) chan = c;
        };
        m.net.attach(dst, { deliver: (p) => m.net.ejectCredit(dst, pk.vc[p]!, pk.phits[p]!, m.engine.now) });
        const n = 50;
        for (let i = 0; i < n; i++) {
          const p = pk.alloc();
          pk.src[p] = src;
          pk.dst[p] = dst;
          pk.phits[p] = full;
          pk.vcClass[p] = 0;
          pk.bytes[p] = 0;
          pk.ordered[p] = 1;
          m.net.inject(src, p);
        }
        m.engine.drain();
        const c = m.net.metricsCounters();
        const link = m.net.params.links[g.portClass[chan]!]!;
        return { busy: c.busyPs[chan]!, chan, link: n * (full + link.overheadPhits) * link.phitPs };
      };
      const clean = runOn({});
      expect(clean.busy).toBeCloseTo(clean.link, 0);
      const g = machine(name, 16).graph;
      const item = `${Math.floor(clean.chan / g.radix)}:${clean.chan % g.radix}/${lost}`;
      const degraded = runOn({ 'faults.lanes': item });
      expect(degraded.chan).toBe(clean.chan);
      // the arithmetic: the same phits over (lanes - lost) of `lanes` lanes
      expect(degraded.busy).toBeCloseTo((clean.link * lanes) / (lanes - lost), 0);
    });
  }
});

describe('link failures on every machine: data checks pass, time is no shorter, reroutes are counted', () => {
  // Kautz: one link, as a digraph leaves few detours on 12 routers
  const cases: [string, number, number][] = [
    ['xt4', 16, 3],
    ['xe6', 16, 3],
    ['xc30', 16, 3],
    ['sc5832', 12, 1],
    ['bw', 64, 3],
  ];
  for (const [name, nodes, count] of cases) {
    it(`${name}: a few failed links from the start, and one failing mid-run`, async () => {
      const base = await halo(name, nodes, {});
      expect(base.check).toBe('passed');
      const m = machine(name, nodes);
      // links drawn until the routing accepts them (a Kautz digraph has no detour for some sets)
      let links: string[] = [];
      for (let seed = 11; seed < 40 && links.length === 0; seed++) {
        links = someLinks(m, count, seed, true);
        try {
          machine(name, nodes, { 'faults.links': links.join(',') });
        } catch {
          links = [];
        }
      }
      expect(links.length).toBe(count);
      const fixed = await halo(name, nodes, { 'faults.links': links.join(',') });
      expect(fixed.check).toBe('passed');
      expect(fixed.us).toBeGreaterThanOrEqual(base.us * 0.999);
      expect(fixed.faults).toMatch(/^faults: \d+ packets detoured/);
      const [d, mk] = /(\d+) packets detoured.* (\d+) routing choices/.exec(fixed.faults)!.slice(1).map(Number);
      expect(d! + mk!).toBeGreaterThan(0);
      // every link between two routers fails 10 us into the run, unless that cuts nodes off (then one link)
      const pair = pairLinks(m, links[0]!).map((x) => `${x}@10us`);
      let cuts = false;
      try {
        machine(name, nodes, { 'faults.links': pair.join(',') });
      } catch {
        cuts = true;
      }
      const mid = await halo(name, nodes, { 'faults.links': cuts ? `${links[0]!}@10us` : pair.join(',') });
      expect(mid.check).toBe('passed');
      expect(mid.us).toBeGreaterThanOrEqual(base.us * 0.999);
      if (!cuts) {
        // connectivity between the two routers is lost: the network pauses faults.quiescePause (10 ms) to compute new routes
        expect(mid.faults).toMatch(/ 1 network pauses to compute new routes \(10000 us\)/);
        expect(mid.us).toBeGreaterThan(base.us + 10_000 * 0.999);
      }
    });
  }
});

describe('router failures', () => {
  it('xc30: routers 5 (from the start) and 6 (at 20 us), which carry no nodes on 16 nodes, fail: data checked, one pause for the cut links of router 6', async () => {
    const base = await halo('xc30', 16, {});
    const r = await halo('xc30', 16, { 'faults.routers': '5,6@20us' });
    expect(r.check).toBe('passed');
    expect(r.faults).toMatch(/ 1 network pauses to compute new routes \(10000 us\)/);
    expect(r.us).toBeGreaterThan(base.us + 10_000 * 0.999);
  });
});

describe('detours keep the channel dependency graph acyclic', () => {
  it('dimension order on a 4x4 torus with every +x link of a column failed: packets detour on escape VCs and the graph has no cycle', () => {
    const g = buildTorus({ dims: [4, 4], links: [1, 1], nodesPerRouter: 1 });
    const route = bindRoute(g, pickRouting(torusRouting, 'torus', 'dor'));
    const vcs = torusRouting.vcs;
    // the x+ link of every router in column x = 1 (port numbers read off the graph)
    const items: string[] = [];
    for (let r = 0; r < g.routers; r++) {
      if (g.coords[2 * r] !== 1) continue;
      for (let q = 0; q < g.radix; q++) if (g.peerRouter[r * g.radix + q] === r + 1) items.push(`${r}:${q}`);
    }
    expect(items).toHaveLength(4);
    const f = parseFaults({ links: items.join(','), routers: 'none', lanes: 'none' }, g, g.classNames.map(() => 1), 0);
    const down = downAt(f, g, 0);
    const fr = new FaultRouting(g, route, vcs);
    fr.setDown(down.ports, down.routers);
    const check = checkDeadlockFreedom(g, fr.route, fr.vcs, { salts: 2, classVcs: vcs });
    expect(check.cycle).toBeNull();
    expect(fr.detours).toBeGreaterThan(0);
    // the escape VCs carry the detours: channels on VC vcs and vcs + 1 are in the graph
    expect(check.channels).toBeGreaterThan(checkDeadlockFreedom(g, route, vcs, { salts: 2 }).channels);
  });
});

describe('a mid-run cut shows in the timeline', () => {
  it('xe6: every link between routers 0 and 1 failing at 10 us is a 10 ms "quiesce" span of the network process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'phit-faults-'));
    try {
      const m = machine('xe6', 16);
      const g = m.graph;
      const items: string[] = [];
      for (let q = 0; q < g.radix; q++) if (g.peerRouter[q] === 1) items.push(`0:${q}@10us`);
      const file = join(dir, 't.json');
      const r = await phit('run', 'halo3d', '--machine', 'xe6', '--nodes', '16', '--param', 'iterations=2', '--param', 'computeUs=5', '--set', `faults.links=${items.join(',')}`, '--trace', file);
      expect(r.code, r.err.join('\n')).toBe(0);
      const trace = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: { name: string; ts: number; dur?: number; pid: number }[] };
      const spans = trace.traceEvents.filter((e) => e.name.startsWith('quiesce'));
      expect(spans).toEqual([expect.objectContaining({ ts: 10, dur: 10_000, pid: 16 })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
