import type { TorusGraph } from '../topology/torus.ts';
import { withBrokenLinks, type BrokenLink } from './broken-links.ts';
import { checkReachable } from './seastar-reachability.ts';
import { nidLayout, SEASTAR_GLUT_ENTRIES } from './seastar-nids.ts';
import { SEASTAR_NO_ROUTE, SEASTAR_PROCESSOR_PORT, SEASTAR_TABLES, SeastarRules } from './seastar-rules.ts';

/*
 * The routing tables of the Cray XT4 SeaStar (seed 000, "Routing"; S8, S9), filled by the fault
 * rules of seastar-rules.ts (which also give the port numbering and table indices).
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
 */

/** Largest number of table entries (bytes) stored; above it entries are computed at each lookup. */
export const SEASTAR_STORE_LIMIT = 32 * 1024 * 1024;
/** Largest router count for which the fault check walks every route. */
export const SEASTAR_CHECK_ALL_ROUTERS = 2048;

const NONE = SEASTAR_NO_ROUTE;
const PROC = SEASTAR_PROCESSOR_PORT;

/** How to build the tables. */
export interface SeastarTableOptions {
  /** Store the tables (true) or compute each entry when looked up (false); default: store up to SEASTAR_STORE_LIMIT entries. */
  readonly store?: boolean;
  /** Walk every route ('all') or only those that meet an entry changed by the faults; default by size. */
  readonly check?: 'all' | 'near-faults';
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
  private readonly rules: SeastarRules;
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
    rules: SeastarRules,
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
      const tab = new Uint8Array(graph.routers * SEASTAR_TABLES * this.stride).fill(NONE);
      for (let r = 0; r < graph.routers; r++) {
        const own = this.routerPartition[r]!;
        for (let i = 0; i < SEASTAR_TABLES; i++) {
          const at = (r * SEASTAR_TABLES + i) * this.stride;
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
    if (this.table) return this.table[(r * SEASTAR_TABLES + inp) * this.stride + p]!;
    return this.rules.decide(r, inp, -1, p, true);
  }

  /** LUT entry of router r, input index inp (0..6), for NID[11:0] = j of r's own partition. */
  localEntry(r: number, inp: number, j: number): number {
    if (j >= this.lutSize) return NONE;
    if (this.table) return this.table[(r * SEASTAR_TABLES + inp) * this.stride + SEASTAR_GLUT_ENTRIES + j]!;
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
      return this.table[(r * SEASTAR_TABLES + inp) * this.stride + idx]!;
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
  const rules = new SeastarRules(g, nbr, usable, cross, colBroken, datelines[2]!, layout.routerPartition, layout.partLo, layout.partHi);
  const entries = R * SEASTAR_TABLES * (SEASTAR_GLUT_ENTRIES + layout.lutSize);
  const store = opts.store ?? entries <= SEASTAR_STORE_LIMIT;
  const tables = new SeastarTables(faulty, links, layout, datelines, rules, store);
  if (links.length > 0) {
    const clean = new SeastarRules(g, nbr, wired, cross, new Uint8Array(colBroken.length), datelines[2]!, layout.routerPartition, layout.partLo, layout.partHi);
    checkReachable(g, tables, rules, clean, opts.check ?? (R <= SEASTAR_CHECK_ALL_ROUTERS ? 'all' : 'near-faults'));
  }
  return tables;
}
