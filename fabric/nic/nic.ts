import type { Engine, EventHandler } from '../engine/engine.ts';
import type { NetworkAccess } from '../network.ts';
import type { PacketPool } from '../packet.ts';
import { getResponsePhits, putRequestPhits, type PacketFormatConfig } from './packet-format.ts';

/** NIC timing, already in ps and bytes (see the machine presets for values and provenance). */
export interface NicParams {
  readonly format: PacketFormatConfig;
  /** Pipeline occupancy of a full packet, each direction (Gemini: 64 B every 5 cycles at 650 MHz). */
  readonly packetPs: number;
  /** One NIC cycle: the least a packet without payload occupies a pipeline. */
  readonly cyclePs: number;
  /** Latency through the NIC output pipeline (request or response to network). */
  readonly outLatencyPs: number;
  /** Latency through the NIC input pipeline (network to host interface or response). */
  readonly inLatencyPs: number;
  /** Host interface bandwidth per direction (bytes per ps). */
  readonly hostBytesPerPs: number;
  /** Host interface one-way latency, host to NIC or NIC to host (ps). */
  readonly hostLatencyPs: number;
  /** Bytes of protocol overhead on the host interface per posted write (FMA store, NIC write). */
  readonly hostWriteOverheadBytes: number;
  /** Bytes of a host-memory read request sent by the NIC. */
  readonly hostReadRequestBytes: number;
  /** Host memory access time of a NIC read, beyond the two host-interface crossings (ps). */
  readonly memoryReadLatencyPs: number;
  /** CPU time to issue one FMA store: a put of up to one packet, or a get/AMO control word. */
  readonly fmaIssuePs: number;
  /** CPU time to post one BTE descriptor. */
  readonly bteIssuePs: number;
  /** From a BTE descriptor post to the first host read. */
  readonly bteStartupPs: number;
  /** Host reads a BTE put keeps in flight (its read pipeline depth). */
  readonly bteReadsInFlight: number;
  /** Bytes of one completion-queue event written to host memory. */
  readonly cqEventBytes: number;
  /** Request packets a NIC may have outstanding (waiting for their responses). */
  readonly maxOutstandingPackets: number;
  /** Header bytes a short message (mailbox put) carries besides its payload. */
  readonly smsgHeaderBytes: number;
}

/** Completion status of a transaction, as a CQ status word would report it. */
export const enum NicStatus {
  Ok = 0,
  /** The remote memory-domain handle is not registered at the target. */
  BadHandle = 1,
  /** The access falls outside the registered segment. */
  OutOfBounds = 2,
}

/** Packet kinds on the wire. */
const K_PUT = 0;
const K_GET = 1;
const K_SMSG = 2;
const K_PUT_RESP = 3;
const K_GET_RESP = 4;
const K_SMSG_RESP = 5;

const EV_READY = 0;
const EV_INJECT = 1;
const EV_COMPLETE = 2;
const EV_REMOTE = 3;

/** A transfer mechanism: FMA (CPU stores, low latency) or BTE (block engine, no CPU). */
export type NicMode = 'fma' | 'bte';

/** A one-sided transfer request. */
export interface NicTransfer {
  readonly op: 'put' | 'get';
  readonly mode: NicMode;
  /** Local bytes: source of a put, destination of a get. */
  readonly local: Uint8Array;
  readonly remoteNode: number;
  readonly remoteHandle: number;
  readonly remoteOffset: number;
  /** Hashed deterministic routing instead of adaptive (keeps the packets in order). */
  readonly ordered?: boolean;
  /** Source completion event: every response is back. */
  readonly onComplete: (status: NicStatus) => void;
}

/** Receives short messages addressed to one instance (process) on a node. */
export type SmsgHandler = (srcNode: number, meta: unknown, payload: Uint8Array) => void;

/** One transaction (SSID): a put, get or short message and its packets. */
class Txn {
  op = K_PUT;
  mode: NicMode = 'fma';
  srcNode = 0;
  dstNode = 0;
  local: Uint8Array = EMPTY;
  remoteHandle = 0;
  remoteOffset = 0;
  /** Payload bytes. */
  bytes = 0;
  /** Virtual header bytes ahead of the payload on the wire (short messages). */
  header = 0;
  packets = 0;
  sent = 0;
  responsesLeft = 0;
  deliveredAtTarget = 0;
  targetDoneAt = 0;
  status = NicStatus.Ok;
  startPs = 0;
  /** Host-side cursor of the FMA stores / BTE reads feeding this transaction. */
  cursorPs = 0;
  /** BTE put: times the data of the reads in flight reach the NIC, by packet index mod window. */
  readReady: Float64Array = NO_READS;
  /** BTE put: reads issued so far. */
  reads = 0;
  ordered = false;
  onComplete: ((status: NicStatus) => void) | null = null;
  // short messages
  inst = 0;
  meta: unknown = null;
  landing: Uint8Array = EMPTY;
  refs = 0;
}

const EMPTY = new Uint8Array(0);
const NO_READS = new Float64Array(0);

/** Transactions of a whole machine, indexed by id (the SSID state a real NIC keeps in its RMT). */
export class TxnTable {
  readonly list: (Txn | undefined)[] = [];
  private readonly freeIds: number[] = [];
  alloc(): [number, Txn] {
    const id = this.freeIds.length > 0 ? this.freeIds.pop()! : this.list.length;
    const t = new Txn();
    this.list[id] = t;
    return [id, t];
  }
  release(id: number): void {
    this.list[id] = undefined;
    this.freeIds.push(id);
  }
}

/**
 * A Gemini-style NIC (seed 004 §II): FMA and BTE transfers broken into packets of at most
 * `maxPayloadBytes`, a host interface with bandwidth, latency and per-transfer overhead in each
 * direction, output and input pipelines, SSID transactions that complete when every response is
 * back, registered memory segments and short-message mailboxes. Real bytes move: a put's data
 * lands in the target segment, and a get's data in the local buffer, when the carrying packet is
 * delivered. Shared resources are reserved first come, first served in simulated time.
 */
export class Nic implements EventHandler {
  readonly id: number;
  private readonly segments: (Uint8Array | undefined)[] = [];
  private readonly freeHandles: number[] = [];
  private readonly smsg: (SmsgHandler | undefined)[] = [];
  private outFree = 0;
  private inFree = 0;
  /** Host interface, host -> NIC direction, free from this time. */
  private htDownFree = 0;
  /** Host interface, NIC -> host direction, free from this time. */
  private htUpFree = 0;
  private outstanding = 0;
  private readonly stalled: number[] = [];
  private readonly pkts: PacketPool;
  /** Packets this NIC has injected. */
  injected = 0;

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
  }

  /** Registers local memory for remote access; returns its memory-domain handle. */
  register(bytes: Uint8Array): number {
    const h = this.freeHandles.length > 0 ? this.freeHandles.pop()! : this.segments.length;
    this.segments[h] = bytes;
    return h;
  }

  /** Removes a registration; later accesses to the handle complete with BadHandle. */
  deregister(handle: number): void {
    if (this.segments[handle] === undefined) throw new RangeError(`NIC ${this.node}: handle ${handle} is not registered`);
    this.segments[handle] = undefined;
    this.freeHandles.push(handle);
  }

  /** Sets the receiver of short messages for instance `inst` on this node. */
  setSmsgHandler(inst: number, handler: SmsgHandler): void {
    this.smsg[inst] = handler;
  }

  /** CPU time (ps) the issuing process spends on a short message of `bytes` payload. */
  smsgCostPs(bytes: number): number {
    const P = this.params;
    return Math.max(1, Math.ceil((P.smsgHeaderBytes + bytes) / P.format.maxPayloadBytes)) * P.fmaIssuePs;
  }

  /** Issues a put or get now; returns the CPU time (ps) the issuing process spends on it. */
  post(t: NicTransfer): number {
    const [id, x] = this.txns.alloc();
    x.op = t.op === 'put' ? K_PUT : K_GET;
    x.mode = t.mode;
    x.local = t.local;
    x.remoteHandle = t.remoteHandle;
    x.remoteOffset = t.remoteOffset;
    x.bytes = t.local.length;
    x.ordered = t.ordered ?? false;
    x.onComplete = t.onComplete;
    return this.start(id, x, t.remoteNode);
  }

  /**
   * Sends a short message (FMA put into the target instance's mailbox, with a destination-side
   * event). `meta` travels as the message header; `payload` bytes move for real.
   */
  sendSmsg(dstNode: number, inst: number, meta: unknown, payload: Uint8Array, onComplete: (s: NicStatus) => void): number {
    const [id, x] = this.txns.alloc();
    x.op = K_SMSG;
    x.mode = 'fma';
    x.local = payload;
    x.bytes = payload.length;
    x.header = this.params.smsgHeaderBytes;
    x.inst = inst;
    x.meta = meta;
    x.onComplete = onComplete;
    x.refs = 1; // the destination-side event also holds the transaction
    return this.start(id, x, dstNode);
  }

  private start(id: number, x: Txn, dst: number): number {
    const P = this.params;
    const now = this.engine.now;
    x.srcNode = this.node;
    x.dstNode = dst;
    const wire = x.header + x.bytes;
    x.packets = Math.max(1, Math.ceil(wire / P.format.maxPayloadBytes));
    x.responsesLeft = x.packets;
    x.refs += 1;
    x.startPs = now;
    let cpu: number;
    if (x.mode === 'fma') {
      cpu = x.packets * P.fmaIssuePs;
      x.cursorPs = now;
    } else {
      cpu = P.bteIssuePs;
      x.cursorPs = now + P.bteIssuePs + P.hostLatencyPs + P.bteStartupPs;
      if (x.op !== K_GET) {
        // the BTE starts its read pipeline: up to bteReadsInFlight host reads ahead of the data
        x.readReady = new Float64Array(Math.min(P.bteReadsInFlight, x.packets));
        while (x.reads < x.readReady.length) this.issueRead(x, x.cursorPs);
      }
    }
    this.engine.at(this.nextReadyPs(x), this.id, EV_READY, id);
    return cpu;
  }

  /** BTE put: sends the next host read request at `at` (or when the host interface frees). */
  private issueRead(x: Txn, at: number): void {
    const P = this.params;
    const i = x.reads++;
    const rq = Math.max(at, this.htUpFree);
    this.htUpFree = rq + Math.ceil(P.hostReadRequestBytes / P.hostBytesPerPs);
    const back = Math.max(this.htUpFree + 2 * P.hostLatencyPs + P.memoryReadLatencyPs, this.htDownFree);
    this.htDownFree = back + Math.ceil((this.chunkBytes(x, i) + P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    x.readReady[i % x.readReady.length] = this.htDownFree;
  }

  /** When the data (or control word) of packet `x.sent` is at the NIC, reserving the host interface. */
  private nextReadyPs(x: Txn): number {
    const P = this.params;
    const i = x.sent;
    const chunk = this.chunkBytes(x, i);
    if (x.mode === 'fma') {
      // the CPU stores one packet's worth (or a get control word) per fmaIssuePs
      const stored = x.startPs + (i + 1) * P.fmaIssuePs;
      const bytes = (x.op === K_GET ? 8 : chunk) + P.hostWriteOverheadBytes;
      const s = Math.max(stored, this.htDownFree);
      this.htDownFree = s + Math.ceil(bytes / P.hostBytesPerPs);
      return this.htDownFree + P.hostLatencyPs;
    }
    if (x.op === K_GET) {
      // BTE get: the engine issues read requests to the network at the output pipeline's pace
      return Math.max(x.cursorPs, this.outFree - P.packetPs);
    }
    // BTE put: packet i's read was issued earlier; a freed slot starts read i + window
    const ready = x.readReady[i % x.readReady.length]!;
    if (x.reads < x.packets) this.issueRead(x, Math.max(this.engine.now, ready));
    return ready;
  }

  /** Pipeline time of a packet carrying `bytes`: data moves at packetPs per full payload. */
  private slotPs(bytes: number): number {
    const P = this.params;
    return Math.max(P.cyclePs, Math.ceil((bytes * P.packetPs) / P.format.maxPayloadBytes));
  }

  /** Payload bytes (excluding virtual header) carried by packet i of x, and its wire size. */
  private chunkBytes(x: Txn, i: number): number {
    const max = this.params.format.maxPayloadBytes;
    const wire = x.header + x.bytes;
    return Math.min(max, wire - i * max);
  }

  onEvent(kind: number, arg: number): void {
    switch (kind) {
      case EV_READY:
        this.emit(arg);
        break;
      case EV_INJECT:
        this.injected++;
        this.net.inject(this.node, arg);
        break;
      case EV_COMPLETE: {
        const x = this.txns.list[arg]!;
        const cb = x.onComplete;
        this.unref(arg, x);
        if (cb) cb(x.status);
        break;
      }
      case EV_REMOTE: {
        const x = this.txns.list[arg]!;
        const h = this.smsg[x.inst];
        const meta = x.meta;
        const landing = x.landing;
        const src = x.srcNode;
        this.unref(arg, x);
        if (!h) throw new Error(`NIC ${this.node}: short message for instance ${x.inst}, which has no mailbox`);
        h(src, meta, landing);
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
    if (this.outstanding >= P.maxOutstandingPackets) {
      this.stalled.push(id);
      return;
    }
    const i = x.sent++;
    const max = F.maxPayloadBytes;
    const wireOff = i * max;
    const chunk = this.chunkBytes(x, i);
    const p = pk.alloc();
    pk.src[p] = this.node;
    pk.dst[p] = x.dstNode;
    pk.vcClass[p] = 0;
    pk.kind[p] = x.op;
    pk.txn[p] = id;
    pk.offset[p] = wireOff;
    pk.bytes[p] = chunk;
    pk.ordered[p] = x.ordered ? 1 : 0;
    if (x.op === K_GET) {
      pk.phits[p] = F.readRequestPhits;
    } else {
      pk.phits[p] = putRequestPhits(F, chunk);
      // the NIC reads the source bytes now (FMA: the stored data; BTE: the host read)
      const from = Math.max(0, wireOff - x.header);
      const to = wireOff + chunk - x.header;
      // payload bytes sit after any share of the virtual header this packet carries
      if (to > from) pk.data.set(x.local.subarray(from, to), p * max + (from + x.header - wireOff));
    }
    const s = Math.max(now, this.outFree);
    this.outFree = s + this.slotPs(x.op === K_GET ? 0 : chunk);
    this.outstanding++;
    this.engine.at(s + P.outLatencyPs, this.id, EV_INJECT, p);
    if (x.sent < x.packets) this.engine.at(this.nextReadyPs(x), this.id, EV_READY, id);
  }

  /** The network delivers a packet's tail to this NIC now. */
  deliver(p: number): void {
    const P = this.params;
    const pk = this.pkts;
    const now = this.engine.now;
    const s = Math.max(now, this.inFree);
    this.inFree = s + this.slotPs(pk.kind[p] === K_GET ? 0 : pk.bytes[p]!);
    this.net.ejectCredit(this.node, pk.vc[p]!, pk.phits[p]!, s);
    const t = s + P.inLatencyPs;
    const id = pk.txn[p]!;
    const x = this.txns.list[id]!;
    switch (pk.kind[p]) {
      case K_PUT:
      case K_SMSG:
        this.onWrite(p, x, id, t);
        break;
      case K_GET:
        this.onRead(p, x, t);
        break;
      case K_PUT_RESP:
      case K_SMSG_RESP:
        pk.free(p);
        this.onResponse(x, id, t);
        break;
      case K_GET_RESP: {
        const wireOff = pk.offset[p]!;
        const n = pk.bytes[p]!;
        x.local.set(pk.data.subarray(p * P.format.maxPayloadBytes, p * P.format.maxPayloadBytes + n), wireOff);
        const w = Math.max(t, this.htUpFree);
        this.htUpFree = w + Math.ceil((n + P.hostWriteOverheadBytes) / P.hostBytesPerPs);
        pk.free(p);
        this.onResponse(x, id, this.htUpFree);
        break;
      }
    }
  }

  /** Target side of a put or short-message packet: write to memory, answer with a response. */
  private onWrite(p: number, x: Txn, id: number, t: number): void {
    const P = this.params;
    const pk = this.pkts;
    const max = P.format.maxPayloadBytes;
    const wireOff = pk.offset[p]!;
    const n = pk.bytes[p]!;
    let status = NicStatus.Ok;
    if (pk.kind[p] === K_SMSG) {
      if (x.landing.length !== x.bytes) x.landing = new Uint8Array(x.bytes);
      const from = Math.max(0, wireOff - x.header);
      const to = wireOff + n - x.header;
      if (to > from) x.landing.set(pk.data.subarray(p * max + (from + x.header - wireOff), p * max + n), from);
    } else {
      const seg = this.segments[x.remoteHandle];
      status = this.check(seg, x);
      if (status === NicStatus.Ok) seg!.set(pk.data.subarray(p * max, p * max + n), x.remoteOffset + wireOff);
    }
    // posted write to host memory; the response leaves once the write is ordered at the NIC
    const w = Math.max(t, this.htUpFree);
    this.htUpFree = w + Math.ceil((n + P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    if (pk.kind[p] === K_SMSG) {
      x.deliveredAtTarget++;
      const visible = this.htUpFree + P.hostLatencyPs;
      if (visible > x.targetDoneAt) x.targetDoneAt = visible;
      if (x.deliveredAtTarget === x.packets) this.engine.at(x.targetDoneAt, this.id, EV_REMOTE, id);
    }
    if (status !== NicStatus.Ok && x.status === NicStatus.Ok) x.status = status;
    this.respond(p, pk.kind[p] === K_SMSG ? K_SMSG_RESP : K_PUT_RESP, status === NicStatus.Ok ? P.format.responsePhits : P.format.errorResponsePhits, w);
  }

  /** Target side of a get packet: read host memory, answer with the data. */
  private onRead(p: number, x: Txn, t: number): void {
    const P = this.params;
    const pk = this.pkts;
    const max = P.format.maxPayloadBytes;
    const off = pk.offset[p]!;
    const n = pk.bytes[p]!;
    const seg = this.segments[x.remoteHandle];
    const at = x.remoteOffset + off;
    const status = this.check(seg, x);
    const rq = Math.max(t, this.htUpFree);
    this.htUpFree = rq + Math.ceil(P.hostReadRequestBytes / P.hostBytesPerPs);
    const back = Math.max(this.htUpFree + 2 * P.hostLatencyPs + P.memoryReadLatencyPs, this.htDownFree);
    this.htDownFree = back + Math.ceil((n + P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    if (status === NicStatus.Ok) {
      pk.data.set(seg!.subarray(at, at + n), p * max);
      this.respond(p, K_GET_RESP, getResponsePhits(P.format, n), this.htDownFree);
    } else {
      if (x.status === NicStatus.Ok) x.status = status;
      pk.bytes[p] = 0;
      this.respond(p, K_GET_RESP, P.format.errorResponsePhits, this.htDownFree);
    }
  }

  /** Whether transaction x may touch `seg`: the whole range is checked, so a bad one writes nothing. */
  private check(seg: Uint8Array | undefined, x: Txn): NicStatus {
    if (seg === undefined) return NicStatus.BadHandle;
    if (x.remoteOffset < 0 || x.remoteOffset + x.bytes > seg.length) return NicStatus.OutOfBounds;
    return NicStatus.Ok;
  }

  /** Turns request packet `p` into its response and queues it on the output pipeline at `ready`. */
  private respond(p: number, kind: number, phits: number, ready: number): void {
    const P = this.params;
    const pk = this.pkts;
    const src = pk.src[p]!;
    pk.src[p] = this.node;
    pk.dst[p] = src;
    pk.kind[p] = kind;
    pk.vcClass[p] = 1;
    pk.phits[p] = phits;
    if (kind !== K_GET_RESP) pk.bytes[p] = 0;
    const s = Math.max(ready, this.outFree);
    this.outFree = s + this.slotPs(kind === K_GET_RESP ? pk.bytes[p]! : 0);
    this.engine.at(s + P.outLatencyPs, this.id, EV_INJECT, p);
  }

  /** Source side: one response of transaction `id` is back at time `t`. */
  private onResponse(x: Txn, id: number, t: number): void {
    this.outstanding--;
    if (this.stalled.length > 0) this.engine.at(this.engine.now, this.id, EV_READY, this.stalled.shift()!);
    if (--x.responsesLeft > 0) return;
    // completion event: written to the completion queue in host memory
    const P = this.params;
    const w = Math.max(t, this.htUpFree);
    this.htUpFree = w + Math.ceil((P.cqEventBytes + P.hostWriteOverheadBytes) / P.hostBytesPerPs);
    this.engine.at(this.htUpFree + P.hostLatencyPs, this.id, EV_COMPLETE, id);
  }
}
