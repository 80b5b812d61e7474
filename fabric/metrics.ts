import type { Machine } from './machine.ts';
import type { FlowCounters } from './flow/flow-network.ts';
import { LATENCY_EDGES_PS, type LinkParams, type NetworkCounters } from './network.ts';
import type { ClosGraph } from './topology/clos.ts';
import type { DragonflyGraph } from './topology/dragonfly.ts';
import { PORT_NODE, PORT_UNUSED, type PortGraph } from './topology/port-graph.ts';
import type { TopologySpec } from './topology/topologies.ts';
import type { TorusGraph } from './topology/torus.ts';

/** Counts in bins: `counts[i]` samples fell in [edges[i], edges[i + 1]). */
export interface Histogram {
  readonly unit: string;
  readonly edges: readonly number[];
  readonly counts: readonly number[];
  readonly samples: number;
  readonly mean: number;
  readonly max: number;
}

/** Router-to-router links of one class (torus dimension, green/black/global, Clos rank, ...). */
export interface LinkClassMetrics {
  readonly name: string;
  readonly links: number;
  /** Mean over the class's links of the fraction of the run each was busy sending. */
  readonly utilisation: number;
  readonly maxUtilisation: number;
  /** Mean fraction of the run a link had a packet waiting for it that could not go for lack of credits. */
  readonly creditStall: number;
}

/** Bit errors on one link class and their replays (link-retry.ts). */
export interface LinkErrorMetrics {
  readonly name: string;
  readonly links: number;
  /** The class's bit-error rate (link.ber). */
  readonly ber: number;
  /** Hardware packets that crossed the class's links. */
  readonly packets: number;
  /** Packets the receiving CRC rejected: each one replayed with what followed it. */
  readonly retransmissions: number;
  /** Time replays held the class's links (ps, summed over the links), and its share of their time. */
  readonly replayPs: number;
  readonly replayShare: number;
  /** Latency replays added per packet that crossed the class: replay time over packets (ns). */
  readonly replayNsPerPacket: number;
  /** Per-hop retry: control packets corrupted (ignored, the next one carried the error). */
  readonly controlErrors: number;
}

/**
 * Load per router, for a heat map laid out by the topology: `axes` names each coordinate
 * (torus: x, y, z; dragonfly: group, chassis, slot; Clos: rank, index; Kautz: index) and
 * `coords[r]` places router r.
 */
export interface RouterLoad {
  readonly topology: string;
  readonly axes: readonly string[];
  readonly coords: readonly (readonly number[])[];
  /** Mean utilisation of router r's outgoing router-to-router links. */
  readonly utilisation: readonly number[];
}

export interface FabricMetrics {
  /** Simulated time the figures cover (ps). */
  readonly durationPs: number;
  readonly packets: number;
  readonly linkClasses: readonly LinkClassMetrics[];
  readonly routers: RouterLoad;
  /** Router-to-router hops per delivered packet. */
  readonly hops: Histogram;
  /** Injection to delivery of each packet (ns). */
  readonly latencyNs: Histogram;
  /** Packets routed minimally and non-minimally, for adaptive and Valiant routing; null otherwise. */
  readonly routing: { readonly minimal: number; readonly nonMinimal: number } | null;
  /**
   * At the flow level, the block transfers carried as flows (their link time is in the link
   * classes' utilisation too), their bytes and the solves of their rates; null at the other levels.
   */
  readonly flows: FlowCounters | null;
  /** Per link class, retransmissions and replay time; only when some class has a bit-error rate (link.ber). */
  readonly linkErrors?: readonly LinkErrorMetrics[];
  /** Reroutes around failed links and routers and the network's pauses to compute new routes; only when the machine has faults (faults.*). */
  readonly faults?: FaultMetrics;
  /** The dead nodes (faults.nodes) and what they cost; only when a node dies. */
  readonly nodeFaults?: NodeFaultMetrics;
}

/** The dead nodes of a run: each with its time of death, the packets their NICs dropped and the transactions that timed out for them. */
export interface NodeFaultMetrics {
  readonly dead: readonly { readonly node: number; readonly atUs: number }[];
  readonly droppedPackets: number;
  readonly timeouts: number;
  /** The NIC timeout (us) each of those transactions waited. */
  readonly timeoutUs: number;
}

/** What failures did to routing (Network.faultCounters over the window). */
export interface FaultMetrics {
  /** Packets that left their routing for an up*\/down* detour. */
  readonly detours: number;
  /** Routing decisions that took another link or route draw because a link was down. */
  readonly masked: number;
  /** Pauses of the whole network to compute new routes, and their total (us). */
  readonly quiesces: number;
  readonly quiesceUs: number;
  /** Packets on a link when it failed: sent again over a parallel link still up, or lost (their transactions time out at the NIC). */
  readonly resent: number;
  readonly lost: number;
  /** Per link class with links: hops packets took on it off their topology's route (up*\/down* detours, another route from the source). */
  readonly byClass: readonly { readonly name: string; readonly links: number; readonly detourHops: number }[];
}

const round6 = (x: number): number => Number(x.toFixed(6));

/**
 * Whether a topology's routing can send a packet on a non-minimal route: dragonfly valiant and
 * adaptive, Kautz multipath (a detour by another out-link), torus routing tables around broken
 * links. Dimension order, the minimal and hashed dragonfly routes, Kautz shortest and the Clos
 * routes (up, at most one sidelink, down) are always minimal.
 */
export function canRouteNonMinimally(t: TopologySpec): boolean {
  switch (t.kind) {
    case 'dragonfly':
      return t.routing === 'valiant' || t.routing === 'adaptive';
    case 'kautz':
      return t.routing === 'multipath';
    case 'torus':
      return t.routing === 'table' && t.brokenLinks !== 'none';
    case 'clos':
      return false;
  }
}

/**
 * The fabric's metrics of a run whose network had `machine.net.enableMetrics()` called before it
 * started, over `durationPs` of simulated time (utilisation and credit stall are fractions of
 * it). Link classes cover router-to-router links only, one link per direction, named as the
 * topology names its port classes; classes without links are left out. Hops: one bin per hop
 * count. Latency (from entering the injection channel to the tail's delivery, in ns): log-spaced
 * bins (LATENCY_EDGES_PS), trimmed to the bins from the first to the last non-empty one; mean
 * and max are exact. `routing` is null unless the routing can be non-minimal
 * (canRouteNonMinimally); see Network.enableMetrics for how a route is judged non-minimal.
 */
export function collectFabricMetrics(machine: Machine, durationPs: number): FabricMetrics {
  if (!(durationPs > 0) || !Number.isFinite(durationPs)) throw new RangeError(`durationPs must be a positive number of ps, got ${durationPs}`);
  const c = machine.net.metricsCounters();
  const g = machine.graph;
  machine.flows?.addChannelBusy(c.busyPs);
  return {
    durationPs,
    packets: c.packets,
    linkClasses: linkClasses(g, c, durationPs),
    routers: routerLoad(g, c, durationPs),
    hops: hopHistogram(c),
    latencyNs: latencyHistogram(c),
    routing: canRouteNonMinimally(machine.config.topology) ? { minimal: c.packets - c.nonMinimal, nonMinimal: c.nonMinimal } : null,
    flows: machine.flows ? machine.flows.counters() : null,
    ...(c.retry !== null ? { linkErrors: linkErrors(g, c, machine.net.params.links, durationPs) } : {}),
    ...(c.faults !== null ? { faults: { detours: c.faults.detours, masked: c.faults.masked, quiesces: c.faults.quiesces, quiesceUs: round6(c.faults.quiescePs / 1e6), resent: c.faults.resent, lost: c.faults.lost, byClass: detourHops(machine) } } : {}),
    ...(machine.faults.any ? { nodeFaults: nodeFaultMetrics(machine) } : {}),
  };
}

/** The dead nodes of `machine` (those dead by now) and the packets and transactions they cost. */
function nodeFaultMetrics(machine: Machine): NodeFaultMetrics {
  const f = machine.faults;
  const now = machine.engine.now;
  return {
    dead: f.config.deaths.filter((d) => d.atPs <= now).map((d) => ({ node: d.node, atUs: d.atPs / 1e6 })),
    droppedPackets: f.dropped,
    timeouts: f.timeouts,
    timeoutUs: f.config.timeoutPs / 1e6,
  };
}

/** True for a global port that is a router-to-router output (a network link channel). */
function isLink(g: PortGraph, gp: number): boolean {
  const cls = g.portClass[gp]!;
  return g.peerRouter[gp]! >= 0 && cls !== PORT_NODE && cls !== PORT_UNUSED;
}

function linkClasses(g: PortGraph, c: NetworkCounters, durationPs: number): LinkClassMetrics[] {
  const n = g.classNames.length;
  const links = new Float64Array(n);
  const util = new Float64Array(n);
  const max = new Float64Array(n);
  const stall = new Float64Array(n);
  for (let gp = 0; gp < g.routers * g.radix; gp++) {
    if (!isLink(g, gp)) continue;
    const cls = g.portClass[gp]!;
    const u = c.busyPs[gp]! / durationPs;
    links[cls]!++;
    util[cls]! += u;
    if (u > max[cls]!) max[cls] = u;
    stall[cls]! += c.stallPs[gp]! / durationPs;
  }
  const out: LinkClassMetrics[] = [];
  for (let cls = 0; cls < n; cls++) {
    const l = links[cls]!;
    if (l === 0) continue;
    out.push({ name: g.classNames[cls]!, links: l, utilisation: round6(util[cls]! / l), maxUtilisation: round6(max[cls]!), creditStall: round6(stall[cls]! / l) });
  }
  return out;
}

/** Detour hops per link class with links, over the metrics window (FaultRouting.detourHopsSince). */
function detourHops(machine: Machine): FaultMetrics['byClass'] {
  const g = machine.graph;
  const hops = machine.net.params.faults?.routing.detourHopsSince() ?? new Float64Array(g.classNames.length);
  const count = new Float64Array(g.classNames.length);
  for (let gp = 0; gp < g.routers * g.radix; gp++) if (isLink(g, gp)) count[g.portClass[gp]!]!++;
  const out: { name: string; links: number; detourHops: number }[] = [];
  for (let cls = 0; cls < count.length; cls++) if (count[cls]! > 0) out.push({ name: g.classNames[cls]!, links: count[cls]!, detourHops: hops[cls]! });
  return out;
}

/** Retransmissions and replay time of every class with links (c.retry set). */
function linkErrors(g: PortGraph, c: NetworkCounters, links: readonly LinkParams[], durationPs: number): LinkErrorMetrics[] {
  const r = c.retry!;
  const count = new Float64Array(g.classNames.length);
  for (let gp = 0; gp < g.routers * g.radix; gp++) if (isLink(g, gp)) count[g.portClass[gp]!]!++;
  const out: LinkErrorMetrics[] = [];
  for (let cls = 0; cls < count.length; cls++) {
    const n = count[cls]!;
    if (n === 0) continue;
    out.push({
      name: g.classNames[cls]!,
      links: n,
      ber: links[cls]?.errors?.ber ?? 0,
      packets: r.packets[cls]!,
      retransmissions: r.retransmissions[cls]!,
      replayPs: r.replayPs[cls]!,
      replayShare: round6(r.replayPs[cls]! / (n * durationPs)),
      replayNsPerPacket: r.packets[cls]! > 0 ? round6(r.replayPs[cls]! / r.packets[cls]! / 1000) : 0,
      controlErrors: r.controlErrors[cls]!,
    });
  }
  return out;
}

/** Axes and coordinates of every router, by topology (RouterLoad). */
export function routerCoordinates(g: PortGraph): { axes: string[]; coords: number[][] } {
  const coords: number[][] = [];
  switch (g.topology) {
    case 'torus': {
      const t = g as TorusGraph;
      const n = t.dims.length;
      for (let r = 0; r < g.routers; r++) coords.push(Array.from(t.coords.subarray(r * n, r * n + n)));
      return { axes: ['x', 'y', 'z', 'w', 'v', 'u'].slice(0, n), coords };
    }
    case 'dragonfly': {
      const d = g as DragonflyGraph;
      for (let r = 0; r < g.routers; r++) coords.push([d.routerGroup[r]!, d.routerChassis[r]!, d.routerSlot[r]!]);
      return { axes: ['group', 'chassis', 'slot'], coords };
    }
    case 'clos': {
      const k = g as ClosGraph;
      for (let r = 0; r < g.routers; r++) {
        const level = k.routerLevel[r]!;
        const base = level === 1 ? 0 : level === 2 ? k.r2Base : k.r3Base;
        coords.push([level, r - base]);
      }
      return { axes: ['rank', 'index'], coords };
    }
    default:
      for (let r = 0; r < g.routers; r++) coords.push([r]);
      return { axes: ['index'], coords };
  }
}

function routerLoad(g: PortGraph, c: NetworkCounters, durationPs: number): RouterLoad {
  const { axes, coords } = routerCoordinates(g);
  const utilisation: number[] = [];
  for (let r = 0; r < g.routers; r++) {
    let sum = 0;
    let n = 0;
    for (let gp = r * g.radix; gp < (r + 1) * g.radix; gp++) {
      if (!isLink(g, gp)) continue;
      sum += c.busyPs[gp]! / durationPs;
      n++;
    }
    utilisation.push(n === 0 ? 0 : round6(sum / n));
  }
  return { topology: g.topology, axes, coords, utilisation };
}

function hopHistogram(c: NetworkCounters): Histogram {
  let last = -1;
  let sum = 0;
  for (let h = 0; h < c.hopCounts.length; h++) {
    const k = c.hopCounts[h]!;
    if (k > 0) last = h;
    sum += h * k;
  }
  const counts = Array.from(c.hopCounts.subarray(0, last + 1));
  return {
    unit: 'hops',
    edges: Array.from({ length: last + 2 }, (_, i) => i),
    counts,
    samples: c.packets,
    mean: c.packets ? round6(sum / c.packets) : 0,
    max: Math.max(0, last),
  };
}

function latencyHistogram(c: NetworkCounters): Histogram {
  const k = c.latencyCounts;
  let first = -1;
  let last = -1;
  for (let i = 0; i < k.length; i++) {
    if (k[i]! > 0) {
      if (first === -1) first = i;
      last = i;
    }
  }
  const maxNs = c.latencyMaxPs / 1000;
  if (first === -1) return { unit: 'ns', edges: [0], counts: [], samples: 0, mean: 0, max: 0 };
  const edges = LATENCY_EDGES_PS.slice(first, last + 2).map((e) => e / 1000);
  // the last bin also holds latencies beyond its nominal edge: widen it to cover them
  if (edges[edges.length - 1]! <= maxNs) edges[edges.length - 1] = Math.ceil(maxNs) + 1;
  return {
    unit: 'ns',
    edges,
    counts: Array.from(k.subarray(first, last + 1)),
    samples: c.packets,
    mean: round6(c.latencySumPs / c.packets / 1000),
    max: round6(maxNs),
  };
}

/**
 * The q-quantile (0..1) of a histogram's samples, interpolated linearly inside the bin that holds
 * it (so as precise as the bins are narrow); 0 for an empty histogram.
 */
export function histogramQuantile(h: Histogram, q: number): number {
  if (h.samples === 0) return 0;
  const target = q * h.samples;
  let seen = 0;
  for (let i = 0; i < h.counts.length; i++) {
    const n = h.counts[i]!;
    if (n > 0 && seen + n >= target) {
      const lo = h.edges[i]!;
      const hi = Math.min(h.edges[i + 1]!, h.max);
      return lo + (Math.max(0, target - seen) / n) * Math.max(0, hi - lo);
    }
    seen += n;
  }
  return h.max;
}
