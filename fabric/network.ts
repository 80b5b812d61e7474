import type { Engine, EventHandler } from './engine/engine.ts';
import type { FaultStep, NetworkAccess, NetworkParams } from './network-params.ts';
import type { PacketPool } from './packet.ts';
import { modU32, type BoundRoute, type LoadView, type NextPort } from './routing/routing.ts';
import type { PortGraph } from './topology/port-graph.ts';
import { lostInFlight, replayLink } from './faults.ts';
import { NetworkArbiter } from './network-arbiter.ts';

export type { AgeArbitration, Endpoint, FaultStep, HopListener, LinkParams, NetworkAccess, NetworkFaults, NetworkParams } from './network-params.ts';
export { LATENCY_EDGES_PS, type FaultCounters, type NetworkCounters } from './network-collector.ts';
export { MAX_BUFFER_PHITS } from './network-state.ts';

/**
 * The network's constants, as const enums so that they compile to literals: a module-level
 * constant costs a context load at every use on the hot path.
 */
const enum Ev {
  Arrive = 0,
  Try = 1,
  Deliver = 2,
  Fault = 3,
}
const enum K {
  /** Load counts one unit per 16 phits waiting in the downstream buffer (as well as per waiting request). */
  LoadPhitsShift = 4,
}
const DEBUG = false; // hot-path assertions (busy channel, negative credits): set true when changing this file

/**
 * Packet-level virtual cut-through network. A packet moves onto a channel only when the
 * downstream input buffer of its VC has credits for the whole packet; it occupies the channel for
 * its serialization time (phits plus link overhead); its head reaches the next router after the
 * wire latency and router pipeline; credits return upstream when its tail leaves. Output channels
 * grant waiting input VCs round-robin (or oldest first: the arbitration is `NetworkArbiter`'s,
 * network-arbiter.ts). Parallel ports of one direction are chosen per packet by load (adaptive)
 * or by a source/destination hash (ordered traffic).
 *
 * Channels: ids [0, routers*radix) are router output ports; [routers*radix, +nodes) are the NIC
 * injection channels. Input queues: channel-sized id space x VCs, where the NIC queues of node n
 * sit at the pseudo-port routers*radix + n.
 */
export class Network extends NetworkArbiter implements EventHandler, NetworkAccess, LoadView {
  constructor(engine: Engine, graph: PortGraph, route: BoundRoute, params: NetworkParams, pkts: PacketPool, nextPort?: NextPort) {
    super(engine, graph, route, params, pkts, nextPort);
    const faults = this.faults;
    if (faults) {
      // a link that fails during the run loses the packets on it then: their time of failure per
      // channel, and arrivals through a handler of their own that checks them (the fault-free path pays nothing)
      if (faults.steps.some((st) => st.atPs > engine.now)) {
        this.failPs = new Float64Array(this.nChan).fill(Infinity);
        this.arriveId = engine.register({ onEvent: (_kind: number, p: number) => (this.lostOnLink(p) ? undefined : this.enqueue(p)) });
      }
      // failures from the start are in place before the run; later ones are events
      faults.steps.forEach((st, i) => {
        if (st.atPs <= engine.now) this.applyFault(i);
        else engine.at(st.atPs, this.id, Ev.Fault, i);
      });
    }
  }

  /** Told when a fault set takes effect (the flow level routes and sizes its flows by it). */
  onFault: ((step: FaultStep) => void) | null = null;
  /** Told when the network quiesces from now until the time given (the flow level pauses its flows). */
  onQuiesce: ((untilPs: number) => void) | null = null;
  /** Per channel, when its link failed during the run (Infinity: up); null when no link fails during the run. */
  private failPs: Float64Array | null = null;
  /** The handler of packet arrivals: this network, or with links failing during the run the one that checks for them. */
  private arriveId = this.id;

  /**
   * Fault set `i` takes effect now: the routing masks its links and routers from now on, links
   * with lanes lost serialize over the lanes left, and where a failure cuts the last link between
   * two routers every channel pauses for the quiesce time while new routes are computed. A packet
   * on a link when it fails, or granted it afterwards (routed onto it before), is sent again over a
   * parallel link or lost (lostOnLink).
   */
  private applyFault(i: number): void {
    const f = this.faults!;
    const st = f.steps[i]!;
    f.routing.setDown(st.ports, st.routers);
    const fail = this.failPs;
    if (fail !== null) for (let c = 0; c < st.ports.length; c++) if (st.ports[c] && fail[c] === Infinity) fail[c] = this.engine.now;
    const kind0 = this.params.links.length + 2;
    st.laneChannels.forEach((c, k) => {
      this.chanKind[c] = kind0 + st.laneKinds[k]!;
    });
    if (this.onFault !== null) this.onFault(st);
    if (!st.quiesce) return;
    const now = this.engine.now;
    const until = now + f.quiescePausePs;
    this.quiesces.push({ startPs: now, endPs: until });
    if (this.onQuiesce !== null) this.onQuiesce(until);
    for (let c = 0; c < this.nChan; c++) {
      if (this.busyUntil[c]! < until) this.busyUntil[c] = until;
      if (this.reqHead[c] !== -1) this.scheduleTry(c, until);
    }
  }

  /**
   * Whether packet `p`, its head arriving now, did not get across the link it crossed: the link
   * failed before its tail was across (faults.ts lostInFlight). Its downstream credits come back;
   * a parallel link still up sends it again (replayLink: from when it is free, taking that
   * link's credits even if short), else the endpoint of its destination reports it lost (the NIC
   * times its transaction out).
   */
  private lostOnLink(p: number): boolean {
    const pk = this.pkts;
    const chan = this.upChan[pk.at[p]!]!;
    const now = this.engine.now;
    if (chan < 0 || !lostInFlight(this.failPs![chan]!, now, pk.tailAt[p]!)) return false;
    const phits = this.creditPhits(pk.phits[p]!);
    this.returnCredits(chan, this.creditOf(chan, p), phits, now);
    const alt = replayLink(this.graph, this.failPs!, chan);
    if (alt >= 0) {
      const kind = this.chanKind[alt]!;
      const start = Math.max(now, this.busyUntil[alt]!);
      const end = Math.ceil(start + (pk.phits[p]! + this.kindOvh[kind]! * pk.units[p]!) * this.kindPhitPs[kind]!);
      this.busyUntil[alt] = end;
      if (this.reqHead[alt] !== -1) this.scheduleTry(alt, end);
      this.credits[this.creditOf(alt, p)]! -= phits;
      this.downPhits[alt]! += phits;
      pk.at[p] = this.chanDown[alt]!;
      pk.tailAt[p] = end + this.kindLatPs[kind]!;
      this.replayed++;
      this.engine.at(start + this.kindLatPs[kind]! + this.params.routerLatencyPs, this.arriveId, Ev.Arrive, p);
      return true;
    }
    this.lostPackets++;
    const ep = this.endpoints[pk.dst[p]!]!;
    if (ep.lose) ep.lose(p);
    else pk.free(p);
    return true;
  }

  /**
   * Hands a packet (fields src, dst, phits, vcClass set) from node `node`'s NIC to the network at
   * the current time; its tail follows at `tailPs` (later for a coarse packet, whose hardware
   * packets leave the NIC one after another). The NIC's queue is unbounded; the injection
   * channel applies credits.
   */
  inject(node: number, p: number, tailPs = this.engine.now): void {
    const pk = this.pkts;
    if (DEBUG && this.creditPhits(pk.phits[p]!) > this.maxPacketPhits) throw new Error(`packet of ${pk.phits[p]} phits exceeds buffers`);
    const now = this.engine.now;
    pk.tailAt[p] = tailPs > now ? tailPs : now;
    pk.hops[p] = 0;
    // a response reuses its request's packet: its route starts afresh
    pk.startRoute(p, this.engine.rng.nextU32());
    pk.vc[p] = pk.vcClass[p]! * this.classBase;
    pk.at[p] = this.nGP + node;
    this.enqueue(p);
  }

  /** The NIC of `node` frees `phits` of its receive buffer on `vc` at time `atPs` (now or later). */
  ejectCredit(node: number, vc: number, phits: number, atPs: number): void {
    const g = this.graph;
    const chan = g.nodeRouter[node]! * g.radix + g.nodePort[node]!;
    this.returnCredits(chan, this.poolOf(chan * this.nv + vc, 0), this.creditPhits(phits), atPs);
  }

  /**
   * `phits` of credit reach pool `ci` of channel `chan` (see creditOf) at time `at` (now or
   * later). A credit due now, with none of its VC's on the way, is applied at once; a later one
   * waits in the channel's list and is applied when the channel next reads its credits, with an
   * event at its time only if a request waits on its VC.
   */
  private returnCredits(chan: number, ci: number, phits: number, at: number): void {
    const cv = ci >> this.cqShift;
    this.downPhits[chan]! -= phits; // the phits have left the downstream buffer; their credits are on the way
    if (at <= this.engine.now && !this.ledger.pendingOnVc(chan, cv)) {
      this.credits[ci]! += phits;
      if (this.reqHead[chan] !== -1) this.tryOut(chan);
      return;
    }
    this.ledger.push(chan, ci, phits, at);
    // wake the channel at `at` only if a request waits on this VC; a busy channel with waiting
    // requests already has a try at the end of its packet, and reads its credits then
    if (this.reqHead[chan] !== -1 && at > this.busyUntil[chan]! && this.reqOnVc[cv]! > 0) this.scheduleTry(chan, at);
  }

  onEvent(kind: number, arg: number): void {
    switch (kind) {
      case Ev.Arrive:
        this.enqueue(arg);
        break;
      case Ev.Try:
        if (this.tryAt[arg] === this.engine.now) this.tryAt[arg] = -1;
        this.tryOut(arg);
        break;
      case Ev.Fault:
        this.applyFault(arg);
        break;
      case Ev.Deliver: {
        this.delivered++;
        if (this.m !== null) this.m.recordDelivery(this.pkts, arg, this.engine.now);
        this.endpoints[this.pkts.dst[arg]!]!.deliver(arg);
        break;
      }
    }
  }

  /**
   * Appends a packet to the input queue of its port and VC (with virtual output queues: of its
   * port, VC and output, routing it now); a packet that becomes the head requests its output, and
   * one granted at once leaves without entering the queue (the same grant, one step shorter).
   */
  private enqueue(p: number): void {
    const pk = this.pkts;
    const gp = pk.at[p]!;
    let iq = gp * this.nv + pk.vc[p]!;
    let chan = -1;
    if (this.qPer > 1) {
      // the queue of the output port (a NIC pseudo-port has one output)
      iq *= this.qPer;
      if (gp < this.nGP) {
        chan = this.routeNow(gp, p);
        iq += this.outSlot[chan % this.graph.radix]!;
        if (this.nextPort !== null) pk.xbSlot[p] = this.outSlot[this.nextPort(pk, p)]!;
      }
    }
    const mask = this.qMask;
    const bit = 1 << (iq - gp * this.nvq);
    if (DEBUG && mask !== null && ((mask[gp]! & bit) !== 0) !== (this.qTail[this.qIndex(iq)] !== -1)) throw new Error(`queue ${iq}: its bit disagrees with its tail`);
    if (mask === null || (mask[gp]! & bit) !== 0) {
      const qi = this.qIndex(iq);
      const tail = this.qTail[qi]!;
      if (tail !== -1) {
        // behind others: it waits its turn
        pk.next[p] = pk.next[tail]!;
        pk.next[tail] = p;
        this.qTail[qi] = p;
        return;
      }
    }
    // the head of its queue: it requests its output now
    if (chan === -1) chan = gp >= this.nGP ? gp : this.routeNow(gp, p);
    const pool = this.creditOf(chan, p);
    const phits = this.creditPhits(pk.phits[p]!);
    if (this.goesNow(chan, pool, phits)) {
      // granted at once: it never enters the queue
      this.moveArbiter(chan, iq);
      this.send(chan, p, iq);
      if (this.reqHead[chan] !== -1) this.scheduleTry(chan, this.busyUntil[chan]!);
      return;
    }
    pk.next[p] = p;
    this.qTail[this.qIndex(iq)] = p;
    if (mask !== null) mask[gp]! |= bit;
    this.waitFor(chan, iq, pool, phits);
  }

  /** Routes packet `p` at router input port `gp` now: returns its output channel and sets its VC there. */
  private routeNow(gp: number, p: number): number {
    const pk = this.pkts;
    const g = this.graph;
    const router = (gp / g.radix) | 0;
    const ch = this.choice;
    this.route(router, pk, p, ch, this);
    const base = router * g.radix + ch.port;
    let chan: number;
    if (ch.count === 1) {
      chan = base;
    } else if (pk.ordered[p]) {
      chan = base + modU32(Math.imul(pk.src[p]! + 0x9e3779b9, 0x85ebca6b ^ pk.dst[p]!) >>> 0, ch.count);
    } else {
      chan = this.leastLoaded(base, ch.count, ch.vc, this.creditPhits(pk.phits[p]!));
    }
    if (pk.units[p]! > 1) {
      pk.gFirst[p] = base;
      pk.gCount[p] = ch.count;
    }
    pk.vc[p] = ch.vc;
    return chan;
  }

  /** Queues the request of the head packet of input queue `iq` at its output (routing it first unless virtual output queues did on arrival). */
  private requestHead(iq: number): void {
    const pk = this.pkts;
    const p = this.headOf(iq);
    const qPer = this.qPer;
    const gp = this.portOf(iq);
    let chan: number;
    if (gp >= this.nGP) {
      chan = gp; // NIC pseudo-port: its only output is its injection channel
    } else if (qPer > 1) {
      chan = gp - (gp % this.graph.radix) + this.slotPort[iq % qPer]!; // routed on arrival: the queue names the port
    } else {
      chan = this.routeNow(gp, p);
    }
    const pool = this.creditOf(chan, p);
    const phits = this.creditPhits(pk.phits[p]!);
    if (this.goesNow(chan, pool, phits)) this.grant(chan, iq);
    else this.waitFor(chan, iq, pool, phits);
  }

  /** Credits a packet of `phits` phits takes (see capPhits). */
  private creditPhits(phits: number): number {
    return phits < this.capPhits ? phits : this.capPhits;
  }

  /** The common case: nothing waits at channel `chan`, it is free, and pool `pool` has credits for `phits`. */
  private goesNow(chan: number, pool: number, phits: number): boolean {
    return this.reqHead[chan] === -1 && this.busyUntil[chan]! <= this.engine.now && this.creditsNow(chan, pool) >= phits;
  }

  /** Adaptive choice among `count` parallel channels: fewest waiting, then idle, then credits. */
  private leastLoaded(base: number, count: number, vc: number, phits: number): number {
    const now = this.engine.now;
    const rot = this.groupRot[base]!;
    this.groupRot[base] = rot + 1 === count ? 0 : rot + 1;
    let best = base;
    let bestLoad = Infinity;
    for (let i = 0; i < count; i++) {
      let j = rot + i;
      if (j >= count) j -= count;
      const c = base + j;
      const load =
        4 * this.reqCount[c]! + (this.busyUntil[c]! > now ? 2 : 0) + (this.creditsNow(c, this.poolOf(c * this.nv + vc, 0)) < phits ? 1 : 0);
      if (load < bestLoad) {
        bestLoad = load;
        best = c;
        if (load === 0) break;
      }
    }
    return best;
  }

  /** Load of the least-loaded of `count` channels from `first`: waiting requests, 1 if busy, and the downstream buffer's fill (seed 001: downstream and near-end load). */
  groupLoad(first: number, count: number): number {
    const now = this.engine.now;
    let best = Infinity;
    for (let c = first; c < first + count; c++) {
      const l = this.reqCount[c]! + (this.busyUntil[c]! > now ? 1 : 0) + (this.downPhits[c]! >> K.LoadPhitsShift);
      if (l < best) best = l;
    }
    return best;
  }

  /**
   * The credit pool of channel `chan` that packet `p`, routed at this router, draws on: one per
   * VC, or with crosspoint credits one per VC and output at the next router, the packet's slot
   * read off its route when it was routed here (NIC channels use slot 0).
   */
  private creditOf(chan: number, p: number): number {
    const cv = chan * this.nv + this.pkts.vc[p]!;
    if (this.cq === 1) return cv;
    return this.poolOf(cv, chan >= this.nGP || this.chanDown[chan]! < 0 ? 0 : this.pkts.xbSlot[p]!);
  }

  protected scheduleTry(chan: number, at: number): void {
    if (this.tryAt[chan] === at) return;
    this.tryAt[chan] = at;
    this.engine.at(at, this.id, Ev.Try, chan);
  }

  /** Grants free channel `chan` (with credits) to the head packet of input queue `iq`, whose request is not (or no longer) in its list. */
  protected grant(chan: number, iq: number): void {
    const pk = this.pkts;
    this.moveArbiter(chan, iq);
    // dequeue the packet
    const qi = this.qIndex(iq);
    const tail = this.qTail[qi]!;
    const p = pk.next[tail]!;
    const more = p !== tail;
    if (more) {
      pk.next[tail] = pk.next[p]!;
    } else {
      this.qTail[qi] = -1;
      const mask = this.qMask;
      if (mask !== null) {
        const port = this.portOf(iq);
        mask[port]! &= ~(1 << (iq - port * this.nvq));
      }
    }
    this.send(chan, p, iq);
    if (more) this.requestHead(iq);
    if (this.reqHead[chan] !== -1) this.scheduleTry(chan, this.busyUntil[chan]!);
  }

  /**
   * A coarse packet about to leave on channel `chan` (free now) of a group of parallel
   * channels: its hardware packets would spread over the group's channels that free up in time
   * to carry their share, so it takes those, each for an equal share of the serialization
   * `ser` once it is free. Returns when this channel's share ends and when the last ends (the
   * packet's tail).
   */
  private spread(chan: number, p: number, ser: number): void {
    const now = this.engine.now;
    const first = this.pkts.gFirst[p]!;
    const count = this.pkts.gCount[p]!;
    // channels busy past the end of an even share would only hold the tail back: left out
    const horizon = now + ser / count;
    let k = 0;
    for (let c = first; c < first + count; c++) if (c === chan || this.busyUntil[c]! <= horizon) k++;
    const share = ser / k;
    let tail = 0;
    for (let c = first; c < first + count; c++) {
      const b = this.busyUntil[c]!;
      if (c !== chan && b > horizon) continue;
      const e = Math.ceil((b > now ? b : now) + share);
      if (c === chan) this.spreadBusy = e;
      else {
        this.busyUntil[c] = e;
        // a busy channel with waiting requests keeps a try at the end of its busy time (returnCredits relies on it)
        if (this.reqHead[c] !== -1) this.scheduleTry(c, e);
        if (this.m !== null) this.m.busy[c]! += share;
      }
      if (e > tail) tail = e;
    }
    this.spreadShare = share;
    this.spreadTail = tail;
  }
  private spreadBusy = 0;
  private spreadShare = 0;
  private spreadTail = 0;

  /** The time replays of a packet of `units` hardware packets, serialized in `ser`, hold channel `chan` of kind `kind` (link-retry.ts); it stays busy that much longer. */
  private replay(chan: number, kind: number, ser: number, units: number): number {
    const r = this.retry!.replayPs(kind, ser, units);
    if (r > 0) {
      this.busyUntil[chan]! += r;
      if (this.m !== null) this.m.busy[chan]! += r;
    }
    return r;
  }

  /** Puts packet `p`, leaving input queue `iq`, on channel `chan` now. */
  private send(chan: number, p: number, iq: number): void {
    const pk = this.pkts;
    const now = this.engine.now;
    if (DEBUG && this.busyUntil[chan]! > now) throw new Error(`channel ${chan} asked to send while busy until ${this.busyUntil[chan]}`);
    const wire = pk.phits[p]!;
    const phits = this.creditPhits(wire);
    const kind = this.chanKind[chan]!;
    const units = pk.units[p]!;
    // every hardware packet a coarse packet stands for pays the link's overhead
    const ser = (wire + this.kindOvh[kind]! * units) * this.kindPhitPs[kind]!;
    let end = now + ser;
    let busy = -1;
    let carried = ser;
    if (units > 1 && chan < this.nGP && pk.gCount[p]! > 1) {
      // its share of the group's channels: this one until `busy`, its tail with the last share
      this.spread(chan, p, ser);
      busy = this.spreadBusy;
      end = this.spreadTail;
      carried = this.spreadShare;
    }
    if (end < pk.tailAt[p]!) end = pk.tailAt[p]!;
    end = Math.ceil(end);
    this.busyUntil[chan] = busy >= 0 ? busy : end;
    const m = this.m;
    if (m !== null) {
      m.busy[chan]! += carried;
      m.endStall(chan, now);
    }
    const ci = this.creditOf(chan, p);
    this.credits[ci]! -= phits;
    this.downPhits[chan]! += phits;
    if (DEBUG && this.credits[ci]! < 0) throw new Error('negative credits');
    // the input buffer the packet leaves frees its space when the tail has left
    const inGp = this.portOf(iq);
    const up = this.upChan[inGp]!;
    if (up >= 0) {
      // the credits of the buffer it leaves: its VC's, and with crosspoint credits its output's
      // here, the slot of its queue (the queue within its port is VC * queues per VC + slot)
      const within = iq - inGp * this.nvq;
      const qPer = this.qPer;
      const vc = qPer === 1 ? within : (within / qPer) | 0;
      const slot = this.cq > 1 && up < this.nGP ? within - vc * qPer : 0;
      // a coarse packet's hardware packets leave the buffer one after another, freeing it as they go:
      // its credits return once the first has left, so the next packet can stream in behind it
      const gone = units > 1 ? now + ser / units : end;
      this.returnCredits(up, this.poolOf(up * this.nv + vc, slot), phits, gone + this.kindLatPs[this.chanKind[up]!]!);
    }
    if (chan >= this.nGP) pk.injectedAt[p] = now; // enters the network proper
    if (this.onHop) this.onHop(p, chan, now);
    // the copy that gets through starts now, later if the link corrupts the packet
    let start = now;
    if (this.retry !== null) {
      const replay = this.replay(chan, kind, ser, units);
      start += replay;
      end += replay;
    }
    const lat = this.kindLatPs[kind]!;
    const down = this.chanDown[chan]!;
    pk.tailAt[p] = end + lat;
    if (down >= 0) {
      if (chan < this.nGP) {
        pk.hops[p]!++;
        this.linkHops++;
      }
      pk.at[p] = down;
      this.engine.at(start + lat + this.params.routerLatencyPs, this.arriveId, Ev.Arrive, p);
    } else {
      this.engine.at(end + lat, this.id, Ev.Deliver, p);
    }
  }
}
