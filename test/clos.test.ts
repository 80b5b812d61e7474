import { describe, expect, it } from 'vitest';
import { checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { PacketPool } from '../fabric/packet.ts';
import { CLOS_VCS, closRouting } from '../fabric/routing/clos-routing.ts';
import { bindRoute, pickRouting, type LoadView, type RouteChoice, type RouteFn } from '../fabric/routing/routing.ts';
import {
  buildClos,
  CLOS_R1_R2,
  CLOS_R2_R3,
  CLOS_SIDE1,
  CLOS_SIDE2,
  CLOS_SIDE3,
  closPortSlice,
  closRank,
  closRouterDistance,
  type ClosConfig,
  type ClosGraph,
  type ClosRank,
} from '../fabric/topology/clos.ts';
import { PORT_NODE, PORT_UNUSED, routerDistances } from '../fabric/topology/port-graph.ts';

/*
 * The Cray BlackWidow folded Clos with sidelinks (seed 003, §2.2; SEED-FIGURES B3, B5-B8): the
 * port graph of every rank, route walks of both algorithms (minimal, in one slice, up*, at most
 * one sidelink, down*), the channel dependency check, and the bad configs.
 */

type ClosRoute = RouteFn<ClosGraph>;
const ALGORITHMS = ['adaptive', 'hash'] as const;
type Algorithm = (typeof ALGORITHMS)[number];
const routeOf = (name: Algorithm): ClosRoute => pickRouting(closRouting, 'clos', name);

/** A quiet network: every output idle. */
const IDLE: LoadView = { groupLoad: () => 0 };

const SIZES = [1, 32, 33, 100, 288, 289, 1024, 1025, 4608, 4609, 16384, 32768];

const graphs = new Map<string, ClosGraph>();
/** Builds (once per test file) the graph of a config. */
function graphOf(cfg: ClosConfig): ClosGraph {
  const key = JSON.stringify(cfg);
  let g = graphs.get(key);
  if (!g) graphs.set(key, (g = buildClos(cfg)));
  return g;
}

/** Routers per level of a rank, from the seed's rules (B6, B7), for N processors. */
function expectedRouters(n: number, rank: ClosRank): { r1: number; r2: number; r3: number } {
  const r1 = Math.ceil(n / 32);
  const r2 = rank < 2 ? 0 : rank === 2 ? 32 : 32 * Math.ceil(n / 512);
  const r3 = rank < 3 ? 0 : rank === 3 ? 512 : 512 * Math.ceil(n / 8192);
  return { r1, r2, r3 };
}

/** Links per class, counted over all slices: sidelinks spread evenly over the peers, leftovers unused. */
function expectedLinks(n: number, rank: ClosRank, slices: number): Record<string, number> {
  const { r1, r2 } = expectedRouters(n, rank);
  const pairs = (k: number): number => (k * (k - 1)) / 2;
  const T = Math.ceil(n / 512);
  const Q = Math.ceil(n / 8192);
  const per = {
    'r1-r2': rank >= 2 ? r1 * 32 : 0,
    side1: rank === 1.5 && r1 > 1 ? pairs(r1) * Math.floor(32 / (r1 - 1)) : 0,
    side2: rank === 2.5 && T > 1 ? pairs(T) * 32 * Math.floor(16 / (T - 1)) : 0,
    'r2-r3': rank >= 3 ? r2 * 16 : 0,
    side3: rank === 3.5 && Q > 1 ? pairs(Q) * 512 * Math.floor(16 / (Q - 1)) : 0,
  };
  return Object.fromEntries(Object.entries(per).map(([k, v]) => [k, v * slices]));
}

/** Slice of a port, from the layout (not closPortSlice): R1 ports [32 + 32s, 64 + 32s), R2/R3 ports [32s, 32s + 32). */
function sliceOf(g: ClosGraph, r: number, port: number): number {
  if (r < g.r1Count) return port < 32 ? -1 : Math.floor((port - 32) / 32);
  return Math.floor(port / 32);
}

/** Collects the failures of a loop, to assert them once (expect() per port would dominate the run time). */
class Failures {
  readonly list: string[] = [];
  check(ok: boolean, msg: () => string): void {
    if (!ok && this.list.length < 10) this.list.push(msg());
  }
}

interface Walk {
  /** Routers visited, the source R1 first and the destination R1 last. */
  routers: number[];
  /** Group (first port, count) taken at each router, the ejection last. */
  ports: number[];
  counts: number[];
  slice: number;
}

interface WalkOptions {
  cls?: number;
  salt?: number;
  ordered?: number;
  load?: LoadView;
  /** Picks the port of a group the walk follows (default: the first). */
  rng?: Prng;
  /** Router distances to the destination R1: every port of every group must lead one hop closer. */
  dist?: Int32Array;
  fails?: Failures;
}

/** Walks a fresh packet (as Network.inject leaves it) from node src to node dst, checking every hop. */
function walk(g: ClosGraph, route: ClosRoute, pool: PacketPool, src: number, dst: number, o: WalkOptions = {}): Walk {
  const cls = o.cls ?? 0;
  const p = pool.alloc();
  pool.src[p] = src;
  pool.dst[p] = dst;
  pool.vcClass[p] = cls;
  pool.vc[p] = cls;
  pool.startRoute(p, o.salt ?? 0);
  pool.ordered[p] = o.ordered ?? 0;
  const out: RouteChoice = { port: -1, count: -1, vc: -1 };
  const w: Walk = { routers: [], ports: [], counts: [], slice: -1 };
  const f = o.fails ?? new Failures();
  const at = (): string => `route ${src} -> ${dst} at router ${w.routers[w.routers.length - 1]}`;
  let r = g.nodeRouter[src]!;
  try {
    for (;;) {
      w.routers.push(r);
      route(g, r, pool, p, out, o.load ?? IDLE);
      w.ports.push(out.port);
      w.counts.push(out.count);
      f.check(out.vc === cls, () => `${at()}: VC ${out.vc} for class ${cls}`);
      f.check(out.count >= 1, () => `${at()}: empty group`);
      const s = pool.rPlane[p]!;
      if (w.slice === -1) w.slice = s;
      f.check(s === w.slice && s < g.slices, () => `${at()}: slice ${s} (started in ${w.slice})`);
      const base = r * g.radix + out.port;
      if (g.portClass[base] === PORT_NODE) {
        f.check(r === g.nodeRouter[dst] && out.port === g.nodePort[dst] && out.count === 1, () => `${at()}: ejects at port ${out.port}`);
        return w;
      }
      for (let k = 0; k < out.count; k++) {
        const peer = g.peerRouter[base + k]!;
        f.check(peer >= 0, () => `${at()}: port ${out.port + k} is not wired`);
        f.check(sliceOf(g, r, out.port + k) === w.slice, () => `${at()}: port ${out.port + k} is outside slice ${w.slice}`);
        if (o.dist) f.check(o.dist[peer]! === o.dist[r]! - 1, () => `${at()}: port ${out.port + k} leads to router ${peer}, not one hop closer`);
      }
      const k = o.rng ? o.rng.int(out.count) : 0;
      const next = g.peerRouter[base + k]!;
      if (next < 0 || w.routers.length > 8) {
        f.check(false, () => `${at()}: no arrival`);
        return w;
      }
      pool.vc[p] = out.vc;
      pool.at[p] = next * g.radix + g.peerPort[base + k]!;
      r = next;
    }
  } finally {
    pool.free(p);
  }
}

/**
 * Walks routes toward every destination R1 in `dsts` from every source R1 in `srcs` (a random
 * node of each), both algorithms, a random class, salt and load; checks every hop and that the
 * length equals routerDistances and closRouterDistance. Returns the longest walk.
 */
function checkRoutes(g: ClosGraph, srcs: number[], dsts: number[], seed: number): number {
  const rng = new Prng(seed);
  const pool = new PacketPool(8, 4);
  const fails = new Failures();
  const random: LoadView = { groupLoad: () => rng.int(4) };
  const nodeOf = (r1: number): number => Math.min(g.nodes - 1, r1 * 32 + rng.int(32));
  let longest = 0;
  for (const d of dsts) {
    const dist = routerDistances(g, d);
    for (const s of srcs) {
      const hops = closRouterDistance(g, s, d);
      fails.check(hops === dist[s], () => `closRouterDistance(${s}, ${d}) = ${hops}, routerDistances says ${dist[s]}`);
      for (const alg of ALGORITHMS) {
        const src = nodeOf(s);
        const dst = nodeOf(d);
        const w = walk(g, routeOf(alg), pool, src, dst, {
          cls: rng.int(2),
          salt: rng.nextU32(),
          load: rng.int(2) === 0 ? IDLE : random,
          rng,
          dist,
          fails,
        });
        const len = w.routers.length - 1;
        fails.check(len === dist[s], () => `${alg} route ${src} -> ${dst}: ${len} hops, shortest is ${dist[s]}`);
        if (len > longest) longest = len;
      }
    }
  }
  expect(fails.list).toEqual([]);
  return longest;
}

/** `count` R1 routers spread over [0, r1Count), always including the first and the last. */
function spread(g: ClosGraph, count: number): number[] {
  if (count >= g.r1Count) return Array.from({ length: g.r1Count }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.round((i * (g.r1Count - 1)) / (count - 1)));
}

describe('buildClos: port graph (seed 003, §2.2)', () => {
  it('picks the smallest rank that holds the processors (B6: 32, 288, 1,024, 4.5K, 16K, 32K)', () => {
    const cases: [number, ClosRank][] = [
      [1, 1], [32, 1], [33, 1.5], [288, 1.5], [289, 2], [1024, 2], [1025, 2.5],
      [4608, 2.5], [4609, 3], [16384, 3], [16385, 3.5], [32768, 3.5],
    ];
    for (const [n, rank] of cases) {
      expect(closRank(n), `${n} processors`).toBe(rank);
      expect(graphOf({ processors: n }).rank, `${n} processors`).toBe(rank);
    }
  });

  it.each(SIZES)('%i processors: router counts per level, radix, link classes', (n) => {
    const g = graphOf({ processors: n });
    const e = expectedRouters(n, g.rank);
    expect(g.topology).toBe('clos');
    expect(g.slices).toBe(4);
    expect([g.r1Count, g.r2Count, g.r3Count]).toEqual([e.r1, e.r2, e.r3]);
    expect(g.routers).toBe(e.r1 + e.r2 + e.r3);
    let levels = [0, 0, 0];
    for (let r = 0; r < g.routers; r++) levels[g.routerLevel[r]! - 1]!++;
    expect(levels).toEqual([e.r1, e.r2, e.r3]);
    levels = [g.r2Base, g.r3Base - g.r2Base, g.routers - g.r3Base];
    expect(levels).toEqual([e.r1, e.r2, e.r3]);
    // an R1 stack: 32 processor ports + 4 slices x 32 up/side ports (seed B1: radix-64 YARCs, B5)
    expect(g.radix).toBe(32 + 4 * 32);
    expect(g.classNames.slice(0, 2)).toEqual(['node', 'unused']);
    const links: Record<string, number> = { 'r1-r2': 0, side1: 0, side2: 0, 'r2-r3': 0, side3: 0 };
    for (let gp = 0; gp < g.routers * g.radix; gp++) {
      const c = g.portClass[gp]!;
      if (c !== PORT_NODE && c !== PORT_UNUSED) links[g.classNames[c]!]! += 0.5;
    }
    expect(links).toEqual(expectedLinks(n, g.rank, 4));
  });

  it('32K processors: 1,024 R1 stacks, 2,048 R2 and 2,048 R3 (four 8K R3 subtrees of 16 R2 subtrees)', () => {
    const g = graphOf({ processors: 32768 });
    expect([g.r1Count, g.r2Count, g.r3Count]).toEqual([1024, 2048, 2048]);
    expect([g.r2Subtrees, g.r3Subtrees, g.side3Links]).toEqual([64, 4, 5]);
  });

  it.each(SIZES)('%i processors: links are symmetric, keep their class and slice; processors sit where nodeRouter/nodePort say', (n) => {
    const g = graphOf({ processors: n });
    const f = new Failures();
    let nodePorts = 0;
    for (let r = 0; r < g.routers; r++) {
      for (let p = 0; p < g.radix; p++) {
        const gp = r * g.radix + p;
        const c = g.portClass[gp]!;
        const peer = g.peerRouter[gp]!;
        if (c === PORT_NODE) {
          nodePorts++;
          const node = g.portNode[gp]!;
          f.check(r < g.r1Count && p < 32 && node >= 0 && g.nodeRouter[node] === r && g.nodePort[node] === p, () => `router ${r} port ${p}: node ${node}`);
          continue;
        }
        f.check(g.portNode[gp] === -1, () => `router ${r} port ${p}: a link port with a node`);
        if (c === PORT_UNUSED) {
          f.check(peer === -1 && g.peerPort[gp] === -1, () => `router ${r} port ${p}: unused but wired`);
          continue;
        }
        const pp = g.peerPort[gp]!;
        const back = peer * g.radix + pp;
        f.check(peer >= 0 && peer !== r && g.peerRouter[back] === r && g.peerPort[back] === p, () => `router ${r} port ${p}: peer ${peer}:${pp} does not name it back`);
        f.check(g.portClass[back] === c, () => `router ${r} port ${p}: class ${c}, peer's ${g.portClass[back]}`);
        f.check(sliceOf(g, r, p) === sliceOf(g, peer, pp) && sliceOf(g, r, p) >= 0, () => `router ${r} port ${p}: joins slice ${sliceOf(g, r, p)} to ${sliceOf(g, peer, pp)}`);
        f.check(closPortSlice(g, r, p) === sliceOf(g, r, p), () => `closPortSlice(${r}, ${p})`);
        // up links climb one level; sidelinks stay on theirs
        const dl = g.routerLevel[peer]! - g.routerLevel[r]!;
        const side = c === CLOS_SIDE1 || c === CLOS_SIDE2 || c === CLOS_SIDE3;
        f.check(side ? dl === 0 : Math.abs(dl) === 1, () => `router ${r} port ${p}: class ${g.classNames[c]} joins levels ${g.routerLevel[r]} and ${g.routerLevel[peer]}`);
      }
    }
    for (let node = 0; node < n; node++) {
      const gp = g.nodeRouter[node]! * g.radix + g.nodePort[node]!;
      f.check(g.portNode[gp] === node && g.nodeRouter[node] === Math.floor(node / 32) && g.nodePort[node] === node % 32, () => `node ${node}`);
    }
    expect(f.list).toEqual([]);
    expect(nodePorts).toBe(n);
  });

  it('wires the seed rules: R1 uplink j -> R2 j, R2 j uplink u -> R3 (j, u) at down port t, sidelinks to the same index', () => {
    const f = new Failures();
    // rank 2 (1,024): R1 i, slice s, uplink j -> R2 j, down port i
    const g2 = graphOf({ processors: 1024 });
    for (let i = 0; i < 32; i++) {
      for (let s = 0; s < 4; s++) {
        for (let j = 0; j < 32; j++) {
          const gp = i * g2.radix + 32 + 32 * s + j;
          f.check(g2.peerRouter[gp] === g2.r2Base + j && g2.peerPort[gp] === 32 * s + i && g2.portClass[gp] === CLOS_R1_R2, () => `rank 2: R1 ${i} slice ${s} uplink ${j}`);
        }
      }
    }
    // rank 3 (16K): R2 (t, j), slice s, uplink u -> R3 (j, u), down port t
    const g3 = graphOf({ processors: 16384 });
    for (const t of [0, 7, 31]) {
      for (const j of [0, 5, 31]) {
        for (let u = 0; u < 16; u++) {
          const gp = (g3.r2Base + 32 * t + j) * g3.radix + 32 * 3 + 16 + u;
          f.check(g3.peerRouter[gp] === g3.r3Base + 16 * j + u && g3.peerPort[gp] === 32 * 3 + t && g3.portClass[gp] === CLOS_R2_R3, () => `rank 3: R2 (${t}, ${j}) uplink ${u}`);
        }
      }
    }
    // rank 2.5 (4,608: 9 subtrees): R2 j's 16 sidelinks, 2 to R2 j of each of the 8 peers
    const g25 = graphOf({ processors: 4608 });
    expect(g25.side2Links).toBe(2);
    for (const t of [0, 4, 8]) {
      for (const j of [0, 17, 31]) {
        const peers = new Map<number, number>();
        for (let k = 0; k < 16; k++) {
          const gp = (g25.r2Base + 32 * t + j) * g25.radix + 32 + 16 + k;
          const peer = g25.peerRouter[gp]!;
          f.check(g25.portClass[gp] === CLOS_SIDE2 && (peer - g25.r2Base) % 32 === j, () => `rank 2.5: R2 (${t}, ${j}) sidelink ${k} to ${peer}`);
          peers.set(peer, (peers.get(peer) ?? 0) + 1);
        }
        f.check(peers.size === 8 && [...peers.values()].every((c) => c === 2), () => `rank 2.5: R2 (${t}, ${j}) peers ${[...peers]}`);
      }
    }
    // rank 1.5 (288: 9 R1s): 4 sidelinks to each of 8 peers; 100 processors (4 R1s): 10 each, 2 ports unused
    const g15 = graphOf({ processors: 100 });
    expect([graphOf({ processors: 288 }).side1Links, g15.side1Links]).toEqual([4, 10]);
    for (let s = 0; s < 4; s++) {
      f.check(g15.portClass[32 + 32 * s + 30] === PORT_UNUSED && g15.portClass[32 + 32 * s + 29] === CLOS_SIDE1, () => `rank 1.5 leftovers, slice ${s}`);
    }
    expect(f.list).toEqual([]);
  });

  it('partly filled systems keep the routers of the rank: rank 2 with 10 R1s still has 32 R2s, each with 10 down ports', () => {
    const g = graphOf({ processors: 300 });
    expect([g.rank, g.r1Count, g.r2Count]).toEqual([2, 10, 32]);
    for (let j = 0; j < 32; j++) {
      let down = 0;
      for (let p = 0; p < g.radix; p++) if (g.portClass[(g.r2Base + j) * g.radix + p] === CLOS_R1_R2) down++;
      expect(down).toBe(10 * 4);
    }
    // a forced rank builds that rank's routers for a small system
    const f = graphOf({ processors: 100, rank: 3 });
    expect([f.rank, f.r1Count, f.r2Count, f.r3Count]).toEqual([3, 4, 32, 512]);
  });

  it('models any number of slices in one graph, slice-major', () => {
    const g = graphOf({ processors: 1024, slices: 1 });
    expect(g.radix).toBe(64);
    expect(expectedLinks(1024, 2, 1)['r1-r2']).toBe(1024);
    const g6 = graphOf({ processors: 4609, slices: 6 });
    expect(g6.radix).toBe(32 + 6 * 32);
    let links = 0;
    for (let gp = 0; gp < g6.routers * g6.radix; gp++) if (g6.portClass[gp] === CLOS_R2_R3) links += 0.5;
    expect(links).toBe(expectedLinks(4609, 3, 6)['r2-r3']);
  });
});

describe('closRouting: routes (seed 003)', () => {
  it('has the request and response VCs (B3) and the two algorithms', () => {
    expect(closRouting.vcs).toBe(2);
    expect(CLOS_VCS).toBe(2);
    expect(Object.keys(closRouting.algorithms)).toEqual(['adaptive', 'hash']);
    expect(() => pickRouting(closRouting, 'clos', 'valiant')).toThrow(/valid: adaptive, hash/);
  });

  it.each([1, 32, 33, 100, 288, 289])('%i processors: every node reaches every node over shortest paths in one slice', (n) => {
    const g = graphOf({ processors: n });
    const pool = new PacketPool(8, 4);
    const fails = new Failures();
    const dists = Array.from({ length: g.r1Count }, (_, r) => routerDistances(g, r));
    for (const alg of ALGORITHMS) {
      for (let src = 0; src < n; src++) {
        for (let dst = 0; dst < n; dst++) {
          const d = g.nodeRouter[dst]!;
          const dist = dists[d]!;
          const w = walk(g, routeOf(alg), pool, src, dst, { cls: (src + dst) & 1, salt: src * 7919 + dst, dist, fails });
          const s = g.nodeRouter[src]!;
          fails.check(w.routers.length - 1 === dist[s] && dist[s] === closRouterDistance(g, s, d), () => `${alg} ${src} -> ${dst}: ${w.routers.length - 1} hops`);
        }
      }
    }
    expect(fails.list).toEqual([]);
  });

  it.each([1024, 1025, 4608, 4609])('%i processors: every R1 pair, both algorithms, shortest paths in one slice', (n) => {
    const g = graphOf({ processors: n });
    const all = spread(g, g.r1Count);
    checkRoutes(g, all, all, n);
  });

  it.each([16384, 32768])('%i processors: sampled R1 pairs, shortest paths in one slice', (n) => {
    const g = graphOf({ processors: n });
    checkRoutes(g, spread(g, g.r1Count), spread(g, 6), n);
  });

  it.each([
    [1, 32, 0],
    [1.5, 288, 1],
    [2, 1024, 2],
    [2.5, 4608, 3],
    [3, 16384, 4],
    [3.5, 32768, 5],
  ])('rank %s (%i processors): diameter %i router hops', (rank, processors, diameter) => {
    const g = graphOf({ processors });
    expect(g.rank).toBe(rank);
    let closed = 0;
    for (let a = 0; a < g.r1Count; a++) for (let b = 0; b < g.r1Count; b++) closed = Math.max(closed, closRouterDistance(g, a, b));
    expect(closed).toBe(diameter);
    let bfs = 0;
    for (const s of spread(g, 3)) {
      const d = routerDistances(g, s);
      for (let r = 0; r < g.r1Count; r++) bfs = Math.max(bfs, d[r]!);
    }
    expect(bfs).toBe(diameter);
    expect(checkRoutes(g, [0], [g.r1Count - 1], processors)).toBe(diameter);
  });

  it('32K processors: the worst case is processor, R1, R2, R3, R3, R2, R1, processor: 5 router hops, 7 links (B8)', () => {
    const g = graphOf({ processors: 32768 });
    const pool = new PacketPool(8, 4);
    for (const alg of ALGORITHMS) {
      const fails = new Failures();
      const w = walk(g, routeOf(alg), pool, 0, 32767, { fails, dist: routerDistances(g, g.nodeRouter[32767]!) });
      expect(fails.list).toEqual([]);
      expect(w.routers.map((r) => g.routerLevel[r])).toEqual([1, 2, 3, 3, 2, 1]);
      expect(w.routers.length - 1).toBe(5);
      expect(w.routers.length - 1 + 2).toBe(7); // plus the injection and ejection links
    }
  });

  it.each([
    { processors: 100, rank: 2 as const },
    { processors: 700, rank: 2.5 as const },
    { processors: 100, rank: 3.5 as const },
    { processors: 9000, rank: 3.5 as const },
  ])('forced rank $rank with $processors processors: routes stay shortest', ({ processors, rank }) => {
    const g = graphOf({ processors, rank });
    expect(g.rank).toBe(rank);
    const all = spread(g, 40);
    checkRoutes(g, all, spread(g, 8), processors);
  });
});

describe('closRouting: slices and adaptivity (seed 003, B5)', () => {
  const g = graphOf({ processors: 16384 });
  const adaptive = routeOf('adaptive');
  const hash = routeOf('hash');

  /** Routes a fresh packet at its first router; returns the choice and its slice. */
  function first(route: ClosRoute, pool: PacketPool, src: number, dst: number, salt: number, load: LoadView, ordered = 0): { port: number; count: number; slice: number } {
    const p = pool.alloc();
    pool.src[p] = src;
    pool.dst[p] = dst;
    pool.vcClass[p] = 0;
    pool.startRoute(p, salt);
    pool.ordered[p] = ordered;
    const out: RouteChoice = { port: -1, count: -1, vc: -1 };
    route(g, g.nodeRouter[src]!, pool, p, out, load);
    const slice = pool.rPlane[p]!;
    pool.free(p);
    return { port: out.port, count: out.count, slice };
  }

  it('adaptive up-routing offers all 32 uplinks of the slice at R1 and all 16 at R2', () => {
    const pool = new PacketPool(8, 4);
    const c = first(adaptive, pool, 0, 16000, 5, IDLE);
    expect(c.count).toBe(32);
    expect(c.port).toBe(32 + 32 * c.slice);
    const w = walk(g, adaptive, pool, 0, 16000, { salt: 5 });
    expect(w.counts).toEqual([32, 16, 1, 1, 1]);
  });

  it('adaptive picks the least-loaded slice, and spreads over all slices under load', () => {
    const pool = new PacketPool(8, 4);
    // slice 2's uplinks idle, the others busy: slice 2 whatever the salt
    const sliceOf = (port: number): number => Math.floor(((port % g.radix) - 32) / 32);
    const quiet2: LoadView = { groupLoad: (first) => (sliceOf(first) === 2 ? 0 : 3) };
    for (let salt = 0; salt < 20; salt++) expect(first(adaptive, pool, 40, 9000, salt, quiet2).slice).toBe(2);
    // a load view that counts the packets sent into each group: the same salt every time, so only the load moves the choice
    // (the routing judges a slice by one port of its group, so the view counts per slice)
    const used = [0, 0, 0, 0];
    const counting: LoadView = { groupLoad: (f) => used[sliceOf(f)]! };
    for (let i = 0; i < 400; i++) {
      const c = first(adaptive, pool, 40, 9000, 7, counting);
      used[c.slice]!++;
    }
    expect(used).toEqual([100, 100, 100, 100]);
    // a quiet network: the salt breaks the ties, every slice gets used
    const idleUse = new Set<number>();
    for (let salt = 0; salt < 64; salt++) idleUse.add(first(adaptive, pool, 40, 9000, salt, IDLE).slice);
    expect([...idleUse].sort()).toEqual([0, 1, 2, 3]);
  });

  it('hash mode: one path per (src, dst) whatever the salt or load; different slices and uplinks across pairs', () => {
    const pool = new PacketPool(8, 4);
    const rng = new Prng(3);
    const busy: LoadView = { groupLoad: () => rng.int(5) };
    const slices = new Set<number>();
    const up1 = new Set<number>();
    const up2 = new Set<number>();
    for (let dst = 600; dst < 16384; dst += 97) {
      const ref = walk(g, hash, pool, 3, dst, { salt: 1 });
      expect(ref.counts.every((c) => c === 1)).toBe(true);
      for (let k = 0; k < 3; k++) {
        const again = walk(g, hash, pool, 3, dst, { salt: rng.nextU32(), load: busy });
        expect([again.routers, again.ports, again.slice]).toEqual([ref.routers, ref.ports, ref.slice]);
      }
      // an ordered packet under adaptive routing keeps the same single path
      const ordered = walk(g, adaptive, pool, 3, dst, { salt: rng.nextU32(), load: busy, ordered: 1 });
      expect([ordered.routers, ordered.ports, ordered.counts]).toEqual([ref.routers, ref.ports, ref.counts]);
      slices.add(ref.slice);
      up1.add((ref.ports[0]! - 32) % 32);
      if (ref.routers.length > 3) up2.add(ref.ports[1]! % 32);
    }
    expect([...slices].sort()).toEqual([0, 1, 2, 3]);
    expect(up1.size).toBeGreaterThanOrEqual(24);
    expect(up2.size).toBeGreaterThanOrEqual(12);
  });
});

describe('closRouting: deadlock freedom (up*, one sidelink, down*, one VC per class)', () => {
  it.each([
    ['rank 1, 32', { processors: 32 }],
    ['rank 1.5, 288', { processors: 288 }],
    ['rank 1.5, 100', { processors: 100 }],
    ['rank 2, 1,024', { processors: 1024 }],
    ['rank 2.5, 1,500', { processors: 1500 }],
    ['rank 2.5, 4,608', { processors: 4608 }],
    ['rank 3, 16,384', { processors: 16384 }],
    ['rank 3.5, 32,768', { processors: 32768 }],
    ['forced rank 3.5, 100', { processors: 100, rank: 3.5 as const }],
  ])('%s processors: no cycle in the channel dependencies of either algorithm', (_name, cfg) => {
    const g = graphOf(cfg);
    const pairs = g.r1Count * g.r1Count;
    const maxPairs = 1500;
    const walked = Math.ceil(pairs / Math.ceil(pairs / maxPairs));
    for (const alg of ALGORITHMS) {
      const r = checkDeadlockFreedom(g, bindRoute(g, routeOf(alg)), closRouting.vcs, { salts: 4, maxPairs });
      expect(r.cycle, `${alg}`).toBeNull();
      expect(r.routes).toBe(walked * 2 * 4);
      // routes of two or more links make dependencies (one sidelink at rank 1.5 makes none)
      if (g.rank >= 2 && g.r1Count > 1) expect(r.dependencies).toBeGreaterThan(0);
    }
  });
});

describe('buildClos: bad config', () => {
  it.each([
    [{ processors: 0 }, /clos\.processors .*got 0/],
    [{ processors: 32769 }, /clos\.processors .*32K maximum.*got 32769/],
    [{ processors: 2.5 }, /clos\.processors/],
    [{ processors: 33, rank: 1 as const }, /clos\.rank 1 holds at most 32 processors, got clos\.processors 33/],
    [{ processors: 1025, rank: 2 as const }, /clos\.rank 2 holds at most 1024/],
    [{ processors: 20000, rank: 3 as const }, /clos\.rank 3 holds at most 16384/],
    [{ processors: 64, rank: 2.2 as ClosRank }, /clos\.rank must be one of 1, 1\.5, 2, 2\.5, 3, 3\.5, got 2\.2/],
    [{ processors: 64, slices: 0 }, /clos\.slices .*got 0/],
    [{ processors: 64, slices: 1.5 }, /clos\.slices/],
  ])('%j is refused', (cfg, msg) => {
    expect(() => buildClos(cfg)).toThrow(RangeError);
    expect(() => buildClos(cfg)).toThrow(msg);
  });

  it('closRank refuses more than the 32K maximum, and closRouterDistance takes R1 routers only', () => {
    expect(() => closRank(40000)).toThrow(/clos\.processors .*32K/);
    const g = graphOf({ processors: 1024 });
    expect(() => closRouterDistance(g, 0, g.r2Base)).toThrow(RangeError);
  });
});
