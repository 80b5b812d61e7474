/** uGNI short messages (SMSG): mailbox pairs of bound endpoints, sends with credits, in-order delivery and release. */
import { CqEventKind, type CqEvent } from '../../fabric/nic/cq.ts';
import { NicStatus } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import { GNI_RC, type GniResult } from './codes.ts';
import { checkBoundEp, checkCq, fail } from './checks.ts';
import type { GniJob } from './job.ts';
import type { GniEp, GniNic, GniSmsgAttr, GniSmsgResult, SmsgMessage } from './objects.ts';

/** Largest short message (header plus data) a mailbox takes. */
export const GNI_SMSG_MAX_BYTES = 65536;

const SUCCESS = { rc: GNI_RC.SUCCESS } as const;

/** A short message on the fabric CQ: a CqEvent marked as SMSG. */
export interface SmsgCqEvent extends CqEvent {
  readonly smsg: true;
}

/** Whether a CQ event is a short message's. */
export function isSmsgEvent(ev: CqEvent): ev is SmsgCqEvent {
  return 'smsg' in ev;
}

/** The short messages of one process's uGNI face (the smsg calls of Gni) and the delivery of those that arrive. */
export class GniSmsg {
  constructor(
    private readonly proc: Proc,
    private readonly job: GniJob,
  ) {}

  /**
   * GNI_SmsgInit: sets up the endpoint's mailbox pair; both sides of a bound pair call it. The
   * local attributes give this side's message size and credits; received messages raise SMSG
   * events at `attr.rxCq` (default: the endpoint's CQ).
   */
  smsgInit(ep: GniEp, attr: GniSmsgAttr): GniResult {
    const bad = checkBoundEp('smsgInit', ep, this.proc.rank);
    if (bad) return bad;
    if (attr === null || typeof attr !== 'object') return fail(GNI_RC.INVALID_PARAM, 'smsgInit: attr must be mailbox attributes');
    if (!Number.isInteger(attr.msgMaxSize) || attr.msgMaxSize < 1 || attr.msgMaxSize > GNI_SMSG_MAX_BYTES) {
      return fail(GNI_RC.INVALID_PARAM, `smsgInit: attr.msgMaxSize=${attr.msgMaxSize} must be an integer in 1..${GNI_SMSG_MAX_BYTES}`);
    }
    if (!Number.isInteger(attr.mboxMaxCredit) || attr.mboxMaxCredit < 1) return fail(GNI_RC.INVALID_PARAM, `smsgInit: attr.mboxMaxCredit=${attr.mboxMaxCredit} must be a positive integer`);
    if (attr.rxCq) {
      const b = checkCq('smsgInit', attr.rxCq, this.proc.rank);
      if (b) return b;
    }
    if (ep.smsg) return fail(GNI_RC.INVALID_STATE, 'smsgInit: the endpoint is already initialised for short messages');
    ep.smsg = { msgMaxSize: attr.msgMaxSize, credits: attr.mboxMaxCredit, rxCq: attr.rxCq ?? ep.cq, sendSeq: 0, recvSeq: 0, inbox: [], early: new Map() };
    const key = `${ep.remoteRank}/${ep.remoteInstId}`;
    const waiting = ep.nic.unclaimed.get(key);
    if (waiting) {
      ep.nic.unclaimed.delete(key);
      for (const m of waiting) this.accept(ep, m);
    }
    return SUCCESS;
  }

  /** GNI_SmsgSend: sends `header` then `data` as one message; GNI_RC_NOT_DONE when out of credits. */
  smsgSend(ep: GniEp, header: Uint8Array, data: Uint8Array, msgId: number): Promise<GniResult> {
    return this.smsgSendWTag(ep, header, data, msgId, 0);
  }

  /** GNI_SmsgSendWTag: smsgSend with a tag the receiver reads with the message. */
  async smsgSendWTag(ep: GniEp, header: Uint8Array, data: Uint8Array, msgId: number, tag: number): Promise<GniResult> {
    const bad = checkBoundEp('smsgSend', ep, this.proc.rank);
    if (bad) return bad;
    const s = ep.smsg;
    if (!s) return fail(GNI_RC.INVALID_STATE, 'smsgSend: smsgInit the endpoint first');
    if (!(header instanceof Uint8Array) || !(data instanceof Uint8Array)) return fail(GNI_RC.INVALID_PARAM, 'smsgSend: header and data must be Uint8Arrays');
    if (!Number.isInteger(msgId) || !Number.isInteger(tag)) return fail(GNI_RC.INVALID_PARAM, `smsgSend: msgId=${msgId} and tag=${tag} must be integers`);
    const n = header.length + data.length;
    if (n > s.msgMaxSize) return fail(GNI_RC.INVALID_PARAM, `smsgSend: ${n} bytes exceed the mailbox's msgMaxSize=${s.msgMaxSize}`);
    if (s.credits === 0) return fail(GNI_RC.NOT_DONE, 'smsgSend: no credits left (the receiver has not released earlier messages)');
    const remote = this.job.cdm(ep.remoteRank, ep.remoteInstId);
    if (!remote) return fail(GNI_RC.INVALID_STATE, `smsgSend: rank ${ep.remoteRank} has no attached domain with instId ${ep.remoteInstId}`);
    // the message is copied into the mailbox during the call (PIO stores): the caller may reuse its buffers
    const payload = new Uint8Array(n);
    payload.set(header, 0);
    payload.set(data, header.length);
    const msg: SmsgMessage = { srcRank: this.proc.rank, srcInstId: ep.nic.cdm.instId, seq: s.sendSeq++, msgId, tag, creditTo: ep, payload };
    s.credits--;
    await this.proc.cpu(0, 'gni.smsgSend');
    ep.outstanding++;
    const peer = this.job.procs[ep.remoteRank]!;
    const nic = this.proc.nic;
    const cq = ep.cq;
    nic.sendSmsg(
      peer.node,
      remote.mailboxInst,
      msg,
      payload,
      (status) => {
        ep.outstanding--;
        if (status !== NicStatus.Ok && ep.smsg === s) s.credits++;
        const ev: SmsgCqEvent = { kind: CqEventKind.Local, status, data: msgId, sourceNode: this.proc.node, smsg: true };
        if (cq && !cq.destroyed) cq.queue.post(ev);
      },
      ep.nic.domain,
    );
    await this.proc.cpu(nic.smsgCostPs(n), 'gni.smsgSend');
    return SUCCESS;
  }

  /** GNI_SmsgGetNext: the oldest unreleased message from the endpoint's peer, or GNI_RC_NOT_DONE. Costs one poll. */
  async smsgGetNext(ep: GniEp): Promise<GniSmsgResult> {
    const bad = checkBoundEp('smsgGetNext', ep, this.proc.rank);
    if (bad) return bad;
    const s = ep.smsg;
    if (!s) return fail(GNI_RC.INVALID_STATE, 'smsgGetNext: smsgInit the endpoint first');
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'gni.smsgGetNext');
    const m = s.inbox[0];
    if (!m) return fail(GNI_RC.NOT_DONE, 'smsgGetNext: no message');
    return { rc: GNI_RC.SUCCESS, msg: m.payload, tag: m.tag, msgId: m.msgId };
  }

  /** GNI_SmsgRelease: frees the message smsgGetNext returned, giving its credit back to the sender. */
  smsgRelease(ep: GniEp): GniResult {
    const bad = checkBoundEp('smsgRelease', ep, this.proc.rank);
    if (bad) return bad;
    const s = ep.smsg;
    if (!s) return fail(GNI_RC.INVALID_STATE, 'smsgRelease: smsgInit the endpoint first');
    const m = s.inbox.shift();
    if (!m) return fail(GNI_RC.NOT_DONE, 'smsgRelease: no message to release');
    // credits return out of band (real mailboxes piggyback them on traffic the other way)
    const back = m.creditTo.smsg;
    if (back) back.credits++;
    return SUCCESS;
  }

  /** The NIC delivered a short message to mailbox `nic`. */
  onSmsg(nic: GniNic, m: SmsgMessage, payload: Uint8Array): void {
    if (nic.destroyed) return;
    m.payload = payload;
    for (const ep of nic.eps) {
      if (ep.smsg && ep.remoteRank === m.srcRank && ep.remoteInstId === m.srcInstId) {
        this.accept(ep, m);
        return;
      }
    }
    const key = `${m.srcRank}/${m.srcInstId}`;
    let list = nic.unclaimed.get(key);
    if (!list) nic.unclaimed.set(key, (list = []));
    list.push(m);
  }

  /** Puts a message into the endpoint's mailbox in the sender's order, raising its SMSG event. */
  private accept(ep: GniEp, m: SmsgMessage): void {
    const s = ep.smsg!;
    s.early.set(m.seq, m);
    for (let next = s.early.get(s.recvSeq); next; next = s.early.get(s.recvSeq)) {
      s.early.delete(s.recvSeq);
      s.recvSeq++;
      s.inbox.push(next);
      const cq = s.rxCq;
      if (cq && !cq.destroyed) {
        const ev: SmsgCqEvent = { kind: CqEventKind.Remote, status: NicStatus.Ok, data: next.srcInstId, sourceNode: this.job.procs[next.srcRank]!.node, smsg: true };
        cq.queue.post(ev);
      }
    }
  }
}
