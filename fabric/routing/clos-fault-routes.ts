/**
 * BlackWidow routes around failed links (seed 003; the seed's routing section is not part of its
 * text, see clos-routing.ts). A folded Clos has many up routes and one down route: from the R2
 * (R3) router a packet climbs to, the way down to its destination R1 is fixed. So masking a
 * failed link where it is met is not enough: an up choice must also leave out the routers whose
 * way down (or across the sidelinks) has failed. Here every choice of a group of parallel ports
 * (the uplinks of a slice, an R2's uplinks to the R3 routers, the sidelinks to one peer) takes
 * only the ports from which the destination R1 is still reachable by the topology's routing over
 * links that are up; where the slice the source drew has none, the source takes the next slice
 * that has one. Deterministic routes (the `hash` algorithm, ordered packets) take one of those
 * ports by a hash of (src, dst), so a pair keeps one path per fault set.
 *
 * Every route stays up*, at most one sidelink, then down*, as clos-routing.ts makes it, so the
 * channel dependency graph stays acyclic on its one VC per class (deadlock.ts checks it for every
 * fault set): BlackWidow's routers have no room for the escape VCs of fault-routing.ts's detours.
 *
 * A packet that has already climbed (or crossed) to a router whose way to its destination failed
 * during the run has no route left: it keeps the topology's route (a failed port of its group
 * first), which meets a failed link, and is lost there as any packet on a link that fails
 * (network.ts): its transaction fails by the NIC timeout.
 */
import { PacketPool } from '../packet.ts';
import { CLOS_LEVEL_R1, CLOS_LEVEL_R2, type ClosGraph } from '../topology/clos.ts';
import { PORT_NODE } from '../topology/port-graph.ts';
import { mix, modU32, type BoundRoute, type LoadView, type RouteChoice } from './routing.ts';

/** Local ports [first, first + count) of the group of parallel choices that local port `port` of router `r` belongs to (count 1: no alternative). */
export function closGroup(g: ClosGraph, r: number, port: number): { first: number; count: number } {
  const B = g.blockPorts;
  const level = g.routerLevel[r]!;
  if (level === CLOS_LEVEL_R1) {
    if (port < g.r1UpBase) return { first: port, count: 1 };
    const block = g.r1UpBase + Math.floor((port - g.r1UpBase) / B) * B;
    if (g.rank < 2) {
      const L = g.side1Links;
      return { first: block + Math.floor((port - block) / L) * L, count: L };
    }
    return { first: block, count: B };
  }
  const block = Math.floor(port / B) * B;
  const down = level === CLOS_LEVEL_R2 ? g.r1sPerR2Subtree : g.r2SubtreesPerR3Subtree;
  const i = port - block;
  if (i < down) return { first: port, count: 1 };
  const L = level === CLOS_LEVEL_R2 ? g.side2Links : g.side3Links;
  if (L > 0) return { first: block + down + Math.floor((i - down) / L) * L, count: L };
  return { first: block + down, count: B - down };
}

/** Source-side and hop-by-hop masking of a BlackWidow fabric's failed links (see the header comment). */
export class ClosFaultRoutes {
  private ports: Uint8Array;
  /** Per destination R1: per router and slice, 0 not yet known, 1 reaches it, 2 does not. */
  private reach = new Map<number, Uint8Array>();
  private readonly probe = new PacketPool(8, 2);
  private readonly probeId: number;
  private readonly probeOut: RouteChoice = { port: 0, count: 1, vc: 0 };
  private readonly idle: LoadView = { groupLoad: () => 0 };
  private readonly cand: number[] = [];
  /** Packets left with no route to their destination, sent on to be lost on a failed link. */
  stranded = 0;

  constructor(
    private readonly g: ClosGraph,
    private readonly inner: BoundRoute,
  ) {
    this.ports = new Uint8Array(g.routers * g.radix);
    this.probeId = this.probe.alloc();
  }

  /** Takes fault set `ports` (per global port, 1 = down). */
  setDown(ports: Uint8Array): void {
    this.ports = ports;
    this.reach.clear();
  }

  /**
   * Throws a RangeError naming the first pair of R1 routers with nodes that no slice joins over
   * links still up (`when`: the fault set), the failed links on the pair's routes, and why no
   * other route is taken: the links left join the pair only by routes that go down and up again,
   * which need a VC to break the cycles they close with the up*\/down* routes, and a YARC has
   * two, request and response, both taken (seed 003 §3, §4.2).
   */
  checkRoutes(when: string): void {
    const g = this.g;
    for (let a = 0; a < g.r1Count; a++) {
      for (let d = 0; d < g.r1Count; d++) {
        let ok = false;
        for (let s = 0; s < g.slices && !ok; s++) ok = this.reaches(a, d, s);
        if (ok) continue;
        const failed = this.failedOnRoutes(a, d);
        const shown = failed.slice(0, 8).join(', ') + (failed.length > 8 ? ` and ${failed.length - 8} more` : '');
        const joined = this.joined(a, d)
          ? 'the links left join them only by routes that go down and up again, and a YARC has no VC to spare for such routes (two VCs, request and response: seed 003 §4.2)'
          : 'no link left joins them';
        throw new RangeError(`faults (${when}): no BlackWidow route from R1 router ${a} to R1 router ${d} avoids the failed links in any slice: failed links on its up*/down* routes ${shown}; ${joined}`);
      }
    }
  }

  /** The failed links (router:port at the end a route leaves by) on the topology's routes from R1 `a` to R1 `d`, every slice. */
  private failedOnRoutes(a: number, d: number): string[] {
    const g = this.g;
    const found = new Set<number>();
    const visit = (r: number, s: number, depth: number): void => {
      if (r === d || depth > 8) return;
      const { first, count } = this.groupAt(r, d, s);
      for (let c = first; c < first + count; c++) {
        const gp = r * g.radix + c;
        if (this.ports[gp]) found.add(gp);
        else if (g.peerRouter[gp]! >= 0) visit(g.peerRouter[gp]!, this.sliceOf(gp), depth + 1);
      }
    };
    for (let s = 0; s < g.slices; s++) visit(a, s, 0);
    return [...found].sort((x, y) => x - y).map((gp) => `${Math.floor(gp / g.radix)}:${gp % g.radix}`);
  }

  /** Whether R1 routers a and d are joined by links still up, by any route. */
  private joined(a: number, d: number): boolean {
    const g = this.g;
    const seen = new Uint8Array(g.routers);
    const queue = [a];
    seen[a] = 1;
    for (let i = 0; i < queue.length; i++) {
      const r = queue[i]!;
      if (r === d) return true;
      for (let q = 0; q < g.radix; q++) {
        const gp = r * g.radix + q;
        const s = g.peerRouter[gp]!;
        if (s < 0 || this.ports[gp] || g.portClass[gp] === PORT_NODE || seen[s]) continue;
        seen[s] = 1;
        queue.push(s);
      }
    }
    return false;
  }

  /** Routes packet p at `router`: the topology's choice, narrowed to the ports that still lead to the destination; returns 1 when a failure changed it. */
  route(router: number, pk: PacketPool, p: number, out: RouteChoice, load: LoadView): number {
    const g = this.g;
    this.inner(router, pk, p, out, load);
    const base = router * g.radix;
    if (g.portClass[base + out.port] === PORT_NODE) return 0;
    const d = g.nodeRouter[pk.dst[p]!]!;
    if (this.narrow(router, d, out)) return 0;
    if (this.cand.length === 0 && g.portClass[pk.at[p]!] === PORT_NODE && g.slices > 1) {
      // at the source: the next slice with a way there
      const s0 = pk.rPlane[p]!;
      for (let i = 1; i < g.slices && this.cand.length === 0; i++) {
        pk.rPlane[p] = (s0 + i) % g.slices;
        this.inner(router, pk, p, out, load);
        if (this.narrow(router, d, out)) return 1;
      }
    }
    const n = this.cand.length;
    if (n === 0) {
      this.strand(router, out);
      return 1;
    }
    let pick = this.cand[0]!;
    if (out.count === 1 || pk.ordered[p]) {
      pick = this.cand[modU32(mix(mix(pk.src[p]!, pk.dst[p]!), router), n)]!;
    } else {
      let best = Infinity;
      for (const c of this.cand) {
        const l = load.groupLoad(base + c, 1);
        if (l < best) {
          best = l;
          pick = c;
        }
      }
    }
    out.port = pick;
    out.count = 1;
    return 1;
  }

  /**
   * No port of out's choice at `router` leads to the destination any more (a failure during the
   * run, behind the packet): it takes a failed port of the choice if there is one, to be lost on
   * it, else the topology's first port, toward the failed link further on.
   */
  private strand(router: number, out: RouteChoice): void {
    this.stranded++;
    const base = router * this.g.radix;
    let pick = out.port;
    for (let c = out.port; c < out.port + out.count; c++) {
      if (this.ports[base + c]) {
        pick = c;
        break;
      }
    }
    out.port = pick;
    out.count = 1;
  }

  /** Never: routes stay the topology's up*\/down* routes, only their choices narrow. */
  offRoute(): boolean {
    return false;
  }

  /**
   * Fills `cand` with the local ports of out's choice (its group's, if a single port was chosen
   * but fails) that lead to R1 `d`; true when out's own choice stands as it is.
   */
  private narrow(router: number, d: number, out: RouteChoice): boolean {
    const g = this.g;
    const base = router * g.radix;
    const cand = this.cand;
    cand.length = 0;
    let first = out.port;
    let count = out.count;
    if (count === 1) {
      if (this.leads(base + first, d)) return true;
      ({ first, count } = closGroup(g, router, first));
    }
    for (let c = first; c < first + count; c++) if (this.leads(base + c, d)) cand.push(c);
    return cand.length === out.count && count === out.count;
  }

  /** Whether global port gp is up and R1 `d` is reachable from its peer (in gp's slice). */
  private leads(gp: number, d: number): boolean {
    const g = this.g;
    if (this.ports[gp]) return false;
    const peer = g.peerRouter[gp]!;
    if (peer < 0) return false;
    return this.reaches(peer, d, this.sliceOf(gp));
  }

  /** The slice of router-to-router port gp (its block of ports). */
  private sliceOf(gp: number): number {
    const g = this.g;
    const r = Math.floor(gp / g.radix);
    const base = g.routerLevel[r] === CLOS_LEVEL_R1 ? g.r1UpBase : 0;
    return Math.floor((gp - r * g.radix - base) / g.blockPorts);
  }

  /** Whether router r reaches R1 `d` in slice s by the topology's routing over links still up. */
  private reaches(r: number, d: number, s: number): boolean {
    const g = this.g;
    if (r === d) return true;
    let memo = this.reach.get(d);
    if (memo === undefined) {
      memo = new Uint8Array(g.routers * g.slices);
      this.reach.set(d, memo);
    }
    const k = r * g.slices + s;
    if (memo[k] !== 0) return memo[k] === 1;
    const { first, count } = this.groupAt(r, d, s);
    let ok = count === 0;
    for (let c = first; c < first + count && !ok; c++) ok = this.leads(r * g.radix + c, d);
    memo[k] = ok ? 1 : 2;
    return ok;
  }

  /** The group of local ports the topology's routing gives at router r toward R1 `d` in slice s (the whole group: an unordered probe); count 0 where it ejects. */
  private groupAt(r: number, d: number, s: number): { first: number; count: number } {
    const g = this.g;
    const q = this.probe;
    const x = this.probeId;
    q.startRoute(x, 0);
    q.src[x] = 0;
    q.dst[x] = Math.max(0, g.portNode[d * g.radix]!);
    q.vcClass[x] = 0;
    q.ordered[x] = 0;
    q.rPlane[x] = s;
    const out = this.probeOut;
    this.inner(r, q, x, out, this.idle);
    if (g.portClass[r * g.radix + out.port] === PORT_NODE) return { first: out.port, count: 0 };
    return out.count === 1 ? closGroup(g, r, out.port) : { first: out.port, count: out.count };
  }
}
