import type { PacketPool } from '../packet.ts';
import type { TorusGraph } from '../topology/torus.ts';
import type { RouteChoice, RouteFn } from './routing.ts';
import { brokenLinkName, routerName, withBrokenLinks, type BrokenLink } from './broken-links.ts';
import { nidLayout, SEASTAR_GLUT_ENTRIES } from './seastar-nids.ts';

export { SEASTAR_GLUT_ENTRIES, SEASTAR_LUT_ENTRIES } from './seastar-nids.ts';
export { brokenLinkName, parseBrokenLinks, withBrokenLinks, type BrokenLink } from './broken-links.ts';

/*
 * Table-driven routing of the Cray XT4 SeaStar, with its fault rules (seed 000, "Routing",
 * "Avoiding deadlock in the presence of faults and turn constraints", "Routing rules for X / Y /
 * Z links"; S1, S2, S8, S9).
 *
 * Tables (S8). Each router has one table per input port: the six network ports and the processor
 * port. A table maps a destination to an output: x+, x-, y+, y-, z+, z- or eject. Nodes are named
 * by 15-bit NIDs; NID[14:12] is the global partition, NID[11:0] the node within it. When the
 * destination's partition differs from the router's own, the entry comes from the 8-entry global
 * table (GLUT, indexed by partition), otherwise from the 4096-entry local table (LUT, indexed by
 * NID[11:0]). "The localities are split with yz planes": NIDs are numbered with x slowest, then y,
 * then z, then the node slot of the router, and every partition holds whole yz planes,
 * floor(4096 / plane) of them (choice: where a plane does not divide 4096 the NID space has gaps,
 * so that no plane straddles two partitions). A full table is 7 x (8 + 4096) bytes per router, too
 * much for every router of a 32K system, so tables are stored only up to SEASTAR_STORE_LIMIT
 * entries; above that the same rule function is evaluated at each lookup.
 *
 * Port numbering (torus.ts): node ports first, then for each dimension d and direction s (0 = +,
 * 1 = -) `links[d]` parallel ports starting at `groupPort[2d+s]`. Output directions and table
 * input indices use the same order: 0 x+, 1 x-, 2 y+, 3 y-, 4 z+, 5 z-; input index 6 is the
 * processor port (every node port) and output 6 ejects. A packet that arrives on input port group
 * q came travelling the opposite way, q ^ 1; leaving by q again is a 180-degree turn.
 *
 * The rules, as the generator applies them at router r for destination router t. The phase is the
 * first dimension in which r and t differ (always X under a GLUT entry).
 * - Fault-free: dimension order x, y, z, the shortest way round each ring, ties going + (the
 *   seed's "straightforward dimension-ordered routing"), so that without faults every route is
 *   the one of torusDor (torus-routing.ts). Under a GLUT entry the X direction is the shorter way
 *   to the nearer edge of the destination's slab of planes (ties +), since one entry serves every
 *   node of the partition. A packet that arrives travelling in X keeps its X direction: it cannot
 *   turn back (no 180-degree turns), and a GLUT direction may differ from the LUT's shortest way.
 * - X phase: the desired X link; if it is broken, y+, else z+ ("X broken: y+ if available, else
 *   z+"). Neither detour may cross the dateline of its dimension (seed: the z+ "must not cross a
 *   dateline"; for y+ this follows from the seed's rule that once a dateline is crossed no routing
 *   in a higher dimension is permitted). Lookahead: when the X link is usable but the packet would
 *   be boxed in at the next node, it detours early, z+ first. Choice: "boxed in" means that the
 *   rules leave the next node no output; under a GLUT entry whose X link enters the destination
 *   partition (where the next node's entry depends on the exact destination) it is the seed's test
 *   "the next node has neither a safe y+ nor a safe z+".
 * - Y phase: the desired Y link; if broken, z+ (not across the Z dateline), else the opposite Y
 *   direction. Lookahead against a 180-degree turn: a node does not send a packet to a neighbour
 *   whose rules would leave it no way but back (the generic "boxed in" test above, which the
 *   neighbour's 180-degree exclusion makes fire). Lookahead for z+: when the next node's default
 *   for this destination is z+ and its z+ link is broken, take z+ here instead of the Y link.
 * - Z phase: z+ desired and broken: y+, else y- (the Y lookahead at that node then turns the
 *   packet to z+ instead of straight back). z- desired: the z- path to the destination is checked
 *   link by link; if any link is broken the packet is forced to z+, the long way round. Choice,
 *   for the same dateline rule: a z+ path that crosses the Z dateline must be clean from the
 *   dateline on (after it no Y detour is allowed); if it is not, the packet takes a clean z- path
 *   instead. In a Z mesh there is no long way: a destination below a broken z link is unreachable.
 * - Datelines (seed: "the dateline in Z is chosen so that there are no nodes with a broken X link
 *   and a broken y+ link"): without faults every dateline is the wraparound link, as in torusDor.
 *   With faults the Y and Z datelines move to the highest link c -> c + 1 of the ring such that no
 *   router at position c is an end of a broken link, so that detours next to a fault need not
 *   cross them (when every position has one, the dateline stays at the wraparound link).
 * Not implemented: "when y = Ymax it is permissible to dodge y- then go x+/x-" (an option the seed
 * leaves open), and the real tables' VC field: VCs come from the packet state as below.
 *
 * VCs (S2: 4): vc = 2 * class + dateline bit, as in torus-routing.ts: the bit is set when a hop
 * crosses the dateline of its dimension and cleared when the packet turns into another dimension.
 * Deadlock freedom (Dally and Seitz): the rules keep these invariants: (1) no 180-degree turn;
 * (2) after z- only z- (the checked z- path is final); (3) a z+ run that crossed the Z dateline
 * runs on to the destination; (4) after y- no x; (5) a y+ run that crossed the Y dateline is not
 * followed by x (X-phase detours never cross datelines); (6) a run of hops in one dimension is at
 * most one ring long (a longer run revisits a router and input, so the route loops, and the
 * reachability check below refuses the fault set). Then a cycle of channel dependencies would have to contain a z- channel
 * (by (2) a pure z- ring), or wrap around Z through its dateline (by (3) a pure z+ run), or
 * contain y- (by (4) and no z: a pure y- ring), or wrap around Y (by (5) a pure y+ run), or be a
 * pure x ring; each is a single run around a ring crossing its dateline on VC 1 and reaching it
 * again on VC 1, which (6) excludes. The check in deadlock.ts confirms it on the tests' fault sets.
 *
 * Reachability: buildSeastarTables walks the routes and throws a RangeError naming the broken
 * links when a fault set leaves a node isolated or a destination unreachable under the rules. Up
 * to SEASTAR_CHECK_ALL_ROUTERS routers it walks every route; above, only the routes that meet a
 * table entry changed by the faults (the fault-free routing delivers everywhere).
 */

/** VCs per port: two classes x a dateline pair (seed 000, S2: 4 virtual channels). */
export const SEASTAR_VCS = 4;
/** Table index of the processor input port (the six network inputs are 0..5: x+ x- y+ y- z+ z-). */
export const SEASTAR_PROCESSOR_PORT = 6;
/** Table entry: deliver to the node (the processor port). Entries 0..5 are x+ x- y+ y- z+ z-. */
export const SEASTAR_EJECT = 6;
/** Table entry: no route (a GLUT slot of the router's own partition, a NID with no router). */
export const SEASTAR_NO_ROUTE = 0xff;
/** Largest number of table entries (bytes) stored; above it entries are computed at each lookup. */
export const SEASTAR_STORE_LIMIT = 32 * 1024 * 1024;
/** Largest router count for which the fault check walks every route. */
export const SEASTAR_CHECK_ALL_ROUTERS = 2048;

const EJECT = SEASTAR_EJECT;
const NONE = SEASTAR_NO_ROUTE;
const PROC = SEASTAR_PROCESSOR_PORT;
const TABLES = 7;
const DIR_NAMES = ['x+', 'x-', 'y+', 'y-', 'z+', 'z-'];

/** How to build the tables. */
export interface SeastarTableOptions {
  /** Store the tables (true) or compute each entry when looked up (false); default: store up to SEASTAR_STORE_LIMIT entries. */
  readonly store?: boolean;
  /** Walk every route ('all') or only those that meet an entry changed by the faults; default by size. */
  readonly check?: 'all' | 'near-faults';
}

/** Direction round a ring from c to t: 0 (+) or 1 (-); shortest way, ties +, as torusDor. */
function ringDir(c: number, t: number, k: number, wrap: boolean): number {
  if (wrap) return 2 * ((t - c + k) % k) <= k ? 0 : 1;
  return t > c ? 0 : 1;
}

/**
 * The routing rules of one fault set (see the comment at the top). `decide` is the table
 * generator: stored tables are filled by it, computed tables call it per lookup.
 */
class Rules {
  readonly X: number;
  readonly Y: number;
  readonly Z: number;
  private readonly wx: boolean;
  private readonly wy: boolean;
  private readonly wz: boolean;
  private readonly coords: Int32Array;

  constructor(
    g: TorusGraph,
    /** Neighbour of each router in each direction in the fault-free graph, or -1: `nbr[r * 6 + o]`. */
    readonly nbr: Int32Array,
    /** 1 where the link of (router, direction) is wired and not broken. */
    readonly usable: Uint8Array,
    /** 1 where the hop (router, direction) crosses the dateline of its dimension. */
    readonly cross: Uint8Array,
    /** 1 for each column (x + X * y) that has a broken z link. */
    private readonly colBroken: Uint8Array,
    private readonly dlZ: number,
    readonly part: Uint8Array,
    private readonly partLo: Int32Array,
    private readonly partHi: Int32Array,
  ) {
    this.X = g.dims[0]!;
    this.Y = g.dims[1]!;
    this.Z = g.dims[2]!;
    this.wx = g.wrap[0]!;
    this.wy = g.wrap[1]!;
    this.wz = g.wrap[2]!;
    this.coords = g.coords;
  }

  /**
   * The entry at router r, input index `inp`, for destination router t in partition `part`
   * (t is ignored, and may be -1, when r lies outside `part`: a GLUT entry). `look` enables the
   * lookahead rules; without it the result is just the first usable output, or NONE.
   */
  decide(r: number, inp: number, t: number, part: number, look: boolean): number {
    const c = this.coords;
    const base = r * 6;
    const x = c[r * 3]!;
    const global = this.part[r] !== part;
    if (!global && r === t) return EJECT;
    if (global || x !== c[t * 3]) {
      // X phase; a packet travelling in X keeps its direction (no 180-degree turn)
      let s: number;
      if (inp === 0 || inp === 1) s = inp ^ 1;
      else s = global ? this.edgeDir(x, part) : ringDir(x, c[t * 3]!, this.X, this.wx);
      const yp = this.cross[base + 2] ? NONE : 2;
      const zp = this.cross[base + 4] ? NONE : 4;
      if (this.usable[base + s]) {
        if (!look || !this.stuck(this.nbr[base + s]!, s ^ 1, t, part)) return s;
        // boxed in at the next node: an early detour, toward z+ first
        const d = this.pick(r, inp, t, part, true, true, zp, yp, NONE);
        return d === NONE ? s : d;
      }
      return this.pick(r, inp, t, part, look, false, yp, zp, NONE);
    }
    const y = c[r * 3 + 1]!;
    const yt = c[t * 3 + 1]!;
    if (y !== yt) {
      // Y phase
      const s = ringDir(y, yt, this.Y, this.wy);
      const zp = this.cross[base + 4] ? NONE : 4;
      if (look && zp !== NONE && this.brokenZDefault(this.nbr[base + 2 + s]!, t)) {
        return this.pick(r, inp, t, part, look, false, zp, 2 + s, 3 - s);
      }
      return this.pick(r, inp, t, part, look, false, 2 + s, zp, 3 - s);
    }
    // Z phase
    const zd = this.zPref(r, t);
    if (zd === 5) return inp !== 5 && this.usable[base + 5] ? 5 : NONE;
    if (zd === NONE) return NONE;
    return this.pick(r, inp, t, part, look, false, 4, 2, 3);
  }

  /**
   * The first of outputs a, b, c (NONE = skip) that is usable and not a 180-degree turn and, with
   * `look`, whose next node is not boxed in; if every such output leads to a boxed-in node, the
   * first of them (or NONE when `strict`).
   */
  private pick(r: number, inp: number, t: number, part: number, look: boolean, strict: boolean, a: number, b: number, c: number): number {
    const base = r * 6;
    let first = NONE;
    for (let k = 0; k < 3; k++) {
      const o = k === 0 ? a : k === 1 ? b : c;
      if (o === NONE || o === inp || !this.usable[base + o]) continue;
      if (!look) return o;
      if (!this.stuck(this.nbr[base + o]!, o ^ 1, t, part)) return o;
      if (first === NONE) first = o;
    }
    return strict ? NONE : first;
  }

  /** Whether a packet entering router n by input `inp` would be boxed in: no output under the rules. */
  private stuck(n: number, inp: number, t: number, part: number): boolean {
    if (t < 0 && this.part[n] === part) {
      // a GLUT entry whose link enters the destination partition: the seed's test
      const b = n * 6;
      return !((this.usable[b + 2] && !this.cross[b + 2]) || (this.usable[b + 4] && !this.cross[b + 4]));
    }
    return this.decide(n, inp, t, part, false) === NONE;
  }

  /** Whether router n (reached by a Y hop toward t) would want z+ for t and has it broken (seed: Y lookahead). */
  private brokenZDefault(n: number, t: number): boolean {
    if (n < 0 || n === t || this.coords[n * 3 + 1] !== this.coords[t * 3 + 1]) return false;
    return !this.usable[n * 6 + 4] && this.zPref(n, t) === 4;
  }

  /** X direction toward the nearer edge of partition `part`'s slab of planes (ties +). */
  private edgeDir(x: number, part: number): number {
    const lo = this.partLo[part]!;
    const hi = this.partHi[part]!;
    if (!this.wx) return lo > x ? 0 : 1;
    const X = this.X;
    return (lo - x + X) % X <= (x - hi + X) % X ? 0 : 1;
  }

  /**
   * Z direction from router r to t in t's column (z differs): 4 (z+), 5 (z-) or NONE. The shortest
   * way (ties +); z- only on a clean path (else forced z+, the long way); z+ only if clean from
   * the Z dateline on (else z- if clean).
   */
  zPref(r: number, t: number): number {
    const c = this.coords;
    const X = this.X;
    const Z = this.Z;
    const col = c[t * 3]! + X * c[t * 3 + 1]!;
    const z = c[r * 3 + 2]!;
    const zt = c[t * 3 + 2]!;
    if (!this.colBroken[col]) return ringDir(z, zt, Z, this.wz) === 0 ? 4 : 5;
    const XY = X * this.Y;
    const u = this.usable;
    if (!this.wz) {
      if (zt > z) return 4;
      for (let q = z; q > zt; q--) if (!u[(col + XY * q) * 6 + 5]) return NONE;
      return 5;
    }
    const delta = (zt - z + Z) % Z;
    let plusOk = true;
    let crossed = false;
    for (let i = 0, q = z; i < delta; i++, q = q + 1 === Z ? 0 : q + 1) {
      if (q === this.dlZ) crossed = true;
      if (crossed && !u[(col + XY * q) * 6 + 4]) {
        plusOk = false;
        break;
      }
    }
    let minusOk = true;
    for (let i = 0, q = z; i < Z - delta; i++, q = q === 0 ? Z - 1 : q - 1) {
      if (!u[(col + XY * q) * 6 + 5]) {
        minusOk = false;
        break;
      }
    }
    if (2 * delta <= Z) return plusOk ? 4 : minusOk ? 5 : NONE;
    return minusOk ? 5 : plusOk ? 4 : NONE;
  }
}

/**
 * The SeaStar routing tables of a torus with a set of broken links (seed 000, S8, S9): the
 * hierarchical GLUT/LUT lookup per input port, stored or computed per lookup.
 */
export class SeastarTables {
  /** The torus with the broken links unwired (withBrokenLinks): give this graph to the network. */
  readonly graph: TorusGraph;
  /** The broken links, one per physical link. */
  readonly broken: readonly BrokenLink[];
  /** Global partitions in use (NID[14:12] from 0 to partitions - 1). */
  readonly partitions: number;
  /** yz planes per partition. */
  readonly planesPerPartition: number;
  /** LUT entries per table: min(4096, NIDs of a partition). */
  readonly lutSize: number;
  /** 15-bit NID of each node. */
  readonly nodeNid: Int32Array;
  /** Partition (NID[14:12]) of each router. */
  readonly routerPartition: Uint8Array;
  /** Dateline of each dimension: the link from position c to c + 1, or -1 (mesh, size 1). */
  readonly datelines: readonly number[];
  /** Whether the tables are stored (else each lookup runs the rules). */
  readonly stored: boolean;
  /** Input table index of each local port (node ports: SEASTAR_PROCESSOR_PORT). */
  readonly inPortOf: Uint8Array;
  /** 1 where the hop (router, direction) crosses the dateline of its dimension: `cross[r * 6 + o]`. */
  readonly cross: Uint8Array;
  private readonly rules: Rules;
  private readonly table: Uint8Array | null;
  private readonly stride: number;
  private readonly routerNid: Int32Array;
  private readonly nodeRouter: Int32Array;

  /** Use buildSeastarTables. */
  constructor(
    graph: TorusGraph,
    broken: readonly BrokenLink[],
    layout: { partitions: number; planesPerPartition: number; lutSize: number; nodeNid: Int32Array; routerNid: Int32Array; routerPartition: Uint8Array },
    datelines: readonly number[],
    rules: Rules,
    store: boolean,
  ) {
    this.graph = graph;
    this.broken = broken;
    this.partitions = layout.partitions;
    this.planesPerPartition = layout.planesPerPartition;
    this.lutSize = layout.lutSize;
    this.nodeNid = layout.nodeNid;
    this.routerNid = layout.routerNid;
    this.routerPartition = layout.routerPartition;
    this.datelines = datelines;
    this.rules = rules;
    this.cross = rules.cross;
    this.nodeRouter = graph.nodeRouter;
    this.stride = SEASTAR_GLUT_ENTRIES + this.lutSize;
    this.inPortOf = new Uint8Array(graph.radix).fill(PROC);
    for (let q = 0; q < 6; q++) {
      for (let l = 0; l < graph.links[q >> 1]!; l++) this.inPortOf[graph.groupPort[q]! + l] = q;
    }
    this.stored = store;
    this.table = null;
    if (store) {
      const tab = new Uint8Array(graph.routers * TABLES * this.stride).fill(NONE);
      for (let r = 0; r < graph.routers; r++) {
        const own = this.routerPartition[r]!;
        for (let i = 0; i < TABLES; i++) {
          const at = (r * TABLES + i) * this.stride;
          for (let p = 0; p < this.partitions; p++) if (p !== own) tab[at + p] = rules.decide(r, i, -1, p, true);
          const npr = graph.nodesPerRouter;
          for (let j = 0; j < this.lutSize; j++) {
            const e = at + SEASTAR_GLUT_ENTRIES + j;
            if (j % npr !== 0) tab[e] = tab[e - 1]!; // the nodes of one router share its entries
            else {
              const t = this.localRouter(own, j);
              if (t >= 0) tab[e] = rules.decide(r, i, t, own, true);
            }
          }
        }
      }
      this.table = tab;
    }
  }

  /** Router of the NID with local index j in partition p, or -1 (a gap of the NID space). */
  private localRouter(p: number, j: number): number {
    const g = this.graph;
    const X = g.dims[0]!;
    const Y = g.dims[1]!;
    const Z = g.dims[2]!;
    const npr = g.nodesPerRouter;
    const plane = Y * Z * npr;
    const x = p * this.planesPerPartition + Math.floor(j / plane);
    if (x >= X || x >= (p + 1) * this.planesPerPartition) return -1;
    const rem = j % plane;
    const y = Math.floor(rem / (Z * npr));
    const z = Math.floor(rem / npr) % Z;
    return x + X * (y + Y * z);
  }

  /** GLUT entry of router r, input index inp (0..6), for partition p. */
  globalEntry(r: number, inp: number, p: number): number {
    if (p === this.routerPartition[r] || p >= this.partitions) return NONE;
    if (this.table) return this.table[(r * TABLES + inp) * this.stride + p]!;
    return this.rules.decide(r, inp, -1, p, true);
  }

  /** LUT entry of router r, input index inp (0..6), for NID[11:0] = j of r's own partition. */
  localEntry(r: number, inp: number, j: number): number {
    if (j >= this.lutSize) return NONE;
    if (this.table) return this.table[(r * TABLES + inp) * this.stride + SEASTAR_GLUT_ENTRIES + j]!;
    const own = this.routerPartition[r]!;
    const t = this.localRouter(own, j);
    return t < 0 ? NONE : this.rules.decide(r, inp, t, own, true);
  }

  /** The hierarchical lookup (seed 000, S8): router r, input index inp, destination NID. */
  entry(r: number, inp: number, nid: number): number {
    const p = nid >>> 12;
    return p !== this.routerPartition[r] ? this.globalEntry(r, inp, p) : this.localEntry(r, inp, nid & 4095);
  }

  /** The entry for destination router t (any of its nodes): what the route of a packet for t reads at (r, inp). */
  entryForRouter(r: number, inp: number, t: number): number {
    const nid = this.routerNid[t]!;
    const p = nid >>> 12;
    if (this.table) {
      const idx = p !== this.routerPartition[r] ? p : SEASTAR_GLUT_ENTRIES + (nid & 4095);
      return this.table[(r * TABLES + inp) * this.stride + idx]!;
    }
    return this.rules.decide(r, inp, p !== this.routerPartition[r] ? -1 : t, p, true);
  }

  /** The entry for destination node `dst` (the route function's lookup). */
  entryForNode(r: number, inp: number, dst: number): number {
    return this.entryForRouter(r, inp, this.nodeRouter[dst]!);
  }
}

/**
 * Builds the SeaStar routing tables of the fault-free torus g (3-D, torus or mesh per dimension)
 * with the links `broken` out of service (seed 000, S8, S9). Throws a RangeError naming the bad
 * link, or the broken links involved when a node is isolated or a destination unreachable under
 * the rules. Give `tables.graph` to the network and `seastarTableRoute(tables)` as its routing.
 */
export function buildSeastarTables(g: TorusGraph, broken: readonly BrokenLink[], opts: SeastarTableOptions = {}): SeastarTables {
  if (g.dims.length !== 3) throw new RangeError(`seastar routing needs a 3-D torus or mesh (x, y, z), got ${g.dims.length} dimensions`);
  const faulty = withBrokenLinks(g, broken);
  // one entry per physical link
  const seen = new Set<number>();
  const links: BrokenLink[] = [];
  for (const b of broken) {
    const gp = b.router * g.radix + g.groupPort[2 * b.dim + b.dir]!;
    const back = g.peerRouter[gp]! * g.radix + g.peerPort[gp]!;
    const key = Math.min(gp, back);
    if (seen.has(key)) continue;
    seen.add(key);
    links.push(b);
  }
  const layout = nidLayout(g);
  const R = g.routers;
  const nbr = new Int32Array(R * 6);
  const usable = new Uint8Array(R * 6);
  const wired = new Uint8Array(R * 6);
  for (let r = 0; r < R; r++) {
    for (let o = 0; o < 6; o++) {
      const gp = r * g.radix + g.groupPort[o]!;
      nbr[r * 6 + o] = g.peerRouter[gp]!;
      wired[r * 6 + o] = g.peerRouter[gp]! >= 0 ? 1 : 0;
      usable[r * 6 + o] = faulty.peerRouter[gp]! >= 0 ? 1 : 0;
    }
  }
  // datelines: the wraparound link, moved in Y and Z off the rows that carry broken links
  const datelines: number[] = [];
  for (let d = 0; d < 3; d++) {
    const k = g.dims[d]!;
    if (!g.wrap[d] || k < 2) {
      datelines.push(-1);
      continue;
    }
    let dl = k - 1;
    if (d > 0 && links.length > 0) {
      const busy = new Uint8Array(k);
      for (const b of links) {
        busy[g.coords[b.router * 3 + d]!] = 1;
        busy[g.coords[nbr[b.router * 6 + 2 * b.dim + b.dir]! * 3 + d]!] = 1;
      }
      for (let c = k - 1; c >= 0; c--) {
        if (!busy[c]) {
          dl = c;
          break;
        }
      }
    }
    datelines.push(dl);
  }
  const cross = new Uint8Array(R * 6);
  for (let r = 0; r < R; r++) {
    for (let o = 0; o < 6; o++) {
      const d = o >> 1;
      const dl = datelines[d]!;
      if (dl < 0 || !wired[r * 6 + o]) continue;
      const c = g.coords[r * 3 + d]!;
      cross[r * 6 + o] = (o & 1) === 0 ? (c === dl ? 1 : 0) : c === (dl + 1) % g.dims[d]! ? 1 : 0;
    }
  }
  const X = g.dims[0]!;
  const colBroken = new Uint8Array(X * g.dims[1]!);
  for (const b of links) if (b.dim === 2) colBroken[g.coords[b.router * 3]! + X * g.coords[b.router * 3 + 1]!] = 1;
  const rules = new Rules(g, nbr, usable, cross, colBroken, datelines[2]!, layout.routerPartition, layout.partLo, layout.partHi);
  const entries = R * TABLES * (SEASTAR_GLUT_ENTRIES + layout.lutSize);
  const store = opts.store ?? entries <= SEASTAR_STORE_LIMIT;
  const tables = new SeastarTables(faulty, links, layout, datelines, rules, store);
  if (links.length > 0) {
    const clean = new Rules(g, nbr, wired, cross, new Uint8Array(colBroken.length), datelines[2]!, layout.routerPartition, layout.partLo, layout.partHi);
    checkReachable(g, tables, rules, clean, opts.check ?? (R <= SEASTAR_CHECK_ALL_ROUTERS ? 'all' : 'near-faults'));
  }
  return tables;
}

/**
 * Throws a RangeError naming the broken links when a router with nodes has no usable link, or
 * when a route stops or loops. 'all' walks from every router with nodes to every other. Since the
 * fault-free routing delivers everywhere, a route can only fail after the first entry the faults
 * change; entries change only within one hop of a broken link, and in the destination's z column
 * (and next to it) when that column has a broken z link. So 'near-faults' walks, for each
 * destination, from every changed entry there that a fault-free route can reach; when such a walk
 * fails (it may start where no packet goes), it confirms by walking every route to that destination.
 */
function checkReachable(g: TorusGraph, tables: SeastarTables, rules: Rules, clean: Rules, mode: 'all' | 'near-faults'): void {
  const R = g.routers;
  const hasNodes = new Uint8Array(R);
  for (let n = 0; n < g.nodes; n++) hasNodes[g.nodeRouter[n]!] = 1;
  const hosts: number[] = [];
  for (let r = 0; r < R; r++) if (hasNodes[r]) hosts.push(r);
  const incident: number[][] = Array.from({ length: R }, () => []);
  tables.broken.forEach((b, i) => {
    incident[b.router]!.push(i);
    incident[rules.nbr[b.router * 6 + 2 * b.dim + b.dir]!]!.push(i);
  });
  const names = (routers: Iterable<number>): string => {
    const idx = new Set<number>();
    for (const r of routers) for (const i of incident[r]!) idx.add(i);
    return [...idx].sort((a, b) => a - b).map((i) => brokenLinkName(g, tables.broken[i]!)).join(', ');
  };
  const firstNode = (r: number): number => {
    for (let n = 0; n < g.nodes; n++) if (g.nodeRouter[n] === r) return n;
    return -1;
  };
  if (hosts.length > 1) {
    for (const r of hosts) {
      let any = false;
      for (let o = 0; o < 6; o++) if (rules.usable[r * 6 + o]) any = true;
      if (!any) throw new RangeError(`seastar routing: the broken links ${names([r])} isolate router ${routerName(g, r)} (node ${firstNode(r)})`);
    }
  }
  const okStamp = new Int32Array(R * TABLES);
  const pathStamp = new Int32Array(R * TABLES);
  const path: number[] = [];
  let walkId = 0;
  /** Follows the route of a packet for t from input i0 of r0; returns null, or why it fails and the routers involved. */
  const walk = (r0: number, i0: number, t: number, tStamp: number): { why: string; routers: number[] } | null => {
    walkId++;
    path.length = 0;
    let r = r0;
    let i = i0;
    for (;;) {
      const s = r * TABLES + i;
      if (okStamp[s] === tStamp) break;
      if (pathStamp[s] === walkId) {
        const loop = [...new Set(path.slice(path.indexOf(s)).map((q) => Math.floor(q / TABLES)))];
        return { why: `its route loops through routers ${loop.map((q) => routerName(g, q)).join(', ')}`, routers: loop };
      }
      pathStamp[s] = walkId;
      path.push(s);
      const e = tables.entryForRouter(r, i, t);
      if (e === EJECT) break;
      if (e === NONE || !rules.usable[r * 6 + e]) {
        const around = [r];
        for (let o = 0; o < 6; o++) if (rules.nbr[r * 6 + o]! >= 0) around.push(rules.nbr[r * 6 + o]!);
        return { why: `the rules leave no way on at router ${routerName(g, r)}`, routers: around };
      }
      i = e ^ 1;
      r = rules.nbr[r * 6 + e]!;
    }
    for (const s of path) okStamp[s] = tStamp;
    return null;
  };
  /** Walks from every router with nodes to t; throws on the first route that fails. */
  const walkAllTo = (t: number, tStamp: number): void => {
    for (const src of hosts) {
      const f = walk(src, PROC, t, tStamp);
      if (f) {
        const list = names(f.routers) || names(Array.from({ length: R }, (_, r) => r));
        throw new RangeError(
          `seastar routing: the broken links ${list} leave no route from router ${routerName(g, src)} to node ${firstNode(t)} (router ${routerName(g, t)}) under the fault rules (seed 000, S9): ${f.why}`,
        );
      }
    }
  };
  if (mode === 'all') {
    hosts.forEach((t, k) => walkAllTo(t, k + 1));
    return;
  }
  // routers within one hop of a broken link
  const near = new Uint8Array(R);
  for (const b of tables.broken) {
    for (const e of [b.router, rules.nbr[b.router * 6 + 2 * b.dim + b.dir]!]) {
      near[e] = 1;
      for (let o = 0; o < 6; o++) if (rules.nbr[e * 6 + o]! >= 0) near[rules.nbr[e * 6 + o]!] = 1;
    }
  }
  const nearList: number[] = [];
  for (let r = 0; r < R; r++) if (near[r]) nearList.push(r);
  const XY = rules.X * rules.Y;
  const colHasBroken = new Uint8Array(XY);
  for (const b of tables.broken) if (b.dim === 2) colHasBroken[b.router % XY] = 1;
  const cleanEntry = (r: number, i: number, t: number): number => {
    const p = tables.routerPartition[t]!;
    return clean.decide(r, i, rules.part[r] !== p ? -1 : t, p, true);
  };
  // Inputs whose fault-free entry stands for every state a fault-free route reaches: the processor
  // port (fault-free routes never need the 180-degree exclusion), and with several partitions the X
  // inputs too (a packet travelling in X keeps its direction).
  const representative = (n: number, j: number): boolean => (j === PROC ? true : tables.partitions > 1 && j < 2 && rules.nbr[n * 6 + j]! >= 0);
  hosts.forEach((t, k) => {
    const cands = nearList.slice();
    if (colHasBroken[t % XY]) {
      const col = new Set<number>();
      for (let z = 0; z < rules.Z; z++) {
        const r = (t % XY) + XY * z;
        col.add(r);
        for (let o = 0; o < 6; o++) if (rules.nbr[r * 6 + o]! >= 0) col.add(rules.nbr[r * 6 + o]!);
      }
      for (const r of col) if (!near[r]) cands.push(r);
    }
    for (const r of cands) {
      for (let i = 0; i < TABLES; i++) {
        if (i === PROC ? !hasNodes[r] : rules.nbr[r * 6 + i]! < 0) continue;
        const fe = tables.entryForRouter(r, i, t);
        if (fe === cleanEntry(r, i, t)) continue;
        // a candidate for the first changed entry on a route: the processor port, or an input
        // that a fault-free route reaches (the neighbour's fault-free entry leads here)
        let first = i === PROC;
        if (!first && rules.usable[r * 6 + i]) {
          const n = rules.nbr[r * 6 + i]!;
          for (let j = 0; j < TABLES && !first; j++) first = representative(n, j) && cleanEntry(n, j, t) === (i ^ 1);
        }
        // a failure from a state no packet reaches is no failure: confirm it on every route to t
        if (first && walk(r, i, t, k + 1)) {
          walkAllTo(t, k + 1);
          return;
        }
      }
    }
  });
}

/**
 * The SeaStar table routing (seed 000, S8, S9): reads the table of the packet's input port
 * (`pkts.at[p]`, the global input port) for its destination, GLUT or LUT, and sends it to that
 * output's group of parallel ports, or to the node. VC: 2 * class + dateline bit, as torusDor.
 */
export function seastarTableRoute(tables: SeastarTables): RouteFn<TorusGraph> {
  const inPortOf = tables.inPortOf;
  const cross = tables.cross;
  return (g: TorusGraph, router: number, pkts: PacketPool, p: number, out: RouteChoice): void => {
    const lp = pkts.at[p]! - router * g.radix;
    if (lp < 0 || lp >= g.radix) throw new Error(`seastar routing: packet ${p} is at global port ${pkts.at[p]}, not at an input of router ${router}`);
    const dst = pkts.dst[p]!;
    const cls = pkts.vcClass[p]!;
    const e = tables.entryForNode(router, inPortOf[lp]!, dst);
    if (e === EJECT) {
      out.port = g.nodePort[dst]!;
      out.count = 1;
      out.vc = 2 * cls;
      return;
    }
    if (e > 5) throw new Error(`seastar routing: no table entry at router ${router} input port ${lp} for node ${dst}`);
    const d = e >> 1;
    if (pkts.rDim[p] !== d) {
      pkts.rDim[p] = d;
      pkts.rDateline[p] = 0;
    }
    if (cross[router * 6 + e]) pkts.rDateline[p] = 1;
    out.port = g.groupPort[e]!;
    out.count = g.links[d]!;
    out.vc = 2 * cls + pkts.rDateline[p]!;
  };
}

/** Name of a table entry: x+ .. z-, "eject" or "none". */
export function seastarEntryName(e: number): string {
  return e === EJECT ? 'eject' : (DIR_NAMES[e] ?? 'none');
}
