/**
 * The state of the packet-level network (network.ts moves the packets): its channels, input
 * queues and credit pools, built once from the graph and parameters; the opt-in metrics window
 * and the counters of failures. Split from the packet movement so that each stays one concept;
 * the fields are the movement's own (protected), read on its hot path without indirection.
 */
import type { Engine, EventHandler } from './engine/engine.ts';
import { channelMap } from './channel-map.ts';
import { CreditLedger } from './credit-ledger.ts';
import { LinkRetry } from './link-retry.ts';
import { queueLayout } from './queue-layout.ts';
import { NetworkCollector, type FaultCounters, type NetworkCounters } from './network-collector.ts';
import type { Endpoint, HopListener, NetworkFaults, NetworkParams } from './network-params.ts';
import type { PacketPool } from './packet.ts';
import type { BoundRoute, NextPort, RouteChoice } from './routing/routing.ts';
import { PORT_NODE, type PortGraph } from './topology/port-graph.ts';

/** Largest buffer in phits: credits are counted in 16 bits, half the memory of 32 (the hot path reads them on every hop). */
export const MAX_BUFFER_PHITS = 0x7fff;

/** The network's state; see the module comment. */
export abstract class NetworkState {
  readonly id: number;
  readonly nv: number;
  protected readonly nGP: number;
  protected readonly nChan: number;
  // the input queues and credit pools (queue-layout.ts)
  protected readonly qPer: number;
  protected readonly cq: number;
  protected readonly cqShift: number;
  protected readonly nvq: number;
  protected readonly nvqShift: number;
  protected readonly nvcq: number;
  protected readonly outSlot: Int16Array;
  protected readonly slotPort: Int32Array;
  protected readonly nextPort: NextPort | null;
  // channel state
  protected readonly busyUntil: Float64Array;
  /** Credits per pool and the returns on their way (credit-ledger.ts). */
  protected readonly ledger: CreditLedger;
  protected readonly credits: Int16Array;
  protected readonly pcHead: Int32Array;
  protected readonly reqHead: Int32Array;
  protected readonly reqTail: Int32Array;
  protected readonly reqCount: Uint16Array;
  protected readonly reqOnVc: Uint16Array; // waiting requests per channel-VC
  protected readonly downPhits: Int32Array; // per channel: phits sent into the downstream buffer that have not left it
  protected readonly rr: Int32Array;
  protected readonly tryAt: Float64Array;
  // channel wiring and timing per channel kind (channel-map.ts)
  protected readonly chanDown: Int32Array;
  protected readonly chanKind: Uint8Array;
  protected readonly kindPhitPs: Float64Array;
  protected readonly kindLatPs: Float64Array;
  protected readonly kindOvh: Int32Array;
  protected readonly groupRot: Uint16Array;
  protected readonly grants: Uint8Array;
  /**
   * Input queues: per queue its last packet, or -1 when empty. The packets of a queue form a ring
   * through their `next` fields, the last pointing to the first (the head), so one number per
   * queue gives both ends: half the memory of a head and a tail, on the busiest read of the hot path.
   */
  protected readonly qTail: Int32Array;
  /**
   * Per port a bit per input queue (its index within the port), set while the queue holds
   * packets: an arriving packet learns that its queue is empty from one word per port, a few
   * kilobytes, instead of reading the queue's tail in an array of every queue. The narrowest
   * words that hold a port's queues; null when a port has more than 32 (the tails are read
   * instead).
   */
  protected readonly qMask: Uint8Array | Uint16Array | Uint32Array | null;
  protected readonly upChan: Int32Array;
  protected readonly choice: RouteChoice = { port: 0, count: 1, vc: 0 };
  /**
   * Credits a packet takes from a buffer: its phits, at most those of the smallest buffer on a
   * path (router input or NIC receive buffer). Only a coarse packet (fidelity level coarse, a
   * bulk transfer's hardware packets carried as one) is larger: it takes a whole buffer while
   * it passes, as its hardware packets would stream through it.
   */
  protected readonly capPhits: number;
  protected readonly endpoints: (Endpoint | undefined)[];
  /** Link errors and their replays (link-retry.ts), or null when no link class errs: then a send pays one test of this field. */
  readonly retry: LinkRetry | null;
  /** Packet-hops (channel traversals between routers) so far. */
  linkHops = 0;
  /** Packets delivered so far. */
  delivered = 0;
  /** Optional hop tracer. */
  onHop: HopListener | null = null;
  /** A class's first VC is class * classBase. */
  protected readonly classBase: number;
  /** Failures and their routing, or null. */
  readonly faults: NetworkFaults | null;
  /** Times the network quiesced to compute new routes, as [start, end) spans (ps). */
  readonly quiesces: { readonly startPs: number; readonly endPs: number }[] = [];
  /** The opt-in metrics collector (enableMetrics), or null while off. */
  protected m: NetworkCollector | null = null;

  constructor(
    protected readonly engine: Engine,
    readonly graph: PortGraph,
    protected readonly route: BoundRoute,
    readonly params: NetworkParams,
    readonly pkts: PacketPool,
    nextPort?: NextPort,
  ) {
    this.id = engine.register(this as unknown as EventHandler);
    const nv = params.vcs;
    this.nv = nv;
    const g = graph;
    const nGP = g.routers * g.radix;
    this.nGP = nGP;
    const nChan = nGP + g.nodes;
    const largest = Math.max(params.inputBufferPhits, params.ejectBufferPhits, params.injectBufferPhits);
    if (largest > MAX_BUFFER_PHITS) throw new RangeError(`a buffer of ${largest} phits: at most ${MAX_BUFFER_PHITS} (credits are 16-bit counts)`);
    this.nChan = nChan;
    this.capPhits = Math.min(params.inputBufferPhits, params.ejectBufferPhits);
    this.busyUntil = new Float64Array(nChan);
    this.reqHead = new Int32Array(nChan).fill(-1);
    this.reqTail = new Int32Array(nChan).fill(-1);
    this.reqCount = new Uint16Array(nChan);
    this.reqOnVc = new Uint16Array(nChan * nv);
    this.downPhits = new Int32Array(nChan);
    this.rr = new Int32Array(nChan);
    this.tryAt = new Float64Array(nChan).fill(-1);
    const faults = params.faults;
    const map = channelMap(g, params, faults?.degraded ?? []);
    this.chanDown = map.chanDown;
    this.upChan = map.upChan;
    this.chanKind = map.chanKind;
    this.kindPhitPs = map.kindPhitPs;
    this.kindLatPs = map.kindLatPs;
    this.kindOvh = map.kindOvh;
    // a link with lanes lost errs as its class does
    const errs = [...params.links.map((l) => l.errors), undefined, undefined, ...(faults?.degraded ?? []).map((d) => params.links[d.linkClass]!.errors)];
    this.retry = params.links.some((l) => l.errors !== undefined && l.errors.ber > 0) ? new LinkRetry(errs, errs.length, engine.seed) : null;
    this.classBase = (params.classVcs ?? nv) >> 1;
    this.groupRot = new Uint16Array(nChan);
    this.grants = new Uint8Array(nChan);
    if (params.age && params.age.select.length !== 64) throw new RangeError(`age arbitration select mix must have 64 entries, got ${params.age.select.length}`);
    const L = queueLayout(g, nv, params.voq === true, nextPort !== undefined);
    this.outSlot = L.outSlot;
    this.slotPort = L.slotPort;
    const qPer = (this.qPer = L.qPer);
    this.cqShift = L.cqShift;
    const cq = (this.cq = L.cq);
    this.nextPort = cq > 1 ? nextPort! : null;
    this.nvcq = L.nvcq;
    this.nvq = L.nvq;
    this.nvqShift = L.nvqShift;
    this.qTail = new Int32Array(nChan * nv * qPer).fill(-1);
    const nvq = this.nvq;
    this.qMask = nvq <= 8 ? new Uint8Array(nChan) : nvq <= 16 ? new Uint16Array(nChan) : nvq <= 32 ? new Uint32Array(nChan) : null;
    this.ledger = new CreditLedger(nChan, nv, cq);
    this.credits = this.ledger.credits;
    this.pcHead = this.ledger.pcHead;
    this.endpoints = new Array<Endpoint | undefined>(g.nodes);

    // every buffer starts empty: its credits are its size
    for (let gp = 0; gp < nGP; gp++) {
      if (this.chanDown[gp]! >= 0) {
        this.credits.fill(params.inputBufferPhits, gp * nv * cq, (gp + 1) * nv * cq);
      } else if (g.portClass[gp] === PORT_NODE) {
        const inj = nGP + g.portNode[gp]!;
        for (let v = 0; v < nv; v++) this.credits[this.poolOf(gp * nv + v, 0)] = params.ejectBufferPhits;
        for (let v = 0; v < nv; v++) this.credits[this.poolOf(inj * nv + v, 0)] = params.injectBufferPhits;
      }
    }
    this.faults = faults ?? null;
  }

  /**
   * Starts the opt-in collector (network-collector.ts): busy and credit-stall time per channel,
   * and per delivered packet its hop count, latency (from entering the injection channel to its
   * tail's delivery) and whether its route was minimal. While off, the network pays one branch
   * where a packet is sent or delivered.
   */
  enableMetrics(): void {
    if (this.m !== null) return;
    this.m = new NetworkCollector(this.graph, this.nChan);
    this.resetMetrics();
  }

  /** True once enableMetrics() has been called. */
  get metricsEnabled(): boolean {
    return this.m !== null;
  }

  /** Zeroes the collector's counters from now on (a measurement window); stalls under way restart now. */
  resetMetrics(): void {
    this.m?.reset(this.engine.now);
    this.faultBase = this.faultCounters();
    this.onMetricsReset?.();
    this.retry?.resetCounters();
  }

  /** Told when the collector starts counting afresh (the flow level resets its own counters then). */
  onMetricsReset: (() => void) | null = null;

  /** A copy of the collector's counters at the current time; throws if enableMetrics() was not called. */
  metricsCounters(): NetworkCounters {
    if (this.m === null) throw new Error('network metrics are off: call enableMetrics() before the run');
    const f = this.faultCounters();
    const b = this.faultBase;
    const faults = f === null || b === null ? null : { detours: f.detours - b.detours, masked: f.masked - b.masked, quiesces: f.quiesces - b.quiesces, quiescePs: f.quiescePs - b.quiescePs, resent: f.resent - b.resent, lost: f.lost - b.lost };
    return this.m.snapshot(this.engine.now, this.retry === null ? null : this.retry.snapshot(), faults);
  }

  /** Reroutes and pauses since the start of the run (pauses counted once begun), or null without faults. */
  faultCounters(): FaultCounters | null {
    if (this.faults === null) return null;
    const r = this.faults.routing;
    let ps = 0;
    for (const q of this.quiesces) ps += Math.min(q.endPs, this.engine.now) - q.startPs;
    return { detours: r.detours, masked: r.masked, quiesces: this.quiesces.length, quiescePs: ps, resent: this.replayed, lost: this.lostPackets };
  }
  protected faultBase: FaultCounters | null = null;
  /** Packets lost on a link that failed under them, and those a parallel link sent again (Network.lostOnLink). */
  lostPackets = 0;
  replayed = 0;

  /** Attaches the endpoint (NIC) of a node. */
  attach(node: number, ep: Endpoint): void {
    this.endpoints[node] = ep;
  }

  /** Largest packet (phits) the buffers admit; larger packets could never move. */
  get maxPacketPhits(): number {
    return Math.min(this.params.inputBufferPhits, this.params.ejectBufferPhits);
  }

  /** Credit pool `slot` (an output slot at the next router, or 0) of channel-VC `cv`. */
  protected poolOf(cv: number, slot: number): number {
    return (cv << this.cqShift) + slot;
  }

  /**
   * Where input queue `iq` (port * vcs + VC, times the queues per port and VC, plus the output
   * slot) keeps its tail: queues are stored VC-major, the same VC (and slot) of every port
   * together, so that traffic on few VCs (one class, or the VCs one stage of a route uses) touches
   * a fraction of the array; `iq` itself, and so the arbitration order, stays port-major.
   */
  protected qIndex(iq: number): number {
    const port = this.portOf(iq);
    return (iq - port * this.nvq) * this.nChan + port;
  }

  /** The head packet of non-empty input queue `iq` (its tail's next: see qTail). */
  protected headOf(iq: number): number {
    return this.pkts.next[this.qTail[this.qIndex(iq)]!]!;
  }

  /** The input port (global port id, or a NIC pseudo-port) of input queue `iq`: a shift when the queues per port are a power of two. */
  protected portOf(iq: number): number {
    const sh = this.nvqShift;
    return sh >= 0 ? iq >> sh : (iq / this.nvq) | 0;
  }
}
