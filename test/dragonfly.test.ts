import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { PacketPool } from '../fabric/packet.ts';
import { DRAGONFLY_VCS, dragonflyRouting } from '../fabric/routing/dragonfly-routing.ts';
import { pickRouting, type LoadView, type RouteChoice, type RouteFn } from '../fabric/routing/routing.ts';
import {
  buildDragonfly,
  DF_BLACK,
  DF_GLOBAL,
  DF_GREEN,
  dragonflyLayout,
  maxCablesPerPair,
  NEAR,
  type DragonflyConfig,
  type DragonflyGraph,
} from '../fabric/topology/dragonfly.ts';
import { PORT_NODE, PORT_UNUSED, routerDistances } from '../fabric/topology/port-graph.ts';
import { sortDependencies, type Hop } from './helpers.ts';

/*
 * The Cray XC dragonfly (seed 001, "Dragonfly Implementation" and "Cray XC Routing"; SEED-FIGURES
 * A1, A3, A9, A11, A16): builder invariants, step-by-step route walks of every algorithm, and the
 * channel dependency graph, in the manner of torus-routing.test.ts.
 */

type DfRoute = RouteFn<DragonflyGraph>;
const ALGORITHMS = ['minimal', 'valiant', 'adaptive', 'hash'] as const;
type Algorithm = (typeof ALGORITHMS)[number];
const routeOf = (name: Algorithm): DfRoute => pickRouting(dragonflyRouting, 'dragonfly', name);

/** A quiet network: every output idle. */
const IDLE: LoadView = { groupLoad: () => 0 };

/** Seed A1, A3: a group of 6 chassis x 16 Aries, 3 black links, 10 global ports, 4 links per cable, 4 NICs per Aries. */
const REAL = { chassis: 6, routersPerChassis: 16, blackLinks: 3, globalPorts: 10, linksPerCable: 4, nodesPerRouter: 4, adaptiveBias: 0 } as const;

/** A config with every node slot populated unless `nodes` is given. */
function cfgOf(c: Omit<DragonflyConfig, 'nodes'> & { nodes?: number }): DragonflyConfig {
  return { ...c, nodes: c.nodes ?? c.groups * c.chassis * c.routersPerChassis * c.nodesPerRouter };
}

function realCfg(groups: number, cablesPerPair: number, nodes?: number): DragonflyConfig {
  return cfgOf({ ...REAL, groups, cablesPerPair, ...(nodes === undefined ? {} : { nodes }) });
}

const SMALL: { name: string; cfg: DragonflyConfig }[] = [
  {
    name: '3 groups of 2x3, 2 black links, 4 global ports, 2 links per cable, 3 cables per pair',
    cfg: cfgOf({ groups: 3, chassis: 2, routersPerChassis: 3, blackLinks: 2, globalPorts: 4, cablesPerPair: 3, linksPerCable: 2, nodesPerRouter: 2, adaptiveBias: 0 }),
  },
  {
    name: '5 groups of 3x4, 1 black link, 2 global ports, max cables (6)',
    cfg: cfgOf({ groups: 5, chassis: 3, routersPerChassis: 4, blackLinks: 1, globalPorts: 2, cablesPerPair: 6, linksPerCable: 1, nodesPerRouter: 1, adaptiveBias: 0 }),
  },
  {
    name: '4 groups of 2x4, 1 cable per pair, partly populated (50 of 64 nodes)',
    cfg: { groups: 4, chassis: 2, routersPerChassis: 4, blackLinks: 2, globalPorts: 3, cablesPerPair: 1, linksPerCable: 2, nodesPerRouter: 2, nodes: 50, adaptiveBias: 0 },
  },
  {
    name: '2 groups of 2x2, 1 global port, max cables (4)',
    cfg: cfgOf({ groups: 2, chassis: 2, routersPerChassis: 2, blackLinks: 1, globalPorts: 1, cablesPerPair: 4, linksPerCable: 1, nodesPerRouter: 1, adaptiveBias: 0 }),
  },
  {
    name: '1 group of 3x3, 2 black links (no global links)',
    cfg: cfgOf({ groups: 1, chassis: 3, routersPerChassis: 3, blackLinks: 2, globalPorts: 2, cablesPerPair: 0, linksPerCable: 1, nodesPerRouter: 2, adaptiveBias: 0 }),
  },
];
const MULTI = SMALL.filter((t) => t.cfg.groups > 1);

const groupOf = (g: DragonflyGraph, router: number): number => Math.floor(router / g.routersPerGroup);

// ---------------------------------------------------------------------------------------------
// builder checks

/**
 * Every structural invariant of a built dragonfly; returns the violations (empty if none), at
 * most `limit` of them, so large systems cost no per-port expect() calls.
 */
function builderViolations(g: DragonflyGraph, limit = 20): string[] {
  const c = g.config;
  const bad: string[] = [];
  const fail = (m: string): void => {
    if (bad.length < limit) bad.push(m);
  };
  const G = c.groups;
  const R = c.routersPerChassis;
  const RG = c.chassis * R;
  const lay = dragonflyLayout(c);
  if (g.topology !== 'dragonfly') fail(`topology ${g.topology}`);
  if (g.routers !== G * RG || g.routersPerGroup !== RG) fail(`routers ${g.routers}, per group ${g.routersPerGroup}`);
  if (g.radix !== c.nodesPerRouter + (R - 1) + (c.chassis - 1) * c.blackLinks + c.globalPorts || g.radix !== lay.radix) fail(`radix ${g.radix}`);
  if (g.greenBase !== lay.greenBase || g.blackBase !== lay.blackBase || g.globalBase !== lay.globalBase) fail('layout differs from dragonflyLayout');
  if (g.nodes !== c.nodes || g.nodeRouter.length !== c.nodes || g.nodePort.length !== c.nodes) fail(`nodes ${g.nodes}`);
  const L = G > 1 ? c.cablesPerPair * c.linksPerCable : 0;
  if (g.linksPerPair !== L) fail(`linksPerPair ${g.linksPerPair}, expected ${L}`);
  if (g.gateways.length !== G * G * L) fail(`gateways length ${g.gateways.length}`);
  // links between each ordered pair of groups, as global port ids
  const pairLinks: number[][] = Array.from({ length: G * G }, () => []);
  for (let r = 0; r < g.routers; r++) {
    const gr = groupOf(g, r);
    const lr = r % RG;
    const ch = Math.floor(lr / R);
    const slot = lr % R;
    const greenPeers = new Set<number>();
    const blackPerChassis = new Map<number, number>();
    for (let p = 0; p < g.radix; p++) {
      const gp = r * g.radix + p;
      const peer = g.peerRouter[gp]!;
      const pp = g.peerPort[gp]!;
      const cls = g.portClass[gp]!;
      if ((peer < 0) !== (pp < 0)) fail(`port ${r}.${p}: peer router ${peer} but peer port ${pp}`);
      if (peer >= 0) {
        // symmetric: the peer of the peer is this port, with the same class on both ends
        const back = peer * g.radix + pp;
        if (g.peerRouter[back] !== r || g.peerPort[back] !== p) fail(`port ${r}.${p} -> ${peer}.${pp} -> ${g.peerRouter[back]}.${g.peerPort[back]}`);
        if (g.portClass[back] !== cls) fail(`port ${r}.${p} class ${cls}, peer class ${g.portClass[back]}`);
        if (g.portNode[gp] !== -1) fail(`link port ${r}.${p} has a node`);
        if (peer === r) fail(`port ${r}.${p} loops back`);
      }
      if (p < c.nodesPerRouter) {
        const node = r * c.nodesPerRouter + p;
        if (node < c.nodes) {
          if (cls !== PORT_NODE || g.portNode[gp] !== node || peer !== -1) fail(`node port ${r}.${p}: class ${cls}, node ${g.portNode[gp]}`);
          if (g.nodeRouter[node] !== r || g.nodePort[node] !== p) fail(`node ${node} at ${g.nodeRouter[node]}.${g.nodePort[node]}`);
        } else if (cls !== PORT_UNUSED || g.portNode[gp] !== -1 || peer !== -1) {
          fail(`empty node slot ${r}.${p}: class ${cls}`);
        }
      } else if (p < g.blackBase) {
        if (cls !== DF_GREEN) fail(`green port ${r}.${p} has class ${cls}`);
        if (groupOf(g, peer) !== gr || Math.floor((peer % RG) / R) !== ch) fail(`green port ${r}.${p} leaves the chassis`);
        greenPeers.add(peer);
      } else if (p < g.globalBase) {
        if (cls !== DF_BLACK) fail(`black port ${r}.${p} has class ${cls}`);
        const ch2 = Math.floor((peer % RG) / R);
        if (groupOf(g, peer) !== gr || (peer % RG) % R !== slot || ch2 === ch) fail(`black port ${r}.${p} to router ${peer}`);
        blackPerChassis.set(ch2, (blackPerChassis.get(ch2) ?? 0) + 1);
      } else if (peer >= 0) {
        if (cls !== DF_GLOBAL) fail(`wired global port ${r}.${p} has class ${cls}`);
        const h = groupOf(g, peer);
        if (h === gr) fail(`global port ${r}.${p} stays in group ${gr}`);
        pairLinks[gr * G + h]!.push(gp);
      } else if (cls !== PORT_UNUSED || g.portNode[gp] !== -1) {
        fail(`unwired global port ${r}.${p} has class ${cls}`);
      }
    }
    if (greenPeers.size !== R - 1) fail(`router ${r}: ${greenPeers.size} distinct green peers`);
    if (blackPerChassis.size !== c.chassis - 1 || [...blackPerChassis.values()].some((n) => n !== c.blackLinks)) {
      fail(`router ${r}: black links per other chassis ${[...blackPerChassis.values()].join(',')}`);
    }
  }
  for (let a = 0; a < G; a++) {
    for (let b = 0; b < G; b++) {
      const links = pairLinks[a * G + b]!;
      const gws = [...g.gateways.subarray((a * G + b) * L, (a * G + b + 1) * L)];
      if (a === b) {
        if (links.length !== 0 || gws.some((x) => x !== -1)) fail(`group ${a} links to itself`);
        continue;
      }
      if (links.length !== L) fail(`groups ${a} -> ${b}: ${links.length} global links, expected ${L}`);
      const sorted = [...gws].sort((x, y) => x - y);
      if (sorted.join() !== [...links].sort((x, y) => x - y).join()) fail(`gateways ${a} -> ${b} are not exactly its links`);
    }
  }
  // minimal-route table: for each router and other group, the gateways at the least local distance (up to NEAR)
  const local = (x: number, y: number): number => (x % R !== y % R ? 1 : 0) + (Math.floor((x % RG) / R) !== Math.floor((y % RG) / R) ? 1 : 0);
  for (let r = 0; r < g.routers; r++) {
    const a = Math.floor(r / RG);
    for (let b = 0; b < G; b++) {
      if (b === a) continue;
      const row = r * G + b;
      const n = g.nearCount[row]!;
      const all = [...g.gateways.subarray((a * G + b) * L, (a * G + b + 1) * L)];
      const best = Math.min(...all.map((gw) => local(r, Math.floor(gw / g.radix))));
      const atBest = all.filter((gw) => local(r, Math.floor(gw / g.radix)) === best).length;
      const row8 = [...g.nearGateways.subarray(row * NEAR, (row + 1) * NEAR)];
      if (n !== Math.min(NEAR, atBest)) fail(`router ${r} -> group ${b}: ${n} near gateways, expected ${Math.min(NEAR, atBest)}`);
      if (row8.slice(0, n).some((gw) => !all.includes(gw) || local(r, Math.floor(gw / g.radix)) !== best)) fail(`router ${r} -> group ${b}: a near gateway is not among the nearest`);
      if (row8.slice(n).some((gw) => gw !== -1)) fail(`router ${r} -> group ${b}: entries past the count are set`);
    }
  }
  return bad;
}

/** Wired global links of each router. */
function globalLinksPerRouter(g: DragonflyGraph): number[] {
  const n: number[] = [];
  for (let r = 0; r < g.routers; r++) {
    let k = 0;
    for (let p = g.globalBase; p < g.radix; p++) if (g.portClass[r * g.radix + p] === DF_GLOBAL) k++;
    n.push(k);
  }
  return n;
}

/** Other groups router `r` has a global link to. */
function groupsReached(g: DragonflyGraph, r: number): Set<number> {
  const s = new Set<number>();
  for (let p = g.globalBase; p < g.radix; p++) {
    const gp = r * g.radix + p;
    if (g.portClass[gp] === DF_GLOBAL) s.add(groupOf(g, g.peerRouter[gp]!));
  }
  return s;
}

/** Optical cables of the whole system (each global link counted once, linksPerCable per cable). */
function cables(g: DragonflyGraph): number {
  const ends = globalLinksPerRouter(g).reduce((a, b) => a + b, 0);
  return ends / 2 / g.config.linksPerCable;
}

// ---------------------------------------------------------------------------------------------
// route walks

interface Walk {
  hops: Hop[];
  eject: Hop;
  /** rPhase after the source router's decision, and rPhase / rInter at the end. */
  firstPhase: number;
  phase: number;
  inter: number;
}

interface WalkOpts {
  salt?: number;
  load?: LoadView;
  /** Follow the last port of a parallel group instead of the first. */
  last?: boolean;
  /** The packet's ordered flag (set by the NIC for ordered transfers). */
  ordered?: number;
}

/** Far more hops than any route takes (A9: at most 10); a longer walk is a routing loop. */
const HOP_LIMIT = 40;

/**
 * Walks a packet from node `src` to node `dst`: its routing state reset as Network.inject does,
 * `route` called at each router, the chosen port followed to the peer router until the routing
 * function returns a node port.
 */
function walk(g: DragonflyGraph, route: DfRoute, pool: PacketPool, src: number, dst: number, cls: number, o: WalkOpts = {}): Walk {
  const p = pool.alloc();
  pool.src[p] = src;
  pool.dst[p] = dst;
  pool.vcClass[p] = cls;
  pool.startRoute(p, o.salt ?? 0);
  pool.ordered[p] = o.ordered ?? 0;
  const load = o.load ?? IDLE;
  const out: RouteChoice = { port: -1, count: -1, vc: -1 };
  const hops: Hop[] = [];
  let r = g.nodeRouter[src]!;
  let firstPhase = -1;
  try {
    for (;;) {
      route(g, r, pool, p, out, load);
      if (firstPhase < 0) firstPhase = pool.rPhase[p]!;
      const h: Hop = { router: r, port: out.port, count: out.count, vc: out.vc };
      const port = o.last ? out.port + out.count - 1 : out.port;
      const peer = g.peerRouter[r * g.radix + port]!;
      if (peer < 0) return { hops, eject: h, firstPhase, phase: pool.rPhase[p]!, inter: pool.rInter[p]! };
      hops.push(h);
      if (hops.length > HOP_LIMIT) throw new Error(`route ${src} -> ${dst} does not terminate`);
      r = peer;
    }
  } finally {
    pool.free(p);
  }
}

/**
 * Checks one walk; returns a description of the first violation or null. Every walk: ends at the
 * destination's node port; each hop is the first port of a group of parallel ports to one router;
 * VCs stay in [4 * class, 4 * class + 3], never fall, and rise after a global hop. Minimal routes
 * (minimal, hash, and adaptive / valiant when they chose no intermediate router): at most one green
 * then one black hop per group, exactly one global hop between groups (A9), VC stage = global hops
 * taken. Non-minimal routes: through the intermediate router, at most 10 hops and 2 global hops,
 * at most 2 green and 2 black hops per group (A9), stage >= 2 from the intermediate router on.
 */
function walkViolation(g: DragonflyGraph, w: Walk, src: number, dst: number, cls: number, alg: Algorithm): string | null {
  const tag = `${alg} ${src} -> ${dst} class ${cls}`;
  const c = g.config;
  const srcRouter = g.nodeRouter[src]!;
  const dstRouter = g.nodeRouter[dst]!;
  const { hops, eject } = w;
  if (eject.router !== dstRouter || eject.port !== g.nodePort[dst] || eject.count !== 1) {
    return `${tag}: ejects at ${eject.router}.${eject.port} (count ${eject.count}), expected ${dstRouter}.${g.nodePort[dst]}`;
  }
  if (w.phase !== 2) return `${tag}: ends in phase ${w.phase}`;
  const minimal = w.inter === -1;
  if (alg === 'minimal' || alg === 'hash') {
    if (!minimal || w.firstPhase !== 2) return `${tag}: not minimal (phase ${w.firstPhase}, intermediate ${w.inter})`;
  }
  if (minimal !== (w.firstPhase === 2)) return `${tag}: first phase ${w.firstPhase} with intermediate ${w.inter}`;
  const interAt = minimal ? -1 : hops.findIndex((h) => h.router === w.inter);
  if (!minimal && interAt < 0) return `${tag}: never visits its intermediate router ${w.inter}`;
  if (!minimal && (w.inter === srcRouter || w.inter === dstRouter)) return `${tag}: intermediate is an end router`;
  const seq = [...hops, eject];
  let segGreen = 0;
  let segBlack = 0;
  let globals = 0;
  let prevVc = 4 * cls;
  let afterGlobalOf = -1;
  for (let i = 0; i < seq.length; i++) {
    const h = seq[i]!;
    if (h.vc < 4 * cls || h.vc > 4 * cls + 3) return `${tag}: hop ${i} on VC ${h.vc}`;
    if (h.vc < prevVc) return `${tag}: VC falls ${prevVc} -> ${h.vc} at hop ${i}`;
    if (afterGlobalOf >= 0 && h.vc <= afterGlobalOf) return `${tag}: VC ${h.vc} does not rise after the global hop on VC ${afterGlobalOf}`;
    prevVc = h.vc;
    afterGlobalOf = -1;
    if (minimal && h.vc !== 4 * cls + globals) return `${tag}: minimal hop ${i} on VC ${h.vc} after ${globals} global hops`;
    if (!minimal && interAt >= 0) {
      if (i >= interAt && h.vc < 4 * cls + 2) return `${tag}: VC ${h.vc} at or after the intermediate router`;
      if (i < interAt && h.vc > 4 * cls + 1) return `${tag}: VC ${h.vc} before the intermediate router`;
    }
    if (i === seq.length - 1) break; // the ejection
    const gp = h.router * g.radix + h.port;
    const pc = g.portClass[gp]!;
    const peer = g.peerRouter[gp]!;
    const want = pc === DF_BLACK ? c.blackLinks : 1;
    if (pc !== DF_GREEN && pc !== DF_BLACK && pc !== DF_GLOBAL) return `${tag}: hop ${i} on port ${h.router}.${h.port} of class ${pc}`;
    if (h.count !== want) return `${tag}: hop ${i} group of ${h.count} ports, expected ${want}`;
    if (pc === DF_BLACK && (h.port - g.blackBase) % c.blackLinks !== 0) return `${tag}: hop ${i} port ${h.port} is not the first of its black group`;
    for (let j = 1; j < h.count; j++) {
      if (g.peerRouter[gp + j] !== peer || g.portClass[gp + j] !== pc) return `${tag}: hop ${i} parallel port ${j} leads elsewhere`;
    }
    if (pc === DF_GLOBAL) {
      globals++;
      segGreen = 0;
      segBlack = 0;
      afterGlobalOf = h.vc;
    } else if (pc === DF_GREEN) {
      segGreen++;
      if (minimal && segBlack > 0) return `${tag}: minimal route takes a green hop after a black one in a group`;
    } else {
      segBlack++;
    }
    if (minimal ? segGreen > 1 || segBlack > 1 : segGreen > 2 || segBlack > 2) {
      return `${tag}: ${segGreen} green and ${segBlack} black hops in one group`;
    }
  }
  if (minimal) {
    const want = groupOf(g, srcRouter) === groupOf(g, dstRouter) ? 0 : 1;
    if (globals !== want) return `${tag}: minimal route takes ${globals} global hops, expected ${want}`;
  } else {
    if (hops.length > 10) return `${tag}: non-minimal route of ${hops.length} hops`;
    if (globals > 2) return `${tag}: ${globals} global hops`;
  }
  return null;
}

/** Route of a walk as text, for comparing paths. */
const pathText = (w: Walk): string => [...w.hops, w.eject].map((h) => `${h.router}.${h.port}/${h.vc}`).join(' ');

// ---------------------------------------------------------------------------------------------
// channel dependency graph

interface Router {
  route: DfRoute;
  /** Load view per walk (called once before each walk). */
  load: () => LoadView;
  /** Salts per (src, dst, class). */
  salts: number;
}

/**
 * Channel dependency graph of the union of `routers` over every (src, dst) pair and both VC
 * classes. Channels are (global port, vc), the ejection ports included; every port of a parallel
 * group counts, since the router may pick any. Returns the number of channels left after a
 * topological sort (0 = acyclic), the channel and edge counts, and how many walks were non-minimal.
 */
function dependencyCycles(g: DragonflyGraph, routers: Router[], seed: number): { cyclic: number; channels: number; edges: number; nonMinimal: number; walks: number } {
  const pool = new PacketPool(8, 16);
  const rng = new Prng(seed);
  const nv = DRAGONFLY_VCS;
  const succ = new Map<number, Set<number>>();
  const addEdge = (a: number, b: number): void => {
    let s = succ.get(a);
    if (!s) succ.set(a, (s = new Set()));
    s.add(b);
  };
  const channelsOf = (h: Hop): number[] => {
    const out: number[] = [];
    for (let j = 0; j < h.count; j++) out.push((h.router * g.radix + h.port + j) * nv + h.vc);
    return out;
  };
  let nonMinimal = 0;
  let walks = 0;
  for (const rt of routers) {
    for (let cls = 0; cls < 2; cls++) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          for (let k = 0; k < rt.salts; k++) {
            const w = walk(g, rt.route, pool, s, d, cls, { salt: rng.nextU32(), load: rt.load() });
            walks++;
            if (w.inter !== -1) nonMinimal++;
            const seq = [...w.hops, w.eject];
            for (let i = 0; i + 1 < seq.length; i++) {
              for (const a of channelsOf(seq[i]!)) for (const b of channelsOf(seq[i + 1]!)) addEdge(a, b);
            }
          }
        }
      }
    }
  }
  return { ...sortDependencies(succ), nonMinimal, walks };
}

/** A load view returning pseudo-random loads 0-7 (both minimal and non-minimal adaptive choices occur). */
function randomLoads(seed: number): () => LoadView {
  const rng = new Prng(seed);
  const view: LoadView = { groupLoad: () => rng.nextU32() % 8 };
  return () => view;
}

/** The same routing with the VC stages ignored: every hop on VC 4 * class. */
const flatVc =
  (fn: DfRoute): DfRoute =>
  (g, router, pkts, p, out, load) => {
    fn(g, router, pkts, p, out, load);
    out.vc = 4 * pkts.vcClass[p]!;
  };

/**
 * First-hop global ports (router * radix + port) of every minimal route from router `cur` to the
 * router of node `dst`, over every gateway between the two groups: the minimal routing function
 * run with its gateway preset in rGate.
 */
function minimalFirstHops(g: DragonflyGraph, pool: PacketPool, cur: number, dst: number): Set<number> {
  const minimal = routeOf('minimal');
  const gc = groupOf(g, cur);
  const gd = groupOf(g, g.nodeRouter[dst]!);
  const gates = gc === gd ? [-1] : [...g.gateways.subarray((gc * g.config.groups + gd) * g.linksPerPair, (gc * g.config.groups + gd + 1) * g.linksPerPair)];
  const firsts = new Set<number>();
  const out: RouteChoice = { port: -1, count: -1, vc: -1 };
  const p = pool.alloc();
  for (const gw of gates) {
    pool.src[p] = 0;
    pool.dst[p] = dst;
    pool.vcClass[p] = 0;
    pool.startRoute(p, 0);
    pool.rGate[p] = gw;
    pool.ordered[p] = 0;
    minimal(g, cur, pool, p, out, IDLE);
    firsts.add(cur * g.radix + out.port);
  }
  pool.free(p);
  return firsts;
}

// =============================================================================================

describe('dragonfly routing table', () => {
  it('has 8 VCs (A11: 4 request + 4 response) and the four algorithms; unknown names throw a RangeError', () => {
    expect(dragonflyRouting.vcs).toBe(8);
    expect(DRAGONFLY_VCS).toBe(8);
    expect(Object.keys(dragonflyRouting.algorithms).sort()).toEqual(['adaptive', 'hash', 'minimal', 'valiant']);
    expect(() => pickRouting(dragonflyRouting, 'dragonfly', 'dor')).toThrow(RangeError);
    expect(() => pickRouting(dragonflyRouting, 'dragonfly', 'dor')).toThrow(/unknown routing "dor" for dragonfly; valid: minimal, valiant, adaptive, hash/);
  });
});

describe('buildDragonfly', () => {
  it.each(SMALL)('keeps every invariant on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    expect(builderViolations(g)).toEqual([]);
    expect(cables(g)).toBe((cfg.cablesPerPair * cfg.groups * (cfg.groups - 1)) / 2);
    // links spread over the group's routers: each has floor or ceil of the average
    const per = globalLinksPerRouter(g);
    const avg = (g.linksPerPair * (cfg.groups - 1)) / g.routersPerGroup;
    expect(Math.max(...per)).toBeLessThanOrEqual(Math.ceil(avg));
    expect(Math.min(...per)).toBeGreaterThanOrEqual(Math.floor(avg));
  });

  it('lays out ports as nodes, green, black, global (dragonflyLayout)', () => {
    expect(dragonflyLayout(realCfg(6, 48))).toEqual({ greenBase: 4, blackBase: 19, globalBase: 34, radix: 44 });
    const c = SMALL[0]!.cfg;
    expect(dragonflyLayout(c)).toEqual({ greenBase: 2, blackBase: 4, globalBase: 6, radix: 10 });
  });

  it('maxCablesPerPair is floor(cables per group / (groups - 1)) (A16): 48 for 6 groups and 34 for 8 with the real sizes', () => {
    expect(maxCablesPerPair({ ...REAL, groups: 6 })).toBe(48);
    expect(maxCablesPerPair({ ...REAL, groups: 8 })).toBe(34);
    for (let G = 2; G <= 241; G++) expect(maxCablesPerPair({ ...REAL, groups: G })).toBe(Math.floor(240 / (G - 1)));
    expect(maxCablesPerPair({ ...REAL, groups: 242 })).toBe(0); // A1: at most 241 groups
    expect(maxCablesPerPair({ ...REAL, groups: 1 })).toBe(0);
  });

  it('total cables = cablesPerPair * G * (G - 1) / 2 (seed Table 2: 6 groups x 12 -> 180, 8 groups x 12 -> 336)', () => {
    expect(cables(buildDragonfly(realCfg(6, 12, 1)))).toBe(180);
    expect(cables(buildDragonfly(realCfg(8, 12, 1)))).toBe(336);
    expect(cables(buildDragonfly(realCfg(6, 48, 1)))).toBe(720); // Table 3: full 6-group system
    expect(cables(buildDragonfly(realCfg(8, 34, 1)))).toBe(952); // Table 3: full 8-group system
  });

  it.each([
    ['cablesPerPair', { ...realCfg(6, 49) }],
    ['cablesPerPair', { ...realCfg(8, 35) }],
    ['cablesPerPair', { ...realCfg(3, 0) }],
    ['cablesPerPair', { ...realCfg(3, 1.5) }],
    ['groups', { ...realCfg(1, 0), groups: 0 }],
    ['groups', { ...realCfg(2, 1), groups: -1 }],
    ['chassis', { ...realCfg(2, 1, 1), chassis: 0 }],
    ['routersPerChassis', { ...realCfg(2, 1, 1), routersPerChassis: 2.5 }],
    ['blackLinks', { ...realCfg(2, 1, 1), blackLinks: 0 }],
    ['linksPerCable', { ...realCfg(2, 1, 1), linksPerCable: 0 }],
    ['nodesPerRouter', { ...realCfg(2, 1, 1), nodesPerRouter: 0 }],
    ['globalPorts', { ...realCfg(2, 1, 1), globalPorts: -1 }],
    ['nodes', { ...realCfg(2, 1), nodes: 2 * 384 + 1 }],
    ['nodes', { ...realCfg(2, 1), nodes: 0 }],
  ] as [string, DragonflyConfig][])('rejects a bad %s with a RangeError naming it', (field, cfg) => {
    expect(() => buildDragonfly(cfg)).toThrow(RangeError);
    expect(() => buildDragonfly(cfg)).toThrow(new RegExp(`dragonfly\\.${field} `));
  });

  it('accepts the largest cablesPerPair and a single group without cables', () => {
    expect(buildDragonfly(realCfg(6, 48)).linksPerPair).toBe(192);
    expect(buildDragonfly(realCfg(8, 34)).linksPerPair).toBe(136);
    const one = buildDragonfly(realCfg(1, 0));
    expect(one.linksPerPair).toBe(0);
    expect(builderViolations(one)).toEqual([]);
  });
});

describe('buildDragonfly at the real group size (6 x 16 Aries, 3 black links, 10 global ports, 4 links per cable)', () => {
  it('6 groups x 12 cables (partial): invariants, 180 cables, global links spread over the 96 routers', () => {
    const g = buildDragonfly(realCfg(6, 12));
    expect(g.nodes).toBe(6 * 384); // A1: 384 nodes, 96 Aries per group
    expect(g.routersPerGroup).toBe(96);
    expect(builderViolations(g)).toEqual([]);
    expect(g.linksPerPair).toBe(48);
    expect(cables(g)).toBe(180);
    const per = globalLinksPerRouter(g);
    const total = 12 * 4 * 5; // global links per group
    expect(Math.max(...per)).toBeLessThanOrEqual(Math.ceil(total / 96) + 1);
    expect(Math.min(...per)).toBeGreaterThanOrEqual(Math.floor(total / 96));
  });

  it('6 groups x 48 cables (max): every router has all 10 global ports wired, reaching every other group (A9), diameter 3', () => {
    const g = buildDragonfly(realCfg(6, 48));
    expect(builderViolations(g)).toEqual([]);
    expect(cables(g)).toBe(720);
    const per = globalLinksPerRouter(g);
    expect(per.every((n) => n === 10)).toBe(true);
    const missing: number[] = [];
    for (let r = 0; r < g.routers; r++) if (groupsReached(g, r).size !== 5) missing.push(r);
    expect(missing).toEqual([]);
    // a direct global link from every router to every other group: at most 3 router hops between any two routers
    let inGroup = 0;
    let across = 0;
    for (let r = 0; r < g.routers; r++) {
      const dist = routerDistances(g, r);
      for (let t = 0; t < g.routers; t++) {
        const d = dist[t]!;
        if (groupOf(g, t) === groupOf(g, r)) inGroup = Math.max(inGroup, d);
        else across = Math.max(across, d);
      }
    }
    expect(inGroup).toBe(2);
    expect(across).toBe(3);
  });

  it.each([2, 6, 8, 12, 14])('with max cables for %i groups every router reaches min(its global links, G - 1) other groups', (G) => {
    const g = buildDragonfly(realCfg(G, maxCablesPerPair({ ...REAL, groups: G }), 1));
    const per = globalLinksPerRouter(g);
    const short: number[] = [];
    for (let r = 0; r < g.routers; r++) if (groupsReached(g, r).size < Math.min(per[r]!, G - 1)) short.push(r);
    expect(short).toEqual([]);
  });

  // Regression: global links were once placed so that, when G - 1 divides 96, all of a router's
  // links led to one group.
  it.each([3, 4, 5, 7, 9, 10, 11, 13])('with max cables for %i groups every router reaches min(its global links, G - 1) other groups', (G) => {
    const g = buildDragonfly(realCfg(G, maxCablesPerPair({ ...REAL, groups: G }), 1));
    const per = globalLinksPerRouter(g);
    const short: number[] = [];
    for (let r = 0; r < g.routers; r++) if (groupsReached(g, r).size < Math.min(per[r]!, G - 1)) short.push(r);
    expect(short).toEqual([]);
  });
});

describe.each(SMALL)('dragonfly route walks on $name', ({ cfg }) => {
  const g = buildDragonfly(cfg);

  it.each(ALGORITHMS)('%s: every pair, both classes, first and last parallel port: reaches the node, hop and VC rules hold', (alg) => {
    const route = routeOf(alg);
    const pool = new PacketPool(8, 16);
    const rng = new Prng(0xdf + alg.length);
    const bad: string[] = [];
    let nonMinimal = 0;
    let walks = 0;
    for (const last of [false, true]) {
      for (let cls = 0; cls < 2; cls++) {
        for (let s = 0; s < g.nodes; s++) {
          for (let d = 0; d < g.nodes; d++) {
            const w = walk(g, route, pool, s, d, cls, { salt: rng.nextU32(), last });
            walks++;
            if (w.inter !== -1) nonMinimal++;
            const v = walkViolation(g, w, s, d, cls, alg);
            if (v && bad.length < 10) bad.push(v);
          }
        }
      }
    }
    expect(bad).toEqual([]);
    expect(walks).toBe(4 * g.nodes * g.nodes);
    if (alg === 'valiant') expect(nonMinimal).toBeGreaterThan(walks / 2); // the intermediate is rarely an end router
    if (alg === 'minimal' || alg === 'hash') expect(nonMinimal).toBe(0);
  });

  it('minimal takes exactly the hops a direct route needs: within a group one green if the slots differ, one black if the chassis do', () => {
    const pool = new PacketPool(8, 16);
    const R = cfg.routersPerChassis;
    const RG = g.routersPerGroup;
    const bad: string[] = [];
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        const a = g.nodeRouter[s]!;
        const b = g.nodeRouter[d]!;
        if (groupOf(g, a) !== groupOf(g, b)) continue;
        const want = ((a % RG) % R !== (b % RG) % R ? 1 : 0) + (Math.floor((a % RG) / R) !== Math.floor((b % RG) / R) ? 1 : 0);
        const w = walk(g, routeOf('minimal'), pool, s, d, 0, { salt: s * 977 + d });
        if (w.hops.length !== want && bad.length < 5) bad.push(`${s} -> ${d}: ${w.hops.length} hops, expected ${want}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('hash: the same path for the same (src, dst) whatever rSalt', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(7);
    const bad: string[] = [];
    for (let cls = 0; cls < 2; cls++) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          const ref = pathText(walk(g, routeOf('hash'), pool, s, d, cls, { salt: rng.nextU32() }));
          for (let k = 0; k < 3; k++) {
            const other = pathText(walk(g, routeOf('hash'), pool, s, d, cls, { salt: rng.nextU32() }));
            if (other !== ref && bad.length < 5) bad.push(`${s} -> ${d}: ${ref} vs ${other}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('hashed and salted gateways', () => {
  const g = buildDragonfly(SMALL[1]!.cfg); // 5 groups, 6 links per pair

  it('minimal spreads packets of one (src, dst) pair over the gateways by rSalt; hash keeps one, also for minimal with ordered set', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(11);
    const s = 0;
    const d = g.nodes - 1; // another group
    expect(groupOf(g, g.nodeRouter[s]!)).not.toBe(groupOf(g, g.nodeRouter[d]!));
    const minimal = new Set<string>();
    const ordered = new Set<string>();
    const hash = new Set<string>();
    for (let k = 0; k < 64; k++) {
      const salt = rng.nextU32();
      minimal.add(pathText(walk(g, routeOf('minimal'), pool, s, d, 0, { salt })));
      ordered.add(pathText(walk(g, routeOf('minimal'), pool, s, d, 0, { salt, ordered: 1 })));
      hash.add(pathText(walk(g, routeOf('hash'), pool, s, d, 0, { salt })));
    }
    expect(minimal.size).toBeGreaterThan(1);
    expect(hash.size).toBe(1);
    expect([...ordered]).toEqual([...hash]);
  });

  // Regression: ordered packets take the hashed minimal path whatever the algorithm.
  it.each(["adaptive", "valiant"] as const)('%s routes a packet with ordered = 1 over the one hashed path', (alg) => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(12);
    const bad: string[] = [];
    for (let s = 0; s < g.nodes; s += 3) {
      for (let d = 0; d < g.nodes; d += 5) {
        const hash = pathText(walk(g, routeOf('hash'), pool, s, d, 0, { salt: 1 }));
        for (let k = 0; k < 4; k++) {
          const w = pathText(walk(g, routeOf(alg), pool, s, d, 0, { salt: rng.nextU32(), ordered: 1 }));
          if (w !== hash && bad.length < 3) bad.push(`${s} -> ${d}: ${w} vs hashed ${hash}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('dragonfly channel dependency graph', () => {
  it.each(SMALL)('is acyclic for minimal + valiant + adaptive (random loads) + hash together on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    const idle = (): LoadView => IDLE;
    const r = dependencyCycles(
      g,
      [
        { route: routeOf('minimal'), load: idle, salts: 4 },
        { route: routeOf('valiant'), load: idle, salts: 8 },
        { route: routeOf('adaptive'), load: randomLoads(cfg.groups), salts: 8 },
        { route: routeOf('hash'), load: idle, salts: 1 },
      ],
      42,
    );
    expect(r.edges).toBeGreaterThan(0);
    expect(r.nonMinimal).toBeGreaterThan(0);
    expect(r.nonMinimal).toBeLessThan(r.walks);
    expect(r.cyclic).toBe(0);
  });

  it('adaptive with random loads makes both minimal and non-minimal choices', () => {
    const g = buildDragonfly(SMALL[0]!.cfg);
    const r = dependencyCycles(g, [{ route: routeOf('adaptive'), load: randomLoads(5), salts: 2 }], 5);
    expect(r.nonMinimal).toBeGreaterThan(r.walks / 20);
    expect(r.nonMinimal).toBeLessThan(r.walks - r.walks / 20);
    expect(r.cyclic).toBe(0);
  });

  it.each(MULTI.slice(0, 3))('the check can fail: every hop on VC 4 * class (stages ignored) has a cycle on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    const idle = (): LoadView => IDLE;
    const r = dependencyCycles(
      g,
      [
        { route: flatVc(routeOf('minimal')), load: idle, salts: 2 },
        { route: flatVc(routeOf('valiant')), load: idle, salts: 2 },
        { route: flatVc(routeOf('adaptive')), load: randomLoads(3), salts: 2 },
      ],
      43,
    );
    expect(r.cyclic).toBeGreaterThan(0);
  });
});

describe('adaptive routing and load', () => {
  it.each(MULTI)('goes non-minimal when every minimal first hop is loaded, on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    const pool = new PacketPool(8, 16);
    const scratch = new PacketPool(8, 16);
    const rng = new Prng(99);
    const bad: string[] = [];
    let nonMinimal = 0;
    let candidates = 0;
    let avoided = 0;
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        const src = g.nodeRouter[s]!;
        const hot = minimalFirstHops(g, scratch, src, d);
        const load: LoadView = { groupLoad: (first) => (hot.has(first) ? 1e6 : 0) };
        const w = walk(g, routeOf('adaptive'), pool, s, d, 0, { salt: rng.nextU32(), load });
        const v = walkViolation(g, w, s, d, 0, 'adaptive');
        if (v && bad.length < 5) bad.push(v);
        if (src === g.nodeRouter[d]) {
          // ejecting at the source router is minimal whatever the load
          if ((w.firstPhase !== 2 || w.inter !== -1) && bad.length < 5) bad.push(`${s} -> ${d}: same router, not minimal`);
          continue;
        }
        candidates++;
        const first = w.hops[0]!;
        if (!hot.has(src * g.radix + first.port)) avoided++;
        if (w.firstPhase === 1) nonMinimal++;
        else if (!hot.has(src * g.radix + first.port) && bad.length < 5) bad.push(`${s} -> ${d}: minimal route avoids every minimal first hop`);
      }
    }
    expect(bad).toEqual([]);
    expect(nonMinimal).toBeGreaterThan(0);
    // In small groups the minimal first hops over all gateways cover most ports, so the
    // non-minimal candidates often share a loaded first hop (then the shorter route wins); some
    // packets escape the load all the same.
    expect(avoided).toBeGreaterThan(0);
    expect(avoided).toBeLessThanOrEqual(nonMinimal);
    // far more than on an idle network (a few per cent, see below)
    expect(nonMinimal).toBeGreaterThan(candidates / 4);
  });

  /** Walks every pair with adaptive routing on an idle network; returns the non-minimal walks. */
  function idleNonMinimal(cfg: DragonflyConfig, sameGroup: boolean | null): string[] {
    const g = buildDragonfly(cfg);
    const pool = new PacketPool(8, 16);
    const rng = new Prng(2024);
    const found: string[] = [];
    for (let cls = 0; cls < 2; cls++) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          const same = groupOf(g, g.nodeRouter[s]!) === groupOf(g, g.nodeRouter[d]!);
          if (sameGroup !== null && same !== sameGroup) continue;
          const w = walk(g, routeOf('adaptive'), pool, s, d, cls, { salt: rng.nextU32() });
          if (w.phase !== 2 || w.inter !== -1) found.push(`${s} -> ${d} class ${cls}: via router ${w.inter}, ${w.hops.length} hops`);
        }
      }
    }
    return found;
  }

  it.each(SMALL)('with all loads 0 stays minimal within a group (rPhase 2, rInter -1), on $name', ({ cfg }) => {
    expect(idleNonMinimal(cfg, true)).toEqual([]);
  });

  it.each(MULTI)('with all loads 0 and adaptiveBias 4 stays minimal between groups too, on $name', ({ cfg }) => {
    // a minimal route has at most 5 hops and a non-minimal one between groups at least 2, so a
    // bias above 3 makes every non-minimal candidate dearer on an idle network
    expect(idleNonMinimal({ ...cfg, adaptiveBias: 4 }, null)).toEqual([]);
  });

  // Why the xc30 preset's adaptiveBias is 4: with no bias an idle network still sends a few
  // packets non-minimally (a Valiant candidate through a router that holds a gateway can cost
  // less than a minimal route with local hops at both ends). Seed "Cray XC Routing": "packets will
  // take a minimal path until the load on these paths increases".
  it.fails.each(MULTI.slice(0, 2).map(({ name, cfg }) => ({ name, bias: '0', cfg: { ...cfg, adaptiveBias: 0 } })))('with all loads 0 and adaptiveBias $bias stays minimal between groups, on $name', ({ cfg }) => {
    expect(idleNonMinimal(cfg, false)).toEqual([]);
  });
});

describe('minimal routes on the real full 6-group system', () => {
  const g = buildDragonfly(realCfg(6, 48));

  it('a minimal route between groups is at most 5 hops (A22: at most 500 ns at about 100 ns per hop)', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(6);
    let longest = 0;
    for (let a = 0; a < g.routers; a += 5) {
      for (let b = 3; b < g.routers; b += 7) {
        const w = walk(g, routeOf('minimal'), pool, a * 4, b * 4, 0, { salt: rng.nextU32() });
        expect(w.eject.router).toBe(b);
        longest = Math.max(longest, w.hops.length);
      }
    }
    expect(longest).toBeLessThanOrEqual(5);
  });

  // Regression (seed A9): minimal routes use the nearest gateway, so a full 6-group system, where
  // every Aries links to every other group, has minimal paths of at most 3 hops.
  it('a minimal route between groups is at most 3 hops (A9)', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(6);
    let longest = 0;
    for (let a = 0; a < g.routers; a += 5) {
      for (let b = 3; b < g.routers; b += 7) {
        if (groupOf(g, a) === groupOf(g, b)) continue;
        const w = walk(g, routeOf('minimal'), pool, a * 4, b * 4, 0, { salt: rng.nextU32() });
        longest = Math.max(longest, w.hops.length);
      }
    }
    expect(longest).toBeLessThanOrEqual(3);
  });
});
