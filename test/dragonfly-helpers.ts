/**
 * What the dragonfly tests share (seed 001, "Dragonfly Implementation" and "Cray XC Routing"; SEED-FIGURES
 * A1, A3, A9, A11, A16): the configurations, the routing functions by name, and step-by-step route
 * walks with the hop and VC rules every route must keep, in the manner of torus-routing.test.ts.
 */
import { PacketPool } from '../fabric/packet.ts';
import { dragonflyRouting } from '../fabric/routing/dragonfly-routing.ts';
import { pickRouting, type LoadView, type RouteChoice, type RouteFn } from '../fabric/routing/routing.ts';
import { DF_BLACK, DF_GLOBAL, DF_GREEN, type DragonflyConfig, type DragonflyGraph } from '../fabric/topology/dragonfly.ts';
import type { Hop } from './helpers.ts';

/** A routing function over a dragonfly. */
export type DfRoute = RouteFn<DragonflyGraph>;
/** The dragonfly's routing algorithms by name (dragonflyRouting). */
export const ALGORITHMS = ['minimal', 'valiant', 'adaptive', 'hash'] as const;
/** One of ALGORITHMS. */
export type Algorithm = (typeof ALGORITHMS)[number];
/** The routing function of algorithm `name`. */
export const routeOf = (name: Algorithm): DfRoute => pickRouting(dragonflyRouting, 'dragonfly', name);

/** A quiet network: every output idle. */
export const IDLE: LoadView = { groupLoad: () => 0 };

/** Seed A1, A3: a group of 6 chassis x 16 Aries, 3 black links, 10 global ports, 4 links per cable, 4 NICs per Aries. */
export const REAL = { chassis: 6, routersPerChassis: 16, blackLinks: 3, globalPorts: 10, linksPerCable: 4, nodesPerRouter: 4, adaptiveBias: 0 } as const;

/** A config with every node slot populated unless `nodes` is given. */
function cfgOf(c: Omit<DragonflyConfig, 'nodes'> & { nodes?: number }): DragonflyConfig {
  return { ...c, nodes: c.nodes ?? c.groups * c.chassis * c.routersPerChassis * c.nodesPerRouter };
}

/** The real group size (REAL) with `groups` groups, `cablesPerPair` cables between each pair of groups, and every node slot populated unless `nodes` is given. */
export function realCfg(groups: number, cablesPerPair: number, nodes?: number): DragonflyConfig {
  return cfgOf({ ...REAL, groups, cablesPerPair, ...(nodes === undefined ? {} : { nodes }) });
}

/** Small dragonflies, one group to five, that every check runs on. */
export const SMALL: { name: string; cfg: DragonflyConfig }[] = [
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
/** The SMALL dragonflies with more than one group. */
export const MULTI = SMALL.filter((t) => t.cfg.groups > 1);

/** Group of `router`. */
export const groupOf = (g: DragonflyGraph, router: number): number => Math.floor(router / g.routersPerGroup);

/** A walked route: its hops, its ejection, and the routing state along it. */
export interface Walk {
  hops: Hop[];
  eject: Hop;
  /** rPhase after the source router's decision, and rPhase / rInter at the end. */
  firstPhase: number;
  phase: number;
  inter: number;
}

/** How `walk` sends its packet. */
export interface WalkOpts {
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
export function walk(g: DragonflyGraph, route: DfRoute, pool: PacketPool, src: number, dst: number, cls: number, o: WalkOpts = {}): Walk {
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
export function walkViolation(g: DragonflyGraph, w: Walk, src: number, dst: number, cls: number, alg: Algorithm): string | null {
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
