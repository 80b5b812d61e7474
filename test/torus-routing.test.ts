import { describe, expect, it } from 'vitest';
import { PacketPool } from '../fabric/packet.ts';
import type { LoadView, RouteChoice, RouteFn } from '../fabric/routing/routing.ts';
import { pickRouting } from '../fabric/routing/routing.ts';
import { TORUS_VCS, torusDor, torusRouting } from '../fabric/routing/torus-routing.ts';
import { buildTorus, torusDistance, type TorusConfig, type TorusGraph } from '../fabric/topology/torus.ts';
import { sortDependencies, walkTorus, type TorusHop } from './helpers.ts';

type TorusRoute = RouteFn<TorusGraph>;
/** A quiet network: every output idle. */
const IDLE: LoadView = { groupLoad: () => 0 };

const TOPOLOGIES: { name: string; cfg: TorusConfig }[] = [
  { name: 'k=2 cube 2x2x2 (parallel links)', cfg: { dims: [2, 2, 2], links: [2, 1, 3], nodesPerRouter: 2 } },
  { name: 'odd ring k=5', cfg: { dims: [5], links: [1], nodesPerRouter: 1 } },
  { name: 'even ring k=4 (ties)', cfg: { dims: [4], links: [2], nodesPerRouter: 2 } },
  { name: 'even ring k=6', cfg: { dims: [6], links: [1], nodesPerRouter: 1 } },
  { name: 'torus 4x4 (Gemini-like links)', cfg: { dims: [4, 4], links: [2, 1], nodesPerRouter: 2 } },
  { name: 'torus 5x3x2', cfg: { dims: [5, 3, 2], links: [1, 2, 1], nodesPerRouter: 1 } },
  { name: 'torus 3x3x3', cfg: { dims: [3, 3, 3], links: [1, 1, 1], nodesPerRouter: 1 } },
  { name: 'mesh 4x3', cfg: { dims: [4, 3], links: [1, 2], wrap: [false, false], nodesPerRouter: 1 } },
  { name: 'mixed 5x4, x torus, y mesh', cfg: { dims: [5, 4], links: [1, 1], wrap: [true, false], nodesPerRouter: 1 } },
  { name: 'partially populated 4x4x2', cfg: { dims: [4, 4, 2], links: [8, 4, 8], nodesPerRouter: 2, nodes: 45 } },
];

/** Walks a fresh packet from node `src` to node `dst` on an idle network (see helpers.ts). */
const walk = (g: TorusGraph, route: TorusRoute, pool: PacketPool, src: number, dst: number, cls: number): { hops: TorusHop[]; eject: TorusHop } =>
  walkTorus(g, route, pool, src, dst, cls, IDLE);

/** Dimension and direction (0 = +, 1 = -) of local port `port`, from the port numbering in torus.ts. */
function groupOf(g: TorusGraph, port: number): { d: number; s: number } {
  for (let i = 0; i < g.groupPort.length; i++) {
    const d = i >> 1;
    if (port >= g.groupPort[i]! && port < g.groupPort[i]! + g.links[d]!) return { d, s: i & 1 };
  }
  throw new Error(`port ${port} is not a link port`);
}

/**
 * Channel dependency graph of `route` over every (src, dst) pair and both VC classes. Channels
 * are (global port, vc); every port of a parallel group counts, since the router may pick any.
 * Returns the number of channels left after a topological sort (0 = acyclic) and the edge count.
 */
function dependencyCycles(g: TorusGraph, route: TorusRoute): { cyclic: number; channels: number; edges: number } {
  const pool = new PacketPool(8, 16);
  const nv = TORUS_VCS;
  const succ = new Map<number, Set<number>>();
  const addEdge = (a: number, b: number): void => {
    let s = succ.get(a);
    if (!s) succ.set(a, (s = new Set()));
    s.add(b);
  };
  const channelsOf = (h: TorusHop): number[] => {
    const out: number[] = [];
    for (let j = 0; j < h.count; j++) out.push((h.router * g.radix + h.port + j) * nv + h.vc);
    return out;
  };
  for (let cls = 0; cls < 2; cls++) {
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        const { hops, eject } = walk(g, route, pool, s, d, cls);
        const seq = [...hops, eject];
        for (let i = 0; i + 1 < seq.length; i++) {
          for (const a of channelsOf(seq[i]!)) for (const b of channelsOf(seq[i + 1]!)) addEdge(a, b);
        }
      }
    }
  }
  return { ...sortDependencies(succ) };
}

/** The same dimension-order routing with the dateline ignored: one VC per class. */
const singleVc: TorusRoute = (g, router, pkts, p, out, load) => {
  torusDor(g, router, pkts, p, out, load);
  out.vc = 2 * pkts.vcClass[p]!;
};

describe('torus routing table', () => {
  it('has 4 VCs and the "dor" algorithm; unknown names throw a RangeError listing the valid ones', () => {
    expect(torusRouting.vcs).toBe(4);
    expect(TORUS_VCS).toBe(4);
    expect(pickRouting(torusRouting, 'torus', 'dor')).toBe(torusDor);
    expect(() => pickRouting(torusRouting, 'torus', 'valiant')).toThrow(RangeError);
    expect(() => pickRouting(torusRouting, 'torus', 'valiant')).toThrow(/unknown routing "valiant" for torus; valid: dor/);
  });
});

describe.each(TOPOLOGIES)('torusDor on $name', ({ cfg }) => {
  const g = buildTorus(cfg);
  const n = g.dims.length;

  it('reaches the destination router over a minimal dimension-ordered path and then ejects to the node port', () => {
    const pool = new PacketPool(8, 16);
    for (const cls of [0, 1]) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          const { hops, eject } = walk(g, torusDor, pool, s, d, cls);
          const target = g.nodeRouter[d]!;
          expect(eject.router).toBe(target);
          expect(eject.port).toBe(g.nodePort[d]);
          expect(eject.count).toBe(1);
          expect(eject.vc).toBe(2 * cls);
          expect(hops.length).toBe(torusDistance(g, g.nodeRouter[s]!, target));
          let lastDim = -1;
          let prevRouter = g.nodeRouter[s]!;
          for (const h of hops) {
            expect(h.router).toBe(prevRouter);
            const { d: dim } = groupOf(g, h.port);
            expect(h.port).toBe(g.groupPort[2 * dim + groupOf(g, h.port).s]); // first port of a group
            expect(h.count).toBe(g.links[dim]);
            expect(dim).toBeGreaterThanOrEqual(lastDim); // x, then y, then z
            lastDim = dim;
            expect(h.vc).toBeGreaterThanOrEqual(2 * cls);
            expect(h.vc).toBeLessThanOrEqual(2 * cls + 1);
            // every parallel port of the group leads to the same router
            const peer = g.peerRouter[h.router * g.radix + h.port]!;
            for (let j = 1; j < h.count; j++) expect(g.peerRouter[h.router * g.radix + h.port + j]).toBe(peer);
            prevRouter = peer;
          }
          expect(prevRouter).toBe(target);
        }
      }
    }
  });

  it('takes the shorter way round each ring (ties go +) and uses the high VC exactly from the wraparound link on', () => {
    const pool = new PacketPool(8, 16);
    for (const cls of [0, 1]) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          const { hops } = walk(g, torusDor, pool, s, d, cls);
          let dim = -1;
          let crossed = 0;
          for (const h of hops) {
            const { d: hd, s: dir } = groupOf(g, h.port);
            if (hd !== dim) {
              dim = hd;
              crossed = 0;
              // direction: shortest way round, + on ties; on a mesh, towards the target
              const k = g.dims[hd]!;
              const c = g.coords[h.router * n + hd]!;
              const t = g.coords[g.nodeRouter[d]! * n + hd]!;
              const plus = g.wrap[hd] ? 2 * ((t - c + k) % k) <= k : t > c;
              expect(dir).toBe(plus ? 0 : 1);
            }
            const k = g.dims[hd]!;
            const c = g.coords[h.router * n + hd]!;
            const wrapLink = g.wrap[hd] && k > 1 && ((dir === 0 && c === k - 1) || (dir === 1 && c === 0));
            if (wrapLink) crossed = 1;
            expect(h.vc).toBe(2 * cls + crossed);
          }
        }
      }
    }
  });

  it('has an acyclic channel dependency graph with the dateline VCs (deadlock freedom)', () => {
    const r = dependencyCycles(g, torusDor);
    expect(r.edges).toBeGreaterThan(0);
    expect(r.cyclic).toBe(0);
  });
});

describe('the channel dependency check can fail', () => {
  it.each([
    ['ring k=4', { dims: [4], links: [2], nodesPerRouter: 1 }],
    ['ring k=5', { dims: [5], links: [1], nodesPerRouter: 1 }],
    ['ring k=6', { dims: [6], links: [1], nodesPerRouter: 1 }],
    ['torus 4x4', { dims: [4, 4], links: [2, 1], nodesPerRouter: 2 }],
    ['torus 5x3x2', { dims: [5, 3, 2], links: [1, 2, 1], nodesPerRouter: 1 }],
  ] as [string, TorusConfig][])('one VC per class (dateline ignored) has a dependency cycle on %s', (_name, cfg) => {
    const r = dependencyCycles(buildTorus(cfg), singleVc);
    expect(r.cyclic).toBeGreaterThan(0);
  });

  it.each([
    // minimal routes take at most one hop per ring when k <= 3, so no ring dependency chain forms
    ['k=2 cube', { dims: [2, 2, 2], links: [1, 1, 1], nodesPerRouter: 1 }],
    ['ring k=3', { dims: [3], links: [1], nodesPerRouter: 1 }],
    ['torus 3x3x3', { dims: [3, 3, 3], links: [1, 1, 1], nodesPerRouter: 1 }],
    ['mesh 4x3', { dims: [4, 3], links: [1, 1], wrap: [false, false], nodesPerRouter: 1 }],
  ] as [string, TorusConfig][])('one VC per class is still acyclic where no ring has a cycle to close (%s)', (_name, cfg) => {
    expect(dependencyCycles(buildTorus(cfg), singleVc).cyclic).toBe(0);
  });

  it('routing state left over from an earlier route is honoured (why a reused packet must be reset)', () => {
    // A packet that crossed the dateline of x and is then routed again without resetting its
    // state (rDim = 0, rDateline = 1) rides the high VC from the start: the routing function
    // trusts the packet state, so whoever reuses a packet id must reset rDim / rDateline.
    const g = buildTorus({ dims: [4], links: [1], nodesPerRouter: 1 });
    const pool = new PacketPool(8, 16);
    const p = pool.alloc();
    pool.src[p] = 0;
    pool.dst[p] = 2;
    pool.vcClass[p] = 1;
    const out: RouteChoice = { port: 0, count: 0, vc: 0 };
    torusDor(g, 0, pool, p, out, { groupLoad: () => 0 });
    expect(out.vc).toBe(2); // fresh: low VC of class 1 (0 -> 1 is not the wraparound link)
    pool.rDim[p] = 0;
    pool.rDateline[p] = 1;
    torusDor(g, 0, pool, p, out, { groupLoad: () => 0 });
    expect(out.vc).toBe(3); // stale state: high VC
  });
});

describe('half-ring ties (seed 004 §II: adaptive traffic over lightly loaded links)', () => {
  const g = buildTorus({ dims: [8], links: [2], nodesPerRouter: 1 });
  /** A packet from router 0 to router 4, half way round: both ways are 4 hops. */
  const halfWay = (ordered: number): { pool: PacketPool; p: number } => {
    const pool = new PacketPool(8, 4);
    const p = pool.alloc();
    pool.src[p] = 0;
    pool.dst[p] = 4;
    pool.vcClass[p] = 0;
    pool.ordered[p] = ordered;
    return { pool, p };
  };
  const route = (ordered: number, load: LoadView): number => {
    const { pool, p } = halfWay(ordered);
    const out: RouteChoice = { port: 0, count: 0, vc: 0 };
    torusDor(g, 0, pool, p, out, load);
    expect(out.count).toBe(2);
    return out.port;
  };
  const plus = g.groupPort[0]!;
  const minus = g.groupPort[1]!;
  const loadedPlus: LoadView = { groupLoad: (first) => (first === plus ? 3 : 0) };

  it('an idle network goes +, a loaded + sends adaptive packets the other way, ordered packets always go +', () => {
    expect(route(0, { groupLoad: () => 0 })).toBe(plus);
    expect(route(0, loadedPlus)).toBe(minus);
    expect(route(1, loadedPlus)).toBe(plus);
  });

  it('a packet that went - keeps going - (then the shorter way) and arrives in 4 hops', () => {
    const { pool, p } = halfWay(0);
    const out: RouteChoice = { port: 0, count: 0, vc: 0 };
    let r = 0;
    let hops = 0;
    while (r !== 4) {
      torusDor(g, r, pool, p, out, hops === 0 ? loadedPlus : { groupLoad: () => 0 });
      expect(out.port).toBe(minus);
      r = g.peerRouter[r * g.radix + out.port]!;
      hops++;
    }
    expect(hops).toBe(4);
  });
});
