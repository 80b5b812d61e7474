/** What a flow-level network is built from and what it is asked: its configuration, flows' specifications, its counters. */
import type { Engine } from '../engine/engine.ts';
import type { NetworkParams } from '../network.ts';
import type { PacketFormatConfig } from '../nic/packet-format.ts';
import type { BoundRoute } from '../routing/routing.ts';
import type { PortGraph } from '../topology/port-graph.ts';

/** What a FlowNetwork is built from: the network's description and the engine it schedules on. */
export interface FlowNetworkConfig {
  readonly engine: Engine;
  readonly graph: PortGraph;
  readonly route: BoundRoute;
  /** The network's timing, with its per-class link parameters. */
  readonly params: NetworkParams;
  readonly format: PacketFormatConfig;
  /**
   * Routes traced per source, destination and class, with salts flowSalt(src, dst, 0..n-1); a
   * flow splits evenly over them, as a transfer's packets with their random salts spread over a
   * routing's random choices (default 4: BlackWidow's four slices once each; a dragonfly's
   * gateways drawn four times; routings without salted choices trace one route four times, and
   * the copies merge; 8 with sampleLoads, see there).
   */
  readonly routeSamples?: number;
  /** The routing half of the samples take instead (an adaptive routing's non-minimal alternative, see sampleRoutes). */
  readonly spreadRoute?: BoundRoute;
  /**
   * Trace all samples but the first with made-up loads, so that adaptive choices (a torus ring's
   * two ways) spread (see sampleRoutes). The split follows the loads drawn: of 4 samples a flow to
   * a node half a ring away goes one way in 3 as often as in 2, where adaptive packets split
   * evenly, so these flows take 8 samples by default (a 1 MiB allreduce on 8 to 256 xe6 nodes
   * then within 2 to 4 % of the packet level; 16 and 64 give the same).
   */
  readonly sampleLoads?: boolean;
  /** Per router output port the share of its lanes that work (faults.lanes: (lanes - lost) / lanes); absent: all. */
  readonly laneShare?: Float64Array;
  /**
   * A group of parallel links as one resource per link, each taking an even part of the group's
   * load, instead of one resource for the group: with failures, routes that mask a failed link
   * take single links of a group that other routes take whole.
   */
  readonly splitGroups?: boolean;
}

/** A flow's use of a resource: `weight` capacity units per payload byte per ps of its rate. */
export interface FlowUse {
  readonly resource: number;
  readonly weight: number;
}

/** Packets a flow sends back along the reverse route, one per data packet (a put's responses, a get's requests). */
export interface FlowReverse {
  /** VC class of the reverse packets (0 requests, 1 responses). */
  readonly vcClass: number;
  /** Phits of one reverse packet, without link-layer overhead. */
  readonly phitsPerPacket: number;
}

/** A transfer to carry as a flow. */
export interface FlowSpec {
  readonly src: number;
  readonly dst: number;
  /** 0: request packets (put format), 1: response packets (get-response format). */
  readonly vcClass: number;
  /** Payload bytes. */
  readonly bytes: number;
  /** Resources the caller registered (addResource) that the flow also uses. */
  readonly extra?: readonly FlowUse[];
  /** The flow's own bound, payload bytes per ps (a DMA channel's pace). */
  readonly rateCap?: number;
  /** Hashed in-order routing (PacketPool.ordered). */
  readonly ordered?: boolean;
  /** Independent path the source asks for (PacketPool.path). */
  readonly path?: number;
  /** Packets sent back from dst to src per data packet. */
  readonly reverse?: FlowReverse;
  /**
   * Spread over the distinct routes of the samples as one pool of bytes: a flow of its own on
   * each route, each at its max-min rate, done when together they have carried `bytes` (an
   * adaptive routing sending a transfer's packets wherever there is room). Without it the
   * routes share the bytes evenly (a fixed split). The rate cap bounds the pool.
   */
  readonly multipath?: boolean;
  /** Called (from an engine event) when the last byte has been serialized onto the bottleneck. */
  readonly onDone: (flow: number) => void;
}

/** A traced route as the flows use it: its resources, each with its share of the flow and link overhead per packet. */
export interface RouteUse {
  readonly resource: Int32Array;
  /** Fraction of the route samples through the resource. */
  readonly share: Float64Array;
  /** Link-layer phits the resource adds to every packet. */
  readonly overhead: Float64Array;
  readonly latencyPs: number;
}

/** One distinct route of a multipath flow: its resources, the part of the route's load each takes (1, or 1/count of a group split into its links), and their overheads. */
export interface RoutePath {
  readonly resource: Int32Array;
  readonly part: Float64Array;
  readonly overhead: Float64Array;
}

/** What the flow level counted (see FlowNetwork.counters). */
export interface FlowCounters {
  readonly transfers: number;
  readonly bytes: number;
  readonly solves: number;
}
