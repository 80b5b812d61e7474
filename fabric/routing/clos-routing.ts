import type { PacketPool } from '../packet.ts';
import { CLOS_LEVEL_R1, CLOS_LEVEL_R2, type ClosGraph } from '../topology/clos.ts';
import { mix, modU32, type LoadView, type RouteChoice, type RoutingTable } from './routing.ts';

/*
 * BlackWidow routing (seed 003). The seed's routing section is not part of its text; what it
 * does say: the router "supports deterministic and adaptive packet routing with separate
 * buffering for request and reply virtual channels" (B3), the a bit of the head phit asks for
 * adaptive routing and the h bit for deterministic routing on hash bits (§4.1), and each
 * processor injects into every slice (B5). The routing here follows that and the topology.
 *
 * Port numbering: see ClosGraph in clos.ts (slice s's block of 32 ports at r1UpBase + 32 s on an
 * R1 stack, at 32 s on an R2/R3 stack, down ports first).
 *
 * Slice: the source R1 picks the packet's slice and stores it in PacketPool.rPlane (0xff: not yet
 * chosen); every later group it is given lies in that slice's block. Adaptive: the slice whose
 * first-hop group is least loaded, judged by one port of each group drawn from rSalt, ties broken
 * from rSalt. Deterministic (the `hash` algorithm, or
 * an ordered packet): a hash of (src, dst), so every packet of a pair takes the same slice.
 *
 * Route: a router that is an ancestor of the destination R1 (or that R1 itself) sends the packet
 * down, one port; any other router sends it up (all uplinks of the slice as one group), or across
 * the sidelinks toward the destination's subtree at the rank that has them. Every route is up*,
 * at most one sidelink, then down*: it is minimal, and its channel dependencies only climb levels,
 * cross one sidelink, then descend, so one VC per class (request, response: B3) is deadlock-free.
 * Deterministic routes take one port of every group, picked by a hash of (src, dst) that differs
 * per level, so ordered traffic keeps one path and different pairs spread over the uplinks.
 */

/** VCs per port: request and response (seed 003, B3); vc = vcClass. */
export const CLOS_VCS = 2;

/** PacketPool.rPlane before the slice is chosen. */
const NO_SLICE = 0xff;

/** Purposes of the (src, dst) hash, so every level draws different bits. */
const H_SLICE = 1;
const H_UP1 = 2;
const H_UP2 = 3;
const H_SIDE = 4;


/** Hash of a packet's (src, dst) pair: the same for every packet of the pair. */
function pairHash(pk: PacketPool, p: number): number {
  return mix(pk.src[p]!, pk.dst[p]! ^ 0x5bd1e995);
}

/**
 * Sets `out` to the group packet p takes at router `cur` in slice `s`, toward destination R1 `d`.
 * `det`: one port of each group, picked from `h` (the pair hash); otherwise the whole group.
 */
function hop(g: ClosGraph, cur: number, d: number, dst: number, s: number, det: boolean, h: number, out: RouteChoice): void {
  const B = g.blockPorts;
  const level = g.routerLevel[cur]!;
  if (level === CLOS_LEVEL_R1) {
    if (cur === d) {
      out.port = g.nodePort[dst]!;
      out.count = 1;
      return;
    }
    const block = g.r1UpBase + s * B;
    if (g.rank < 2) {
      // rank 1.5: the sidelinks to the destination R1
      const L = g.side1Links;
      out.port = block + (d < cur ? d : d - 1) * L;
      pickOf(out, L, det, h, H_SIDE);
      return;
    }
    out.port = block;
    pickOf(out, B, det, h, H_UP1);
    return;
  }
  const block = s * B;
  const td = g.r2Subtree[d]!;
  if (level === CLOS_LEVEL_R2) {
    const t = g.r2Subtree[cur]!;
    const down = g.r1sPerR2Subtree;
    if (t === td) {
      out.port = block + (d - td * down);
      out.count = 1;
      return;
    }
    if (g.rank === 2.5) {
      const L = g.side2Links;
      out.port = block + down + (td < t ? td : td - 1) * L;
      pickOf(out, L, det, h, H_SIDE);
      return;
    }
    out.port = block + down;
    pickOf(out, B - down, det, h, H_UP2);
    return;
  }
  // R3: down to the destination's R2 subtree when it lies below, else across to its R3 subtree
  const q = g.r3Subtree[cur]!;
  const qd = g.r3Subtree[d]!;
  const down = g.r2SubtreesPerR3Subtree;
  if (q === qd) {
    out.port = block + (td - qd * down);
    out.count = 1;
    return;
  }
  const L = g.side3Links;
  out.port = block + down + (qd < q ? qd : qd - 1) * L;
  pickOf(out, L, det, h, H_SIDE);
}

/** Offers the `count` ports from out.port as a group, or (deterministic) one of them by hash. */
function pickOf(out: RouteChoice, count: number, det: boolean, h: number, purpose: number): void {
  if (det) {
    out.port += modU32(mix(h, purpose), count);
    out.count = 1;
  } else {
    out.count = count;
  }
}

/** The slice of a packet at its source R1 `cur` (see the header comment). */
function pickSlice(g: ClosGraph, cur: number, d: number, dst: number, pk: PacketPool, p: number, det: boolean, h: number, load: LoadView, out: RouteChoice): number {
  const S = g.slices;
  if (det) return modU32(mix(h, H_SLICE), S);
  const start = modU32(pk.rSalt[p]!, S);
  if (S === 1 || cur === d) return start; // one slice, or a packet that never leaves its R1
  // slice s's first-hop group is slice 0's shifted by s blocks; each slice is judged by one port
  // of its group drawn from the salt (the same position in every slice), not by a scan of all
  hop(g, cur, d, dst, 0, false, 0, out);
  const first = cur * g.radix + out.port + (out.count > 1 ? modU32(mix(pk.rSalt[p]!, H_SLICE), out.count) : 0);
  let best = start;
  let bestLoad = Infinity;
  for (let i = 0; i < S; i++) {
    const s = start + i < S ? start + i : start + i - S;
    const l = load.groupLoad(first + s * g.blockPorts, 1);
    if (l < bestLoad) {
      bestLoad = l;
      best = s;
    }
  }
  return best;
}

/** Routes packet p at router `cur`; `hashed` makes every choice deterministic. */
function route(g: ClosGraph, cur: number, pk: PacketPool, p: number, out: RouteChoice, load: LoadView, hashed: boolean): void {
  out.vc = pk.vcClass[p]!;
  const dst = pk.dst[p]!;
  const d = g.nodeRouter[dst]!;
  const det = hashed || pk.ordered[p] !== 0;
  const h = det ? pairHash(pk, p) : 0;
  let s = pk.rPlane[p]!;
  if (s === NO_SLICE) {
    s = pickSlice(g, cur, d, dst, pk, p, det, h, load, out);
    pk.rPlane[p] = s;
  }
  hop(g, cur, d, dst, s, det, h, out);
}

/** The BlackWidow routing table: `adaptive` (groups of parallel ports, least-loaded slice) and `hash` (one hashed path per pair). */
export const closRouting: RoutingTable<ClosGraph> = {
  vcs: CLOS_VCS,
  algorithms: {
    adaptive: (g, r, pk, p, out, load) => route(g, r, pk, p, out, load, false),
    hash: (g, r, pk, p, out, load) => route(g, r, pk, p, out, load, true),
  },
};
