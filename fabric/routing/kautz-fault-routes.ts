/**
 * Kautz routes around failed links (seed 002, §5 and §6.3).
 *
 * A Kautz digraph has links one way only, so the up*\/down* detours of fault-routing.ts often
 * find no way back; but it has d independent routes between any two routers even with a link or
 * router failed, and one failure lengthens the diameter by just one hop (§5, after its reference
 * [9]), and the SC5832 was "reconfigured around the failed link" by software (§6.3). So the source,
 * which builds every route (§4.1), picks another shift sequence: where the route its routing
 * gives crosses a failed link, the packet takes the shortest route that avoids every failed link
 * (one that shifts in another letter first: k + 1 or k + 2 hops for one failed link), fixed for
 * the pair and the fault set, so a pair's packets stay in order.
 *
 * VCs: the same rule as kautz-routing.ts (§4.2): the VC number drops by one at a peak, a router
 * greater than the one before and the one after. A longer route can pass one peak more than the
 * floor(k/2) the topology's VC numbers allow, so the fault routing's escape VC of each class
 * (above the topology's VCs) serves as VC number -1: a route starts on floor(k/2) and may
 * decrement floor(k/2) + 1 times. On one VC number no route passes a peak, and a cycle of
 * channels on one VC number would pass its largest router, a peak: the channel dependency graph
 * stays acyclic (deadlock.ts checks it for every fault set). Routes are chosen by a breadth-first
 * search over (router, arrived from a lower router, decrements left), so a route exists within
 * those VC numbers or the fault set is refused naming the pair.
 *
 * A packet routed before a link failed that meets it mid-route takes, from where it is, the
 * shortest route that its VC numbers left allow. Where its VC numbers allow none (a packet on the
 * topology's route keeps it onto the failed link; one already on a route of this scheme goes on
 * by the shortest route its VC numbers allow over the whole digraph, which crosses a failed link,
 * or it would be a route left), it meets the failed link and is lost there as any packet on a
 * link that fails (network.ts): its transaction fails by the NIC timeout. Fault sets only grow, so
 * such a packet never finds a route again further on.
 */
import type { PacketPool } from '../packet.ts';
import type { KautzGraph } from '../topology/kautz.ts';
import { PORT_NODE } from '../topology/port-graph.ts';
import { kautzVcsPerClass } from './kautz-routing.ts';
import type { BoundRoute, LoadView, RouteChoice } from './routing.ts';

/** Distance in a table for a state that cannot reach the destination. */
const FAR = 0xff;
/** PacketPool.rDetour of a packet on a route of this scheme (fault-routing.ts uses 0 to 3). */
export const KAUTZ_REROUTED = 4;
/** PacketPool.rDetour of a packet checked at its first router (fault-routing.ts's Checked). */
const CHECKED = 3;

/** What routing one packet did: followed the topology's route, took another from its source, or changed route mid-way. */
export const enum KautzReroute {
  None = 0,
  AtSource = 1,
  MidRoute = 2,
}

/** Source routes around failed links of a Kautz fabric, wrapped around its own routing. */
export class KautzFaultRoutes {
  /** VC numbers per class of the topology's routing (floor(k/2) + 1). */
  private readonly per: number;
  /** Decrements a route may make: per - 1 on the topology's VCs, one more onto the escape VC. */
  private readonly budget: number;
  /** Router that feeds each in-port (global port id), -1 elsewhere. */
  private readonly prevOf: Int32Array;
  private ports: Uint8Array;
  /** Per destination router: hops to it from state (router, arrived from a lower router, decrements left), FAR if none. */
  private tables = new Map<number, Uint8Array>();
  /** The same over every link, failed or not: the routes of packets left with none (see the header). */
  private readonly allUp: Uint8Array;
  private readonly freeTables = new Map<number, Uint8Array>();
  /** Packets left with no route within their VC numbers, sent on to be lost on a failed link. */
  stranded = 0;

  /**
   * @param innerVcs VCs of the topology's routing: the escape VC of class c is innerVcs + c
   */
  constructor(
    private readonly g: KautzGraph,
    private readonly inner: BoundRoute,
    private readonly innerVcs: number,
  ) {
    this.per = kautzVcsPerClass(g.diameter);
    this.budget = this.per;
    this.ports = new Uint8Array(g.routers * g.radix);
    this.allUp = new Uint8Array(g.routers * g.radix);
    this.prevOf = new Int32Array(g.routers * g.radix).fill(-1);
    for (let r = 0; r < g.routers; r++) {
      for (let j = 0; j < g.degree; j++) {
        const gp = r * g.radix + g.outBase + j;
        this.prevOf[g.peerRouter[gp]! * g.radix + g.peerPort[gp]!] = r;
      }
    }
  }

  /** Takes fault set `ports` (per global port, 1 = down; a failed router's links are all down): routes are chosen afresh. */
  setDown(ports: Uint8Array): void {
    this.ports = ports;
    this.tables.clear();
  }

  /**
   * Throws a RangeError naming the first pair of routers that carry nodes with no route avoiding
   * the failed links within the VC numbers (`when` says which fault set).
   */
  checkRoutes(when: string): void {
    const g = this.g;
    const has = new Uint8Array(g.routers);
    for (let n = 0; n < g.nodes; n++) has[g.nodeRouter[n]!] = 1;
    for (let t = 0; t < g.routers; t++) {
      if (!has[t]) continue;
      const tab = this.tableFor(t);
      for (let s = 0; s < g.routers; s++) {
        if (has[s] && tab[this.state(s, 0, this.budget)] === FAR) {
          throw new RangeError(`faults (${when}): no Kautz route from router ${s} to router ${t} avoids the failed links within ${this.per + 1} VC numbers (the topology's ${this.per} and the escape VC)`);
        }
      }
    }
  }

  /** Routes packet p at `router`; returns whether (and where) it left the topology's route. */
  route(router: number, pk: PacketPool, p: number, out: RouteChoice, load: LoadView): KautzReroute {
    const g = this.g;
    const st = pk.rDetour[p]!;
    if (st === KAUTZ_REROUTED) {
      const level = this.levelOf(pk, p);
      const fromLower = this.fromLower(router, pk.at[p]!);
      if (!this.hop(router, pk, p, out, level, fromLower, this.ports)) this.strand(router, pk, p, out, level, fromLower);
      return KautzReroute.None;
    }
    if (pk.rLeft[p] === 0xff) {
      // the first router: the topology's route, unless it crosses a failed link
      pk.rDetour[p] = CHECKED;
      this.inner(router, pk, p, out, load);
      if (this.clean(router, out.port, pk.rRoute[p]!, pk.rLeft[p]!)) return KautzReroute.None;
      pk.rDetour[p] = KAUTZ_REROUTED;
      // checkRoutes guarantees a route from every router with nodes on the full VC numbers
      if (!this.hop(router, pk, p, out, this.per - 1, 0, this.ports)) this.strand(router, pk, p, out, this.per - 1, 0);
      return KautzReroute.AtSource;
    }
    // on the topology's route (routed before a failure, or checked at its source): its next
    // link, read off the route string, may have failed since
    const next = pk.rLeft[p] === 0 ? -1 : router * g.radix + g.outBase + (pk.rRoute[p]! & 3);
    if (next < 0 || this.ports[next] === 0) {
      this.inner(router, pk, p, out, load);
      return KautzReroute.None;
    }
    if (this.hop(router, pk, p, out, this.levelOf(pk, p), this.fromLower(router, pk.at[p]!), this.ports)) {
      pk.rDetour[p] = KAUTZ_REROUTED;
      return KautzReroute.MidRoute;
    }
    // no route left within its VC numbers: it keeps its route, onto the failed link
    this.stranded++;
    this.inner(router, pk, p, out, load);
    return KautzReroute.None;
  }

  /**
   * Packet p, off the topology's route, has no route left within its VC numbers (level,
   * fromLower: see hop): its next hop is the one of the shortest route those VC numbers allow over
   * every link, failed or not; that route crosses a failed link, where the packet is lost.
   */
  private strand(router: number, pk: PacketPool, p: number, out: RouteChoice, level: number, fromLower: number): void {
    this.stranded++;
    if (!this.hop(router, pk, p, out, level, fromLower, this.allUp)) {
      throw new Error(`Kautz fault routes: no route from router ${router} to router ${this.g.nodeRouter[pk.dst[p]!]} on VC number ${level} or below even over failed links`);
    }
  }

  /** Whether packet p travels a route of this scheme's, off the topology's. */
  offRoute(pk: PacketPool, p: number): boolean {
    return pk.rDetour[p] === KAUTZ_REROUTED;
  }

  /** VC number of packet p on the link it arrived by: -1 on the escape VC. */
  private levelOf(pk: PacketPool, p: number): number {
    const vc = pk.vc[p]!;
    return vc >= this.innerVcs ? -1 : vc - pk.vcClass[p]! * this.per;
  }

  /** 1 when the packet arrived at `router` by in-port `at` (global port id) from a lower router, else 0 (from its node, or a higher router). */
  private fromLower(router: number, at: number): number {
    const prev = at >= 0 && at < this.prevOf.length ? this.prevOf[at]! : -1;
    return prev >= 0 && prev < router ? 1 : 0;
  }

  /** Whether the route that leaves `router` by `port` and then follows route string `word` (`left` hops) avoids every failed link. */
  private clean(router: number, port: number, word: number, left: number): boolean {
    const g = this.g;
    if (g.portClass[router * g.radix + port] === PORT_NODE) return true;
    let gp = router * g.radix + port;
    for (let i = 0; ; i++) {
      if (this.ports[gp]) return false;
      if (i === left) return true;
      const r = g.peerRouter[gp]!;
      gp = r * g.radix + g.outBase + ((word >>> (3 * i)) & 3);
    }
  }

  /** Table index of state (router r, arrived from a lower router f, decrements left l). */
  private state(r: number, f: number, l: number): number {
    return (r * 2 + f) * (this.budget + 1) + l;
  }

  /**
   * One hop of a rerouted packet at `router`, on VC number `level` (-1: the escape VC), arrived
   * from a lower router (`fromLower` 1) or not: the out-link that keeps it on a shortest route
   * its VC numbers allow over the links `down` leaves up (the lowest selector of those that tie,
   * so a pair keeps one route). False, out untouched, when there is none.
   */
  private hop(router: number, pk: PacketPool, p: number, out: RouteChoice, level: number, fromLower: number, down: Uint8Array): boolean {
    const g = this.g;
    const dst = pk.dst[p]!;
    const target = g.nodeRouter[dst]!;
    const cls = pk.vcClass[p]!;
    if (router === target) {
      out.count = 1;
      out.vc = level >= 0 ? cls * this.per + level : this.innerVcs + cls;
      out.port = g.nodePort[dst]!;
      return true;
    }
    const left = level + 1;
    const tab = this.tableFor(target, down);
    let best = -1;
    let bestD = FAR;
    let bestPeak = 0;
    for (let j = 0; j < g.degree; j++) {
      const gp = router * g.radix + g.outBase + j;
      if (down[gp]) continue;
      const z = g.peerRouter[gp]!;
      const peak = fromLower === 1 && router > z ? 1 : 0;
      if (peak > left) continue;
      const d = tab[this.state(z, router < z ? 1 : 0, left - peak)]!;
      if (d < bestD) {
        bestD = d;
        best = j;
        bestPeak = peak;
      }
    }
    if (best < 0) return false;
    out.count = 1;
    out.port = g.outBase + best;
    const nl = level - bestPeak;
    out.vc = nl >= 0 ? cls * this.per + nl : this.innerVcs + cls;
    return true;
  }

  /** Hops to router `target` from every state, over the links `down` leaves up: the fault set's (computed on first use per fault set) or every link. */
  private tableFor(target: number, down: Uint8Array = this.ports): Uint8Array {
    const cache = down === this.allUp ? this.freeTables : this.tables;
    let t = cache.get(target);
    if (t !== undefined) return t;
    const g = this.g;
    const B = this.budget;
    t = new Uint8Array(g.routers * 2 * (B + 1)).fill(FAR);
    const queue = new Int32Array(t.length);
    let tail = 0;
    for (let f = 0; f < 2; f++) {
      for (let l = 0; l <= B; l++) {
        const s = this.state(target, f, l);
        t[s] = 0;
        queue[tail++] = s;
      }
    }
    // backwards: state (y, fy, ly) reaches (z, fz, lz) over link y -> z when fz = (y < z) and ly = lz + peak
    for (let head = 0; head < tail; head++) {
      const s = queue[head]!;
      const lz = s % (B + 1);
      const fz = Math.floor(s / (B + 1)) % 2;
      const z = Math.floor(s / (2 * (B + 1)));
      const d = t[s]! + 1;
      if (d >= FAR) continue;
      for (let i = 0; i < g.degree; i++) {
        const inGp = z * g.radix + g.inBase + i;
        const y = this.prevOf[inGp]!;
        if (y < 0 || down[inGp] || (y < z ? 1 : 0) !== fz) continue;
        for (let fy = 0; fy < 2; fy++) {
          const ly = lz + (fy === 1 && y > z ? 1 : 0);
          if (ly > B) continue;
          const sy = this.state(y, fy, ly);
          if (t[sy] !== FAR) continue;
          t[sy] = d;
          queue[tail++] = sy;
        }
      }
    }
    cache.set(target, t);
    return t;
  }
}
