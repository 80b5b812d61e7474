/**
 * Routing around failed links and routers, on every topology, wrapped around the topology's own
 * routing:
 * - Masking: an adaptive routing (Gemini's parallel links, Aries' minimal and non-minimal
 *   choices, Kautz multipath, BlackWidow's up-route choices) reads a group whose every link is
 *   down as fully loaded, so it takes one of its remaining choices; of a group with some links
 *   down the packet takes the least loaded (ordered traffic: a hash of source and destination)
 *   of those left.
 * - Route choice at the source: where the topology's routing draws its route from the packet's
 *   salt or a path the source asks for (Kautz multipath, BlackWidow's up routes, Valiant), the
 *   first router walks the route the packet would take on an idle network and, if it crosses a
 *   failed link, draws again (paths 0 to 7 the source asks for, with a new salt unless the
 *   packet is ordered, so that an ordered pair keeps one route) until one avoids every failed link.
 * - Detours: where the route the topology's routing chose has no link left, the packet leaves
 *   that routing for good and follows up*\/down* routes (Schroeder et al., Autonet, 1991) over the
 *   routers and links still up, on an escape VC of its class above the topology's VCs: shortest
 *   legal routes over a breadth-first spanning tree rooted at the lowest surviving router that
 *   carries nodes, first up toward the root, then down, never up again. The topology's channels
 *   only lead to escape channels and up*\/down* routes cannot form a cycle, so the channel
 *   dependency graph stays acyclic (deadlock.ts checks it for every fault set). A detouring
 *   packet that a later fault set (a new spanning tree) leaves in its down phase with no way down
 *   goes on down the way the fault set before gave it: onto the link that failed, where it is
 *   lost (network.ts), or to its node. Like every packet in flight when the fault set changes, it
 *   follows two trees' turns, which the check of each fault set alone does not cover.
 * - A topology's own routes: a Kautz digraph, whose links run one way only, leaves up*\/down*
 *   detours without a way back; its source picks another route instead (kautz-fault-routes.ts),
 *   which replaces the three schemes above there.
 * These detours are computed from the fault set alone: the network quiesces for faults.quiescePause
 * when a failure cuts the last link between two routers (network.ts), as Gemini and Aries do when
 * they compute new routes (assumed: the seeds give no pause).
 */
import { PacketPool } from '../packet.ts';
import { PORT_NODE, type PortGraph } from '../topology/port-graph.ts';
import { mix, modU32, type BoundRoute, type LoadView, type RouteChoice } from './routing.ts';

/** Load a group with no link up reports to adaptive routing: more than any real load. */
const DOWN_LOAD = 1 << 30;
/** Route draws a source tries before its packet follows the first one and detours where it must. */
const DRAWS = 8;
/** PacketPool.rDetour: not yet checked at its first router, checked (the topology's routing), detouring up, then down. */
const enum D {
  Unchecked = 0,
  Up = 1,
  Down = 2,
  Checked = 3,
}

/** A topology's own routes around failed links, used instead of masking, route draws and detours (kautz-fault-routes.ts). */
export interface OwnFaultRoutes {
  /** Takes a fault set: per global port, 1 = down. */
  setDown(ports: Uint8Array): void;
  /** Throws a RangeError naming a pair of routers with no route under fault set `when`. */
  checkRoutes(when: string): void;
  /** Routes packet p; returns 0 on the topology's own route, 1 when its source took another route, 2 when it changed route mid-way. */
  route(router: number, pk: PacketPool, p: number, out: RouteChoice, load: LoadView): number;
  /** Whether packet p now travels a route of the scheme's own, off the topology's (its hops are detour hops). */
  offRoute(pk: PacketPool, p: number): boolean;
  /** Packets that met a failure during the run with no route left, sent on to be lost on a failed link. */
  readonly stranded: number;
}

/** Up*\/down* distances to one destination router: in down phase only, and from the up phase. */
interface DetourTable {
  readonly down: Int32Array;
  readonly up: Int32Array;
}

/** The up*\/down* detours of one fault set: its down ports, the spanning tree's levels, the distance tables computed so far. */
interface DetourTree {
  readonly ports: Uint8Array;
  /** Breadth-first level of each router from the root (-1: unreachable or down). */
  readonly level: Int32Array;
  readonly tables: Map<number, DetourTable>;
}

/** Distance in a DetourTable from a router that cannot reach the destination. */
const FAR = 0x3fffffff;

/** The fault-aware routing of one network: the topology's routing, masked, plus up*\/down* detours. */
export class FaultRouting implements LoadView {
  /** The routing to give the network and the deadlock check. */
  readonly route: BoundRoute;
  /** VCs per port: the topology's, plus one escape VC per class. */
  readonly vcs: number;
  /** Packets that left the topology's routing for a detour, and routing decisions that avoided a down link of a group. */
  detours = 0;
  masked = 0;
  /** Per link class, hops packets took off the topology's route (detours, another route from the source) since the start, and at the last markHops. */
  readonly detourHops: Float64Array;
  private hopsBase: Float64Array;
  private ports: Uint8Array;
  private routers: Uint8Array;
  private active = false;
  private view: LoadView = { groupLoad: () => 0 };
  /** The detours of the current fault set, and of the one before (for packets it left in their down phase with no way down). */
  private tree: DetourTree;
  private prev: DetourTree | null = null;
  /** Detouring packets a new fault set left in their down phase with no way down, sent on by the previous set's way down. */
  private strandedDown = 0;
  /** A packet for the walks of routes at the source. */
  private readonly probe = new PacketPool(8, 2);
  private readonly probeId: number;
  private readonly probeOut: RouteChoice = { port: 0, count: 1, vc: 0 };
  private readonly idle: LoadView = { groupLoad: () => 0 };

  /**
   * @param escape whether detours may use escape VCs above the topology's (false where more VCs
   * would not fit the router's queues: then a fault set that needs a detour is refused)
   * @param own the topology's own routes around failures, if it has them (they may use the escape VCs)
   */
  constructor(
    private readonly g: PortGraph,
    private readonly inner: BoundRoute,
    private readonly innerVcs: number,
    private readonly escape = true,
    private readonly own: OwnFaultRoutes | null = null,
  ) {
    this.vcs = escape ? innerVcs + 2 : innerVcs;
    this.detourHops = new Float64Array(g.classNames.length);
    this.hopsBase = new Float64Array(g.classNames.length);
    this.ports = new Uint8Array(g.routers * g.radix);
    this.routers = new Uint8Array(g.routers);
    this.tree = { ports: this.ports, level: new Int32Array(g.routers).fill(-1), tables: new Map() };
    this.route = (router, pk, p, out, load) => this.routeOne(router, pk, p, out, load);
    this.probeId = this.probe.alloc();
  }

  /** Packets that met a failure during the run with no route left, sent on to be lost on a failed link. */
  get stranded(): number {
    return this.strandedDown + (this.own?.stranded ?? 0);
  }

  /** Counts detour hops afresh from now (a measurement window). */
  markHops(): void {
    this.hopsBase = this.detourHops.slice();
  }

  /** Per link class, the detour hops since the last markHops (or the start). */
  detourHopsSince(): Float64Array {
    return this.detourHops.map((h, c) => h - this.hopsBase[c]!);
  }

  /** Whether any link or router is down. */
  get faulty(): boolean {
    return this.active;
  }

  /** Whether the link on global port `gp` is down. */
  isDown(gp: number): boolean {
    return this.ports[gp] === 1;
  }

  /** Takes fault set `ports` (per global port) and `routers` (per router), 1 = down: detours are computed afresh. */
  setDown(ports: Uint8Array, routers: Uint8Array): void {
    const g = this.g;
    this.ports = ports.slice();
    this.routers = routers.slice();
    this.active = ports.includes(1) || routers.includes(1);
    this.own?.setDown(this.ports);
    // spanning tree: breadth-first from the lowest surviving router with nodes
    const level = new Int32Array(g.routers).fill(-1);
    this.prev = this.tree;
    this.tree = { ports: this.ports, level, tables: new Map() };
    let root = -1;
    for (let n = 0; n < g.nodes && root < 0; n++) if (!routers[g.nodeRouter[n]!]) root = g.nodeRouter[n]!;
    if (root < 0) return;
    const queue = [root];
    level[root] = 0;
    for (let i = 0; i < queue.length; i++) {
      const r = queue[i]!;
      for (let q = 0; q < g.radix; q++) {
        const gp = r * g.radix + q;
        const s = g.peerRouter[gp]!;
        if (s < 0 || ports[gp] || level[s]! >= 0) continue;
        level[s] = level[r]! + 1;
        queue.push(s);
      }
    }
  }

  /** Throws a RangeError naming a pair of routers the topology's own routes cannot join under the current fault set (`when` names it). */
  checkRoutes(when: string): void {
    this.own?.checkRoutes(when);
  }

  /** The masked load view: a group with no link up reads as fully loaded. */
  groupLoad(first: number, count: number): number {
    for (let c = first; c < first + count; c++) if (this.ports[c] === 0) return this.view.groupLoad(first, count);
    return DOWN_LOAD;
  }

  /** Whether the hop from router a to router b goes up the spanning tree of `t` (toward the root). */
  private isUp(t: DetourTree, a: number, b: number): boolean {
    const la = t.level[a]!;
    const lb = t.level[b]!;
    return lb < la || (lb === la && b < a);
  }

  private routeOne(router: number, pk: PacketPool, p: number, out: RouteChoice, load: LoadView): void {
    if (!this.active) {
      this.inner(router, pk, p, out, load);
      return;
    }
    if (this.own !== null) {
      const k = this.own.route(router, pk, p, out, load);
      if (k === 1) this.masked++;
      else if (k === 2) this.detours++;
      if (this.own.offRoute(pk, p)) this.countHop(router, out.port);
      return;
    }
    const g = this.g;
    const state = pk.rDetour[p]!;
    if (state === D.Unchecked || state === D.Checked) {
      if (state === D.Unchecked) this.chooseRoute(router, pk, p);
      this.view = load;
      this.inner(router, pk, p, out, this);
      const base = router * g.radix + out.port;
      if (g.portClass[base] === PORT_NODE) return;
      let up = 0;
      for (let c = base; c < base + out.count; c++) if (this.ports[c] === 0) up++;
      if (up === out.count) return;
      if (up > 0) {
        this.masked++;
        out.port = this.pickUp(base, out.count, up, pk, p, load) - router * g.radix;
        out.count = 1;
        return;
      }
      this.detours++;
      pk.rDetour[p] = D.Up;
    }
    this.detour(router, pk, p, out);
    this.countHop(router, out.port);
  }

  /** Counts a detour hop on the link of local port `port` of `router` (none for a node port). */
  private countHop(router: number, port: number): void {
    const c = this.g.portClass[router * this.g.radix + port]!;
    if (c !== PORT_NODE) this.detourHops[c]!++;
  }

  /** Of the `up` links still up in group [base, base + count): the least loaded, or for ordered traffic one by hash. */
  private pickUp(base: number, count: number, up: number, pk: PacketPool, p: number, load: LoadView): number {
    let k = pk.ordered[p] ? modU32(mix(pk.src[p]!, pk.dst[p]!), up) : -1;
    let best = -1;
    let bestLoad = Infinity;
    for (let c = base; c < base + count; c++) {
      if (this.ports[c] !== 0) continue;
      if (k >= 0) {
        if (k-- === 0) return c;
        continue;
      }
      const l = load.groupLoad(c, 1);
      if (l < bestLoad) {
        bestLoad = l;
        best = c;
      }
    }
    return best;
  }

  /** The up*\/down* hop of a detouring packet at `router` (escape VC of its class). */
  private detour(router: number, pk: PacketPool, p: number, out: RouteChoice): void {
    const g = this.g;
    const dst = pk.dst[p]!;
    const target = g.nodeRouter[dst]!;
    if (!this.escape) throw new RangeError(`faults: no route of the topology's routing avoids the failed links from router ${g.nodeRouter[pk.src[p]!]} to router ${target}, and its routers have no room for escape VCs to detour`);
    out.count = 1;
    out.vc = this.innerVcs + pk.vcClass[p]!;
    if (router === target) {
      out.port = g.nodePort[dst]!;
      return;
    }
    const downOnly = pk.rDetour[p] === D.Down;
    let best = this.detourHop(this.tree, router, target, downOnly);
    if (best < 0 && downOnly && this.prev !== null) {
      // a new fault set left it in its down phase with no way down: it goes on down the way the
      // previous set gave it, onto the link that failed (where it is lost, network.ts) or to its node
      best = this.detourHop(this.prev, router, target, true);
      if (best >= 0) this.strandedDown++;
    }
    if (best < 0) throw new RangeError(`faults: no route avoids the failed links from router ${g.nodeRouter[pk.src[p]!]} to router ${target} (an up*/down* detour needs links both ways: stuck at router ${router})`);
    out.port = best;
    if (!this.isUp(this.tree, router, g.peerRouter[router * g.radix + best]!)) pk.rDetour[p] = D.Down;
  }

  /**
   * The local port of the shortest up*\/down* hop from `router` toward router `target` under the
   * detours of `t` (down hops only when `downOnly`), over the links up in `t`; -1 when none leads there.
   */
  private detourHop(t: DetourTree, router: number, target: number, downOnly: boolean): number {
    const g = this.g;
    const tab = this.tableFor(t, target);
    let best = -1;
    let bestCost = FAR;
    for (let q = 0; q < g.radix; q++) {
      const gp = router * g.radix + q;
      const s = g.peerRouter[gp]!;
      if (s < 0 || t.ports[gp]) continue;
      const goesUp = this.isUp(t, router, s);
      if (downOnly && goesUp) continue;
      const cost = goesUp ? tab.up[s]! : tab.down[s]!;
      if (cost < bestCost) {
        bestCost = cost;
        best = q;
      }
    }
    return best;
  }

  /**
   * At packet p's first router: keeps its route draw if the route it leads to on an idle network
   * avoids every failed link, else draws again (salts, or for ordered packets paths) and keeps
   * the first that does; counts a reroute when it had to draw again.
   */
  private chooseRoute(router: number, pk: PacketPool, p: number): void {
    pk.rDetour[p] = D.Checked;
    if (this.clean(router, pk, p, pk.rSalt[p]!, pk.path[p]!)) return;
    const ordered = pk.ordered[p] === 1;
    for (let k = 1; k < DRAWS; k++) {
      const salt = ordered ? pk.rSalt[p]! : mix(pk.rSalt[p]!, k);
      const path = k - 1;
      if (!this.clean(router, pk, p, salt, path)) continue;
      this.masked++;
      pk.rSalt[p] = salt;
      pk.path[p] = path;
      return;
    }
  }

  /** Whether packet p, routed from `router` with route draw `salt` and `path` on an idle network, reaches its node without a failed link. */
  private clean(router: number, pk: PacketPool, p: number, salt: number, path: number): boolean {
    const g = this.g;
    const q = this.probe;
    const x = this.probeId;
    const out = this.probeOut;
    q.src[x] = pk.src[p]!;
    q.dst[x] = pk.dst[p]!;
    q.vcClass[x] = pk.vcClass[p]!;
    q.vc[x] = pk.vc[p]!;
    q.ordered[x] = pk.ordered[p]!;
    q.path[x] = path;
    q.hops[x] = 0;
    q.startRoute(x, salt);
    q.at[x] = pk.at[p]!;
    let r = router;
    for (let hop = 0; hop <= 4 * g.routers + 16; hop++) {
      this.inner(r, q, x, out, this.idle);
      const base = r * g.radix + out.port;
      if (g.portClass[base] === PORT_NODE) return true;
      let up = false;
      for (let c = base; c < base + out.count && !up; c++) if (this.ports[c] === 0) up = true;
      if (!up) return false;
      q.vc[x] = out.vc;
      q.hops[x]++;
      r = g.peerRouter[base]!;
      if (r < 0) return false;
      q.at[x] = r * g.radix + g.peerPort[base]!;
    }
    return false;
  }

  /** Up*\/down* distances to router `target` under the detours of `tree` (computed on first use per fault set). */
  private tableFor(tree: DetourTree, target: number): DetourTable {
    let t = tree.tables.get(target);
    if (t !== undefined) return t;
    const g = this.g;
    const n = g.routers;
    const INF = FAR;
    const down = new Int32Array(n).fill(INF);
    // down-phase distances: backwards from the target over hops that go down the tree
    down[target] = 0;
    const queue = [target];
    for (let i = 0; i < queue.length; i++) {
      const x = queue[i]!;
      for (let q = 0; q < g.radix; q++) {
        const gp = x * g.radix + q;
        const y = g.peerRouter[gp]!;
        if (y < 0 || tree.ports[gp] || down[y]! !== INF || this.isUp(tree, y, x)) continue;
        down[y] = down[x]! + 1;
        queue.push(y);
      }
    }
    // up-phase distances: down now, or one hop up and on; routers in order of rank (root first)
    const order: number[] = [];
    for (let r = 0; r < n; r++) if (tree.level[r]! >= 0) order.push(r);
    order.sort((a, b) => tree.level[a]! - tree.level[b]! || a - b);
    const up = new Int32Array(n).fill(INF);
    for (const r of order) {
      let best = down[r]!;
      for (let q = 0; q < g.radix; q++) {
        const gp = r * g.radix + q;
        const s = g.peerRouter[gp]!;
        if (s < 0 || tree.ports[gp] || !this.isUp(tree, r, s)) continue;
        if (up[s]! + 1 < best) best = up[s]! + 1;
      }
      up[r] = best;
    }
    // distances from the next router: a hop's cost is the distance there
    t = { down, up };
    tree.tables.set(target, t);
    return t;
  }
}
