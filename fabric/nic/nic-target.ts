import type { Engine, EventHandler } from '../engine/engine.ts';
import type { NetworkAccess } from '../network.ts';
import type { PacketPool } from '../packet.ts';
import type { NodeFaults } from '../node-faults.ts';
import { inStore, type SkeletonStore } from '../skeleton.ts';
import { AmoUnit, applyAmo } from './amo.ts';
import { CqEventKind } from './cq.ts';
import { HostInterface } from './host-interface.ts';
import { NicStatus, type LandingListener, type NicParams, type NicReceiveBuffer, type RegisterOptions, type Segment, type SmsgHandler } from './nic-api.ts';
import { getResponsePhits } from './packet-format.ts';
import { copyBytes, dataPhits, slotPs } from './packet-sizes.ts';
import { ReceiveQueues } from './receive-queues.ts';
import { SegmentTable } from './segment-table.ts';
import { K_AMO_RESP, K_GET_RESP, K_PUT_RESP, K_SEND, K_SMSG, K_SMSG_RESP, type Txn, type TxnTable } from './txn.ts';

/** Engine event kinds of a NIC (source and target side share one handler). */
export const EV_READY = 0;
export const EV_INJECT = 1;
export const EV_COMPLETE = 2;
/** A short message has landed: its mailbox handler runs. */
export const EV_REMOTE = 3;
/** A put with a destination-side event has landed: the event goes to the segment's CQ. */
export const EV_REMOTE_EVENT = 4;
/** A BTE send has landed in the buffer it took: the event goes to the buffer's CQ. */
export const EV_RECEIVE_EVENT = 5;
/** A response whose data waited for host memory joins the output pipeline. */
export const EV_RESPOND = 6;
/** Flow level: a block transfer's flow starts (its first data is ready to leave). */
export const EV_FLOW_START = 7;
/** Flow level: a block transfer's last data lands at its receiver. */
export const EV_FLOW_LANDED = 8;
/** A transaction a dead node never answered fails: its NIC timeout has run out. */
export const EV_TIMEOUT = 9;

/**
 * The target side of a Cray-style NIC (the remote memory access unit, seed 001 "Remote Memory
 * Access" and "Ordering and Completion"; seed 004 §II): its registered memory, short-message
 * mailboxes and receive queues, and what it does with each request packet that arrives (write
 * it to host memory, read host memory for a get, run an AMO) and the response it sends back.
 * `Nic` adds the source side; the two share the host interface and the output pipeline.
 */
export abstract class NicTarget implements EventHandler {
  readonly id: number;
  protected readonly segments: SegmentTable;
  protected readonly receives: ReceiveQueues;
  protected readonly host: HostInterface;
  protected readonly amo: AmoUnit;
  private readonly smsg: (SmsgHandler | undefined)[] = [];
  private readonly smsgPtag: number[] = [];
  /** Instances whose handler takes the payload as lent (see setSmsgHandler): it lands in a buffer the transaction record keeps. */
  private readonly smsgLent: boolean[] = [];
  /** The output pipeline is free from this time. */
  protected outFree = 0;
  /**
   * Get requests are free to leave from this time: they travel on the request virtual channel
   * and do not queue behind the responses this NIC serves (a cycle of the pipeline each, taken
   * from the responses after them; seed 004 §V.A: symmetric BTE traffic moves 7 GB/s each way).
   */
  protected reqFree = 0;
  protected readonly pkts: PacketPool;
  /** A skeleton run's store: payloads to or from its buffers carry their size only (null: every byte moves). */
  skeleton: SkeletonStore | null = null;
  /** Told of every landing of remote data in this node's memory; null (one check per landing): nobody listens. */
  landing: LandingListener | null = null;
  /** When this node dies (ps): from then its NIC neither sends nor answers; Infinity while it lives. */
  deadPs = Infinity;
  /** The run's dead nodes (null: a NIC built alone, whose node never dies). */
  faults: NodeFaults | null = null;

  constructor(
    protected readonly engine: Engine,
    protected readonly net: NetworkAccess,
    protected readonly txns: TxnTable,
    readonly node: number,
    readonly params: NicParams,
  ) {
    this.id = engine.register(this);
    this.pkts = net.pkts;
    this.segments = new SegmentTable(node);
    this.receives = new ReceiveQueues(node, this.segments);
    this.host = new HostInterface(params);
    this.amo = new AmoUnit(params, this.host);
  }

  abstract onEvent(kind: number, arg: number): void;

  /** AMO cache hits and misses so far (0 and every AMO when there is no cache). */
  get amoStats(): { hits: number; misses: number } {
    return this.amo.stats;
  }
  /** IOMMU PTE cache hits and misses so far (zeros when no IOMMU is modelled). */
  get pteStats(): { hits: number; misses: number } {
    return this.host.pteStats;
  }

  /**
   * Registers local memory for remote access; returns its memory-domain handle. With
   * `opts.vmdh`, the segment is also reachable through that virtual handle of `opts.inst`.
   */
  register(bytes: Uint8Array, opts: RegisterOptions = {}): number {
    return this.segments.register(bytes, opts);
  }

  /** Removes a registration; later accesses to the handle complete with BadHandle. */
  deregister(handle: number): void {
    this.segments.deregister(handle);
  }


  /**
   * Sets the receiver of short messages for instance `inst` (of domain `ptag`) on this node.
   * With `lent`, the payload the handler gets is valid only during its call (a handler that keeps
   * the bytes copies them): it lands in a buffer the NIC reuses, so a message allocates none;
   * otherwise each message lands in a buffer of its own that the handler may keep.
   */
  setSmsgHandler(inst: number, handler: SmsgHandler, ptag = 0, lent = false): void {
    this.smsg[inst] = handler;
    this.smsgPtag[inst] = ptag;
    this.smsgLent[inst] = lent;
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
    this.receives.post(b);
  }

  /** Receive buffers instance `inst` has posted that no send has taken yet. */
  receivesPosted(inst = 0): number {
    return this.receives.posted(inst);
  }

  /**
   * Drops the receive queue of instance `inst` (its buffers and its domain), as when the process
   * that owns it goes away; later sends to it find no buffer. Returns the buffers dropped.
   */
  clearReceives(inst = 0): number {
    return this.receives.clear(inst);
  }

  /** Runs a target-side event (EV_RESPOND, EV_REMOTE, EV_REMOTE_EVENT, EV_RECEIVE_EVENT). */
  protected onTargetEvent(kind: number, arg: number): void {
    switch (kind) {
      case EV_RESPOND:
        this.sendResponse(arg, this.engine.now);
        break;
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

  protected unref(id: number, x: Txn): void {
    if (--x.refs === 0) this.txns.release(id);
  }

  /** Whether packet p's payload really moves to `mem`: neither it nor `mem` is skeleton. */
  protected moves(p: number, mem: Uint8Array): boolean {
    return this.pkts.skel[p] === 0 && !inStore(mem, this.skeleton);
  }

  /** Target-side checks of transaction x: its segment, or the status that refuses it. */
  protected resolve(x: Txn): Segment | NicStatus {
    return this.segments.resolve(x);
  }

  /** Target side of a put or short-message packet: write to memory, answer with a response. */
  protected onWrite(p: number, x: Txn, id: number, t: number): void {
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
        if (x.landing.length !== x.bytes) x.landing = pk.skel[p] === 1 ? new Uint8Array(this.skeleton!.buffer, 0, x.bytes) : this.smsgLent[x.remoteInst] === true ? x.spareLanding() : new Uint8Array(x.bytes);
        const from = Math.max(0, wireOff - x.header);
        const to = wireOff + n - x.header;
        if (to > from && pk.skel[p] === 0) copyBytes(x.landing, from, pk.dataOf(p), pk.dataAt(p) + (from + x.header - wireOff), to - from);
      }
    } else if (kind === K_SEND) {
      // the first packet to arrive (in any order) takes the buffer; the rest follow its verdict
      if (x.deliveredAtTarget === 0) this.receives.take(x);
      status = x.status;
      const b = x.recv;
      if (status === NicStatus.Ok && b !== null) {
        this.host.translate(b.seg, b.offset + wireOff, t);
        if (this.moves(p, b.seg.bytes)) copyBytes(b.seg.bytes, b.offset + wireOff, pk.dataOf(p), pk.dataAt(p), n);
      }
    } else {
      const seg = this.resolve(x);
      if (typeof seg === 'number') {
        status = seg;
      } else {
        this.host.translate(seg, x.remoteOffset + wireOff, t);
        if (this.moves(p, seg.bytes)) copyBytes(seg.bytes, x.remoteOffset + wireOff, pk.dataOf(p), pk.dataAt(p), n);
        if (x.remoteEvent) x.remoteCq = seg.cq ?? null;
      }
    }
    // posted write to host memory; the response leaves once the write is ordered at the NIC
    const w = this.host.write(t, n, units);
    if (status !== NicStatus.Ok && x.status === NicStatus.Ok) x.status = status;
    if (this.landing !== null && status === NicStatus.Ok && kind !== K_SMSG) this.noteWrite(x, wireOff, n, this.host.upFree + P.hostLatencyPs);
    if (kind === K_SMSG || x.remoteEvent) {
      x.deliveredAtTarget++;
      const visible = this.host.upFree + P.hostLatencyPs;
      if (visible > x.targetDoneAt) x.targetDoneAt = visible;
      if (x.deliveredAtTarget === x.packets) this.landed(x, id);
    }
    // a short message's acknowledgement leaves once the receiver has taken the packet (smsgAckDelayPs)
    const delay = kind === K_SMSG ? P.smsgAckDelayPs : 0;
    this.respond(p, kind === K_SMSG ? K_SMSG_RESP : K_PUT_RESP, units * (status === NicStatus.Ok ? P.format.responsePhits : P.format.errorResponsePhits), w + delay, delay > 0);
  }

  /** Tells the listener of a put's or send's packet that landed: `n` bytes at `wireOff` of its transfer, visible at `visiblePs`. */
  protected noteWrite(x: Txn, wireOff: number, n: number, visiblePs: number): void {
    if (x.op === K_SEND) {
      const b = x.recv;
      if (b !== null) this.landing!.landed(this.node, b.seg.bytes, b.offset + wireOff, n, visiblePs);
      return;
    }
    const seg = this.resolve(x);
    if (typeof seg !== 'number') this.landing!.landed(this.node, seg.bytes, x.remoteOffset + wireOff, n, visiblePs);
  }

  /** Every packet of x has landed at this (target) NIC: the destination-side event, if any. */
  protected landed(x: Txn, id: number): void {
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
  protected onRead(p: number, x: Txn, t: number): void {
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
    this.host.translate(seg, at, t);
    const last = this.host.read(t, n, units);
    // the tail cannot leave before the last hardware packet's data is in (see sendResponse)
    pk.tailAt[p] = last + P.outLatencyPs;
    // a skeleton segment answers with its size only
    if (inStore(seg.bytes, this.skeleton)) pk.skel[p] = 1;
    else copyBytes(pk.dataOf(p), pk.dataAt(p), seg.bytes, at, n);
    // a coarse response leaves with its first hardware packet's data, the rest streaming behind
    this.respond(p, K_GET_RESP, dataPhits(P.format, n, units, true), this.host.firstReadPs, true);
  }

  /**
   * Target side of an AMO packet: the AMO unit takes one operation per `amoOpPs`; a variable
   * missing from the AMO cache is read from host memory first; host memory is updated with every
   * result (seed 001 "Remote Memory Access"); a fetching AMO answers with the old value.
   */
  protected onAmo(p: number, x: Txn, t: number): void {
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
    this.host.translate(seg, off, t);
    const ready = this.amo.schedule(seg, off, t);
    const old = applyAmo(seg.view, off, a);
    // the write-through to host memory is posted: its bandwidth is taken on arrival, not reserved ahead
    this.host.write(t, a.width);
    // the new value is in host memory once the AMO unit has it and its write has crossed to the host
    if (this.landing !== null) this.landing.landed(this.node, seg.bytes, off, a.width, Math.max(ready, this.host.upFree) + P.hostLatencyPs);
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
  protected respond(p: number, kind: number, phits: number, ready: number, waits: boolean): void {
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
  protected sendResponse(p: number, ready: number): void {
    const pk = this.pkts;
    const k = pk.kind[p]!;
    const units = pk.units[p]!;
    const s = Math.max(ready, this.outFree);
    const slot = slotPs(this.params, k === K_GET_RESP || k === K_AMO_RESP ? pk.bytes[p]! : 0, units);
    this.outFree = s + slot;
    // a coarse response's tail leaves with its last hardware packet, not before its data is in (onRead)
    pk.tailAt[p] = units > 1 ? Math.max(pk.tailAt[p]!, s + this.params.outLatencyPs + slot - slot / units) : s + this.params.outLatencyPs;
    this.engine.at(s + this.params.outLatencyPs, this.id, EV_INJECT, p);
  }
}
