/**
 * SeaStar table-driven routing against seed 000_33d619e66e39f877.txt: the hierarchical GLUT/LUT
 * tables per input port (S8) and the deadlock and fault rules (S9).
 */
import { describe, expect, it } from 'vitest';
import { checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { Engine } from '../fabric/engine/engine.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { Network, type LinkParams } from '../fabric/network.ts';
import { PacketPool } from '../fabric/packet.ts';
import { bindRoute, type LoadView, type RouteChoice, type RouteFn } from '../fabric/routing/routing.ts';
import { brokenLinkName, parseBrokenLinks, SEASTAR_VCS, seastarEntryName, seastarTableRoute, withBrokenLinks, type BrokenLink } from '../fabric/routing/seastar-routing.ts';
import { SEASTAR_EJECT, SEASTAR_PROCESSOR_PORT } from '../fabric/routing/seastar-rules.ts';
import { buildSeastarTables, SEASTAR_STORE_LIMIT, type SeastarTables } from '../fabric/routing/seastar-tables.ts';
import { torusDor } from '../fabric/routing/torus-routing.ts';
import { PORT_UNUSED, routerDistances } from '../fabric/topology/port-graph.ts';
import { buildTorus, torusDistance, type TorusConfig, type TorusGraph } from '../fabric/topology/torus.ts';
import { injectPacket, walkTorus, type TorusHop } from './helpers.ts';

const IDLE: LoadView = { groupLoad: () => 0 };
const PROC = SEASTAR_PROCESSOR_PORT;

/** Walks a packet as the network does (see helpers.ts), on an idle network. */
const walk = (g: TorusGraph, route: RouteFn<TorusGraph>, pool: PacketPool, src: number, dst: number, cls: number): { hops: TorusHop[]; eject: TorusHop } =>
  walkTorus(g, route, pool, src, dst, cls, IDLE);

/** Direction (0..5: x+ x- y+ y- z+ z-) of local port `port`. */
function dirOf(g: TorusGraph, port: number): number {
  for (let q = 0; q < 6; q++) if (port >= g.groupPort[q]! && port < g.groupPort[q]! + g.links[q >> 1]!) return q;
  return -1;
}

/** Router id of coordinates "x.y.z". */
function rid(g: TorusGraph, xyz: string): number {
  const [x, y, z] = xyz.split('.').map(Number);
  return x! + g.dims[0]! * (y! + g.dims[1]! * z!);
}

/** First node of router r. */
function nodeOf(g: TorusGraph, r: number): number {
  for (let n = 0; n < g.nodes; n++) if (g.nodeRouter[n] === r) return n;
  throw new Error(`router ${r} has no node`);
}

/** Global port ids (both ends) of the broken links, from the fault-free graph. */
function brokenPorts(g: TorusGraph, broken: readonly BrokenLink[]): Set<number> {
  const s = new Set<number>();
  for (const b of broken) {
    const gp = b.router * g.radix + g.groupPort[2 * b.dim + b.dir]!;
    for (let l = 0; l < g.links[b.dim]!; l++) {
      s.add(gp + l);
      s.add(g.peerRouter[gp + l]! * g.radix + g.peerPort[gp + l]!);
    }
  }
  return s;
}

/**
 * Every node pair, both classes, under the table route of `t` on its faulty graph: delivered at
 * the right node port, never a 180-degree turn (out by the port it came in on), never over a
 * broken link, VCs within the class. Returns how many routes differ from the fault-free ones.
 */
function checkAllRoutes(g: TorusGraph, t: SeastarTables, broken: readonly BrokenLink[]): { changed: number; routes: number } {
  const fg = t.graph;
  const route = seastarTableRoute(t);
  const free = seastarTableRoute(buildSeastarTables(g, []));
  const bad = brokenPorts(g, broken);
  const pool = new PacketPool(8, 4);
  const errors: string[] = [];
  let changed = 0;
  let routes = 0;
  for (const cls of [0, 1]) {
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        const { hops, eject } = walk(fg, route, pool, s, d, cls);
        if (eject.router !== g.nodeRouter[d] || eject.port !== g.nodePort[d] || eject.vc !== 2 * cls) errors.push(`${s} -> ${d}: ejected at router ${eject.router} port ${eject.port} vc ${eject.vc}`);
        for (const h of hops) {
          if (h.port === h.inPort) errors.push(`${s} -> ${d}: 180-degree turn at router ${h.router}`);
          if (bad.has(h.router * g.radix + h.port)) errors.push(`${s} -> ${d}: broken link used at router ${h.router}`);
          if (h.vc >> 1 !== cls) errors.push(`${s} -> ${d}: vc ${h.vc} outside class ${cls}`);
        }
        if (cls === 0) {
          const ref = walk(g, free, pool, s, d, cls).hops;
          if (ref.length !== hops.length || ref.some((h, i) => h.router !== hops[i]!.router || h.port !== hops[i]!.port)) changed++;
        }
        routes++;
      }
    }
  }
  expect(errors.slice(0, 5)).toEqual([]);
  return { changed, routes };
}

describe('SeaStar tables without faults: dimension order x, y, z (seed 000, S8, S9)', () => {
  const shapes: { name: string; cfg: TorusConfig }[] = [
    { name: 'torus 4x4x4', cfg: { dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1 } },
    { name: 'torus 8x4x2', cfg: { dims: [8, 4, 2], links: [1, 1, 1], nodesPerRouter: 1 } },
    { name: '4x3x4 with a Y mesh', cfg: { dims: [4, 3, 4], links: [1, 1, 1], wrap: [true, false, true], nodesPerRouter: 1 } },
    { name: '1x1x1', cfg: { dims: [1, 1, 1], links: [1, 1, 1], nodesPerRouter: 1 } },
    { name: '2x2x2', cfg: { dims: [2, 2, 2], links: [1, 1, 1], nodesPerRouter: 1 } },
    { name: '5x3x2, parallel links, 2 nodes per router, 25 nodes', cfg: { dims: [5, 3, 2], links: [2, 1, 3], nodesPerRouter: 2, nodes: 25 } },
  ];

  it.each(shapes)('$name: the table route equals torusDor hop by hop (port, group, VC) and is minimal', ({ cfg }) => {
    const g = buildTorus(cfg);
    const t = buildSeastarTables(g, []);
    expect(t.stored).toBe(true);
    expect(t.partitions).toBe(1);
    expect(t.datelines).toEqual(g.dims.map((k, d) => (g.wrap[d] && k > 1 ? k - 1 : -1))); // the wraparound links
    const route = seastarTableRoute(t);
    const pool = new PacketPool(8, 4);
    for (const cls of [0, 1]) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          const a = walk(t.graph, route, pool, s, d, cls);
          const b = walk(g, torusDor, pool, s, d, cls);
          const strip = (h: TorusHop): number[] => [h.router, h.port, h.count, h.vc];
          expect(a.hops.map(strip), `${s} -> ${d}`).toEqual(b.hops.map(strip));
          expect(strip(a.eject)).toEqual(strip(b.eject));
          expect(a.hops.length).toBe(torusDistance(g, g.nodeRouter[s]!, g.nodeRouter[d]!));
        }
      }
    }
  });

  it('has 4 VCs (S2) and stores the tables of small systems: 7 per router, 8 GLUT + min(nodes, 4096) LUT entries', () => {
    expect(SEASTAR_VCS).toBe(4);
    const g = buildTorus({ dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1 });
    const t = buildSeastarTables(g, []);
    expect(t.lutSize).toBe(64);
    expect(64 * 7 * (8 + 64)).toBeLessThan(SEASTAR_STORE_LIMIT);
    // NIDs: x slowest, then y, then z
    expect(t.nodeNid[rid(g, '1.0.0')]).toBe(16);
    expect(t.nodeNid[rid(g, '0.1.0')]).toBe(4);
    expect(t.nodeNid[rid(g, '0.0.1')]).toBe(1);
    // every router ejects its own nodes from every input
    for (let r = 0; r < g.routers; r++) for (let i = 0; i < 7; i++) expect(t.entry(r, i, t.nodeNid[r]!)).toBe(SEASTAR_EJECT);
  });
});

describe('hierarchical lookup over 4096 nodes: 16x16x17, two global partitions (seed 000, S8)', () => {
  const g = buildTorus({ dims: [16, 16, 17], links: [1, 1, 1], nodesPerRouter: 1 });
  const t = buildSeastarTables(g, []);
  const route = seastarTableRoute(t);
  const X = 16;
  const xOf = (r: number): number => g.coords[r * 3]!;

  it('splits the NIDs with yz planes: 15 planes (4080 NIDs) in partition 0, plane x = 15 in partition 1; tables too big to store', () => {
    expect(t.partitions).toBe(2);
    expect(t.planesPerPartition).toBe(15);
    expect(t.lutSize).toBe(15 * 16 * 17);
    expect(t.stored).toBe(false);
    expect(g.routers * 7 * (8 + 4096)).toBeGreaterThan(SEASTAR_STORE_LIMIT);
    const seen = new Set<number>();
    for (let n = 0; n < g.nodes; n++) {
      const r = g.nodeRouter[n]!;
      const nid = t.nodeNid[n]!;
      expect(nid).toBeLessThan(1 << 15);
      expect(nid >>> 12).toBe(xOf(r) < 15 ? 0 : 1);
      expect(t.routerPartition[r]).toBe(nid >>> 12);
      seen.add(nid);
    }
    expect(seen.size).toBe(g.nodes);
    expect(t.nodeNid[rid(g, '15.0.0')]).toBe(4096); // partition 1 starts a new 4K block
  });

  it('destinations in another partition take the GLUT entry, which moves in X; own-partition entries equal torusDor', () => {
    const rng = new Prng(5);
    const pool = new PacketPool(8, 4);
    let global = 0;
    let local = 0;
    for (let k = 0; k < 4000; k++) {
      const r = rng.int(g.routers);
      const d = rng.int(g.nodes);
      const nid = t.nodeNid[d]!;
      const e = t.entry(r, PROC, nid);
      const p = pool.alloc();
      pool.dst[p] = d;
      pool.vcClass[p] = 0;
      pool.at[p] = r * g.radix;
      const out: RouteChoice = { port: 0, count: 0, vc: 0 };
      torusDor(g, r, pool, p, out, { groupLoad: () => 0 });
      pool.free(p);
      const dor = out.port < g.nodesPerRouter ? SEASTAR_EJECT : dirOf(g, out.port);
      if (nid >>> 12 !== t.routerPartition[r]) {
        global++;
        expect(e).toBe(t.globalEntry(r, PROC, nid >>> 12));
        expect(e === 0 || e === 1, `GLUT entry ${seastarEntryName(e)} at router ${r}`).toBe(true);
        if (nid >>> 12 === 1) expect(e).toBe(dor); // a one-plane partition: the GLUT direction is the shortest way
        else expect(e).toBe(0); // from x = 15 both edges of partition 0 are one hop away: ties go +
      } else {
        local++;
        expect(e).toBe(t.localEntry(r, PROC, nid & 4095));
        expect(e, `router ${r} to node ${d}`).toBe(dor);
      }
    }
    expect(global).toBeGreaterThan(100);
    expect(local).toBeGreaterThan(1000);
  });

  it('routes within partition 0 stay minimal, even across plane x = 15 by the GLUT; every sampled pair is delivered', () => {
    const pool = new PacketPool(8, 4);
    // x = 0 to x = 14 is two hops the short way, through partition 1
    const a = walk(t.graph, route, pool, nodeOf(g, rid(g, '0.3.4')), nodeOf(g, rid(g, '14.3.4')), 0);
    expect(a.hops.map((h) => xOf(h.router))).toEqual([0, 15]);
    const rng = new Prng(9);
    for (let k = 0; k < 3000; k++) {
      const s = rng.int(g.nodes);
      const d = rng.int(g.nodes);
      const { hops, eject } = walk(t.graph, route, pool, s, d, k & 1);
      expect(eject.router).toBe(g.nodeRouter[d]);
      for (const h of hops) expect(h.port).not.toBe(h.inPort);
      const dist = torusDistance(g, g.nodeRouter[s]!, g.nodeRouter[d]!);
      if (t.nodeNid[s]! >>> 12 === 0 && t.nodeNid[d]! >>> 12 === 0) expect(hops.length).toBe(dist);
      else expect(hops.length).toBeLessThan(dist + X);
    }
  });

  it('is deadlock-free on a sample of pairs (4 VCs)', () => {
    const r = checkDeadlockFreedom(t.graph, bindRoute(t.graph, route), SEASTAR_VCS, { maxPairs: 2500, salts: 1 });
    expect(r.cycle).toBeNull();
    expect(r.routes).toBeGreaterThan(4000);
  });
});

/** Fault cases on a 4x4x4 torus: the seed's rule, where it applies, as an expected table entry. */
const FAULTS: { name: string; broken: string; expect?: { at: string; from?: number; to: string; entry: string }[]; datelines?: number[] }[] = [
  { name: 'a broken x+ link: y+ instead', broken: 'x+@1.1.1', expect: [{ at: '1.1.1', to: '2.1.1', entry: 'y+' }] },
  { name: 'a broken x- link: y+ instead', broken: 'x-@2.1.1', expect: [{ at: '2.1.1', to: '1.1.1', entry: 'y+' }] },
  { name: 'broken x+ and y+ links: z+ instead', broken: 'x+@1.1.1,y+@1.1.1', expect: [{ at: '1.1.1', to: '2.1.1', entry: 'z+' }] },
  { name: 'a broken y+ link: z+ instead', broken: 'y+@1.1.1', expect: [{ at: '1.1.1', to: '1.2.1', entry: 'z+' }] },
  { name: 'a broken y- link: z+ instead', broken: 'y-@1.2.1', expect: [{ at: '1.2.1', to: '1.1.1', entry: 'z+' }] },
  {
    name: 'broken y+ and z+ links: the opposite Y direction, and the node behind looks ahead against the 180-degree turn',
    broken: 'y+@1.1.1,z+@1.1.1',
    expect: [
      { at: '1.1.1', to: '1.2.1', entry: 'y-' },
      { at: '1.0.1', to: '1.2.1', entry: 'z+' },
    ],
  },
  {
    name: 'a broken z+ link: y+ instead, and the y+ node turns to z+ rather than straight back (Y lookahead)',
    broken: 'z+@1.1.1',
    expect: [
      { at: '1.1.1', to: '1.1.2', entry: 'y+' },
      { at: '1.2.1', from: 3, to: '1.1.2', entry: 'z+' },
      { at: '1.2.1', to: '1.1.2', entry: 'z+' }, // a packet starting there too: its default y- leads to the broken z+
    ],
  },
  { name: 'a broken z- link on the z- path: forced z+, the long way round', broken: 'z-@1.1.2', expect: [{ at: '1.1.3', to: '1.1.1', entry: 'z+' }] },
  { name: 'a column of missing X links (service nodes)', broken: 'x+@1.0.0,x+@1.1.0,x+@1.2.0,x+@1.3.0', expect: [{ at: '1.2.0', to: '3.2.0', entry: 'y+' }] },
  {
    name: 'a broken X link at y = Ymax, z = Zmax: the Y and Z datelines move off that row',
    broken: 'x+@1.3.3',
    datelines: [3, 2, 2],
    expect: [{ at: '1.3.3', to: '2.3.3', entry: 'y+' }],
  },
  { name: 'two faults together', broken: 'x-@2.2.2,z-@1.3.2', expect: [{ at: '2.2.2', to: '1.2.2', entry: 'y+' }] },
];

describe('fault rules on a 4x4x4 torus (seed 000, S9)', () => {
  const g = buildTorus({ dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1 });

  it.each(FAULTS)('$name', ({ broken: text, expect: entries, datelines }) => {
    const broken = parseBrokenLinks(text, g);
    const t = buildSeastarTables(g, broken);
    if (datelines) expect(t.datelines).toEqual(datelines);
    for (const e of entries ?? []) {
      const at = rid(g, e.at);
      expect(seastarEntryName(t.entryForRouter(at, e.from ?? PROC, rid(g, e.to))), `at ${e.at} for ${e.to}`).toBe(e.entry);
    }
    const { changed, routes } = checkAllRoutes(g, t, broken);
    expect(routes).toBe(2 * 64 * 64);
    expect(changed, 'routes changed by the faults').toBeGreaterThan(0);
    const dl = checkDeadlockFreedom(t.graph, bindRoute(t.graph, seastarTableRoute(t)), SEASTAR_VCS, { salts: 2 });
    expect(dl.cycle).toBeNull();
    expect(dl.routes).toBe(64 * 64 * 2 * 2);
  });

  it('the next node would box the packet in (a service router with x+, y+, z+ broken): an early detour toward z+', () => {
    // nodes on routers 0..21 only: router 22 = 2.1.1 hosts none, so only passing packets meet its faults
    const h = buildTorus({ dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1, nodes: 22 });
    const broken = parseBrokenLinks('x+@2.1.1,y+@2.1.1,z+@2.1.1', h);
    const t = buildSeastarTables(h, broken);
    expect(seastarEntryName(t.entryForRouter(rid(h, '1.1.1'), PROC, rid(h, '3.1.0')))).toBe('z+');
    expect(seastarEntryName(t.entryForRouter(rid(h, '1.1.1'), PROC, rid(h, '2.1.0')))).toBe('x+'); // X ends at 2.1.1: no box
    expect(checkAllRoutes(h, t, broken).changed).toBeGreaterThan(0);
    expect(checkDeadlockFreedom(t.graph, bindRoute(t.graph, seastarTableRoute(t)), SEASTAR_VCS).cycle).toBeNull();
    // with a node on that router its own packets for x+ have no way out
    expect(() => buildSeastarTables(g, parseBrokenLinks('x+@2.1.1,y+@2.1.1,z+@2.1.1', g))).toThrow(/x\+@2\.1\.1, y\+@2\.1\.1, z\+@2\.1\.1 leave no route from router 2\.1\.1/);
  });

  it('a broken z- link: the detour is three hops the long way (z = 2 -> 3 -> 0 -> 1)', () => {
    const t = buildSeastarTables(g, parseBrokenLinks('z-@1.1.2', g));
    const { hops } = walk(t.graph, seastarTableRoute(t), new PacketPool(8, 4), nodeOf(g, rid(g, '1.1.2')), nodeOf(g, rid(g, '1.1.1')), 0);
    expect(hops.map((h) => g.coords[h.router * 3 + 2])).toEqual([2, 3, 0]);
  });
});

describe('faults on other shapes (seed 000, S9)', () => {
  const cases: { name: string; cfg: TorusConfig; broken: string }[] = [
    { name: 'torus 8x4x2', cfg: { dims: [8, 4, 2], links: [1, 1, 1], nodesPerRouter: 1 }, broken: 'x+@3.1.0,y-@5.2.1,z+@6.0.0' },
    { name: '4x3x4 with a Y mesh', cfg: { dims: [4, 3, 4], links: [1, 1, 1], wrap: [true, false, true], nodesPerRouter: 1 }, broken: 'y+@1.1.1,x-@2.2.3,z-@3.0.2' },
    { name: '6x4x4, 64 nodes per router: two partitions', cfg: { dims: [6, 4, 4], links: [1, 1, 1], nodesPerRouter: 64 }, broken: 'x+@3.1.1,x-@4.2.2,y+@5.0.3' },
  ];

  it.each(cases)('$name: every router pair delivered, no 180-degree turn, no broken link, no dependency cycle', ({ cfg, broken: text }) => {
    const g = buildTorus(cfg);
    const broken = parseBrokenLinks(text, g);
    const t = buildSeastarTables(g, broken);
    const route = seastarTableRoute(t);
    const bad = brokenPorts(g, broken);
    const pool = new PacketPool(8, 4);
    for (let a = 0; a < g.routers; a++) {
      for (let b = 0; b < g.routers; b++) {
        const src = a * g.nodesPerRouter;
        const dst = b * g.nodesPerRouter + g.nodesPerRouter - 1;
        const { hops, eject } = walk(t.graph, route, pool, src, dst, 0);
        expect(eject.router).toBe(b);
        for (const h of hops) {
          expect(h.port).not.toBe(h.inPort);
          expect(bad.has(h.router * g.radix + h.port)).toBe(false);
        }
      }
    }
    expect(checkDeadlockFreedom(t.graph, bindRoute(t.graph, route), SEASTAR_VCS, { salts: 1 }).cycle).toBeNull();
  });
});

describe('random fault sets (seed 000, S9)', () => {
  it('each set either routes every pair without a dependency cycle or is refused naming its links; both checks agree', () => {
    const rng = new Prng(2024);
    const shapes: TorusConfig[] = [
      { dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1 },
      { dims: [5, 4, 3], links: [1, 2, 1], nodesPerRouter: 1 },
      { dims: [4, 3, 4], links: [1, 1, 1], wrap: [true, false, true], nodesPerRouter: 1 },
    ];
    let accepted = 0;
    let total = 0;
    for (const cfg of shapes) {
      const g = buildTorus(cfg);
      const links: BrokenLink[] = [];
      for (let r = 0; r < g.routers; r++) {
        for (let d = 0; d < 3; d++) for (const dir of [0, 1] as const) if (g.peerRouter[r * g.radix + g.groupPort[2 * d + dir]!]! >= 0) links.push({ router: r, dim: d, dir });
      }
      for (let k = 0; k < 12; k++) {
        const broken = Array.from({ length: 1 + rng.int(3) }, () => links[rng.int(links.length)]!);
        const names = broken.map((b) => brokenLinkName(g, b));
        total++;
        let t: SeastarTables | null = null;
        let refusal = '';
        try {
          t = buildSeastarTables(g, broken, { check: 'all' });
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
          refusal = (e as Error).message;
          expect(names.some((n) => refusal.includes(n)), refusal).toBe(true);
        }
        const near = (): SeastarTables => buildSeastarTables(g, broken, { check: 'near-faults', store: false });
        if (!t) {
          expect(near).toThrow(RangeError);
          continue;
        }
        expect(near).not.toThrow();
        accepted++;
        checkAllRoutes(g, t, broken);
        expect(checkDeadlockFreedom(t.graph, bindRoute(t.graph, seastarTableRoute(t)), SEASTAR_VCS, { salts: 1 }).cycle, names.join(',')).toBeNull();
      }
    }
    expect(accepted).toBeGreaterThan(0.7 * total);
  });
});

describe('stored tables and tables computed per lookup (seed 000, S8)', () => {
  it('give identical entries and routes on a 4x4x4 torus with faults', () => {
    const g = buildTorus({ dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1 });
    const broken = parseBrokenLinks('x+@1.1.1,z-@2.1.3,y+@3.3.0', g);
    const a = buildSeastarTables(g, broken, { store: true });
    const b = buildSeastarTables(g, broken, { store: false });
    expect(a.stored).toBe(true);
    expect(b.stored).toBe(false);
    for (let r = 0; r < g.routers; r++) {
      for (let i = 0; i < 7; i++) for (let n = 0; n < g.nodes; n++) expect(a.entry(r, i, a.nodeNid[n]!)).toBe(b.entry(r, i, b.nodeNid[n]!));
    }
    const pool = new PacketPool(8, 4);
    const ra = seastarTableRoute(a);
    const rb = seastarTableRoute(b);
    for (let s = 0; s < g.nodes; s++) for (let d = 0; d < g.nodes; d++) expect(walk(a.graph, ra, pool, s, d, 1)).toEqual(walk(b.graph, rb, pool, s, d, 1));
  });

  it('give identical GLUT and LUT entries with two partitions (6x4x4, 64 nodes per router)', () => {
    const g = buildTorus({ dims: [6, 4, 4], links: [1, 1, 1], nodesPerRouter: 64 });
    const broken = parseBrokenLinks('x+@3.1.1,y-@4.2.2', g);
    const a = buildSeastarTables(g, broken, { store: true });
    const b = buildSeastarTables(g, broken, { store: false });
    expect(a.partitions).toBe(2);
    for (let r = 0; r < g.routers; r++) {
      for (let i = 0; i < 7; i++) {
        for (let p = 0; p < 8; p++) expect(a.globalEntry(r, i, p)).toBe(b.globalEntry(r, i, p));
        for (let j = 0; j < a.lutSize; j += 61) expect(a.localEntry(r, i, j)).toBe(b.localEntry(r, i, j));
      }
    }
  });
});

describe('the network delivers every packet over the fault-routed torus', () => {
  it('4x4x4 with two broken links: all-to-all, every packet arrives, hop count as the table routes', () => {
    const g = buildTorus({ dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1 });
    const t = buildSeastarTables(g, parseBrokenLinks('x+@1.1.1,z-@2.1.3', g));
    const engine = new Engine(1);
    const pool = new PacketPool(64);
    const link: LinkParams = { phitPs: 100, latencyPs: 5000, overheadPhits: 1 };
    const net = new Network(
      engine,
      t.graph,
      bindRoute(t.graph, seastarTableRoute(t)),
      {
        vcs: SEASTAR_VCS,
        routerLatencyPs: 50_000,
        links: t.graph.classNames.map(() => link),
        injectPhitPs: 100,
        injectLatencyPs: 1000,
        ejectPhitPs: 100,
        ejectLatencyPs: 1000,
        inputBufferPhits: 96,
        ejectBufferPhits: 96,
        injectBufferPhits: 96,
      },
      pool,
    );
    let delivered = 0;
    for (let n = 0; n < g.nodes; n++) {
      net.attach(n, {
        deliver(p: number): void {
          expect(pool.dst[p]).toBe(n);
          delivered++;
          net.ejectCredit(n, pool.vc[p]!, pool.phits[p]!, engine.now);
          pool.free(p);
        },
      });
    }
    let expectedHops = 0;
    const walker = new PacketPool(8, 4);
    const route = seastarTableRoute(t);
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        if (s === d) continue;
        expectedHops += walk(t.graph, route, walker, s, d, 0).hops.length;
        injectPacket(net, s, d, 9);
      }
    }
    engine.drain();
    expect(delivered).toBe(64 * 63);
    expect(net.linkHops).toBe(expectedHops);
  });
});

describe('bad input', () => {
  const g = buildTorus({ dims: [4, 4, 4], links: [1, 1, 1], nodesPerRouter: 1 });

  it('parses "none" and link lists; both ends of a broken link are unwired in a copy of the graph', () => {
    expect(parseBrokenLinks('none', g)).toEqual([]);
    const b = parseBrokenLinks(' x+@1.2.3 , y-@0.0.0', g);
    expect(b).toEqual([
      { router: rid(g, '1.2.3'), dim: 0, dir: 0 },
      { router: 0, dim: 1, dir: 1 },
    ]);
    expect(b.map((l) => brokenLinkName(g, l))).toEqual(['x+@1.2.3', 'y-@0.0.0']);
    const f = withBrokenLinks(g, b);
    const here = rid(g, '1.2.3') * g.radix + g.groupPort[0]!;
    const there = rid(g, '2.2.3') * g.radix + g.groupPort[1]!;
    for (const q of [here, there]) {
      expect(f.peerRouter[q]).toBe(-1);
      expect(f.portClass[q]).toBe(PORT_UNUSED);
      expect(g.peerRouter[q]).toBeGreaterThanOrEqual(0); // the original is untouched
    }
    expect(routerDistances(f, rid(g, '1.2.3'))[rid(g, '2.2.3')]).toBe(3);
  });

  it('rejects unparseable text, a link outside the torus and a link a mesh does not have, naming the item', () => {
    expect(() => parseBrokenLinks('x+1.2.3', g)).toThrow(/broken link "x\+1\.2\.3": expected none or/);
    expect(() => parseBrokenLinks('', g)).toThrow(RangeError);
    expect(() => parseBrokenLinks('q+@1.2.3', g)).toThrow(/broken link "q\+@1\.2\.3": dimension "q"/);
    expect(() => parseBrokenLinks('x+@1.2', g)).toThrow(/broken link "x\+@1\.2": expected 3 coordinates/);
    expect(() => parseBrokenLinks('x+@0.0.0,z-@1.4.0', g)).toThrow(/broken link "z-@1\.4\.0": coordinate y = 4 is outside the torus \(0\.\.3\)/);
    const mesh = buildTorus({ dims: [4, 3, 4], links: [1, 1, 1], wrap: [true, false, true], nodesPerRouter: 1 });
    expect(() => parseBrokenLinks('y+@1.2.0', mesh)).toThrow(/broken link "y\+@1\.2\.0": router 1\.2\.0 has no y\+ link/);
    expect(() => withBrokenLinks(g, [{ router: 64, dim: 0, dir: 0 }])).toThrow(/router 64 is outside the torus/);
    expect(() => buildSeastarTables(g, [{ router: 0, dim: 3, dir: 0 }])).toThrow(/dimension 3 is not one of 0\.\.2/);
  });

  it('rejects a fault set that isolates a router, naming the router and its links', () => {
    const text = 'x+@1.1.1,x-@1.1.1,y+@1.1.1,y-@1.1.1,z+@1.1.1,z-@1.1.1';
    expect(() => buildSeastarTables(g, parseBrokenLinks(text, g))).toThrow(/broken links x\+@1\.1\.1, x-@1\.1\.1, y\+@1\.1\.1, y-@1\.1\.1, z\+@1\.1\.1, z-@1\.1\.1 isolate router 1\.1\.1/);
  });

  it('rejects a fault set that leaves a destination unreachable under the rules, naming the broken link', () => {
    // in a Z mesh there is no long way round: z- is the last direction a route may take
    const mesh = buildTorus({ dims: [3, 3, 3], links: [1, 1, 1], wrap: [false, false, false], nodesPerRouter: 1 });
    expect(() => buildSeastarTables(mesh, parseBrokenLinks('z+@1.1.0', mesh))).toThrow(/broken links .*z\+@1\.1\.0.* leave no route from router .* to node \d+ \(router 1\.1\.0\)/);
    // the check that walks only from entries the faults change finds it too
    expect(() => buildSeastarTables(mesh, parseBrokenLinks('z+@1.1.0', mesh), { check: 'near-faults' })).toThrow(RangeError);
  });

  it('rejects graphs the 15-bit NIDs cannot address, and graphs that are not 3-D', () => {
    expect(() => buildSeastarTables(buildTorus({ dims: [40, 32, 32], links: [1, 1, 1], nodesPerRouter: 1 }), [])).toThrow(/need 10 partitions of 4 planes; 15-bit NIDs have 8/);
    expect(() => buildSeastarTables(buildTorus({ dims: [2, 80, 60], links: [1, 1, 1], nodesPerRouter: 1 }), [])).toThrow(/yz plane of 80x60 routers .* 4800 NIDs/);
    expect(() => buildSeastarTables(buildTorus({ dims: [4, 4], links: [1, 1], nodesPerRouter: 1 }), [])).toThrow(/needs a 3-D torus or mesh/);
  });
});
