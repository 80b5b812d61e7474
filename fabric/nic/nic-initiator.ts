import type { Nic } from './nic.ts';
import { inStore } from '../skeleton.ts';
import type { BteFlows } from './bte-flow.ts';
import { EV_COMPLETE, EV_FLOW_LANDED, EV_FLOW_START, EV_INJECT, EV_READY, EV_TIMEOUT, NicTarget } from './nic-target.ts';
import { putRequestPhits } from './packet-format.ts';
import { chunkBytes, copyBytes, dataPhits, hwBytes, slotPs, unitsOf } from './packet-sizes.ts';
import { NicStatus, type NicSend, type NicTransfer } from './nic-api.ts';
import { K_AMO, K_GET, K_PUT, K_SEND, K_SMSG, type Txn } from './txn.ts';

/** Simulated packets a coarse transfer is split into at least. */
const COARSE_MIN_PACKETS = 16;

/**
 * The initiator's issue path of a Cray-style NIC (seed 004 §II; seed 001 "Aries NIC", FMA launch
 * and BTE): a put, get, AMO, short message or BTE send becomes a transaction; FMA stores it
 * through the host interface one packet at a time, or it waits in the BTE queue for one of the
 * block engine's channels, whose host reads run ahead of the data; each packet is built and
 * queued on the output pipeline within the window of outstanding packets. At the flow level a
 * large block transfer runs as a flow instead (bte-flow.ts). `Nic` (nic.ts) adds what comes
 * back: deliveries, responses, completions and timeouts; `NicTarget` (nic-target.ts) is the
 * target side.
 */
export abstract class NicInitiator extends NicTarget {

  protected outstanding = 0;
  protected readonly stalled: number[] = [];
  // FMA unit
  private fmaFree = 0;
  private readonly fmaOwner: number[] = [];
  private fmaInUse = 0;
  /** Per instance: the memory-domain handle its FMA descriptor last held. */
  private readonly lastMdh: number[] = [];
  // BTE
  protected bteActive = 0;
  protected bteStarted = 0;
  private readonly bteQueue: number[] = [];
  /** The flow level's block transfers (fabric.fidelity=flow), shared by the machine's NICs; null: packets only. */
  flows: BteFlows | null = null;
  /** Every NIC of the machine by node (the flow level reads and writes the far end's memory directly). */
  peers: readonly Nic[] = [];
  /** Packets this NIC has injected. */
  injected = 0;

  /** Hands an FMA descriptor to instance `inst`; -1 when all `fmaDescriptors` are taken. */
  allocFma(inst: number): number {
    if (this.fmaInUse >= this.params.fmaDescriptors) return -1;
    let d = this.fmaOwner.indexOf(-1);
    if (d < 0) d = this.fmaOwner.length;
    this.fmaOwner[d] = inst;
    this.fmaInUse++;
    return d;
  }

  /** Returns FMA descriptor `d`. */
  freeFma(d: number): void {
    if (this.fmaOwner[d] === undefined || this.fmaOwner[d] === -1) throw new RangeError(`NIC ${this.node}: FMA descriptor ${d} is not allocated`);
    this.fmaOwner[d] = -1;
    this.fmaInUse--;
  }

  /** CPU time (ps) the issuing process spends on a short message of `bytes` payload. */
  smsgCostPs(bytes: number): number {
    const P = this.params;
    return Math.max(1, Math.ceil((P.smsgHeaderBytes + bytes) / P.format.maxPayloadBytes)) * P.fmaIssuePs;
  }

  /** Issues a put, get or AMO now; returns the CPU time (ps) the issuing process spends on it. */
  post(t: NicTransfer): number {
    if (t.op === 'amo' && !t.amo) throw new RangeError(`NIC ${this.node}: an amo transfer needs its amo`);
    if (t.path !== undefined && !(Number.isInteger(t.path) && t.path >= 0 && t.path < 0xff)) throw new RangeError(`NIC ${this.node}: path ${t.path} is not an integer from 0 to 254`);
    const id = this.txns.alloc();
    const x = this.txns.list[id]!;
    x.op = t.op === 'put' ? K_PUT : t.op === 'get' ? K_GET : K_AMO;
    // a NIC without FMA (SeaStar) runs every transfer on its block engine
    x.mode = this.params.hasFma ? t.mode : 'bte';
    x.local = t.local;
    x.remoteHandle = t.remoteHandle;
    x.remoteOffset = t.remoteOffset;
    x.inst = t.inst ?? 0;
    x.ptag = t.ptag ?? 0;
    x.remoteInst = t.remoteInst ?? 0;
    x.vmdh = t.vmdh ?? false;
    x.fence = t.fence ?? false;
    x.cq = t.cq ?? null;
    x.cqData = t.cqData ?? 0;
    x.ordered = t.ordered ?? false;
    x.path = t.path ?? 0xff;
    x.onComplete = t.onComplete ?? null;
    if (x.op === K_AMO) {
      const a = t.amo!;
      x.amo = a;
      // the request carries the operand (and the compare value of a compare-and-swap)
      x.bytes = a.op === 'cswap' ? 2 * a.width : a.width;
    } else {
      x.bytes = t.local.length;
    }
    if (t.remoteEvent) {
      x.remoteEvent = true;
      x.remoteData = t.remoteData ?? 0;
      x.refs = 1; // the target side holds the transaction until its last packet has landed
    }
    return this.start(id, x, t.remoteNode);
  }

  /**
   * Sends a short message (FMA put into the target instance's mailbox, with a destination-side
   * event). `meta` travels as the message header; `payload` bytes move for real.
   */
  sendSmsg(dstNode: number, inst: number, meta: unknown, payload: Uint8Array, onComplete: (s: NicStatus, meta: unknown) => void, ptag = 0): number {
    const id = this.txns.alloc();
    const x = this.txns.list[id]!;
    x.op = K_SMSG;
    x.mode = 'fma';
    x.local = payload;
    x.bytes = payload.length;
    x.header = this.params.smsgHeaderBytes;
    x.remoteInst = inst;
    x.ptag = ptag;
    x.meta = meta;
    x.onComplete = onComplete;
    x.refs = 1; // the destination-side event also holds the transaction
    return this.start(id, x, dstNode);
  }

  /**
   * Issues a BTE send now (see NicSend); returns the CPU time (ps) of posting its descriptor.
   * At the target, when every packet is in, the event goes to the taken buffer's CQ (kind
   * Receive: the buffer's user id, the message's bytes, the source node). Errors complete the
   * send with a status and write nothing: NoReceiveBuffer when the queue is empty (no buffer
   * used), DomainRefused from another domain (no buffer used), ReceiveOverflow when the message
   * is longer than the buffer and BadHandle when the buffer's segment was deregistered since it
   * was posted. In the last two the buffer is used up, as the hardware retires the descriptor
   * it matched, and its CQ gets the event with the error status, so the receiver can post again.
   */
  sendBte(t: NicSend): number {
    const id = this.txns.alloc();
    const x = this.txns.list[id]!;
    x.op = K_SEND;
    x.mode = 'bte';
    x.local = t.local;
    x.bytes = t.local.length;
    x.remoteInst = t.remoteInst;
    x.inst = t.inst ?? 0;
    x.ptag = t.ptag ?? 0;
    x.fence = t.fence ?? false;
    x.cq = t.cq ?? null;
    x.cqData = t.cqData ?? 0;
    x.ordered = t.ordered ?? false;
    x.onComplete = t.onComplete ?? null;
    // the target counts the packets in: it holds the transaction until its last one has landed
    x.remoteEvent = true;
    x.refs = 1;
    return this.start(id, x, t.remoteNode);
  }

  private start(id: number, x: Txn, dst: number): number {
    const P = this.params;
    const now = this.engine.now;
    x.srcNode = this.node;
    x.dstNode = dst;
    const wire = x.header + x.bytes;
    x.hw = Math.max(1, Math.ceil(wire / P.format.maxPayloadBytes));
    // coarse: a bulk transfer's hardware packets travel `coarseUnits` at a time, and a transfer
    // is at least COARSE_MIN_PACKETS packets, so that adaptive routing still spreads it; a short
    // message is coarse too unless an acknowledgement window paces its hardware packets
    const bulk = x.op === K_PUT || x.op === K_GET || x.op === K_SEND || (x.op === K_SMSG && P.smsgWindow === 0);
    x.unit = P.coarseUnits > 1 && x.bytes >= P.coarseMinBytes && bulk ? Math.max(1, Math.min(P.coarseUnits, Math.floor(x.hw / COARSE_MIN_PACKETS))) : 1;
    x.packets = Math.ceil(x.hw / x.unit);
    x.responsesLeft = x.packets;
    x.refs += 1;
    x.startPs = now;
    if (x.mode === 'fma') {
      // the FMA descriptor holds one memory-domain handle; another costs a descriptor write
      const mdh = x.op === K_SMSG ? -1 - x.remoteInst : x.vmdh ? -1e9 - x.remoteHandle : dst * 4096 + x.remoteHandle;
      x.mdhChange = this.lastMdh[x.inst] !== undefined && this.lastMdh[x.inst] !== mdh;
      this.lastMdh[x.inst] = mdh;
      x.cursorPs = now;
      this.engine.at(this.nextReadyPs(x), this.id, EV_READY, id);
      return x.hw * P.fmaIssuePs;
    }
    // BTE: the descriptor crosses the host interface into the BTE queue
    x.cursorPs = now + P.bteIssuePs + P.hostLatencyPs;
    // flow level: a large put or get to a segment that takes it runs as a flow (errors stay packets)
    const fl = this.flows;
    if (fl !== null && x.bytes >= fl.minBytes && (x.op === K_PUT || x.op === K_GET) && x.status === NicStatus.Ok) {
      x.flow = typeof this.peers[dst]!.resolve(x) !== 'number' && this.peers[dst]!.deadPs > now;
    }
    this.bteQueue.push(id);
    this.pumpBte();
    return P.bteIssuePs;
  }

  /**
   * Flow level: from a block transfer's start on its BTE channel to its first data leaving the
   * data's sender: a put's first host read; a get's first request crossing to the target, read
   * there and leaving its NIC.
   */
  private flowLeadPs(x: Txn): number {
    const P = this.params;
    if (x.op === K_PUT) return Math.ceil(this.host.readRoundTripPs());
    return Math.ceil(P.outLatencyPs + this.flows!.latencyPs(this.node, x.dstNode, false) + P.inLatencyPs + this.host.readRoundTripPs() + P.outLatencyPs);
  }

  /**
   * Flow level: the flow of block transfer `id` starts now. Its pace is bounded by the reads in
   * flight that feed it (the BTE's read window for a put, the target's read slots for a get) and
   * by a BTE channel's own get rate.
   */
  protected startFlow(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    const get = x.op === K_GET;
    const reads = get ? this.peers[x.dstNode]!.params.hostReadsInFlight : P.bteReadsInFlight;
    let cap = (reads * P.format.maxPayloadBytes) / this.host.readRoundTripPs();
    if (get && P.bteGetBytesPerPs > 0) cap = Math.min(cap, P.bteGetBytesPerPs);
    this.flows!.start({
      from: get ? x.dstNode : this.node,
      to: get ? this.node : x.dstNode,
      bytes: x.bytes,
      get,
      rateCap: cap,
      onDone: () => this.flowSent(id),
    });
  }

  /**
   * Flow level: the last byte of transfer `id` has left its bottleneck now: the BTE channel is
   * free, and the data lands at its receiver once it has crossed the route and the receiving NIC.
   */
  private flowSent(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    x.onBte = false;
    this.bteActive--;
    this.pumpBte();
    const get = x.op === K_GET;
    const lat = this.flows!.latencyPs(get ? x.dstNode : this.node, get ? this.node : x.dstNode, get);
    this.engine.at(this.engine.now + Math.ceil(P.outLatencyPs + lat + P.inLatencyPs), this.id, EV_FLOW_LANDED, id);
  }

  /**
   * Flow level: transfer `id`'s data has landed now: a put's in the target's segment (its
   * destination-side event follows), a get's in the local buffer; the source completes once the
   * last response (put) is back, or the data is written to host memory (get).
   */
  protected flowLanded(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    const now = this.engine.now;
    const target = this.peers[x.dstNode]!;
    if (target.deadPs <= now) {
      // the target died while the flow ran: nothing lands, nothing answers; the transaction
      // times out as one of packets does (dropDead), counted from its issue or the death
      if (!x.timedOut) {
        x.timedOut = true;
        this.engine.at(Math.max(now, Math.max(x.startPs, target.deadPs) + this.faults!.config.timeoutPs), this.id, EV_TIMEOUT, id);
      }
      return;
    }
    const seg = target.resolve(x);
    let done = now + P.hostLatencyPs;
    if (typeof seg === 'number') {
      // the segment went away while the flow ran
      x.status = seg;
    } else if (x.op === K_PUT) {
      if (!inStore(seg.bytes, target.skeleton) && !inStore(x.local, this.skeleton)) seg.bytes.set(x.local, x.remoteOffset);
      if (target.landing !== null) target.landing.landed(target.node, seg.bytes, x.remoteOffset, x.bytes, now + P.hostLatencyPs);
      if (x.remoteEvent) {
        x.remoteCq = seg.cq ?? null;
        x.deliveredAtTarget = x.packets;
        x.targetDoneAt = now + P.hostLatencyPs;
        target.landed(x, id);
      }
      // the last response crosses back
      done = now + P.outLatencyPs + this.flows!.latencyPs(x.dstNode, this.node, true) + P.inLatencyPs;
    } else {
      if (!inStore(x.local, this.skeleton) && !inStore(seg.bytes, target.skeleton)) x.local.set(seg.bytes.subarray(x.remoteOffset, x.remoteOffset + x.bytes));
      if (this.landing !== null) this.landing.landed(this.node, x.local, 0, x.bytes, done);
    }
    x.responsesLeft = 0;
    // completion event: written to the completion queue in host memory
    this.host.write(Math.ceil(done), P.cqEventBytes);
    this.engine.at(this.host.upFree + P.hostLatencyPs, this.id, EV_COMPLETE, id);
  }

  /** Starts queued block transfers while a BTE channel is free (a fenced one waits for all before it). */
  protected pumpBte(): void {
    const P = this.params;
    while (this.bteQueue.length > 0 && this.bteActive < P.bteChannels) {
      const id = this.bteQueue[0]!;
      const x = this.txns.list[id]!;
      if (x.fence && this.bteStarted > 0) return;
      this.bteQueue.shift();
      this.bteActive++;
      this.bteStarted++;
      x.onBte = true;
      x.cursorPs = Math.max(this.engine.now, x.cursorPs) + P.bteStartupPs;
      if (x.flow) {
        this.engine.at(x.cursorPs + this.flowLeadPs(x), this.id, EV_FLOW_START, id);
        continue;
      }
      if (x.op === K_PUT || x.op === K_SEND) {
        // the BTE starts its read pipeline: up to bteReadsInFlight host reads ahead of the data
        const window = Math.min(P.bteReadsInFlight, x.hw);
        if (x.readReady.length < window) x.readReady = new Float64Array(window);
        x.readWindow = window;
        while (x.reads < window) this.issueRead(x, x.cursorPs);
      }
      this.engine.at(this.nextReadyPs(x), this.id, EV_READY, id);
    }
  }

  /** BTE put: sends the next host read request at `at` (or when the host interface frees). */
  private issueRead(x: Txn, at: number): void {
    const i = x.reads++;
    // the BTE's own read window paces it, not the NIC's read slots
    x.readReady[i % x.readWindow] = this.host.readFrom(at, hwBytes(this.params.format, x, i));
  }

  /** When the data (or control word) of packet `x.sent` is at the NIC, reserving the host interface. */
  protected nextReadyPs(x: Txn): number {
    const P = this.params;
    const i = x.sent;
    const chunk = chunkBytes(P.format, x, i);
    const units = unitsOf(x, i);
    if (x.mode === 'fma') {
      // the CPU stores one packet's worth (or a get/AMO control word) per fmaIssuePs
      const stored = x.startPs + (i * x.unit + units) * P.fmaIssuePs;
      const at = this.host.store(stored, (x.op === K_GET ? 8 * units : chunk) + units * P.hostWriteOverheadBytes);
      if (i > 0) return at;
      // the FMA unit takes one operation at a time (seed 001: FMA launch, A24)
      const go = Math.max(at, this.fmaFree);
      this.fmaFree = go + P.fmaOpPs + (x.mdhChange ? P.fmaMdhChangePs : 0);
      return go;
    }
    if (x.op !== K_PUT && x.op !== K_SEND) {
      // BTE get (or a DMA-engine AMO): requests go out at the output pipeline's pace, and no
      // faster than the channel's own rate; a get's requests do not wait for the responses the
      // NIC serves meanwhile (reqFree)
      return Math.max(x.cursorPs, (x.op === K_GET ? this.reqFree : this.outFree) - P.packetPs, x.channelFreePs);
    }
    // BTE put or send: the reads of packet i's hardware packets were issued earlier; each slot
    // they free starts the read a window ahead. A coarse packet leaves with its first hardware
    // packet's data; its tail waits for the last (tailReadyPs).
    const h0 = i * x.unit;
    const first = x.readReady[h0 % x.readWindow]!;
    let last = first;
    for (let h = h0, end = h + units; h < end; h++) {
      const r = x.readReady[h % x.readWindow]!;
      if (r > last) last = r;
      if (x.reads < x.hw) this.issueRead(x, Math.max(this.engine.now, r));
    }
    x.tailReadyPs = last;
    return first;
  }

  /** Builds packet `x.sent` of transaction `id` and queues it on the output pipeline. */
  protected emit(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    const F = P.format;
    const pk = this.pkts;
    const now = this.engine.now;
    // a transaction that timed out sends nothing more
    if (x.status === NicStatus.Timeout) return;
    const i = x.sent;
    const units = unitsOf(x, i);
    if (this.outstanding + units > P.maxOutstandingPackets) {
      this.stalled.push(id);
      return;
    }
    x.sent++;
    const wireOff = i * x.unit * F.maxPayloadBytes;
    const chunk = chunkBytes(P.format, x, i);
    const p = pk.alloc();
    pk.units[p] = units;
    pk.src[p] = this.node;
    pk.dst[p] = x.dstNode;
    pk.vcClass[p] = 0;
    pk.kind[p] = x.op;
    pk.txn[p] = id;
    pk.offset[p] = wireOff;
    pk.bytes[p] = chunk;
    pk.ordered[p] = x.ordered ? 1 : 0;
    pk.path[p] = x.path;
    if (x.op === K_GET) {
      pk.phits[p] = units * F.readRequestPhits;
    } else if (x.op === K_AMO) {
      pk.phits[p] = putRequestPhits(F, chunk); // the operand(s) travel as data
    } else {
      pk.phits[p] = dataPhits(P.format, chunk, units, false);
      // the NIC reads the source bytes now (FMA: the stored data; BTE: the host read)
      const from = Math.max(0, wireOff - x.header);
      const to = wireOff + chunk - x.header;
      // payload bytes sit after any share of the virtual header this packet carries; a skeleton
      // source sends its size only
      if (inStore(x.local, this.skeleton)) pk.skel[p] = 1;
      else if (to > from) copyBytes(pk.dataOf(p), pk.dataAt(p) + (from + x.header - wireOff), x.local, from, to - from);
    }
    const get = x.op === K_GET;
    const slot = slotPs(P, get ? 0 : chunk, units);
    const s = Math.max(now, get ? this.reqFree : this.outFree);
    // a get request slips in ahead of responses already queued and takes its cycle from them.
    // Only gets: their requests are header-only (a cycle), so going first costs the responses
    // little; puts, sends and AMOs carry data and share the pipeline in the order they book it
    this.outFree = Math.max(this.outFree, s) + slot;
    if (get) this.reqFree = s + slot;
    // a BTE channel asks for one get's data no faster than its own rate
    if (get && x.onBte && P.bteGetBytesPerPs > 0) x.channelFreePs = s + Math.ceil(chunk / P.bteGetBytesPerPs);
    this.outstanding += units;
    // a coarse packet's head leaves with its first hardware packet, its tail with its last
    pk.tailAt[p] = units > 1 ? Math.max(s + slot - slot / units, x.tailReadyPs) + P.outLatencyPs : s + P.outLatencyPs;
    this.engine.at(s + P.outLatencyPs, this.id, EV_INJECT, p);
    if (x.sent < x.packets) {
      if (x.op === K_SMSG && P.smsgWindow > 0 && x.sent - (x.packets - x.responsesLeft) >= P.smsgWindow) x.windowWait = true;
      else this.engine.at(this.nextReadyPs(x), this.id, EV_READY, id);
    } else if (x.onBte) {
      // the last packet is out: the BTE channel takes the next queued transfer
      x.onBte = false;
      this.bteActive--;
      this.pumpBte();
    }
  }
}
