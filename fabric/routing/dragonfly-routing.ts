import type { PacketPool } from '../packet.ts';
import { NEAR, type DragonflyGraph } from '../topology/dragonfly.ts';
import { mix, modU32, type LoadView, type RouteChoice, type RoutingTable } from './routing.ts';

/**
 * Dragonfly VC layout (seed 001, A11: 4 request + 4 response VCs): vc = 4 * class + stage. The
 * stage rises by one on every global hop and jumps to 2 at a Valiant intermediate router, so a
 * packet's stages never fall; within one stage a packet takes one green-then-black segment of
 * local hops at most, so the channel dependency graph is acyclic.
 */
export const DRAGONFLY_VCS = 8;

/** Routing phase of a packet: not yet decided, toward its intermediate router, toward its destination (a const enum: literals on the hot path). */
const enum Phase {
  Undecided = 0,
  ToInter = 1,
  ToDest = 2,
}


/** The router of global port `gp` (router * radix + port), such as a gateway. */
function routerOf(g: DragonflyGraph, gp: number): number {
  return (gp / g.radix) | 0;
}

/** Local hops (0-2) between two routers of one group: one green if the slots differ, one black if the chassis do. */
function localHops(g: DragonflyGraph, a: number, b: number): number {
  return (g.routerSlot[a] !== g.routerSlot[b] ? 1 : 0) + (g.routerChassis[a] !== g.routerChassis[b] ? 1 : 0);
}

/** First local step from `a` toward `b` (same group, a != b): green to the slot first, then black. */
function localStep(g: DragonflyGraph, a: number, b: number, out: RouteChoice): void {
  const sa = g.routerSlot[a]!;
  const sb = g.routerSlot[b]!;
  if (sa !== sb) {
    out.port = g.greenBase + (sb < sa ? sb : sb - 1);
    out.count = 1;
    return;
  }
  const ca = g.routerChassis[a]!;
  const cb = g.routerChassis[b]!;
  out.port = g.blackBase + (cb < ca ? cb : cb - 1) * g.config.blackLinks;
  out.count = g.config.blackLinks;
}

/**
 * A minimal gateway (global port id) from router `cur` to group `to`: one of the nearest gateways
 * of the minimal-route table, picked by `salt`.
 */
function gateway(g: DragonflyGraph, cur: number, to: number, salt: number): number {
  const row = cur * g.config.groups + to;
  return g.nearGateways[row * NEAR + modU32(mix(salt, 0x100 + to), g.nearCount[row]!)]!;
}

/** Router hops of a minimal route from router a to router b through gateway `gw` (if groups differ). */
function minimalHops(g: DragonflyGraph, a: number, b: number, gw: number): number {
  if (g.routerGroup[a] === g.routerGroup[b]) return localHops(g, a, b);
  const gwRouter = routerOf(g, gw);
  return localHops(g, a, gwRouter) + 1 + localHops(g, g.peerRouter[gw]!, b);
}

/** First hop (port group) from router `cur` toward router `target` via gateway `gw`; count 0 if cur is target. */
function firstHop(g: DragonflyGraph, cur: number, target: number, gw: number, out: RouteChoice): void {
  out.count = 0;
  if (cur === target) return;
  if (g.routerGroup[cur] === g.routerGroup[target]) {
    localStep(g, cur, target, out);
  } else if (routerOf(g, gw) === cur) {
    out.port = gw % g.radix;
    out.count = 1;
  } else {
    localStep(g, cur, routerOf(g, gw), out);
  }
}

/**
 * Path cost for source-adaptive choice: (1 + near-end load + far-end load) x hops, where the
 * near-end load is that of the first hop and the far-end load that of the global link the path
 * leaves the group by (seed 001, "Cray XC Routing": link loads combine near-end, downstream and
 * estimated far-end load, one local and two remote metrics); `scratch` is overwritten.
 */
function cost(g: DragonflyGraph, cur: number, target: number, gw: number, hops: number, load: LoadView, scratch: RouteChoice): number {
  firstHop(g, cur, target, gw, scratch);
  let l = scratch.count === 0 ? 0 : load.groupLoad(cur * g.radix + scratch.port, scratch.count);
  if (gw >= 0 && scratch.port !== gw % g.radix) l += load.groupLoad(gw, 1);
  return (1 + l) * Math.max(1, hops);
}

/** Sets a packet's route at its source router; `scratch` may be overwritten. */
type Decide = (g: DragonflyGraph, cur: number, pk: PacketPool, p: number, load: LoadView, scratch: RouteChoice) => void;

/** Sends packet p from its source router along the routing state set by `decide`. */
function route(g: DragonflyGraph, cur: number, pk: PacketPool, p: number, out: RouteChoice, load: LoadView, decide: Decide): void {
  const cls = pk.vcClass[p]!;
  if (pk.rPhase[p] === Phase.Undecided) (pk.ordered[p] ? hashDecide : decide)(g, cur, pk, p, load, out);
  const dst = pk.dst[p]!;
  const dstRouter = g.nodeRouter[dst]!;
  if (pk.rPhase[p] === Phase.ToInter && cur === pk.rInter[p]) {
    pk.rPhase[p] = Phase.ToDest;
    if (pk.rStage[p]! < 2) pk.rStage[p] = 2;
    pk.rGate[p] = -1;
  }
  const target = pk.rPhase[p] === Phase.ToInter ? pk.rInter[p]! : dstRouter;
  const stage = pk.rStage[p]!;
  out.vc = 4 * cls + stage;
  if (cur === target) {
    // only reached toward the destination: eject
    out.port = g.nodePort[dst]!;
    out.count = 1;
    return;
  }
  const gc = g.routerGroup[cur]!;
  const gt = g.routerGroup[target]!;
  if (gc === gt) {
    localStep(g, cur, target, out);
    return;
  }
  let gw = pk.rGate[p]!;
  let gwRouter = gw < 0 ? -1 : routerOf(g, gw);
  if (gw < 0 || g.routerGroup[gwRouter] !== gc) {
    gw = gateway(g, cur, gt, pk.ordered[p] ? Math.imul(pk.src[p]! + 1, 0x9e3779b1) ^ dst : pk.rSalt[p]!);
    pk.rGate[p] = gw;
    gwRouter = routerOf(g, gw);
  }
  if (cur === gwRouter) {
    out.port = gw - gwRouter * g.radix;
    out.count = 1;
    pk.rStage[p] = stage + 1; // the next group is one stage up
    pk.rGate[p] = -1;
    return;
  }
  localStep(g, cur, gwRouter, out);
}

const minimalDecide: Decide = (_g, _cur, pk, p) => {
  pk.rPhase[p] = Phase.ToDest;
};

/** Valiant: an intermediate router drawn uniformly from the whole system (seed 001: "an intermediate Aries anywhere in the system"). */
const valiantDecide: Decide = (g, cur, pk, p) => {
  const inter = modU32(mix(pk.rSalt[p]!, 1), g.routers);
  if (inter === cur || inter === g.nodeRouter[pk.dst[p]!]) {
    pk.rPhase[p] = Phase.ToDest;
  } else {
    pk.rPhase[p] = Phase.ToInter;
    pk.rInter[p] = inter;
  }
};

/**
 * Source-adaptive (seed 001: "two minimal and two non-minimal routes ... the path with the
 * lightest load is selected"): cost = (1 + first-hop load) x hops; non-minimal candidates pay
 * `adaptiveBias` extra (biasing toward minimal).
 */
const adaptiveDecide: Decide = (g, cur, pk, p, load, scratch) => {
  const dst = pk.dst[p]!;
  const dstRouter = g.nodeRouter[dst]!;
  const salt = pk.rSalt[p]!;
  const gc = g.routerGroup[cur]!;
  const gd = g.routerGroup[dstRouter]!;
  let best = Infinity;
  let bestGate = -1;
  let bestInter = -1;
  for (let k = 0; k < 2; k++) {
    const gw = gc === gd ? -1 : gateway(g, cur, gd, mix(salt, 10 + k));
    if (k === 1 && gw === bestGate) break; // the same route again
    const hops = minimalHops(g, cur, dstRouter, gw);
    // its cost is at least its hop count (loads are never negative)
    if (Math.max(1, hops) >= best) continue;
    const c = cost(g, cur, dstRouter, gw, hops, load, scratch);
    if (c < best) {
      best = c;
      bestGate = gw;
    }
    if (gc === gd) break; // one minimal route inside a group
  }
  // a non-minimal route takes at least 2 hops, so it costs at least 2 + bias: no need to look
  const bias = g.config.adaptiveBias;
  for (let k = 0; k < 2 && best > 2 + bias; k++) {
    const inter = modU32(mix(salt, 20 + k), g.routers);
    if (inter === cur || inter === dstRouter) continue;
    const gi = g.routerGroup[inter]!;
    const gw1 = gc === gi ? -1 : gateway(g, cur, gi, salt);
    const gw2 = gi === gd ? -1 : gateway(g, inter, gd, salt);
    const hops = minimalHops(g, cur, inter, gw1) + minimalHops(g, inter, dstRouter, gw2);
    // its cost is at least hops + bias (loads are never negative): no need to weigh its load if that loses already
    if (Math.max(1, hops) + bias >= best) continue;
    const c = cost(g, cur, inter, gw1, hops, load, scratch) + bias;
    if (c < best) {
      best = c;
      bestInter = inter;
      bestGate = gw1;
    }
  }
  if (bestInter >= 0) {
    pk.rPhase[p] = Phase.ToInter;
    pk.rInter[p] = bestInter;
  } else {
    pk.rPhase[p] = Phase.ToDest;
  }
  pk.rGate[p] = bestGate;
};

/** Minimal hashed route for traffic that must stay in order (the packet keeps one path). */
const hashDecide: Decide = (_g, _cur, pk, p) => {
  pk.ordered[p] = 1;
  pk.rPhase[p] = Phase.ToDest;
};

/** The dragonfly routing table. */
export const dragonflyRouting: RoutingTable<DragonflyGraph> = {
  vcs: DRAGONFLY_VCS,
  algorithms: {
    minimal: (g, r, pk, p, out, load) => route(g, r, pk, p, out, load, minimalDecide),
    valiant: (g, r, pk, p, out, load) => route(g, r, pk, p, out, load, valiantDecide),
    adaptive: (g, r, pk, p, out, load) => route(g, r, pk, p, out, load, adaptiveDecide),
    hash: (g, r, pk, p, out, load) => route(g, r, pk, p, out, load, hashDecide),
  },
};
