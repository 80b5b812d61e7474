/**
 * What a packet-level network (network.ts) is built from and what it offers the NICs attached to
 * it: timing and buffering in ps and phits, arbitration, endpoints.
 */
import type { DegradedKind } from './channel-map.ts';
import type { LinkErrorParams } from './link-errors.ts';
import type { PacketPool } from './packet.ts';
import type { FaultRouting } from './routing/fault-routing.ts';

/** Timing and buffering of a network, already in ps and phits. */
export interface NetworkParams {
  /** VCs per port (from the routing table). */
  readonly vcs: number;
  /** From a head's arrival at a router input to its eligibility for an output (ps). */
  readonly routerLatencyPs: number;
  /** Router-to-router link timing, indexed by the port graph's link class. */
  readonly links: readonly LinkParams[];
  /** NIC -> router channel: phit time and latency (ps). */
  readonly injectPhitPs: number;
  readonly injectLatencyPs: number;
  /** Router -> NIC channel: phit time and latency (ps). */
  readonly ejectPhitPs: number;
  readonly ejectLatencyPs: number;
  /** Router input buffer per port per VC (phits). */
  readonly inputBufferPhits: number;
  /** NIC receive buffer per VC (phits). */
  readonly ejectBufferPhits: number;
  /** Router buffer per VC behind a node port (phits): all the tiles a NIC injects through. */
  readonly injectBufferPhits: number;
  /** Age-based output arbitration (SeaStar); absent: round-robin only. */
  readonly age?: AgeArbitration;
  /**
   * One queue per input port, VC and output (virtual output queues, as behind a crosspoint
   * switch): a packet is routed when it arrives and waits only behind packets bound for the same
   * output. Absent or false: one FIFO per input port and VC, whose head alone is routed (a packet
   * bound for a free output can wait behind one whose output is busy). With source routes (a
   * NextPort given to the constructor) the router upstream knows each packet's output here and
   * holds credits per queue, as for crosspoint buffers: a full queue for one output does not stop
   * packets bound for another. Otherwise the input buffer's credits are shared by its queues.
   */
  readonly voq?: boolean;
  /** VCs of the topology's routing when escape VCs sit above them (fault detours): a class's first VC is class * classVcs / 2. Absent: vcs. */
  readonly classVcs?: number;
  /** Link, lane and router failures (faults.ts) and the routing that masks them; absent: none. */
  readonly faults?: NetworkFaults;
}

/** What the network does about failures: the fault-aware routing, the link kinds of lanes lost, and the fault sets in time order. */
export interface NetworkFaults {
  readonly routing: FaultRouting;
  readonly degraded: readonly DegradedKind[];
  readonly steps: readonly FaultStep[];
  /** How long the network pauses to compute new routes (ps). */
  readonly quiescePausePs: number;
}

/** The fault set from time `atPs` on. */
export interface FaultStep {
  readonly atPs: number;
  /** Per global port and per router: 1 = down. */
  readonly ports: Uint8Array;
  readonly routers: Uint8Array;
  /** Channels whose lanes fail now, and the degraded kind (index into NetworkFaults.degraded) each takes. */
  readonly laneChannels: readonly number[];
  readonly laneKinds: readonly number[];
  /** True when this step cuts the last link between two routers: the network quiesces and computes new routes. */
  readonly quiesce: boolean;
}

/**
 * SeaStar age-based arbitration (seed 000, "Key parameters associated with age-based
 * arbitration"): a packet ages one step per `clockPeriodPs` in the network plus a bias per hop
 * (requests and responses separately), saturating at 255; each output keeps a 6-bit grant
 * counter that indexes the 64-entry `select` mix (1 = grant the oldest, 0 = round-robin).
 */
export interface AgeArbitration {
  readonly select: Uint8Array;
  readonly clockPeriodPs: number;
  readonly requestBias: number;
  readonly responseBias: number;
}

/** Timing of one class of router-to-router link. */
export interface LinkParams {
  /** Serialization time of one phit, link-layer efficiency included (ps). */
  readonly phitPs: number;
  /** Wire and SerDes latency (ps). */
  readonly latencyPs: number;
  /** Link-layer phits added to every packet (CRC, sideband, idle). */
  readonly overheadPhits: number;
  /** Bit errors and their link-level retry (link-errors.ts); absent: the class never errs. */
  readonly errors?: LinkErrorParams;
}

/** What the network hands delivered packets to (the NIC of a node). */
export interface Endpoint {
  /** The packet's tail has reached the node at the current time. */
  deliver(p: number): void;
  /** Packet `p`, on its way to this node, was lost on a link that failed under it (freed by the endpoint). */
  lose?(p: number): void;
}

/** What an endpoint (a NIC, a traffic generator) sees of the network it is attached to. */
export interface NetworkAccess {
  readonly pkts: PacketPool;
  attach(node: number, ep: Endpoint): void;
  inject(node: number, p: number, tailPs?: number): void;
  ejectCredit(node: number, vc: number, phits: number, atPs: number): void;
}

/** Listener for hop-level tracing; only called when set. */
export type HopListener = (p: number, channel: number, startPs: number) => void;
