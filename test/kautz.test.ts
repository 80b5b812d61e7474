import { describe, expect, it } from 'vitest';
import { PacketPool } from '../fabric/packet.ts';
import {
  assertKautzRoutable,
  kautzDistance,
  kautzMultipath,
  kautzRouting,
  kautzShortest,
  KAUTZ_VCS,
  kautzVcs,
  kautzVcsPerClass,
} from '../fabric/routing/kautz-routing.ts';
import { pickRouting, type LoadView, type RouteChoice, type RouteFn } from '../fabric/routing/routing.ts';
import {
  buildKautz,
  KAUTZ_IN,
  KAUTZ_OUT,
  kautzBisectionBound,
  kautzIndex,
  kautzLabel,
  kautzSize,
  type KautzGraph,
} from '../fabric/topology/kautz.ts';
import { PORT_NODE, PORT_UNUSED, routerDistances } from '../fabric/topology/port-graph.ts';
import { sortDependencies, type Hop } from './helpers.ts';
import { sourceRoutedPuts } from '../cli/validate/figures-sc5832.ts';

// Seed 002 (SiCortex SC5832), §4-5: Kautz digraph, degree 3, diameter 6, 972 nodes (K2, K9).

type KautzRoute = RouteFn<KautzGraph>;
/** A quiet network: every output idle. */
const IDLE: LoadView = { groupLoad: () => 0 };

/** Full Kautz graph: one node per router. */
function full(degree: number, diameter: number): KautzGraph {
  return buildKautz({ degree, diameter, nodes: kautzSize(degree, diameter) });
}

/** Label of router r as a string of letters. */
function label(g: KautzGraph, r: number): number[] {
  return Array.from(g.labels.subarray(r * g.diameter, (r + 1) * g.diameter));
}

interface Walk {
  hops: Hop[];
  eject: Hop;
}

/** Walks a fresh packet (as Network.inject leaves it) from node src to node dst; `salt` feeds multipath. */
function walk(g: KautzGraph, route: KautzRoute, pool: PacketPool, src: number, dst: number, cls: number, salt = 0, ordered = 0): Walk {
  const p = pool.alloc();
  pool.src[p] = src;
  pool.dst[p] = dst;
  pool.vcClass[p] = cls;
  pool.vc[p] = cls * (KAUTZ_VCS >> 1);
  pool.startRoute(p, salt);
  pool.ordered[p] = ordered;
  const out: RouteChoice = { port: -1, count: -1, vc: -1 };
  const hops: Hop[] = [];
  let r = g.nodeRouter[src]!;
  try {
    for (;;) {
      route(g, r, pool, p, out, IDLE);
      const h: Hop = { router: r, port: out.port, count: out.count, vc: out.vc };
      pool.vc[p] = out.vc; // what the network does after routing
      const peer = g.peerRouter[r * g.radix + out.port]!;
      if (peer < 0) return { hops, eject: h };
      hops.push(h);
      if (hops.length > g.diameter + 1) throw new Error(`route ${src} -> ${dst} does not terminate`);
      r = peer;
    }
  } finally {
    pool.free(p);
  }
}

/**
 * Checks a walk: it ends at dst's node port, uses one port per hop and only VC numbers
 * 0..floor(k/2) of its class, starts on floor(k/2) and falls exactly at peaks. Returns what is
 * wrong, or null (collected, then asserted once: expect() per hop would dominate the run time).
 */
function walkError(g: KautzGraph, w: Walk, src: number, dst: number, cls: number): string | null {
  const per = kautzVcsPerClass(g.diameter);
  const { hops, eject } = w;
  const at = `route ${src} -> ${dst} (class ${cls})`;
  if (eject.router !== g.nodeRouter[dst] || eject.port !== g.nodePort[dst]) return `${at} ends at router ${eject.router} port ${eject.port}`;
  if (g.portClass[eject.router * g.radix + eject.port] !== PORT_NODE) return `${at} ejects to a port that is not a node port`;
  const routers = [...hops.map((h) => h.router), eject.router];
  if (routers[0] !== g.nodeRouter[src]) return `${at} starts at router ${routers[0]}`;
  const seq = [...hops, eject];
  for (const h of seq) {
    if (h.count !== 1) return `${at} offers ${h.count} ports at router ${h.router}`;
    if (h.vc < cls * per || h.vc >= (cls + 1) * per) return `${at} uses VC ${h.vc} at router ${h.router}`;
  }
  // seed K7: every packet starts on floor(D/2)
  if (seq[0]!.vc !== cls * per + Math.floor(g.diameter / 2)) return `${at} starts on VC ${seq[0]!.vc}`;
  for (let i = 1; i < seq.length; i++) {
    const y = routers[i]!;
    // the VC number falls at Y, arrived from X, bound for Z, exactly when Y > X and Y > Z (ejection: no Z)
    const peak = i < hops.length && y > routers[i - 1]! && y > routers[i + 1]!;
    if (seq[i]!.vc !== seq[i - 1]!.vc - (peak ? 1 : 0)) return `${at} leaves router ${y} on VC ${seq[i]!.vc} after ${seq[i - 1]!.vc} (peak: ${peak})`;
  }
  return null;
}

/** Collects the failures of a test loop, to assert them once. */
class Failures {
  readonly list: string[] = [];
  add(msg: string | null): void {
    if (msg !== null && this.list.length < 10) this.list.push(msg);
  }
  check(ok: boolean, msg: () => string): void {
    if (!ok) this.add(msg());
  }
}

/**
 * Channel dependency graph over the given walks: channels are (global out port, VC). Returns
 * the channels left after a topological sort (0 = acyclic) and the edges. With `oneVc`, the VC
 * numbers of a class are merged into one channel: the VC rule ignored.
 */
function dependencyCycles(g: KautzGraph, walks: Iterable<Walk>, oneVc = false): { cyclic: number; edges: number } {
  const nv = KAUTZ_VCS;
  const per = kautzVcsPerClass(g.diameter);
  const succ = new Map<number, Set<number>>();
  const chan = (h: Hop): number => (h.router * g.radix + h.port) * nv + (oneVc ? Math.floor(h.vc / per) : h.vc);
  for (const { hops, eject } of walks) {
    const seq = [...hops, eject];
    for (let i = 0; i + 1 < seq.length; i++) {
      const a = chan(seq[i]!);
      let s = succ.get(a);
      if (!s) succ.set(a, (s = new Set()));
      s.add(chan(seq[i + 1]!));
    }
  }
  const { cyclic, edges } = sortDependencies(succ);
  return { cyclic, edges };
}

/** Every walk of `route` over all node pairs, both classes, and (multipath) every first-hop salt and the ordered variant. */
function* allWalks(g: KautzGraph, route: KautzRoute, salts: number): Generator<Walk> {
  const pool = new PacketPool(8, 16);
  for (let cls = 0; cls < 2; cls++) {
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        for (let salt = 0; salt < salts; salt++) yield walk(g, route, pool, s, d, cls, salt);
        if (salts > 1) yield walk(g, route, pool, s, d, cls, 0, 1);
      }
    }
  }
}

describe('buildKautz', () => {
  it('has (d+1) d^(k-1) routers: 12, 36, 108, 324, 972 for d = 3, k = 2..6 (seed 002 Table 1, K2)', () => {
    expect([2, 3, 4, 5, 6].map((k) => kautzSize(3, k))).toEqual([12, 36, 108, 324, 972]);
    for (const k of [2, 3, 4, 5, 6]) {
      const g = full(3, k);
      expect(g.routers).toBe(kautzSize(3, k));
      expect(g.nodes).toBe(g.routers);
      expect(g.radix).toBe(7);
      expect(g.directed).toBe(true);
      expect(g.topology).toBe('kautz');
    }
  });

  it('numbers routers by their labels in dictionary order; kautzIndex and kautzLabel are inverses', () => {
    for (const [d, k] of [[3, 1], [3, 4], [2, 5], [4, 3]] as const) {
      const g = full(d, k);
      const seen = new Set<string>();
      for (let r = 0; r < g.routers; r++) {
        const l = label(g, r);
        for (let i = 0; i < k; i++) {
          expect(l[i]).toBeLessThanOrEqual(d);
          if (i > 0) expect(l[i]).not.toBe(l[i - 1]);
        }
        seen.add(l.join(','));
        expect(kautzIndex(d, k, l)).toBe(r);
        const back: number[] = [];
        kautzLabel(d, k, r, back);
        expect(back).toEqual(l);
        if (r > 0) {
          const prev = label(g, r - 1);
          const i = l.findIndex((x, n) => x !== prev[n]);
          expect(l[i]).toBeGreaterThan(prev[i]!); // dictionary order
        }
      }
      expect(seen.size).toBe(g.routers);
    }
    expect(kautzIndex(3, 3, [1, 1, 2])).toBe(-1);
    expect(kautzIndex(3, 3, [0, 4, 2])).toBe(-1);
  });

  it.each([
    [3, 1],
    [3, 2],
    [3, 3],
    [3, 4],
    [3, 6],
    [2, 5],
    [4, 3],
  ])('d=%i k=%i: d out-links to the label shifts, d in-links, no self-loops or duplicate arcs, in ports named by the out ports', (d, k) => {
    const g = full(d, k);
    const R = g.radix;
    expect(R).toBe(1 + 2 * d);
    expect(g.classNames[KAUTZ_OUT]).toBe('out');
    expect(g.classNames[KAUTZ_IN]).toBe('in');
    const fedBy = new Int32Array(g.routers * R).fill(-1);
    for (let r = 0; r < g.routers; r++) {
      const l = label(g, r);
      expect(g.portClass[r * R]).toBe(PORT_NODE);
      expect(g.portNode[r * R]).toBe(r);
      const succs = new Set<number>();
      for (let j = 0; j < d; j++) {
        const gp = r * R + 1 + j;
        expect(g.portClass[gp]).toBe(KAUTZ_OUT);
        const s = g.peerRouter[gp]!;
        expect(s).not.toBe(r);
        succs.add(s);
        const last = l[k - 1]!;
        const x = j < last ? j : j + 1; // j-th smallest letter != last
        expect(label(g, s)).toEqual([...l.slice(1), x]);
        // in port at the successor: rank of our first letter among letters != its first letter
        const y1 = label(g, s)[0]!;
        expect(g.peerPort[gp]).toBe(1 + d + (l[0]! < y1 ? l[0]! : l[0]! - 1));
        const inGp = s * R + g.peerPort[gp]!;
        expect(fedBy[inGp]).toBe(-1);
        fedBy[inGp] = gp;
      }
      expect(succs.size).toBe(d);
      for (let i = 0; i < d; i++) {
        const gp = r * R + 1 + d + i;
        expect(g.portClass[gp]).toBe(KAUTZ_IN);
        expect(g.peerRouter[gp]).toBe(-1);
        expect(g.peerPort[gp]).toBe(-1);
      }
    }
    // every in port is fed by exactly one out port
    for (let r = 0; r < g.routers; r++) for (let i = 0; i < d; i++) expect(fedBy[r * R + 1 + d + i]).toBeGreaterThanOrEqual(0);
  });

  it('attaches nodes to the first `nodes` routers only; the rest leave port 0 unused', () => {
    const g = buildKautz({ degree: 3, diameter: 3, nodes: 20 });
    expect(g.routers).toBe(36);
    expect(g.nodes).toBe(20);
    for (let r = 0; r < g.routers; r++) {
      expect(g.portClass[r * g.radix]).toBe(r < 20 ? PORT_NODE : PORT_UNUSED);
      expect(g.portNode[r * g.radix]).toBe(r < 20 ? r : -1);
    }
    const pool = new PacketPool(8, 16);
    const f = new Failures();
    for (let s = 0; s < g.nodes; s++) for (let d = 0; d < g.nodes; d++) f.add(walkError(g, walk(g, kautzShortest, pool, s, d, 1), s, d, 1));
    expect(f.list).toEqual([]);
  });

  it('has BFS diameter k and every router reaches every router (seed 002 Table 1, K9: 108 -> 4, 324 -> 5, 972 -> 6)', () => {
    for (const k of [1, 2, 3, 4, 5, 6]) {
      const g = full(3, k);
      let diameter = 0;
      let unreachable = 0;
      const f = new Failures();
      for (let s = 0; s < g.routers; s++) {
        const dist = routerDistances(g, s);
        for (let t = 0; t < g.routers; t++) {
          if (dist[t]! < 0) unreachable++;
          if (dist[t]! > diameter) diameter = dist[t]!;
          f.check(kautzDistance(g, s, t) === dist[t], () => `kautzDistance(${s}, ${t}) = ${kautzDistance(g, s, t)}, BFS ${dist[t]}`);
        }
      }
      expect(unreachable).toBe(0);
      expect(diameter).toBe(k);
      expect(f.list).toEqual([]);
    }
  });

  it("gives the seed's bisection lower bound (d+1) d^k / 2k: 40, 97, 243 for d = 3, k = 4, 5, 6 (seed 002 Table 1, K9)", () => {
    expect([4, 5, 6].map((k) => Math.floor(kautzBisectionBound(3, k)))).toEqual([40, 97, 243]);
    expect(kautzBisectionBound(3, 4)).toBeCloseTo(40.5, 12);
  });

  it.each([
    [{ degree: 1, diameter: 3, nodes: 1 }, /kautz\.degree/],
    [{ degree: 2.5, diameter: 3, nodes: 1 }, /kautz\.degree/],
    [{ degree: 256, diameter: 1, nodes: 1 }, /kautz\.degree/],
    [{ degree: 3, diameter: 0, nodes: 1 }, /kautz\.diameter/],
    [{ degree: 3, diameter: 1.5, nodes: 1 }, /kautz\.diameter/],
    [{ degree: 3, diameter: 14, nodes: 1 }, /kautz\.diameter 14 with kautz\.degree 3 gives 6377292 routers, more than 1000000/],
    [{ degree: 3, diameter: 3, nodes: 0 }, /kautz\.nodes must be an integer from 1 to 36/],
    [{ degree: 3, diameter: 3, nodes: 37 }, /kautz\.nodes/],
    [{ degree: 3, diameter: 3, nodes: 2.5 }, /kautz\.nodes/],
  ])('rejects %o with a RangeError naming the field', (cfg, msg) => {
    expect(() => buildKautz(cfg)).toThrow(RangeError);
    expect(() => buildKautz(cfg)).toThrow(msg);
  });
});

describe('kautz routing table', () => {
  it('has 8 VCs for diameter 6 (2 classes x floor(6/2)+1, seed K7) and the algorithms shortest and multipath', () => {
    expect(kautzRouting.vcs).toBe(8);
    expect(KAUTZ_VCS).toBe(kautzVcs(6));
    expect([1, 2, 3, 4, 5, 6, 7].map(kautzVcsPerClass)).toEqual([1, 2, 2, 3, 3, 4, 4]);
    expect(pickRouting(kautzRouting, 'kautz', 'shortest')).toBe(kautzShortest);
    expect(pickRouting(kautzRouting, 'kautz', 'multipath')).toBe(kautzMultipath);
    expect(() => pickRouting(kautzRouting, 'kautz', 'dor')).toThrow(/unknown routing "dor" for kautz; valid: shortest, multipath/);
  });

  it('stores all hops but the first at the first router, and throws naming the route if a VC number would go below 0', () => {
    const g = full(3, 4);
    const per = kautzVcsPerClass(4);
    expect(per).toBe(3);
    const pool = new PacketPool(8, 16);
    const out: RouteChoice = { port: -1, count: -1, vc: -1 };
    // a route that decrements: find one by walking
    let pair: [number, number] | null = null;
    for (let s = 0; s < g.nodes && !pair; s++) {
      for (let d = 0; d < g.nodes && !pair; d++) if (walk(g, kautzShortest, pool, s, d, 1).eject.vc < per + 2) pair = [s, d];
    }
    expect(pair).not.toBeNull();
    const [s, d] = pair!;
    const p = pool.alloc();
    pool.src[p] = s;
    pool.dst[p] = d;
    pool.vcClass[p] = 1;
    pool.vc[p] = KAUTZ_VCS >> 1; // as Network.inject leaves it
    kautzShortest(g, s, pool, p, out);
    expect(pool.rLeft[p]).toBe(kautzDistance(g, s, d) - 1);
    expect(out.vc).toBe(per + 2); // class 1 starts on VC number floor(4/2)
    pool.vc[p] = per; // as if noise had put it on VC number 0 (seed 002, §4.2)
    let r = g.peerRouter[s * g.radix + out.port]!;
    expect(() => {
      for (;;) {
        kautzShortest(g, r, pool, p, out);
        r = g.peerRouter[r * g.radix + out.port]!;
      }
    }).toThrow(/VC number below 0 at \d+ on the route \d+ -> \d+/);
  });

  it('refuses graphs whose routes do not fit 2 bits per hop in 32 bits', () => {
    expect(() => assertKautzRoutable(5, 3)).toThrow(/kautz\.degree 5/);
    expect(() => assertKautzRoutable(2, 11)).toThrow(/kautz\.diameter 11/);
    expect(() => assertKautzRoutable(4, 10)).not.toThrow();
    const g = buildKautz({ degree: 5, diameter: 2, nodes: 3 });
    expect(() => walk(g, kautzShortest, new PacketPool(8, 16), 0, 2, 0)).toThrow(RangeError);
  });
});

describe.each([
  [3, 1],
  [3, 2],
  [3, 3],
  [3, 4],
  [3, 5],
  [2, 6],
  [4, 3],
])('kautzShortest on d=%i, k=%i (all pairs)', (deg, k) => {
  const g = full(deg, k);

  it('takes exactly the BFS distance in hops, reaches the node port, and lowers the VC exactly at peaks (seed K7)', () => {
    const pool = new PacketPool(8, 16);
    const f = new Failures();
    for (let s = 0; s < g.nodes; s++) {
      const dist = routerDistances(g, s);
      for (let d = 0; d < g.nodes; d++) {
        for (const cls of [0, 1]) {
          const w = walk(g, kautzShortest, pool, s, d, cls);
          f.add(walkError(g, w, s, d, cls));
          f.check(w.hops.length === dist[d], () => `route ${s} -> ${d}: ${w.hops.length} hops, BFS ${dist[d]}`);
        }
      }
    }
    expect(f.list).toEqual([]);
  });

  it('has an acyclic channel dependency graph (both classes)', () => {
    const r = dependencyCycles(g, allWalks(g, kautzShortest, 1));
    expect(r.edges).toBeGreaterThan(0);
    expect(r.cyclic).toBe(0);
  });
});

describe('kautzShortest on the SC5832 (d=3, k=6, 972 nodes)', () => {
  it('matches the BFS distance on a deterministic sample of pairs and stays within floor(6/2)+1 = 4 VCs per class', () => {
    const g = full(3, 6);
    const pool = new PacketPool(8, 16);
    const f = new Failures();
    let pairs = 0;
    let lowest = Infinity;
    for (let s = 0; s < g.nodes; s += 7) {
      const dist = routerDistances(g, s);
      for (let d = (s * 5) % 11; d < g.nodes; d += 11) {
        const cls = (s + d) & 1;
        const w = walk(g, kautzShortest, pool, s, d, cls);
        f.add(walkError(g, w, s, d, cls));
        f.check(w.hops.length === dist[d], () => `route ${s} -> ${d}: ${w.hops.length} hops, BFS ${dist[d]}`);
        lowest = Math.min(lowest, w.eject.vc - 4 * cls);
        pairs++;
      }
    }
    expect(f.list).toEqual([]);
    expect(pairs).toBeGreaterThan(10000);
    expect(lowest).toBe(0); // some routes use all four VC numbers
  });
});

describe('deadlock freedom on the SC5832 (d=3, k=6)', () => {
  it.each([
    ['shortest', kautzShortest, 1],
    ['multipath', kautzMultipath, 3],
  ] as [string, KautzRoute, number][])(
    'has an acyclic channel dependency graph over all 972 x 972 %s routes (every first hop; one class: the other is a copy on its own VCs)',
    (_name, route, salts) => {
      const g = full(3, 6);
      function* walks(): Generator<Walk> {
        const pool = new PacketPool(8, 16);
        for (let s = 0; s < g.nodes; s++) {
          for (let d = 0; d < g.nodes; d++) for (let salt = 0; salt < salts; salt++) yield walk(g, route, pool, s, d, 0, salt);
        }
      }
      const r = dependencyCycles(g, walks());
      expect(r.edges).toBeGreaterThan(0);
      expect(r.cyclic).toBe(0);
    },
  );
});

describe('the channel dependency check can fail', () => {
  it.each([
    [3, 3],
    [3, 4],
    [2, 6],
  ])('one VC per class (decrement rule ignored) has a dependency cycle on d=%i, k=%i', (deg, k) => {
    const g = full(deg, k);
    expect(dependencyCycles(g, allWalks(g, kautzShortest, 1), true).cyclic).toBeGreaterThan(0);
  });
});

describe.each([
  [3, 3],
  [3, 4],
  [3, 5],
  [2, 6],
  [4, 3],
])('kautzMultipath on d=%i, k=%i (all pairs, every first hop)', (deg, k) => {
  const g = full(deg, k);
  const d = g.degree;

  it('leaves by d different out-links, each route at most k+1 hops; ordered packets take the shortest route', () => {
    const pool = new PacketPool(8, 16);
    const f = new Failures();
    let replaced = 0;
    const routersOf = (w: Walk): string => w.hops.map((h) => h.router).join(',');
    for (let s = 0; s < g.nodes; s++) {
      for (let t = 0; t < g.nodes; t++) {
        const shortest = walk(g, kautzShortest, pool, s, t, 0);
        const ordered = walk(g, kautzMultipath, pool, s, t, 0, 2, 1);
        f.check(routersOf(ordered) === routersOf(shortest), () => `ordered ${s} -> ${t} leaves the shortest route`);
        const first = new Set<number>();
        for (let salt = 0; salt < d; salt++) {
          const cls = salt & 1;
          const w = walk(g, kautzMultipath, pool, s, t, cls, salt + d * 12345);
          f.add(walkError(g, w, s, t, cls));
          f.check(w.hops.length <= k + 1, () => `route ${s} -> ${t} salt ${salt}: ${w.hops.length} hops`);
          if (s === t) {
            f.check(w.hops.length === 0, () => `route ${s} -> ${s} leaves its router`);
            continue;
          }
          if (w.hops[0]!.port !== 1 + salt) {
            // odd k only: the detour would pass floor(k/2) + 1 peaks, so the packet takes the shortest route
            f.check(k % 2 === 1 && routersOf(w) === routersOf(shortest), () => `route ${s} -> ${t} salt ${salt} leaves by port ${w.hops[0]!.port}`);
            replaced++;
          }
          first.add(w.hops[0]!.port);
        }
        // seed K10: d routes over distinct first links
        if (k % 2 === 0) f.check(s === t || first.size === d, () => `routes ${s} -> ${t} share first links`);
      }
    }
    expect(f.list).toEqual([]);
    if (k % 2 === 1) expect(replaced).toBeGreaterThan(0);
    else expect(replaced).toBe(0);
  });

  it('has an acyclic channel dependency graph (both classes, every first hop)', () => {
    const r = dependencyCycles(g, allWalks(g, kautzMultipath, d));
    expect(r.edges).toBeGreaterThan(0);
    expect(r.cyclic).toBe(0);
  });
});

describe('kautzMultipath on the SC5832 (d=3, k=6)', () => {
  it('gives 3 routes over distinct first links of at most 7 hops within 4 VCs per class (sampled pairs)', () => {
    const g = full(3, 6);
    const pool = new PacketPool(8, 16);
    const f = new Failures();
    let pairs = 0;
    for (let s = 5; s < g.nodes; s += 13) {
      for (let t = (s * 5) % 11; t < g.nodes; t += 11) {
        if (s === t) continue;
        const first = new Set<number>();
        for (let salt = 0; salt < 3; salt++) {
          const w = walk(g, kautzMultipath, pool, s, t, 1, salt);
          f.add(walkError(g, w, s, t, 1));
          f.check(w.hops.length <= 7, () => `route ${s} -> ${t} salt ${salt}: ${w.hops.length} hops`);
          first.add(w.hops[0]!.port);
        }
        f.check(first.size === 3, () => `routes ${s} -> ${t} share first links`);
        pairs++;
      }
    }
    expect(f.list).toEqual([]);
    expect(pairs).toBeGreaterThan(5000);
  });
});

describe('source routes on the network (K6)', () => {
  it('40 random 64 KiB puts at once on 108 nodes: every hop takes the output the switch before read off the route string, and each transfer arrives in order', async () => {
    const r = await sourceRoutedPuts();
    expect(r.packets).toBe(40 * 512);
    expect(r.offRoute).toBe(0);
    expect(r.outOfOrder).toBe(0);
  });

  it('multipath routing spreads one transfer over the independent paths, so its packets overtake each other: the in-order count can fail', async () => {
    const r = await sourceRoutedPuts('multipath');
    expect(r.offRoute).toBe(0);
    expect(r.outOfOrder).toBeGreaterThan(0);
  });
});
