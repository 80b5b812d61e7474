/**
 * The network's opt-in metrics collector (Network.enableMetrics): busy and credit-stall time per
 * channel, and per delivered packet its hop count, latency bin and whether its route was minimal.
 */
import type { RetryCounters } from './link-retry.ts';
import type { PacketPool } from './packet.ts';
import { routerDistances, type PortGraph } from './topology/port-graph.ts';

/**
 * Edges of the packet-latency bins (ps): 0, then the R10 preferred numbers (1, 1.25, 1.6, 2, 2.5,
 * 3.15, 4, 5, 6.3, 8) times 100 ps up to 100 ms, log-spaced about 26 % apart. The last bin,
 * [80 ms, 100 ms), also holds any longer latency.
 */
export const LATENCY_EDGES_PS: readonly number[] = (() => {
  const mantissas = [100, 125, 160, 200, 250, 315, 400, 500, 630, 800];
  const edges = [0];
  for (let scale = 1; scale <= 1e8; scale *= 10) for (const m of mantissas) edges.push(m * scale);
  edges.push(1e11);
  return edges;
})();

/**
 * What the opt-in collector (Network.enableMetrics) has counted since it was enabled or last
 * reset. Per-channel arrays are indexed like the network's channels (router output ports, then
 * NIC injection channels).
 */
export interface NetworkCounters {
  /** Simulated time the counters start at (ps). */
  readonly sincePs: number;
  /** Per channel: serialization time of the packets sent on it (ps). */
  readonly busyPs: Float64Array;
  /** Per channel: time requests waited at it while it was free but none had credits (ps), open stalls closed at the current time. */
  readonly stallPs: Float64Array;
  /** Delivered packets by router-to-router hop count. */
  readonly hopCounts: Float64Array;
  /** Delivered packets by latency bin (LATENCY_EDGES_PS). */
  readonly latencyCounts: Float64Array;
  readonly packets: number;
  readonly latencySumPs: number;
  readonly latencyMaxPs: number;
  /** Delivered packets whose route was non-minimal (see Network.enableMetrics). */
  readonly nonMinimal: number;
  /** Retransmissions and replay time per link class, when some class has link errors; null otherwise. */
  readonly retry: RetryCounters | null;
  /** Reroutes around failed links and routers, when the machine has faults; null otherwise. */
  readonly faults: FaultCounters | null;
}

/** What failures did to routing over a measurement window. */
export interface FaultCounters {
  /** Packets that left their topology's routing for an up*\/down* detour around a failed link or router. */
  readonly detours: number;
  /** Routing decisions that took another link of a group because some of its links were down. */
  readonly masked: number;
  /** Times the network quiesced to compute new routes, and their total pause (ps). */
  readonly quiesces: number;
  readonly quiescePs: number;
  /** Packets on a link when it failed: sent again over a parallel link still up, or lost (their transactions time out at the NIC). */
  readonly resent: number;
  readonly lost: number;
}

/**
 * The counters behind NetworkCounters. Per-channel arrays are written by the network directly on
 * its hot path (busy, stall, stallSince); the rest through recordDelivery. A route is non-minimal
 * when the routing recorded a non-minimal choice (dragonfly: a Valiant intermediate router,
 * rInter), or, on other topologies, when the packet took more hops than the router distance
 * between its source and destination routers (breadth-first, cached per source router).
 * Dragonflies use the routing's state because their minimal routes go through one gateway of the
 * minimal-route table, which can be longer than the shortest path through a third group.
 */
export class NetworkCollector {
  sincePs = 0;
  /** Per channel: serialization time of the packets sent (ps). */
  readonly busy: Float64Array;
  /** Per channel: closed credit stalls (ps). */
  readonly stall: Float64Array;
  /** Per channel: start of the open credit stall, or -1. */
  readonly stallSince: Float64Array;
  private hops = new Float64Array(64);
  private readonly lat = new Float64Array(LATENCY_EDGES_PS.length - 1);
  private packets = 0;
  private latSum = 0;
  private latMax = 0;
  private nonMin = 0;
  /** Dragonfly: the routing records its non-minimal choice (rInter); otherwise hops are compared with router distances. */
  private readonly byState: boolean;
  /** Router distances from each source router, computed on first use. */
  private readonly dist: (Int32Array | undefined)[];

  constructor(
    private readonly graph: PortGraph,
    channels: number,
  ) {
    this.busy = new Float64Array(channels);
    this.stall = new Float64Array(channels);
    this.stallSince = new Float64Array(channels).fill(-1);
    this.byState = graph.topology === 'dragonfly';
    this.dist = new Array<Int32Array | undefined>(graph.routers);
  }

  /** Zeroes the counters from `now` on; stalls under way restart now. */
  reset(now: number): void {
    this.sincePs = now;
    this.busy.fill(0);
    this.stall.fill(0);
    for (let c = 0; c < this.stallSince.length; c++) if (this.stallSince[c]! >= 0) this.stallSince[c] = now;
    this.hops.fill(0);
    this.lat.fill(0);
    this.packets = 0;
    this.latSum = 0;
    this.latMax = 0;
    this.nonMin = 0;
  }

  /** A copy of the counters at `now`, open stalls closed then. */
  snapshot(now: number, retry: RetryCounters | null, faults: FaultCounters | null): NetworkCounters {
    const stallPs = Float64Array.from(this.stall);
    for (let c = 0; c < stallPs.length; c++) {
      const since = this.stallSince[c]!;
      if (since >= 0) stallPs[c]! += now - since;
    }
    return {
      sincePs: this.sincePs,
      busyPs: Float64Array.from(this.busy),
      stallPs,
      hopCounts: Float64Array.from(this.hops),
      latencyCounts: Float64Array.from(this.lat),
      packets: this.packets,
      latencySumPs: this.latSum,
      latencyMaxPs: this.latMax,
      nonMinimal: this.nonMin,
      retry,
      faults,
    };
  }

  /** Channel `chan` was granted at `now`: an open stall there ends. */
  endStall(chan: number, now: number): void {
    const since = this.stallSince[chan]!;
    if (since >= 0) {
      this.stall[chan]! += now - since;
      this.stallSince[chan] = -1;
    }
  }

  /** Packet p of `pk` has been delivered at `now`. */
  recordDelivery(pk: PacketPool, p: number, now: number): void {
    const lat = now - pk.injectedAt[p]!;
    const hops = pk.hops[p]!;
    if (hops >= this.hops.length) {
      const grown = new Float64Array(Math.max(hops + 1, 2 * this.hops.length));
      grown.set(this.hops);
      this.hops = grown;
    }
    this.hops[hops]!++;
    // binary search of the latency bin: the last edge <= lat
    const edges = LATENCY_EDGES_PS;
    let lo = 0;
    let hi = edges.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (edges[mid]! <= lat) lo = mid;
      else hi = mid - 1;
    }
    this.lat[lo]!++;
    this.packets++;
    this.latSum += lat;
    if (lat > this.latMax) this.latMax = lat;
    if (this.byState) {
      if (pk.rInter[p]! >= 0) this.nonMin++;
    } else {
      const g = this.graph;
      const from = g.nodeRouter[pk.src[p]!]!;
      let d = this.dist[from];
      if (d === undefined) this.dist[from] = d = routerDistances(g, from);
      if (hops > d[g.nodeRouter[pk.dst[p]!]!]!) this.nonMin++;
    }
  }
}
