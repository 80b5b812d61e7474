import type { PacketPool } from '../packet.ts';
import { kautzRank, type KautzGraph } from '../topology/kautz.ts';
import { modU32, type RouteChoice, type RoutingTable } from './routing.ts';

/*
 * Kautz source routing (seed 002, §4.1-4.2 and §5).
 *
 * Port numbering (built by kautz.ts): port 0 is the node; out port 1 + j of router s1..sk goes
 * to s2..sk x, x the j-th smallest letter different from sk; ports 1+d..2d are in-links. A hop
 * is therefore named by its selector j (0..d-1): 2 bits per hop, as in the SiCortex route string.
 *
 * Route string (PacketPool.rRoute / rLeft): the first router of a packet (rLeft === 0xff) works
 * out the whole path, takes its first hop at once and stores the other hops, 3 bits each, low
 * bits first: bits 0-1 the selector j of the hop, bit 2 the decrement flag of the router that
 * takes it. rLeft counts the stored hops; a router that finds rLeft === 0 ejects. A route has at
 * most k + 1 hops (multipath), so at most k are stored: 3k <= 30 bits for k <= 10; and 2-bit
 * selectors need d <= 4 (assertKautzRoutable).
 *
 * Forced paths: a packet whose source asks for path j (PacketPool.path; MPI multi-rail, seed 002
 * §6.1) leaves by out-link j mod d and then takes the shortest route, under either algorithm.
 *
 * VC rule (seed 002, §4.2, K7): at router Y, arrived from X and bound for Z, the VC number drops
 * by one when Y > X and Y > Z (router numbers as in kautz.ts: labels in dictionary order); the
 * first router (arrived from the NIC) and the last (bound for the node) never decrement. The
 * route function is not told the input port, so the source, which knows the whole path,
 * precomputes the rule into the decrement flags. A path of h hops has at most ceil((h-1)/2) such
 * peaks; a shortest path (h <= k) at most floor(k/2), so every packet starts on VC number
 * floor(k/2) (the seed's "all packets can be assigned to virtual channel floor(D/2)") and
 * floor(k/2) + 1 VC numbers suffice. Deadlock freedom: VC numbers only fall along a path, and on
 * one VC number a packet never passes a peak, while a cycle of channel dependencies on one VC
 * number would have to pass its largest router, which is a peak of the cycle. So the channel
 * dependency graph is acyclic.
 */

/** VC numbers per class for diameter k: floor(k/2) + 1 (seed 002, K7: 4 for k = 6). */
export function kautzVcsPerClass(diameter: number): number {
  return Math.floor(diameter / 2) + 1;
}

/**
 * VCs per port for diameter k: two classes of kautzVcsPerClass(k); vc = class * perClass +
 * VC number. The seed has one class; the response class (1) is an assumption of phit's NIC
 * model, which must not let responses wait behind requests.
 */
export function kautzVcs(diameter: number): number {
  return 2 * kautzVcsPerClass(diameter);
}

/** VCs of the table, for the SC5832's diameter 6 (RoutingTable.vcs is one number; see kautzVcs). */
export const KAUTZ_VCS = kautzVcs(6);

/** Largest degree whose selectors fit the 2 bits per hop of the route string. */
export const KAUTZ_ROUTE_MAX_DEGREE = 4;
/** Largest diameter whose stored hops (up to k, 3 bits each) fit the 32-bit route string. */
export const KAUTZ_ROUTE_MAX_DIAMETER = 10;

/** Throws a RangeError naming the field if the source routes of a Kautz fabric do not fit the route string. */
export function assertKautzRoutable(degree: number, diameter: number): void {
  if (degree > KAUTZ_ROUTE_MAX_DEGREE) {
    throw new RangeError(`kautz.degree ${degree}: source routes have 2 bits per hop, so at most ${KAUTZ_ROUTE_MAX_DEGREE} out-links`);
  }
  if (diameter > KAUTZ_ROUTE_MAX_DIAMETER) {
    throw new RangeError(`kautz.diameter ${diameter}: source routes fit the 32-bit route string up to diameter ${KAUTZ_ROUTE_MAX_DIAMETER}`);
  }
}

/** Letters shared by a route from a to b: the longest suffix of a's label that is a prefix of b's. */
export function kautzOverlap(g: KautzGraph, a: number, b: number): number {
  const k = g.diameter;
  const L = g.labels;
  for (let l = k; l > 0; l--) {
    let i = 0;
    while (i < l && L[a * k + k - l + i] === L[b * k + i]) i++;
    if (i === l) return l;
  }
  return 0;
}

/** Router hops of the shortest route from router a to router b: k - overlap. */
export function kautzDistance(g: KautzGraph, a: number, b: number): number {
  return g.diameter - kautzOverlap(g, a, b);
}

/** Selectors of the shortest route from a to b (2 bits per hop, low first) for its k - l hops. */
function shortestSelectors(g: KautzGraph, a: number, b: number, l: number): number {
  const k = g.diameter;
  const L = g.labels;
  let sels = 0;
  let last = L[a * k + k - 1]!;
  for (let i = l; i < k; i++) {
    const x = L[b * k + i]!;
    sels |= kautzRank(x, last) << (2 * (i - l));
    last = x;
  }
  return sels;
}

/** Label of router r as text, for messages. */
function labelText(g: KautzGraph, r: number): string {
  const k = g.diameter;
  return Array.from(g.labels.subarray(r * k, r * k + k)).join(g.degree < 10 ? '' : '.');
}

/**
 * Route string of the route of `hops` hops with selectors `sels` from router `src`: every hop but
 * the first, 3 bits each (selector, then the decrement flag of the router that takes the hop).
 */
function encodeRoute(g: KautzGraph, src: number, sels: number, hops: number): number {
  const radix = g.radix;
  let word = 0;
  let prev = -1;
  let cur = src;
  for (let i = 0; i < hops; i++) {
    const j = (sels >>> (2 * i)) & 3;
    const next = g.peerRouter[cur * radix + g.outBase + j]!;
    if (i > 0) {
      const dec = cur > prev && cur > next ? 1 : 0;
      word |= (j | (dec << 2)) << (3 * (i - 1));
    }
    prev = cur;
    cur = next;
  }
  return word >>> 0;
}

/** VC decrements a route string asks for: its set flag bits (bits 2, 5, 8, ...). */
function decrements(word: number): number {
  let n = 0;
  for (let w = word; w !== 0; w >>>= 3) n += (w >>> 2) & 1;
  return n;
}

/** Chooses a packet's route at its first router; returns selectors | hops << 24. */
type Choose = (g: KautzGraph, src: number, dst: number, pk: PacketPool, p: number) => number;

const HOPS_SHIFT = 24;

/** The shortest route: after the longest overlap, append the destination's remaining letters one per hop. */
const chooseShortest: Choose = (g, src, dst) => {
  const l = kautzOverlap(g, src, dst);
  return shortestSelectors(g, src, dst, l) | ((g.diameter - l) << HOPS_SHIFT);
};

/**
 * The route that leaves `src` by out-link j, then takes the shortest route (at most k + 1 hops):
 * `shortest` itself when that starts with out-link j. A detour of k + 1 hops can pass
 * floor(k/2) + 1 peaks when k is odd, one more than the VCs allow; such a route falls back to
 * `shortest`, so the VC count stays floor(k/2) + 1 for every k (never for even k, the SC5832's
 * k = 6 included).
 */
function viaOutLink(g: KautzGraph, src: number, dst: number, j: number, shortest: number): number {
  if (src === dst || j === (shortest & 3)) return shortest;
  const via = g.peerRouter[src * g.radix + g.outBase + j]!;
  const l = kautzOverlap(g, via, dst);
  const hops = 1 + g.diameter - l;
  const sels = j | (shortestSelectors(g, via, dst, l) << 2);
  if (decrements(encodeRoute(g, src, sels, hops)) > Math.floor(g.diameter / 2)) return shortest;
  return sels | (hops << HOPS_SHIFT);
}

/**
 * One of d routes that leave by different out-links (after seed 002, §5, K10: "d independent
 * routes"): first hop j = rSalt mod d, then the shortest route from there (see viaOutLink).
 * Only the first links are sure to differ: later hops of the d routes may share routers.
 * Ordered packets always take the shortest route.
 */
const chooseMultipath: Choose = (g, src, dst, pk, p) => {
  const shortest = chooseShortest(g, src, dst, pk, p);
  if (src === dst || pk.ordered[p]) return shortest;
  return viaOutLink(g, src, dst, modU32(pk.rSalt[p]!, g.degree), shortest);
};

/** Routes packet p at `router`: computes its source route at its first router, then follows it. */
function route(g: KautzGraph, router: number, pk: PacketPool, p: number, out: RouteChoice, choose: Choose): void {
  const per = kautzVcsPerClass(g.diameter);
  const base = pk.vcClass[p]! * per;
  const dst = pk.dst[p]!;
  out.count = 1;
  if (pk.rLeft[p] === 0xff) {
    assertKautzRoutable(g.degree, g.diameter);
    const target = g.nodeRouter[dst]!;
    // a path asked for by the source (MPI multi-rail, seed 002 §6.1) overrides the algorithm
    const path = pk.path[p]!;
    const c = path === 0xff ? choose(g, router, target, pk, p) : viaOutLink(g, router, target, path % g.degree, chooseShortest(g, router, target, pk, p));
    const hops = c >>> HOPS_SHIFT;
    const start = per - 1;
    const word = encodeRoute(g, router, c & ((1 << HOPS_SHIFT) - 1), hops);
    const decs = decrements(word);
    if (decs > start) {
      throw new Error(`kautz routing: route ${labelText(g, router)} -> ${labelText(g, target)} decrements the VC ${decs} times, more than ${start}`);
    }
    pk.rRoute[p] = word;
    pk.rLeft[p] = hops > 0 ? hops - 1 : 0;
    out.vc = base + start;
    out.port = hops === 0 ? g.nodePort[dst]! : g.outBase + (c & 3);
    return;
  }
  const left = pk.rLeft[p]!;
  if (left === 0) {
    if (router !== g.nodeRouter[dst]) {
      throw new Error(`kautz routing: route of packet ${p} ends at ${labelText(g, router)}, not at ${labelText(g, g.nodeRouter[dst]!)}`);
    }
    out.port = g.nodePort[dst]!;
    out.vc = pk.vc[p]!;
    return;
  }
  const word = pk.rRoute[p]!;
  pk.rRoute[p] = word >>> 3;
  pk.rLeft[p] = left - 1;
  const vc = pk.vc[p]! - ((word >>> 2) & 1);
  if (vc < base) {
    const from = labelText(g, g.nodeRouter[pk.src[p]!]!);
    throw new Error(`kautz routing: VC number below 0 at ${labelText(g, router)} on the route ${from} -> ${labelText(g, g.nodeRouter[dst]!)}`);
  }
  out.port = g.outBase + (word & 3);
  out.vc = vc;
}

/** Shortest source route on VC number floor(k/2), decremented at peaks (seed 002, §4.2). */
export function kautzShortest(g: KautzGraph, router: number, pk: PacketPool, p: number, out: RouteChoice): void {
  route(g, router, pk, p, out, chooseShortest);
}

/** Source route over one of the d out-links drawn from the packet's salt (seed 002, §5, K10). */
export function kautzMultipath(g: KautzGraph, router: number, pk: PacketPool, p: number, out: RouteChoice): void {
  route(g, router, pk, p, out, chooseMultipath);
}

/** The port packet p, routed at its current router, takes at the next one: read off its route string. */
export function kautzNextPort(g: KautzGraph, pk: PacketPool, p: number): number {
  return pk.rLeft[p] === 0 ? g.nodePort[pk.dst[p]!]! : g.outBase + (pk.rRoute[p]! & 3);
}

/** The Kautz routing table. */
export const kautzRouting: RoutingTable<KautzGraph> = {
  vcs: KAUTZ_VCS,
  algorithms: { shortest: kautzShortest, multipath: kautzMultipath },
};
