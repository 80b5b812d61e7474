import type { Engine } from '../engine/engine.ts';
import type { NetworkAccess } from '../network.ts';
import { CollectiveEngine } from './collective-engine.ts';
import { EV_COMPLETE, EV_FLOW_LANDED, EV_FLOW_START, EV_INJECT, EV_READY, EV_RECEIVE_EVENT, EV_REMOTE, EV_REMOTE_EVENT, EV_RESPOND, EV_TIMEOUT } from './nic-target.ts';
import { NicInitiator } from './nic-initiator.ts';
import { CqEventKind } from './cq.ts';
import { putRequestPhits } from './packet-format.ts';
import { copyBytes, slotPs } from './packet-sizes.ts';
import { NicStatus, type NicParams } from './nic-api.ts';
import { K_AMO, K_AMO_RESP, K_CE, K_GET, K_GET_RESP, K_PUT, K_PUT_RESP, K_SEND, K_SMSG, K_SMSG_RESP, Txn, TxnTable } from './txn.ts';

export * from './nic-api.ts';
export { TxnTable } from './txn.ts';

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
 * simulated time. This file dispatches the NIC's events and takes what comes back to the source
 * side: deliveries, responses, completions, timeouts and lost packets. The issue path is
 * `NicInitiator` (nic-initiator.ts), the target side `NicTarget` (nic-target.ts), the host
 * interface `HostInterface`, the AMO unit `AmoUnit`.
 */
export class Nic extends NicInitiator {
  private inFree = 0;
  /** The collective engine, or null when the machine has none. */
  readonly ce: CollectiveEngine | null;

  /** A NIC at `node` of the network `net`, its events on `engine`, its transactions in `txns`. */
  constructor(engine: Engine, net: NetworkAccess, txns: TxnTable, node: number, params: NicParams) {
    super(engine, net, txns, node, params);
    net.attach(node, this);
    this.ce = params.hasCe
      ? new CollectiveEngine(engine, this.pkts, node, params, {
          store: (bytes) => this.host.store(engine.now + params.fmaIssuePs, bytes + params.hostWriteOverheadBytes),
          write: (t, bytes) => {
            this.host.write(t, bytes);
            return this.host.upFree + params.hostLatencyPs;
          },
          send: (p, ready) => this.sendCe(p, ready),
          deathPs: (n) => this.peers[n]?.deadPs ?? Infinity,
          timeoutPs: () => this.faults?.config.timeoutPs ?? 0,
        })
      : null;
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
    this.outFree = s + slotPs(P, pk.bytes[p]!);
    pk.tailAt[p] = s + P.outLatencyPs;
    this.engine.at(s + P.outLatencyPs, this.id, EV_INJECT, p);
  }

  onEvent(kind: number, arg: number): void {
    switch (kind) {
      case EV_RESPOND:
      case EV_REMOTE:
      case EV_REMOTE_EVENT:
      case EV_RECEIVE_EVENT:
        this.onTargetEvent(kind, arg);
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
        if (this.deadPs <= this.engine.now) {
          this.dropDead(arg);
          break;
        }
        this.injected++;
        this.net.inject(this.node, arg, this.pkts.tailAt[arg]!);
        break;
      case EV_TIMEOUT:
        this.timeOut(arg);
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
    }
  }


  /** The network delivers a packet's tail to this NIC now. */
  deliver(p: number): void {
    const P = this.params;
    const pk = this.pkts;
    const now = this.engine.now;
    if (this.deadPs <= now) {
      // a dead node's NIC takes the packet off the network and drops it
      this.net.ejectCredit(this.node, pk.vc[p]!, pk.phits[p]!, now);
      this.dropDead(p);
      return;
    }
    const units = pk.units[p]!;
    const slot = slotPs(P, pk.kind[p] === K_GET ? 0 : pk.bytes[p]!, units);
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
        this.host.write(t, n, units);
        if (this.landing !== null && n > 0) this.landing.landed(this.node, x.local, get ? wireOff : 0, get ? n : Math.min(n, x.local.length), this.host.upFree + P.hostLatencyPs);
        this.onResponse(x, id, this.host.upFree, units);
        break;
      }
    }
  }

  /**
   * This (dead) node drops packet `p`, arriving or about to leave: a request's or a response's
   * transaction then fails at its source by the NIC timeout, counted from when the source issued
   * it or the node died, whichever is later. Collective-engine packets and the dead node's own
   * transactions go without a word.
   */
  private dropDead(p: number): void {
    const pk = this.pkts;
    const kind = pk.kind[p]!;
    const id = pk.txn[p]!;
    pk.free(p);
    const faults = this.faults!;
    faults.dropped++;
    if (kind === K_CE) return;
    const x = this.txns.list[id]!;
    const src = this.peers[x.srcNode]!;
    if (x.timedOut || src === this || src.deadPs <= this.engine.now) return;
    x.timedOut = true;
    this.engine.at(Math.max(x.startPs, this.deadPs) + faults.config.timeoutPs, src.id, EV_TIMEOUT, id);
  }

  /**
   * Packet `p`, on its way to this node, was lost on a link that failed under it (network.ts):
   * its transaction fails at its initiator by the NIC timeout, counted from when it was issued or
   * the packet was lost, whichever is later, as for a dead node. A lost collective-engine packet
   * times out the wait for it in this NIC's engine (collective-engine.ts).
   */
  lose(p: number): void {
    const pk = this.pkts;
    const kind = pk.kind[p]!;
    if (kind === K_CE) {
      if (this.ce !== null) this.ce.lost(p, this.engine.now);
      else pk.free(p);
      return;
    }
    const id = pk.txn[p]!;
    pk.free(p);
    const x = this.txns.list[id]!;
    const src = this.peers[x.srcNode]!;
    if (x.timedOut || x.status === NicStatus.Timeout || src.deadPs <= this.engine.now) return;
    x.timedOut = true;
    this.engine.at(Math.max(x.startPs, this.engine.now) + this.faults!.config.timeoutPs, src.id, EV_TIMEOUT, id);
  }

  /**
   * Source side: transaction `id` failed by the NIC timeout (a dead target). Its packets still
   * out will never be answered, and it sends no more; it completes with status Timeout, and its
   * record is never handed out again (a late event of it finds it as it was left).
   */
  private timeOut(id: number): void {
    const x = this.txns.list[id]!;
    const P = this.params;
    this.faults!.timeouts++;
    x.status = NicStatus.Timeout;
    x.refs += 1;
    const sentUnits = Math.min(x.sent * x.unit, x.hw);
    this.outstanding -= sentUnits - x.unitsBack;
    x.unitsBack = sentUnits;
    x.sent = x.packets;
    x.responsesLeft = 0;
    x.windowWait = false;
    if (this.stalled.length > 0) this.engine.at(this.engine.now, this.id, EV_READY, this.stalled.shift()!);
    if (x.onBte) {
      x.onBte = false;
      this.bteActive--;
      this.pumpBte();
    }
    this.host.write(this.engine.now, P.cqEventBytes);
    this.engine.at(this.host.upFree + P.hostLatencyPs, this.id, EV_COMPLETE, id);
  }

  /** Source side: one response of transaction `id` is back at time `t`. */
  private onResponse(x: Txn, id: number, t: number, units: number): void {
    // a response of a packet that reached a node before it died, after the transaction timed out
    if (x.status === NicStatus.Timeout) return;
    this.outstanding -= units;
    x.unitsBack += units;
    if (this.stalled.length > 0) this.engine.at(this.engine.now, this.id, EV_READY, this.stalled.shift()!);
    if (x.windowWait) {
      x.windowWait = false;
      this.engine.at(Math.max(this.engine.now, this.nextReadyPs(x)), this.id, EV_READY, id);
    }
    if (--x.responsesLeft > 0) return;
    // completion event: written to the completion queue in host memory
    const P = this.params;
    this.host.write(t, P.cqEventBytes);
    this.engine.at(this.host.upFree + P.hostLatencyPs, this.id, EV_COMPLETE, id);
  }
}
