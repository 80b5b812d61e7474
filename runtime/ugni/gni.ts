import type { Proc } from '../proc.ts';
import { GNI_RC, type GniResult } from './codes.ts';
import { checkCdm, checkCq, checkEp, checkNic, fail, isUint } from './checks.ts';
import { GniCompletions } from './completions.ts';
import { GniJob } from './job.ts';
import { GniMemory } from './memory.ts';
import { GniCdm, GniEp, GniNic, type GniCompletedResult, type GniCq, type GniCqEvent, type GniCqResult, type GniMemHandle, type GniPostDescriptor, type GniRecvBuffer, type GniSmsgAttr, type GniSmsgResult, type SmsgMessage } from './objects.ts';
import { GniPosts } from './posts.ts';
import { GniSmsg } from './smsg.ts';

export { GniJob } from './job.ts';
export { GniCdm, GniCq, GniEp, GniNic } from './objects.ts';
export type { GniCompletedResult, GniCqEvent, GniCqResult, GniMemHandle, GniPostCommon, GniPostDescriptor, GniRecvBuffer, GniRmaDescriptor, GniSendDescriptor, GniSmsgAttr, GniSmsgResult, SmsgMessage } from './objects.ts';

export { GNI_CQMODE, GNI_FMA_ATOMIC, GNI_POST, GNI_RC, GniError, gniCheck } from './codes.ts';
export type { GniAmoCmd, GniFailure, GniPostType, GniRc, GniResult } from './codes.ts';
export { GNI_FMA_MAX_BYTES, GNI_RDMA_MAX_BYTES } from './posts.ts';
export { GNI_SMSG_MAX_BYTES } from './smsg.ts';

/**
 * NIC instance ids of uGNI mailboxes start here, so that they never meet the per-process
 * mailboxes MPI installs at instance `proc.inst` (runtime/mpi/core.ts): each attached CDM owns
 * instance `GNI_SMSG_INST_BASE + proc.inst * GNI_MAX_CDMS + slot`.
 */
export const GNI_SMSG_INST_BASE = 1024;
/** Communication domains one process may have attached at once. */
export const GNI_MAX_CDMS = 8;

const SUCCESS = { rc: GNI_RC.SUCCESS } as const;

/**
 * The uGNI face over the NIC (DESIGN.md: uGNI over the NIC), one per process: communication
 * domains (cdmCreate/cdmAttach/cdmDestroy), endpoints (epCreate/epBind/epUnbind/epDestroy),
 * memory registration, completion queues (cqCreate/cqGetEvent/cqWaitEvent/getCompleted),
 * FMA and RDMA (BTE) posts, and short messages (smsgInit/smsgSend/smsgGetNext/smsgRelease).
 *
 * Error style: every call returns its code as the C API does, `{ rc, ...outputs }` on
 * GNI_RC_SUCCESS and `{ rc, message }` otherwise (the message names the bad argument). Nothing
 * is thrown for a bad call, so a C port reads line by line (`if (r.rc !== GNI_RC.SUCCESS)`), and
 * polling loops see GNI_RC_NOT_DONE as a value; `gniCheck(r)` throws a GniError for ports that
 * abort on failure. Calls that spend CPU time (posts, CQ and mailbox reads, sends) are async.
 * A transaction the NIC refuses (another communication domain, bad handle, out of bounds)
 * reports its status in the CQ event: cqGetEvent returns GNI_RC_TRANSACTION_ERROR with it.
 *
 * One phit extension: the BTE's send (channel) operation, postRecvBuffer plus postRdma with an
 * RDMA_SEND descriptor. The Gemini and Aries BTE have it (seed 001 "Remote Memory Access", seed
 * 004 §II.C) but uGNI never exposed it; nothing here pretends to be a uGNI call of that name.
 *
 * The calls of each kind live in a module of their own, which this class hands them to:
 * completion queues (completions.ts), memory registration (memory.ts), FMA and RDMA posts
 * (posts.ts) and short messages (smsg.ts); domains and endpoints are here.
 */
export class Gni {
  private readonly cdms: GniCdm[] = [];
  private readonly slots: (GniNic | undefined)[] = [];
  private readonly cqs: GniCompletions;
  private readonly mem: GniMemory;
  private readonly posts: GniPosts;
  private readonly smsg: GniSmsg;

  constructor(
    private readonly proc: Proc,
    private readonly job: GniJob,
  ) {
    this.cqs = new GniCompletions(proc);
    this.mem = new GniMemory(proc);
    this.posts = new GniPosts(proc, job, this.mem, this.cqs);
    this.smsg = new GniSmsg(proc, job);
  }

  /** This process's rank in the job. */
  get rank(): number {
    return this.proc.rank;
  }

  /** Ranks in the job. */
  get size(): number {
    return this.job.procs.length;
  }

  /**
   * Out-of-band allgather through the job (PMI): every rank calls it in the same order; it
   * resolves, without network traffic, with every rank's value once all have called it. Use it
   * to share memory handles.
   */
  async exchange<T>(value: T): Promise<T[]> {
    return (await this.job.exchange(this.proc.rank, value)) as T[];
  }

  // --- communication domains

  /** GNI_CdmCreate: a domain with instance id `instId` (unique in this process), ptag (0..255) and cookie (32-bit). */
  cdmCreate(instId: number, ptag: number, cookie: number, modes = 0): GniResult<{ readonly cdm: GniCdm }> {
    if (!isUint(instId, 2 ** 32)) return fail(GNI_RC.INVALID_PARAM, `cdmCreate: instId=${instId} must be an integer in 0..2^32-1`);
    if (!isUint(ptag, 256)) return fail(GNI_RC.INVALID_PARAM, `cdmCreate: ptag=${ptag} must be an integer in 0..255`);
    if (!isUint(cookie, 2 ** 32)) return fail(GNI_RC.INVALID_PARAM, `cdmCreate: cookie=${cookie} must be an integer in 0..2^32-1`);
    if (!Number.isInteger(modes)) return fail(GNI_RC.INVALID_PARAM, `cdmCreate: modes=${modes} must be an integer`);
    if (this.cdms.some((c) => !c.destroyed && c.instId === instId)) {
      return fail(GNI_RC.INVALID_PARAM, `cdmCreate: instId=${instId} is already used by a domain of rank ${this.rank}`);
    }
    const cdm = new GniCdm(this.rank, instId, ptag, cookie, modes);
    this.cdms.push(cdm);
    return { rc: GNI_RC.SUCCESS, cdm };
  }

  /**
   * GNI_CdmAttach: attaches the domain to the NIC (device 0), taking one FMA descriptor;
   * GNI_RC_ERROR_RESOURCE when the NIC has none left.
   */
  cdmAttach(cdm: GniCdm, deviceId = 0): GniResult<{ readonly nic: GniNic; readonly localAddress: number }> {
    const bad = checkCdm('cdmAttach', cdm, this.rank);
    if (bad) return bad;
    if (deviceId !== 0) return fail(GNI_RC.INVALID_PARAM, `cdmAttach: deviceId=${deviceId}; this node has device 0 only`);
    if (cdm.nic) return fail(GNI_RC.INVALID_STATE, `cdmAttach: domain instId=${cdm.instId} is already attached`);
    const slot = this.slots.findIndex((s) => s === undefined);
    const at = slot < 0 ? this.slots.length : slot;
    if (at >= GNI_MAX_CDMS) return fail(GNI_RC.ERROR_RESOURCE, `cdmAttach: rank ${this.rank} already has ${GNI_MAX_CDMS} attached domains`);
    const nicHw = this.proc.nic;
    const fma = nicHw.allocFma(this.proc.inst);
    if (fma < 0) {
      return fail(GNI_RC.ERROR_RESOURCE, `cdmAttach: node ${this.proc.node} has no free FMA descriptor (fma.descriptors=${nicHw.params.fmaDescriptors})`);
    }
    const mailbox = GNI_SMSG_INST_BASE + this.proc.inst * GNI_MAX_CDMS + at;
    const nic = new GniNic(cdm, this.proc.node, fma, mailbox, cdm.ptag * 2 ** 32 + cdm.cookie);
    this.slots[at] = nic;
    cdm.nic = nic;
    nicHw.setSmsgHandler(mailbox, (_src, meta, payload) => this.smsg.onSmsg(nic, meta as SmsgMessage, payload), nic.domain);
    this.job.addCdm(this.rank, cdm.instId, nic);
    return { rc: GNI_RC.SUCCESS, nic, localAddress: this.proc.node };
  }

  /** GNI_CdmDestroy: detaches the domain, returning its FMA descriptor; its endpoints and CQs become unusable. */
  cdmDestroy(cdm: GniCdm): GniResult {
    const bad = checkCdm('cdmDestroy', cdm, this.rank);
    if (bad) return bad;
    cdm.destroyed = true;
    const nic = cdm.nic;
    if (nic) {
      nic.destroyed = true;
      this.proc.nic.freeFma(nic.fmaDescriptor);
      this.slots[this.slots.indexOf(nic)] = undefined;
      this.job.removeCdm(this.rank, cdm.instId);
      // late short messages to the mailbox are dropped; so are its receive buffers (later sends find none)
      this.proc.nic.setSmsgHandler(nic.mailboxInst, () => {}, nic.domain);
      this.proc.nic.clearReceives(nic.mailboxInst);
    }
    return SUCCESS;
  }

  // --- completion queues

  /** GNI_CqCreate: a completion queue of `entries` events on `nic`. */
  cqCreate(nic: GniNic, entries: number): GniResult<{ readonly cq: GniCq }> {
    return this.cqs.cqCreate(nic, entries);
  }

  /** GNI_CqDestroy. */
  cqDestroy(cq: GniCq): GniResult {
    return this.cqs.cqDestroy(cq);
  }

  /**
   * GNI_CqGetEvent: the oldest event (SUCCESS, or TRANSACTION_ERROR with the event of a failed
   * transaction), GNI_RC_NOT_DONE when the queue is empty, GNI_RC_ERROR_RESOURCE once after the
   * queue overran (events were lost; those that fitted follow). Costs one poll of CPU time.
   */
  cqGetEvent(cq: GniCq): Promise<GniCqResult> {
    return this.cqs.cqGetEvent(cq);
  }

  /** GNI_CqWaitEvent (no timeout): like cqGetEvent but blocks while the queue is empty. */
  cqWaitEvent(cq: GniCq): Promise<GniCqResult> {
    return this.cqs.cqWaitEvent(cq);
  }

  /**
   * GNI_GetCompleted: the descriptor a local POST event completes (once per event);
   * TRANSACTION_ERROR, with the descriptor, when the transaction failed.
   */
  getCompleted(cq: GniCq, event: GniCqEvent): GniCompletedResult {
    return this.cqs.getCompleted(cq, event);
  }

  // --- endpoints

  /** GNI_EpCreate: an endpoint on `nic` whose local events go to `cq` (null: none). */
  epCreate(nic: GniNic, cq: GniCq | null = null): GniResult<{ readonly ep: GniEp }> {
    const bad = checkNic('epCreate', nic, this.rank) ?? (cq === null ? undefined : checkCq('epCreate', cq, this.rank));
    if (bad) return bad;
    if (cq && cq.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'epCreate: the CQ belongs to another nic handle');
    const ep = new GniEp(nic, cq);
    nic.eps.add(ep);
    return { rc: GNI_RC.SUCCESS, ep };
  }

  /** GNI_EpBind: binds the endpoint to the domain of instance id `remoteInstId` at rank `remoteRank`. */
  epBind(ep: GniEp, remoteRank: number, remoteInstId: number): GniResult {
    const bad = checkEp('epBind', ep, this.rank);
    if (bad) return bad;
    if (!isUint(remoteRank, this.size)) return fail(GNI_RC.INVALID_PARAM, `epBind: remoteRank=${remoteRank} is not a rank (0..${this.size - 1})`);
    if (!isUint(remoteInstId, 2 ** 32)) return fail(GNI_RC.INVALID_PARAM, `epBind: remoteInstId=${remoteInstId} must be an integer in 0..2^32-1`);
    if (ep.bound) return fail(GNI_RC.INVALID_STATE, `epBind: the endpoint is already bound to rank ${ep.remoteRank}`);
    ep.remoteRank = remoteRank;
    ep.remoteInstId = remoteInstId;
    return SUCCESS;
  }

  /** GNI_EpUnbind: GNI_RC_NOT_DONE while posts on it are outstanding. Drops its mailbox state. */
  epUnbind(ep: GniEp): GniResult {
    const bad = checkEp('epUnbind', ep, this.rank);
    if (bad) return bad;
    if (!ep.bound) return fail(GNI_RC.INVALID_STATE, 'epUnbind: the endpoint is not bound');
    if (ep.outstanding > 0) return fail(GNI_RC.NOT_DONE, `epUnbind: ${ep.outstanding} transactions are outstanding`);
    ep.remoteRank = -1;
    ep.remoteInstId = -1;
    ep.smsg = null;
    return SUCCESS;
  }

  /** GNI_EpDestroy. */
  epDestroy(ep: GniEp): GniResult {
    const bad = checkEp('epDestroy', ep, this.rank);
    if (bad) return bad;
    ep.destroyed = true;
    ep.smsg = null;
    ep.nic.eps.delete(ep);
    return SUCCESS;
  }

  // --- memory

  /**
   * GNI_MemRegister: registers `bytes` with the NIC in this domain; with `dstCq`, remote events
   * of transfers into it go there. The handle is what peers need (share it with `exchange`).
   */
  memRegister(nic: GniNic, bytes: Uint8Array, dstCq: GniCq | null = null): GniResult<{ readonly memHndl: GniMemHandle }> {
    return this.mem.memRegister(nic, bytes, dstCq);
  }

  /** GNI_MemDeregister: later accesses through the handle fail (BadHandle). */
  memDeregister(nic: GniNic, memHndl: GniMemHandle): GniResult {
    return this.mem.memDeregister(nic, memHndl);
  }

  /**
   * Posts a receive buffer for RDMA_SEND to this domain (phit extension: the BTE's channel
   * operation, which uGNI never exposed; see the class comment). Buffers are taken one per send
   * in posting order, when the send's first packet reaches the NIC; the RECV event at `buf.cq`
   * carries `buf.userId`, the message's length and the sender's node. A send longer than the
   * buffer it takes fails with ReceiveOverflow at both ends, writes nothing and uses the buffer
   * up (the NIC retires the descriptor it matched); a send that finds no buffer fails with
   * NoReceiveBuffer at the sender only. Costs the CPU time of a BTE descriptor post.
   */
  postRecvBuffer(nic: GniNic, buf: GniRecvBuffer): Promise<GniResult> {
    return this.posts.postRecvBuffer(nic, buf);
  }

  // --- posts

  /**
   * GNI_PostFma: a put, get or AMO through the FMA unit (on a NIC without FMA, the block engine
   * runs it). Gets need 4-byte alignment of local buffer, remote offset and length; AMOs their
   * width's alignment (GNI_RC_ALIGNMENT_ERROR). Completion: the local event at the source CQ, a
   * remote event at the target's registration CQ, as `cqMode` asks.
   */
  postFma(ep: GniEp, desc: GniPostDescriptor): Promise<GniResult> {
    return this.posts.post('postFma', ep, desc);
  }

  /**
   * GNI_PostRdma: a put or get on the block transfer engine (up to 4 GiB; local memory
   * registered). With an RDMA_SEND descriptor (phit extension, see postRecvBuffer), a send into
   * the next receive buffer of the endpoint's peer domain: GNI_RC_INVALID_STATE when that domain
   * is not attached, GNI_RC_INVALID_PARAM for a length of 0 or over 4 GiB.
   */
  postRdma(ep: GniEp, desc: GniPostDescriptor): Promise<GniResult> {
    return this.posts.post('postRdma', ep, desc);
  }

  // --- short messages

  /**
   * GNI_SmsgInit: sets up the endpoint's mailbox pair; both sides of a bound pair call it. The
   * local attributes give this side's message size and credits; received messages raise SMSG
   * events at `attr.rxCq` (default: the endpoint's CQ).
   */
  smsgInit(ep: GniEp, attr: GniSmsgAttr): GniResult {
    return this.smsg.smsgInit(ep, attr);
  }

  /** GNI_SmsgSend: sends `header` then `data` as one message; GNI_RC_NOT_DONE when out of credits. */
  smsgSend(ep: GniEp, header: Uint8Array, data: Uint8Array, msgId: number): Promise<GniResult> {
    return this.smsg.smsgSend(ep, header, data, msgId);
  }

  /** GNI_SmsgSendWTag: smsgSend with a tag the receiver reads with the message. */
  smsgSendWTag(ep: GniEp, header: Uint8Array, data: Uint8Array, msgId: number, tag: number): Promise<GniResult> {
    return this.smsg.smsgSendWTag(ep, header, data, msgId, tag);
  }

  /** GNI_SmsgGetNext: the oldest unreleased message from the endpoint's peer, or GNI_RC_NOT_DONE. Costs one poll. */
  smsgGetNext(ep: GniEp): Promise<GniSmsgResult> {
    return this.smsg.smsgGetNext(ep);
  }

  /** GNI_SmsgRelease: frees the message smsgGetNext returned, giving its credit back to the sender. */
  smsgRelease(ep: GniEp): GniResult {
    return this.smsg.smsgRelease(ep);
  }
}
