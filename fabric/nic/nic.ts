import type { Engine, EventHandler } from '../engine/engine.ts';
import type { NetworkAccess } from '../network.ts';
import type { PacketPool } from '../packet.ts';
import { inStore, type SkeletonStore } from '../skeleton.ts';
import type { BteFlows } from './bte-flow.ts';
import { CollectiveEngine } from './collective-engine.ts';
import { CqEventKind } from './cq.ts';
import { getResponsePhits, putRequestPhits } from './packet-format.ts';
import { applyAmo } from './amo.ts';
import { LruCache, VA_START } from './iommu.ts';
import { NicStatus, type LandingListener, type NicParams, type NicReceiveBuffer, type NicSend, type NicTransfer, type ReceiveBuffer, type RegisterOptions, type Segment, type SmsgHandler } from './nic-api.ts';
import { K_AMO, K_AMO_RESP, K_CE, K_GET, K_GET_RESP, K_PUT, K_PUT_RESP, K_SEND, K_SMSG, K_SMSG_RESP, Txn, TxnTable } from './txn.ts';

export * from './nic-api.ts';
export { TxnTable } from './txn.ts';

const EV_READY = 0;
const EV_INJECT = 1;
const EV_COMPLETE = 2;
const EV_REMOTE = 3;
const EV_REMOTE_EVENT = 4;
const EV_RECEIVE_EVENT = 5;
/** A response whose data waited for host memory joins the output pipeline. */
const EV_RESPOND = 6;
/** Flow level: a block transfer's flow starts (its first data is ready to leave). */
const EV_FLOW_START = 7;
/** Flow level: a block transfer's last data lands at its receiver. */
const EV_FLOW_LANDED = 8;

/** Simulated packets a coarse transfer is split into at least. */
const COARSE_MIN_PACKETS = 16;

/** Copies `n` bytes from `src` at `from` to `dst` at `to`; a packet's few bytes by a loop, without the view `subarray` makes. */
function copyBytes(dst: Uint8Array, to: number, src: Uint8Array, from: number, n: number): void {
  if (n > 256) {
    dst.set(src.subarray(from, from + n), to);
    return;
  }
  for (let i = 0; i < n; i++) dst[to + i] = src[from + i]!;
}
/**
 * A Cray-style NIC (Gemini, seed 004 §II; Aries, seed 001 "Aries NIC" to "Ordering and
 * Completion"): FMA and BTE transfers broken into packets of at most `maxPayloadBytes`, a host
 * interface with bandwidth, latency and per-transfer overhead in each direction, output and
 * input pipelines, SSID transactions that complete when every response is back, registered
 * memory segments (with vMDH and communication domains), short-message mailboxes, BTE sends
 * into pre-posted receive buffers, an AMO unit with its cache, an IOMMU PTE cache, completion
 * queues and, where the machine has one, a collective engine (`ce`, see collective-engine.ts).
 * Real bytes move: a put's (or send's) data lands in the target segment, and a get's data
 * in the local buffer, when the carrying packet is delivered; an AMO updates the target variable
 * when the AMO unit executes it; a `landing` listener hears of each landing with the time its
 * write reaches host memory. Shared resources are reserved first come, first served in
 * simulated time.
 */
export class Nic implements EventHandler {
  readonly id: number;
  private readonly segments: (Segment | undefined)[] = [];
  private readonly freeHandles: number[] = [];
  /** vMDH CAM: per instance, virtual handle -> handle. */
  private readonly vmdhCam: (number | undefined)[][] = [];
  private nextVa = VA_START;
  private readonly smsg: (SmsgHandler | undefined)[] = [];
  private readonly smsgPtag: number[] = [];
  /** Per instance: receive buffers for BTE sends, in posting order. */
  private readonly recvQueues: (ReceiveBuffer[] | undefined)[] = [];
  /** Per instance: the communication domain of its receive queue (set by its first buffer). */
  private readonly recvPtag: (number | undefined)[] = [];
  private outFree = 0;
  private inFree = 0;
  /** Host interface, host -> NIC direction, free from this time. */
  private htDownFree = 0;
  /** Host interface, NIC -> host direction, free from this time. */
  private htUpFree = 0;
  private outstanding = 0;
  private readonly stalled: number[] = [];
  private readonly pkts: PacketPool;
  // FMA unit
  private fmaFree = 0;
  private readonly fmaOwner: number[] = [];
  private fmaInUse = 0;
  /** Per instance: the memory-domain handle its FMA descriptor last held. */
  private readonly lastMdh: number[] = [];
  // BTE
  private bteActive = 0;
  private bteStarted = 0;
  private readonly bteQueue: number[] = [];
  // host reads of gets, AMO fills and PTE fetches: a ring of read slots
  private readonly readSlots: Float64Array;
  private readIdx = 0;
  // AMO unit
  private amoFree = 0;
  private amoFillFree = 0;
  private readonly amoCache: LruCache | null;
  /** AMOs executed without an AMO cache (every one reads host memory). */
  private amoNoCache = 0;
  private readonly pteCache: LruCache | null;
  /** The flow level's block transfers (fabric.fidelity=flow), shared by the machine's NICs; null: packets only. */
  flows: BteFlows | null = null;
  /** Every NIC of the machine by node (the flow level reads and writes the far end's memory directly). */
  peers: readonly Nic[] = [];
  /** Packets this NIC has injected. */
  injected = 0;
  /** The collective engine, or null when the machine has none. */
  readonly ce: CollectiveEngine | null;
  /** A skeleton run's store: payloads to or from its buffers carry their size only (null: every byte moves). */
  skeleton: SkeletonStore | null = null;
  /** Told of every landing of remote data in this node's memory; null (one check per landing): nobody listens. */
  landing: LandingListener | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly net: NetworkAccess,
    private readonly txns: TxnTable,
    readonly node: number,
    readonly params: NicParams,
  ) {
    this.id = engine.register(this);
    this.pkts = net.pkts;
    net.attach(node, this);
    this.readSlots = new Float64Array(Math.max(1, params.hostReadsInFlight));
    this.amoCache = params.amoCacheEntries > 0 ? new LruCache(params.amoCacheEntries, params.amoCacheEntries) : null;
    this.pteCache = params.pteEntries > 0 ? new LruCache(params.pteEntries, params.pteWays) : null;
    this.ce = params.hasCe
      ? new CollectiveEngine(engine, this.pkts, node, params, {
          store: (bytes) => this.hostStore(engine.now + params.fmaIssuePs, bytes + params.hostWriteOverheadBytes),
          write: (t, bytes) => {
            this.hostWrite(t, bytes);
            return this.htUpFree + params.hostLatencyPs;
          },
          send: (p, ready) => this.sendCe(p, ready),
        })
      : null;
  }

  /** AMO cache hits and misses so far (0 and every AMO when there is no cache). */
  get amoStats(): { hits: number; misses: number } {
    return { hits: this.amoCache?.hits ?? 0, misses: this.amoCache?.misses ?? this.amoNoCache };
  }
  /** IOMMU PTE cache hits and misses so far (zeros when no IOMMU is modelled). */
  get pteStats(): { hits: number; misses: number } {
    return { hits: this.pteCache?.hits ?? 0, misses: this.pteCache?.misses ?? 0 };
  }

  /**
   * Registers local memory for remote access; returns its memory-domain handle. With
   * `opts.vmdh`, the segment is also reachable through that virtual handle of `opts.inst`.
   */
  register(bytes: Uint8Array, opts: RegisterOptions = {}): number {
    const inst = opts.inst ?? 0;
    const pageBytes = opts.pageBytes ?? 4096;
    if (!Number.isInteger(pageBytes) || pageBytes < 1 || (pageBytes & (pageBytes - 1)) !== 0) {
      throw new RangeError(`NIC ${this.node}: pageBytes=${pageBytes} must be a power of two`);
    }
    const cam = (this.vmdhCam[inst] ??= []);
    if (opts.vmdh !== undefined && cam[opts.vmdh] !== undefined) {
      throw new RangeError(`NIC ${this.node}: virtual handle ${opts.vmdh} of instance ${inst} is already bound`);
    }
    const h = this.freeHandles.length > 0 ? this.freeHandles.pop()! : this.segments.length;
    const base = Math.ceil(this.nextVa / pageBytes) * pageBytes;
    this.nextVa = base + Math.max(1, bytes.length) + pageBytes;
    this.segments[h] = {
      bytes,
      view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      inst,
      ptag: opts.ptag ?? 0,
      base,
      pageShift: Math.log2(pageBytes),
      vmdh: opts.vmdh ?? -1,
      cq: opts.cq,
    };
    if (opts.vmdh !== undefined) cam[opts.vmdh] = h;
    return h;
  }

  /** Removes a registration; later accesses to the handle complete with BadHandle. */
  deregister(handle: number): void {
    const seg = this.segments[handle];
    if (seg === undefined) throw new RangeError(`NIC ${this.node}: handle ${handle} is not registered`);
    if (seg.vmdh >= 0) this.vmdhCam[seg.inst]![seg.vmdh] = undefined;
    this.segments[handle] = undefined;
    this.freeHandles.push(handle);
  }

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

  /** Sets the receiver of short messages for instance `inst` (of domain `ptag`) on this node. */
  setSmsgHandler(inst: number, handler: SmsgHandler, ptag = 0): void {
    this.smsg[inst] = handler;
    this.smsgPtag[inst] = ptag;
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
   * Pre-posts a receive buffer for BTE sends to instance `b.inst` (seed 001 "Ordering and
   * Completion": the RMT matches BTE send requests to queued receive descriptors). Buffers are
   * taken in posting order, one per send, when the send's first packet arrives. The queue's
   * communication domain is that of its first buffer's segment; a send from another domain is
   * refused. A bad handle or range, or a buffer of another domain, is a programming error here
   * (the API faces check their arguments first) and throws a RangeError.
   */
  postReceive(b: NicReceiveBuffer): void {
    const inst = b.inst ?? 0;
    const seg = this.segments[b.handle];
    if (seg === undefined) throw new RangeError(`NIC ${this.node}: receive buffer handle ${b.handle} is not registered`);
    if (!Number.isInteger(b.offset) || !Number.isInteger(b.length) || b.offset < 0 || b.length < 0 || b.offset + b.length > seg.bytes.length) {
      throw new RangeError(`NIC ${this.node}: receive buffer offset=${b.offset} length=${b.length} must lie inside the ${seg.bytes.length}-byte segment of handle ${b.handle}`);
    }
    const ptag = this.recvPtag[inst];
    if (ptag !== undefined && ptag !== seg.ptag) {
      throw new RangeError(`NIC ${this.node}: receive buffer of domain ${seg.ptag} for instance ${inst}, whose receive queue is in domain ${ptag}`);
    }
    this.recvPtag[inst] = seg.ptag;
    (this.recvQueues[inst] ??= []).push({ seg, handle: b.handle, offset: b.offset, length: b.length, userId: b.userId, cq: b.cq });
  }

  /** Receive buffers instance `inst` has posted that no send has taken yet. */
  receivesPosted(inst = 0): number {
    return this.recvQueues[inst]?.length ?? 0;
  }

  /**
   * Drops the receive queue of instance `inst` (its buffers and its domain), as when the process
   * that owns it goes away; later sends to it find no buffer. Returns the buffers dropped.
   */
  clearReceives(inst = 0): number {
    const n = this.receivesPosted(inst);
    this.recvQueues[inst] = undefined;
    this.recvPtag[inst] = undefined;
    return n;
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
      x.flow = typeof this.peers[dst]!.resolve(x) !== 'number';
    }
    this.bteQueue.push(id);
    this.pumpBte();
    return P.bteIssuePs;
  }

  /** One host read's round trip (request up, memory, the data of a full packet down), without queueing. */
  private readRoundTripPs(): number {
    const P = this.params;
    return P.hostReadRequestBytes / P.hostBytesPerPs + 2 * P.hostLatencyPs + P.memoryReadLatencyPs + (P.format.maxPayloadBytes + P.hostWriteOverheadBytes) / P.hostBytesPerPs;
  }

  /**
   * Flow level: from a block transfer's start on its BTE channel to its first data leaving the
   * data's sender: a put's first host read; a get's first request crossing to the target, read
   * there and leaving its NIC.
   */
  private flowLeadPs(x: Txn): number {
    const P = this.params;
    if (x.op === K_PUT) return Math.ceil(this.readRoundTripPs());
    return Math.ceil(P.outLatencyPs + this.flows!.latencyPs(this.node, x.dstNode, false) + P.inLatencyPs + this.readRoundTripPs() + P.outLatencyPs);
  }

  /**
   * Flow level: the flow of block transfer `id` starts now. Its pace is bounded by the reads in
   * flight that feed it (the BTE's read window for a put, the target's read slots for a get) and
   * by a BTE channel's own get rate.
   */
  private startFlow(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    const get = x.op === K_GET;
    const reads = get ? this.peers[x.dstNode]!.params.hostReadsInFlight : P.bteReadsInFlight;
    let cap = (reads * P.format.maxPayloadBytes) / this.readRoundTripPs();
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
  private flowLanded(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    const now = this.engine.now;
    const target = this.peers[x.dstNode]!;
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
    this.hostWrite(Math.ceil(done), P.cqEventBytes);
    this.engine.at(this.htUpFree + P.hostLatencyPs, this.id, EV_COMPLETE, id);
  }

  /** Starts queued block transfers while a BTE channel is free (a fenced one waits for all before it). */
  private pumpBte(): void {
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
    x.readReady[i % x.readWindow] = this.hostReadFrom(at, this.hwBytes(x, i));
  }

  /**
   * A host-memory read of `bytes` by the NIC from time `t` (a get's data, an AMO fill, a PTE
   * fetch): it takes one of the NIC's read slots, crosses the host interface both ways and
   * returns the time its data is at the NIC.
   */
  private hostRead(t: number, bytes: number, units = 1): number {
    const slots = this.readSlots;
    if (units > 1) {
      // a coarse packet's reads: one per hardware packet, each in a read slot of its own
      const max = this.params.format.maxPayloadBytes;
      let last = 0;
      for (let j = 0; j < units; j++) {
        const done = this.hostRead(t, Math.min(max, bytes - j * max));
        if (j === 0) this.firstReadPs = done;
        if (done > last) last = done;
      }
      return last;
    }
    const k = this.readIdx;
    this.readIdx = k + 1 === slots.length ? 0 : k + 1;
    const done = this.hostReadFrom(Math.max(t, slots[k]!), bytes);
    slots[k] = done;
    this.firstReadPs = done;
    return done;
  }
  /** When the data of the first hardware packet of the last host read was at the NIC. */
  private firstReadPs = 0;

  /**
   * A host-memory read of `bytes` whose request leaves at `t` (or when the NIC-to-host direction
   * frees): the request goes up, memory answers, the data comes down; returns when it is at the NIC.
   */
  private hostReadFrom(t: number, bytes: number, units = 1): number {
    const P = this.params;
    const rq = Math.max(t, this.htUpFree);
    this.htUpFree = rq + Math.ceil((units * P.hostReadRequestBytes) / P.hostBytesPerPs);
    const back = Math.max(this.htUpFree + 2 * P.hostLatencyPs + P.memoryReadLatencyPs, this.htDownFree);
    this.htDownFree = back + Math.ceil((bytes + units * P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    return this.htDownFree;
  }

  /**
   * A posted write of `bytes` (plus the per-transfer overhead) to host memory from time `t`, or
   * when the NIC-to-host direction frees; returns its start. It has left the NIC at `htUpFree`.
   */
  private hostWrite(t: number, bytes: number, units = 1): number {
    const P = this.params;
    const w = Math.max(t, this.htUpFree);
    this.htUpFree = w + Math.ceil((bytes + units * P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    return w;
  }

  /**
   * IOMMU translation of byte `off` of `seg` at time `t`: a PTE-cache miss fetches the page
   * table entries from host memory (two levels for small pages, one for huge pages, seed 001
   * "Address Translation"). The IOMMU's deep pipeline hides the fetch's latency, so the access
   * is not delayed, but the fetches take host read slots and host-interface bandwidth: on random
   * access patterns they cut the rate of gets, AMOs and puts.
   */
  private translate(seg: Segment, off: number, t: number): void {
    const cache = this.pteCache;
    if (cache === null) return;
    const page = Math.floor((seg.base + off) / 2 ** seg.pageShift);
    const entry = Math.floor(page / this.params.ptesPerEntry);
    if (cache.touch(entry * 64 + seg.pageShift, entry)) return;
    // the walk's reads are pipelined with the rest of the traffic, none reserved ahead of time
    for (let level = seg.pageShift <= 12 ? 2 : 1; level > 0; level--) this.hostRead(t, 64);
  }

  /** When the data (or control word) of packet `x.sent` is at the NIC, reserving the host interface. */
  private nextReadyPs(x: Txn): number {
    const P = this.params;
    const i = x.sent;
    const chunk = this.chunkBytes(x, i);
    const units = this.unitsOf(x, i);
    if (x.mode === 'fma') {
      // the CPU stores one packet's worth (or a get/AMO control word) per fmaIssuePs
      const stored = x.startPs + (i * x.unit + units) * P.fmaIssuePs;
      const at = this.hostStore(stored, (x.op === K_GET ? 8 * units : chunk) + units * P.hostWriteOverheadBytes);
      if (i > 0) return at;
      // the FMA unit takes one operation at a time (seed 001: FMA launch, A24)
      const go = Math.max(at, this.fmaFree);
      this.fmaFree = go + P.fmaOpPs + (x.mdhChange ? P.fmaMdhChangePs : 0);
      return go;
    }
    if (x.op !== K_PUT && x.op !== K_SEND) {
      // BTE get (or a DMA-engine AMO): requests go out at the output pipeline's pace, and no
      // faster than the channel's own rate
      return Math.max(x.cursorPs, this.outFree - P.packetPs, x.channelFreePs);
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

  /**
   * CPU stores of `bytes` (overhead included) that the CPU has issued by `t` cross the
   * host-to-NIC direction when it frees; returns when they are at the NIC.
   */
  private hostStore(t: number, bytes: number): number {
    const P = this.params;
    const s = Math.max(t, this.htDownFree);
    this.htDownFree = s + Math.ceil(bytes / P.hostBytesPerPs);
    return this.htDownFree + P.hostLatencyPs;
  }

  /** Queues collective-engine packet `p` (destination, payload filled by the CE) on the output pipeline at `ready`. */
  private sendCe(p: number, ready: number): void {
    const P = this.params;
    const pk = this.pkts;
    pk.src[p] = this.node;
    pk.kind[p] = K_CE;
    pk.vcClass[p] = 0;
    pk.phits[p] = putRequestPhits(P.format, pk.bytes[p]!);
    const s = Math.max(ready, this.outFree);
    this.outFree = s + this.slotPs(pk.bytes[p]!);
    pk.tailAt[p] = s + P.outLatencyPs;
    this.engine.at(s + P.outLatencyPs, this.id, EV_INJECT, p);
  }

  /** Pipeline time of a packet carrying `bytes`: data moves at packetPs per full payload. */
  private slotPs(bytes: number, units = 1): number {
    const P = this.params;
    return Math.max(units * P.cyclePs, Math.ceil((bytes * P.packetPs) / P.format.maxPayloadBytes));
  }

  /** Bytes on the wire (payload and any share of the virtual header) carried by simulated packet i of x. */
  private chunkBytes(x: Txn, i: number): number {
    const size = x.unit * this.params.format.maxPayloadBytes;
    const wire = x.header + x.bytes;
    return Math.min(size, wire - i * size);
  }

  /** Bytes on the wire carried by hardware packet h of x. */
  private hwBytes(x: Txn, h: number): number {
    const max = this.params.format.maxPayloadBytes;
    return Math.min(max, x.header + x.bytes - h * max);
  }

  /** Hardware packets simulated packet i of x stands for. */
  private unitsOf(x: Txn, i: number): number {
    return Math.min(x.unit, x.hw - i * x.unit);
  }

  /** Phits of `units` hardware packets carrying `bytes` together: full packets, then the last (put requests, or get responses). */
  private dataPhits(bytes: number, units: number, response: boolean): number {
    const F = this.params.format;
    const phitsOf = response ? getResponsePhits : putRequestPhits;
    if (units === 1) return phitsOf(F, bytes);
    const full = units - 1;
    return full * phitsOf(F, F.maxPayloadBytes) + phitsOf(F, bytes - full * F.maxPayloadBytes);
  }

  onEvent(kind: number, arg: number): void {
    switch (kind) {
      case EV_RESPOND:
        this.sendResponse(arg, this.engine.now);
        break;
      case EV_READY:
        this.emit(arg);
        break;
      case EV_FLOW_START:
        this.startFlow(arg);
        break;
      case EV_FLOW_LANDED:
        this.flowLanded(arg);
        break;
      case EV_INJECT:
        this.injected++;
        this.net.inject(this.node, arg, this.pkts.tailAt[arg]!);
        break;
      case EV_COMPLETE: {
        const x = this.txns.list[arg]!;
        const cb = x.onComplete;
        const cq = x.cq;
        const status = x.status;
        const cqData = x.cqData;
        const meta = x.meta;
        if (x.mode === 'bte' && x.op !== K_SMSG) {
          this.bteStarted--;
          this.pumpBte();
        }
        // the record may be handed out again from here on
        this.unref(arg, x);
        if (cq) cq.post({ kind: CqEventKind.Local, status, data: cqData, sourceNode: this.node });
        if (cb) cb(status, meta);
        break;
      }
      case EV_REMOTE: {
        const x = this.txns.list[arg]!;
        const h = this.smsg[x.remoteInst];
        const meta = x.meta;
        const landing = x.landing;
        const src = x.srcNode;
        this.unref(arg, x);
        if (!h) throw new Error(`NIC ${this.node}: short message for instance ${x.remoteInst}, which has no mailbox`);
        h(src, meta, landing);
        break;
      }
      case EV_REMOTE_EVENT: {
        const x = this.txns.list[arg]!;
        const cq = x.remoteCq!;
        const ev = { kind: CqEventKind.Remote, status: NicStatus.Ok, data: x.remoteData, sourceNode: x.srcNode };
        this.unref(arg, x);
        cq.post(ev);
        break;
      }
      case EV_RECEIVE_EVENT: {
        const x = this.txns.list[arg]!;
        const b = x.recv!;
        const ev = { kind: CqEventKind.Receive, status: x.status, data: b.userId, sourceNode: x.srcNode, bytes: x.bytes };
        this.unref(arg, x);
        b.cq.post(ev);
        break;
      }
    }
  }

  private unref(id: number, x: Txn): void {
    if (--x.refs === 0) this.txns.release(id);
  }

  /** Builds packet `x.sent` of transaction `id` and queues it on the output pipeline. */
  private emit(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    const F = P.format;
    const pk = this.pkts;
    const now = this.engine.now;
    const i = x.sent;
    const units = this.unitsOf(x, i);
    if (this.outstanding + units > P.maxOutstandingPackets) {
      this.stalled.push(id);
      return;
    }
    x.sent++;
    const wireOff = i * x.unit * F.maxPayloadBytes;
    const chunk = this.chunkBytes(x, i);
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
      pk.phits[p] = this.dataPhits(chunk, units, false);
      // the NIC reads the source bytes now (FMA: the stored data; BTE: the host read)
      const from = Math.max(0, wireOff - x.header);
      const to = wireOff + chunk - x.header;
      // payload bytes sit after any share of the virtual header this packet carries; a skeleton
      // source sends its size only
      if (inStore(x.local, this.skeleton)) pk.skel[p] = 1;
      else if (to > from) copyBytes(pk.dataOf(p), pk.dataAt(p) + (from + x.header - wireOff), x.local, from, to - from);
    }
    const s = Math.max(now, this.outFree);
    const slot = this.slotPs(x.op === K_GET ? 0 : chunk, units);
    this.outFree = s + slot;
    // a BTE channel asks for one get's data no faster than its own rate
    if (x.op === K_GET && x.onBte && P.bteGetBytesPerPs > 0) x.channelFreePs = s + Math.ceil(chunk / P.bteGetBytesPerPs);
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

  /** The network delivers a packet's tail to this NIC now. */
  deliver(p: number): void {
    const P = this.params;
    const pk = this.pkts;
    const now = this.engine.now;
    const units = pk.units[p]!;
    const slot = this.slotPs(pk.kind[p] === K_GET ? 0 : pk.bytes[p]!, units);
    // a coarse packet's hardware packets came in one after another: the input pipeline took the
    // first ones while the rest arrived
    const s = Math.max(units > 1 ? now - (slot - slot / units) : now, this.inFree);
    this.inFree = s + slot;
    this.net.ejectCredit(this.node, pk.vc[p]!, pk.phits[p]!, s);
    const t = s + P.inLatencyPs;
    if (pk.kind[p] === K_CE) {
      // no transaction: the CE's packets carry their virtual CE in the txn field
      if (this.ce === null) throw new Error(`NIC ${this.node}: collective-engine packet from node ${pk.src[p]}, but this NIC has no CE`);
      this.ce.receive(p, t);
      return;
    }
    const id = pk.txn[p]!;
    const x = this.txns.list[id]!;
    switch (pk.kind[p]) {
      case K_PUT:
      case K_SMSG:
      case K_SEND:
        this.onWrite(p, x, id, t);
        break;
      case K_GET:
        this.onRead(p, x, t);
        break;
      case K_AMO:
        this.onAmo(p, x, t);
        break;
      case K_PUT_RESP:
      case K_SMSG_RESP:
        pk.free(p);
        this.onResponse(x, id, t, units);
        break;
      case K_GET_RESP:
      case K_AMO_RESP: {
        const wireOff = pk.offset[p]!;
        const n = pk.bytes[p]!;
        const data = pk.dataOf(p);
        const from = pk.dataAt(p);
        const get = pk.kind[p] === K_GET_RESP;
        if (get) {
          if (this.moves(p, x.local)) copyBytes(x.local, wireOff, data, from, n);
        } else copyBytes(x.local, 0, data, from, Math.min(n, x.local.length));
        pk.free(p);
        this.hostWrite(t, n, units);
        if (this.landing !== null && n > 0) this.landing.landed(this.node, x.local, get ? wireOff : 0, get ? n : Math.min(n, x.local.length), this.htUpFree + P.hostLatencyPs);
        this.onResponse(x, id, this.htUpFree, units);
        break;
      }
    }
  }

  /** Whether packet p's payload really moves to `mem`: neither it nor `mem` is skeleton. */
  private moves(p: number, mem: Uint8Array): boolean {
    return this.pkts.skel[p] === 0 && !inStore(mem, this.skeleton);
  }

  /**
   * Target-side checks of transaction x (the whole range, so a bad access changes nothing):
   * its segment, or the status that refuses it.
   */
  private resolve(x: Txn): Segment | NicStatus {
    let h = x.remoteHandle;
    if (x.vmdh) {
      const real = this.vmdhCam[x.remoteInst]?.[h];
      if (real === undefined) return NicStatus.BadHandle;
      h = real;
    }
    const seg = this.segments[h];
    if (seg === undefined) return NicStatus.BadHandle;
    if (seg.ptag !== x.ptag) return NicStatus.DomainRefused;
    const span = x.op === K_AMO ? x.amo!.width : x.bytes;
    if (x.remoteOffset < 0 || x.remoteOffset + span > seg.bytes.length) return NicStatus.OutOfBounds;
    if (x.op === K_AMO && (seg.base + x.remoteOffset) % span !== 0) return NicStatus.Misaligned;
    return seg;
  }

  /** Target side of a put or short-message packet: write to memory, answer with a response. */
  private onWrite(p: number, x: Txn, id: number, t: number): void {
    const P = this.params;
    const pk = this.pkts;
    const units = pk.units[p]!;
    const wireOff = pk.offset[p]!;
    const n = pk.bytes[p]!;
    let status = NicStatus.Ok;
    const kind = pk.kind[p];
    if (kind === K_SMSG) {
      if (this.smsgPtag[x.remoteInst] !== undefined && this.smsgPtag[x.remoteInst] !== x.ptag) {
        status = NicStatus.DomainRefused;
      } else {
        // a skeleton message lands in the skeleton store, as sizes only
        if (x.landing.length !== x.bytes) x.landing = pk.skel[p] === 1 ? new Uint8Array(this.skeleton!.buffer, 0, x.bytes) : new Uint8Array(x.bytes);
        const from = Math.max(0, wireOff - x.header);
        const to = wireOff + n - x.header;
        if (to > from && pk.skel[p] === 0) copyBytes(x.landing, from, pk.dataOf(p), pk.dataAt(p) + (from + x.header - wireOff), to - from);
      }
    } else if (kind === K_SEND) {
      // the first packet to arrive (in any order) takes the buffer; the rest follow its verdict
      if (x.deliveredAtTarget === 0) this.takeReceive(x);
      status = x.status;
      const b = x.recv;
      if (status === NicStatus.Ok && b !== null) {
        this.translate(b.seg, b.offset + wireOff, t);
        if (this.moves(p, b.seg.bytes)) copyBytes(b.seg.bytes, b.offset + wireOff, pk.dataOf(p), pk.dataAt(p), n);
      }
    } else {
      const seg = this.resolve(x);
      if (typeof seg === 'number') {
        status = seg;
      } else {
        this.translate(seg, x.remoteOffset + wireOff, t);
        if (this.moves(p, seg.bytes)) copyBytes(seg.bytes, x.remoteOffset + wireOff, pk.dataOf(p), pk.dataAt(p), n);
        if (x.remoteEvent) x.remoteCq = seg.cq ?? null;
      }
    }
    // posted write to host memory; the response leaves once the write is ordered at the NIC
    const w = this.hostWrite(t, n, units);
    if (status !== NicStatus.Ok && x.status === NicStatus.Ok) x.status = status;
    if (this.landing !== null && status === NicStatus.Ok && kind !== K_SMSG) this.noteWrite(x, wireOff, n, this.htUpFree + P.hostLatencyPs);
    if (kind === K_SMSG || x.remoteEvent) {
      x.deliveredAtTarget++;
      const visible = this.htUpFree + P.hostLatencyPs;
      if (visible > x.targetDoneAt) x.targetDoneAt = visible;
      if (x.deliveredAtTarget === x.packets) this.landed(x, id);
    }
    // a short message's acknowledgement leaves once the receiver has taken the packet (smsgAckDelayPs)
    const delay = kind === K_SMSG ? P.smsgAckDelayPs : 0;
    this.respond(p, kind === K_SMSG ? K_SMSG_RESP : K_PUT_RESP, units * (status === NicStatus.Ok ? P.format.responsePhits : P.format.errorResponsePhits), w + delay, delay > 0);
  }

  /** Tells the listener of a put's or send's packet that landed: `n` bytes at `wireOff` of its transfer, visible at `visiblePs`. */
  private noteWrite(x: Txn, wireOff: number, n: number, visiblePs: number): void {
    if (x.op === K_SEND) {
      const b = x.recv;
      if (b !== null) this.landing!.landed(this.node, b.seg.bytes, b.offset + wireOff, n, visiblePs);
      return;
    }
    const seg = this.resolve(x);
    if (typeof seg !== 'number') this.landing!.landed(this.node, seg.bytes, x.remoteOffset + wireOff, n, visiblePs);
  }

  /**
   * The first packet of BTE send x is in: x takes the next receive buffer of its target instance,
   * or gets the status that refuses it (see `sendBte`).
   */
  private takeReceive(x: Txn): void {
    const ptag = this.recvPtag[x.remoteInst];
    if (ptag !== undefined && ptag !== x.ptag) {
      x.status = NicStatus.DomainRefused;
      return;
    }
    const b = this.recvQueues[x.remoteInst]?.shift();
    if (b === undefined) {
      x.status = NicStatus.NoReceiveBuffer;
      return;
    }
    x.recv = b;
    if (this.segments[b.handle] !== b.seg) x.status = NicStatus.BadHandle;
    else if (x.bytes > b.length) x.status = NicStatus.ReceiveOverflow;
  }

  /** Every packet of x has landed at this (target) NIC: the destination-side event, if any. */
  private landed(x: Txn, id: number): void {
    const ok = x.status === NicStatus.Ok;
    if (x.op === K_SMSG) {
      if (ok) this.engine.at(x.targetDoneAt, this.id, EV_REMOTE, id);
      else this.unref(id, x);
    } else if (x.op === K_SEND) {
      // a send that took a buffer reports to its CQ, errors included; one refused before that does not
      if (x.recv !== null) this.engine.at(x.targetDoneAt, this.id, EV_RECEIVE_EVENT, id);
      else this.unref(id, x);
    } else if (ok && x.remoteCq) {
      this.engine.at(x.targetDoneAt, this.id, EV_REMOTE_EVENT, id);
    } else {
      this.unref(id, x);
    }
  }

  /** Target side of a get packet: read host memory, answer with the data. */
  private onRead(p: number, x: Txn, t: number): void {
    const P = this.params;
    const pk = this.pkts;
    const units = pk.units[p]!;
    const off = pk.offset[p]!;
    const n = pk.bytes[p]!;
    const seg = this.resolve(x);
    if (typeof seg === 'number') {
      if (x.status === NicStatus.Ok) x.status = seg;
      pk.bytes[p] = 0;
      this.respond(p, K_GET_RESP, units * P.format.errorResponsePhits, t, true);
      return;
    }
    const at = x.remoteOffset + off;
    this.translate(seg, at, t);
    const last = this.hostRead(t, n, units);
    // the tail cannot leave before the last hardware packet's data is in (see sendResponse)
    pk.tailAt[p] = last + P.outLatencyPs;
    // a skeleton segment answers with its size only
    if (inStore(seg.bytes, this.skeleton)) pk.skel[p] = 1;
    else copyBytes(pk.dataOf(p), pk.dataAt(p), seg.bytes, at, n);
    // a coarse response leaves with its first hardware packet's data, the rest streaming behind
    this.respond(p, K_GET_RESP, this.dataPhits(n, units, true), this.firstReadPs, true);
  }

  /**
   * Target side of an AMO packet: the AMO unit takes one operation per `amoOpPs`; a variable
   * missing from the AMO cache is read from host memory first; host memory is updated with every
   * result (seed 001 "Remote Memory Access"); a fetching AMO answers with the old value.
   */
  private onAmo(p: number, x: Txn, t: number): void {
    const P = this.params;
    const pk = this.pkts;
    const a = x.amo!;
    const seg = this.resolve(x);
    if (typeof seg === 'number') {
      if (x.status === NicStatus.Ok) x.status = seg;
      pk.bytes[p] = 0;
      this.respond(p, K_AMO_RESP, P.format.errorResponsePhits, t, true);
      return;
    }
    const off = x.remoteOffset;
    this.translate(seg, off, t);
    const go = Math.max(t, this.amoFree);
    this.amoFree = go + P.amoOpPs;
    let ready = go + P.amoOpPs;
    const hit = this.amoCache !== null && this.amoCache.touch(Math.floor((seg.base + off) / 8), 0);
    if (!hit) {
      if (this.amoCache === null) this.amoNoCache++;
      const fill = Math.max(this.hostRead(go, 64), this.amoFillFree);
      this.amoFillFree = fill + P.amoFillPs;
      ready = fill + P.amoFillPs;
    }
    const old = applyAmo(seg.view, off, a);
    // the write-through to host memory is posted: its bandwidth is taken on arrival, not reserved ahead
    this.hostWrite(t, a.width);
    // the new value is in host memory once the AMO unit has it and its write has crossed to the host
    if (this.landing !== null) this.landing.landed(this.node, seg.bytes, off, a.width, Math.max(ready, this.htUpFree) + P.hostLatencyPs);
    if (a.fetch) {
      const data = pk.dataOf(p);
      const at = pk.dataAt(p);
      if (a.width === 8) {
        for (let i = 0, v = old; i < 8; i++, v >>= 8n) data[at + i] = Number(v & 0xffn);
      } else {
        const v = Number(old);
        for (let i = 0; i < 4; i++) data[at + i] = (v >>> (8 * i)) & 0xff;
      }
      pk.bytes[p] = a.width;
      this.respond(p, K_AMO_RESP, getResponsePhits(P.format, a.width), ready, true);
    } else {
      pk.bytes[p] = 0;
      this.respond(p, K_AMO_RESP, P.format.responsePhits, ready, true);
    }
  }

  /**
   * Turns request packet `p` into its response and queues it on the output pipeline at `ready`.
   * A response that `waits` (for host memory: a read, an AMO; or for the receiving program: a
   * delayed short-message acknowledgement) takes the pipeline when it is ready, not before:
   * reserving it ahead would hold back packets ready earlier. A write's acknowledgement reserves
   * the pipeline now for the time its posted write is ordered.
   */
  private respond(p: number, kind: number, phits: number, ready: number, waits: boolean): void {
    const pk = this.pkts;
    const src = pk.src[p]!;
    pk.src[p] = this.node;
    pk.dst[p] = src;
    pk.kind[p] = kind;
    pk.vcClass[p] = 1;
    pk.phits[p] = phits;
    if (kind !== K_GET_RESP && kind !== K_AMO_RESP) pk.bytes[p] = 0;
    if (waits && ready > this.engine.now) {
      this.engine.at(ready, this.id, EV_RESPOND, p);
      return;
    }
    this.sendResponse(p, ready);
  }

  /** Response packet `p` enters the output pipeline at `ready` or when the pipeline frees. */
  private sendResponse(p: number, ready: number): void {
    const pk = this.pkts;
    const k = pk.kind[p]!;
    const units = pk.units[p]!;
    const s = Math.max(ready, this.outFree);
    const slot = this.slotPs(k === K_GET_RESP || k === K_AMO_RESP ? pk.bytes[p]! : 0, units);
    this.outFree = s + slot;
    // a coarse response's tail leaves with its last hardware packet, not before its data is in (onRead)
    pk.tailAt[p] = units > 1 ? Math.max(pk.tailAt[p]!, s + this.params.outLatencyPs + slot - slot / units) : s + this.params.outLatencyPs;
    this.engine.at(s + this.params.outLatencyPs, this.id, EV_INJECT, p);
  }

  /** Source side: one response of transaction `id` is back at time `t`. */
  private onResponse(x: Txn, id: number, t: number, units: number): void {
    this.outstanding -= units;
    if (this.stalled.length > 0) this.engine.at(this.engine.now, this.id, EV_READY, this.stalled.shift()!);
    if (x.windowWait) {
      x.windowWait = false;
      this.engine.at(Math.max(this.engine.now, this.nextReadyPs(x)), this.id, EV_READY, id);
    }
    if (--x.responsesLeft > 0) return;
    // completion event: written to the completion queue in host memory
    const P = this.params;
    this.hostWrite(t, P.cqEventBytes);
    this.engine.at(this.htUpFree + P.hostLatencyPs, this.id, EV_COMPLETE, id);
  }
}
