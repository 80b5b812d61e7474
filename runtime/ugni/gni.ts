import { CqEventKind, CompletionQueue, type CqEvent } from '../../fabric/nic/cq.ts';
import { NicStatus, statusName, type AmoOp, type AmoRequest, type NicTransfer } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import { GNI_CQMODE, GNI_RC, type GniAmoCmd, type GniFailure, type GniPostType, type GniResult } from './codes.ts';
import { checkBoundEp, checkCdm, checkCq, checkEp, checkNic, fail } from './checks.ts';
import { GniJob } from './job.ts';
import { GniCdm, GniCq, GniEp, GniNic, type GniCompletedResult, type GniCqEvent, type GniCqResult, type GniMemHandle, type GniPostDescriptor, type GniRecvBuffer, type GniSendDescriptor, type GniSmsgAttr, type GniSmsgResult, type SmsgMessage } from './objects.ts';

export { GniJob } from './job.ts';
export { GniCdm, GniCq, GniEp, GniNic } from './objects.ts';
export type { GniCompletedResult, GniCqEvent, GniCqResult, GniMemHandle, GniPostCommon, GniPostDescriptor, GniRecvBuffer, GniRmaDescriptor, GniSendDescriptor, GniSmsgAttr, GniSmsgResult, SmsgMessage } from './objects.ts';

export { GNI_CQMODE, GNI_FMA_ATOMIC, GNI_POST, GNI_RC, GniError, gniCheck } from './codes.ts';
export type { GniAmoCmd, GniFailure, GniPostType, GniRc, GniResult } from './codes.ts';

/** Largest FMA put or get (bytes): FMA streams PIO stores, so very long transfers belong on the BTE. */
export const GNI_FMA_MAX_BYTES = 2 ** 30;
/** Largest RDMA (BTE) transfer (bytes): seed 001 "Remote Memory Access", up to 4 GB per block transfer. */
export const GNI_RDMA_MAX_BYTES = 2 ** 32;
/** Largest short message (header plus data) a mailbox takes. */
export const GNI_SMSG_MAX_BYTES = 65536;
/**
 * NIC instance ids of uGNI mailboxes start here, so that they never meet the per-process
 * mailboxes MPI installs at instance `proc.inst` (runtime/mpi/core.ts): each attached CDM owns
 * instance `GNI_SMSG_INST_BASE + proc.inst * GNI_MAX_CDMS + slot`.
 */
export const GNI_SMSG_INST_BASE = 1024;
/** Communication domains one process may have attached at once. */
export const GNI_MAX_CDMS = 8;

const SUCCESS = { rc: GNI_RC.SUCCESS } as const;

/** A short message on the fabric CQ: a CqEvent marked as SMSG. */
interface SmsgCqEvent extends CqEvent {
  readonly smsg: true;
}

function isSmsgEvent(ev: CqEvent): ev is SmsgCqEvent {
  return 'smsg' in ev;
}

/** A local POST event's record: the descriptor it completes and the endpoint it counted on. */
interface PostRecord {
  readonly desc: GniPostDescriptor;
}

const AMO_CMDS: Readonly<Record<GniAmoCmd, readonly [AmoOp, boolean]>> = {
  ADD: ['add', false],
  FADD: ['add', true],
  AND: ['and', false],
  FAND: ['and', true],
  OR: ['or', false],
  FOR: ['or', true],
  XOR: ['xor', false],
  FXOR: ['xor', true],
  SWAP: ['swap', false],
  FSWAP: ['swap', true],
  CSWAP: ['cswap', false],
  FCSWAP: ['cswap', true],
};

const EMPTY = new Uint8Array(0);

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
 */
export class Gni {
  private readonly cdms: GniCdm[] = [];
  private readonly slots: (GniNic | undefined)[] = [];
  private readonly regs = new Map<number, { readonly bytes: Uint8Array; readonly nic: GniNic; readonly mh: GniMemHandle }>();
  private readonly posts = new Map<number, PostRecord>();
  private readonly completed = new WeakMap<GniCqEvent, PostRecord>();
  private nextPost = 1;

  constructor(
    private readonly proc: Proc,
    private readonly job: GniJob,
  ) {}

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
    nicHw.setSmsgHandler(mailbox, (_src, meta, payload) => this.onSmsg(nic, meta as SmsgMessage, payload), nic.domain);
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
    const bad = checkNic('cqCreate', nic, this.rank);
    if (bad) return bad;
    if (!Number.isInteger(entries) || entries < 1) return fail(GNI_RC.INVALID_PARAM, `cqCreate: entries=${entries} must be a positive integer`);
    const cq = new GniCq(nic, new CompletionQueue(entries));
    cq.queue.onEvent = () => {
      if (cq.waiting) this.proc.wake();
    };
    return { rc: GNI_RC.SUCCESS, cq };
  }

  /** GNI_CqDestroy. */
  cqDestroy(cq: GniCq): GniResult {
    const bad = checkCq('cqDestroy', cq, this.rank);
    if (bad) return bad;
    cq.destroyed = true;
    cq.queue.onEvent = null;
    return SUCCESS;
  }

  /**
   * GNI_CqGetEvent: the oldest event (SUCCESS, or TRANSACTION_ERROR with the event of a failed
   * transaction), GNI_RC_NOT_DONE when the queue is empty, GNI_RC_ERROR_RESOURCE once after the
   * queue overran (events were lost; those that fitted follow). Costs one poll of CPU time.
   */
  async cqGetEvent(cq: GniCq): Promise<GniCqResult> {
    const bad = checkCq('cqGetEvent', cq, this.rank);
    if (bad) return bad;
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'gni.cqGetEvent');
    return this.takeEvent(cq);
  }

  /** GNI_CqWaitEvent (no timeout): like cqGetEvent but blocks while the queue is empty. */
  async cqWaitEvent(cq: GniCq): Promise<GniCqResult> {
    const bad = checkCq('cqWaitEvent', cq, this.rank);
    if (bad) return bad;
    for (;;) {
      await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'gni.cqWaitEvent');
      const r = this.takeEvent(cq);
      if (r.rc !== GNI_RC.NOT_DONE || cq.destroyed) return r;
      cq.waiting = true;
      await this.proc.engine.suspend(this.proc.thread, `gni.cqWaitEvent (CQ of ${cq.entries} entries, instId ${cq.nic.cdm.instId})`);
      cq.waiting = false;
    }
  }

  /**
   * GNI_GetCompleted: the descriptor a local POST event completes (once per event);
   * TRANSACTION_ERROR, with the descriptor, when the transaction failed.
   */
  getCompleted(cq: GniCq, event: GniCqEvent): GniCompletedResult {
    const bad = checkCq('getCompleted', cq, this.rank);
    if (bad) return bad;
    const rec = this.completed.get(event);
    if (!rec) return fail(GNI_RC.INVALID_PARAM, 'getCompleted: not a local POST event of this process, or its descriptor was already retrieved');
    this.completed.delete(event);
    if (!event.ok) return { rc: GNI_RC.TRANSACTION_ERROR, message: `getCompleted: ${rec.desc.type} failed with NIC status ${event.status}`, desc: rec.desc };
    return { rc: GNI_RC.SUCCESS, desc: rec.desc };
  }

  private takeEvent(cq: GniCq): GniCqResult {
    const q = cq.queue;
    if (q.overrun) {
      q.clearOverrun();
      return fail(GNI_RC.ERROR_RESOURCE, `cqGetEvent: the CQ of ${q.entries} entries overran; events were lost`);
    }
    const ev = q.get();
    if (!ev) return fail(GNI_RC.NOT_DONE, 'cqGetEvent: the CQ is empty');
    const local = ev.kind === CqEventKind.Local;
    let data = ev.data;
    let rec: PostRecord | undefined;
    if (local && !isSmsgEvent(ev)) {
      rec = this.posts.get(ev.data);
      this.posts.delete(ev.data);
      data = rec?.desc.postId ?? 0;
    }
    const recv = ev.kind === CqEventKind.Receive;
    const event: GniCqEvent = {
      type: isSmsgEvent(ev) ? 'SMSG' : recv ? 'RECV' : 'POST',
      source: local ? 'local' : 'remote',
      ok: ev.status === NicStatus.Ok,
      status: statusName(ev.status),
      data,
      sourceNode: ev.sourceNode,
      ...(recv ? { length: ev.bytes ?? 0 } : {}),
    };
    if (rec) this.completed.set(event, rec);
    if (!event.ok) return { rc: GNI_RC.TRANSACTION_ERROR, message: `cqGetEvent: a ${event.type} transaction failed with NIC status ${event.status}`, event };
    return { rc: GNI_RC.SUCCESS, event };
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
    const bad = checkNic('memRegister', nic, this.rank) ?? (dstCq === null ? undefined : checkCq('memRegister', dstCq, this.rank));
    if (bad) return bad;
    if (!(bytes instanceof Uint8Array)) return fail(GNI_RC.INVALID_PARAM, 'memRegister: bytes must be a Uint8Array');
    if (dstCq && dstCq.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'memRegister: dstCq belongs to another nic handle');
    const handle = this.proc.nic.register(bytes, { inst: this.proc.inst, ptag: nic.domain, ...(dstCq ? { cq: dstCq.queue } : {}) });
    const memHndl: GniMemHandle = { rank: this.rank, node: this.proc.node, handle, length: bytes.length };
    this.regs.set(handle, { bytes, nic, mh: memHndl });
    return { rc: GNI_RC.SUCCESS, memHndl };
  }

  /** GNI_MemDeregister: later accesses through the handle fail (BadHandle). */
  memDeregister(nic: GniNic, memHndl: GniMemHandle): GniResult {
    const bad = checkNic('memDeregister', nic, this.rank);
    if (bad) return bad;
    const reg = this.regs.get(memHndl?.handle);
    if (!reg || reg.mh !== memHndl || reg.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'memDeregister: not a registration of this nic handle');
    this.proc.nic.deregister(memHndl.handle);
    this.regs.delete(memHndl.handle);
    return SUCCESS;
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
  async postRecvBuffer(nic: GniNic, buf: GniRecvBuffer): Promise<GniResult> {
    const bad = checkNic('postRecvBuffer', nic, this.rank);
    if (bad) return bad;
    if (buf === null || typeof buf !== 'object') return fail(GNI_RC.INVALID_PARAM, 'postRecvBuffer: buf must be a receive buffer');
    const badCq = checkCq('postRecvBuffer', buf.cq, this.rank);
    if (badCq) return badCq;
    if (buf.cq.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'postRecvBuffer: buf.cq belongs to another nic handle');
    const mh = buf.memHndl;
    const reg = mh === null || typeof mh !== 'object' ? undefined : this.regs.get(mh.handle);
    if (!reg || reg.mh !== mh || reg.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'postRecvBuffer: buf.memHndl is not a registration of this nic handle');
    const offset = buf.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0 || offset >= reg.bytes.length) {
      return fail(GNI_RC.INVALID_PARAM, `postRecvBuffer: buf.offset=${offset} must be an integer in 0..${reg.bytes.length - 1} (the registration's bytes)`);
    }
    const length = buf.length ?? reg.bytes.length - offset;
    if (!Number.isInteger(length) || length < 1 || offset + length > reg.bytes.length) {
      return fail(GNI_RC.INVALID_PARAM, `postRecvBuffer: buf.length=${length} must be an integer in 1..${reg.bytes.length - offset} (the registration's bytes from buf.offset)`);
    }
    if (!isUint(buf.userId, 2 ** 53)) return fail(GNI_RC.INVALID_PARAM, `postRecvBuffer: buf.userId=${buf.userId} must be a non-negative integer`);
    await this.proc.cpu(0, 'gni.postRecvBuffer');
    const hw = this.proc.nic;
    hw.postReceive({ inst: nic.mailboxInst, handle: mh.handle, offset, length, userId: buf.userId, cq: buf.cq.queue });
    await this.proc.cpu(hw.params.bteIssuePs, 'gni.postRecvBuffer');
    return SUCCESS;
  }

  // --- posts

  /**
   * GNI_PostFma: a put, get or AMO through the FMA unit (on a NIC without FMA, the block engine
   * runs it). Gets need 4-byte alignment of local buffer, remote offset and length; AMOs their
   * width's alignment (GNI_RC_ALIGNMENT_ERROR). Completion: the local event at the source CQ, a
   * remote event at the target's registration CQ, as `cqMode` asks.
   */
  postFma(ep: GniEp, desc: GniPostDescriptor): Promise<GniResult> {
    return this.post('postFma', ep, desc);
  }

  /**
   * GNI_PostRdma: a put or get on the block transfer engine (up to 4 GiB; local memory
   * registered). With an RDMA_SEND descriptor (phit extension, see postRecvBuffer), a send into
   * the next receive buffer of the endpoint's peer domain: GNI_RC_INVALID_STATE when that domain
   * is not attached, GNI_RC_INVALID_PARAM for a length of 0 or over 4 GiB.
   */
  postRdma(ep: GniEp, desc: GniPostDescriptor): Promise<GniResult> {
    return this.post('postRdma', ep, desc);
  }

  private async post(call: 'postFma' | 'postRdma', ep: GniEp, desc: GniPostDescriptor): Promise<GniResult> {
    const bad = checkBoundEp(call, ep, this.rank);
    if (bad) return bad;
    if (desc === null || typeof desc !== 'object') return fail(GNI_RC.INVALID_PARAM, `${call}: desc must be a post descriptor`);
    const fma = call === 'postFma';
    const types: readonly GniPostType[] = fma ? ['FMA_PUT', 'FMA_GET', 'AMO'] : ['RDMA_PUT', 'RDMA_GET', 'RDMA_SEND'];
    if (!types.includes(desc.type)) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.type=${String(desc.type)}; valid: ${types.join(', ')}`);
    if (desc.type === 'RDMA_SEND') return this.postSend(ep, desc);
    const rm = desc.remoteMemHndl;
    if (rm === null || typeof rm !== 'object' || !Number.isInteger(rm.handle)) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.remoteMemHndl must be a memory handle`);
    if (!Number.isInteger(desc.remoteOffset) || desc.remoteOffset < 0) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.remoteOffset=${desc.remoteOffset} must be a non-negative integer`);
    const events = this.postEvents(call, ep, desc);
    if ('rc' in events) return events;
    const { wantLocal, wantRemote, srcCq } = events;
    if (desc.remoteEventData !== undefined && !Number.isInteger(desc.remoteEventData)) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.remoteEventData must be an integer`);
    if (desc.local !== undefined && !(desc.local instanceof Uint8Array)) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.local must be a Uint8Array`);

    let op: NicTransfer['op'];
    let local: Uint8Array;
    let amo: AmoRequest | undefined;
    let needsReg: boolean;
    if (desc.type === 'AMO') {
      const cmd = desc.amoCmd === undefined ? undefined : AMO_CMDS[desc.amoCmd];
      if (!cmd) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.amoCmd=${String(desc.amoCmd)}; valid: ${Object.keys(AMO_CMDS).join(', ')}`);
      const [amoOp, fetch] = cmd;
      const width = desc.length ?? 8;
      if (width !== 4 && width !== 8) return fail(GNI_RC.INVALID_PARAM, `${call}: an AMO's length=${width} must be 8 or 4`);
      if (typeof desc.firstOperand !== 'bigint') return fail(GNI_RC.INVALID_PARAM, `${call}: desc.firstOperand must be a bigint`);
      if (amoOp === 'cswap' && typeof desc.secondOperand !== 'bigint') return fail(GNI_RC.INVALID_PARAM, `${call}: ${desc.amoCmd} needs desc.secondOperand (the value written)`);
      if (desc.remoteOffset % width !== 0) return fail(GNI_RC.ALIGNMENT_ERROR, `${call}: AMO remoteOffset=${desc.remoteOffset} is not ${width}-byte aligned`);
      if (fetch) {
        if (!desc.local || desc.local.length < width) return fail(GNI_RC.INVALID_PARAM, `${call}: ${desc.amoCmd} needs desc.local of at least ${width} bytes for the old value`);
        if (desc.local.byteOffset % width !== 0) return fail(GNI_RC.ALIGNMENT_ERROR, `${call}: AMO local buffer at byte ${desc.local.byteOffset} is not ${width}-byte aligned`);
        local = desc.local.subarray(0, width);
      } else {
        local = EMPTY;
      }
      op = 'amo';
      needsReg = fetch;
      amo =
        amoOp === 'cswap'
          ? { op: amoOp, width, operand: desc.secondOperand!, compare: desc.firstOperand, fetch }
          : { op: amoOp, width, operand: desc.firstOperand, fetch };
    } else {
      if (!desc.local) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.local is missing`);
      const len = desc.length ?? desc.local.length;
      const max = fma ? GNI_FMA_MAX_BYTES : GNI_RDMA_MAX_BYTES;
      if (!Number.isInteger(len) || len < 0) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.length=${len} must be a non-negative integer`);
      if (len > max) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.length=${len} exceeds the ${fma ? 'FMA' : 'RDMA'} limit of ${max} bytes`);
      if (len > desc.local.length) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.length=${len} exceeds desc.local (${desc.local.length} bytes)`);
      const get = desc.type === 'FMA_GET' || desc.type === 'RDMA_GET';
      if (get && (desc.remoteOffset % 4 !== 0 || desc.local.byteOffset % 4 !== 0 || len % 4 !== 0)) {
        return fail(GNI_RC.ALIGNMENT_ERROR, `${call}: a get needs 4-byte aligned remoteOffset (${desc.remoteOffset}), local buffer (byte ${desc.local.byteOffset}) and length (${len})`);
      }
      op = get ? 'get' : 'put';
      local = desc.local.subarray(0, len);
      needsReg = get || !fma;
    }
    if (needsReg) {
      const b = this.checkLocalReg(call, `${desc.type}${desc.amoCmd ? ` ${desc.amoCmd}` : ''}`, desc.localMemHndl, local);
      if (b) return b;
    }

    const peer = this.job.procs[ep.remoteRank]!;
    const serial = wantLocal ? this.nextPost++ : 0;
    if (wantLocal) this.posts.set(serial, { desc });
    // catch up with CPU time still owed, then issue
    await this.proc.cpu(0, `gni.${call}`);
    ep.outstanding++;
    const cpu = this.proc.nic.post({
      op,
      mode: fma ? 'fma' : 'bte',
      local,
      remoteNode: peer.node,
      remoteHandle: rm.handle,
      remoteOffset: desc.remoteOffset,
      inst: this.proc.inst,
      ptag: ep.nic.domain,
      remoteInst: peer.inst,
      ...(amo ? { amo } : {}),
      ...(wantRemote ? { remoteEvent: true, remoteData: desc.remoteEventData ?? ep.nic.cdm.instId } : {}),
      ...(wantLocal ? { cq: srcCq!.queue, cqData: serial } : {}),
      onComplete: () => {
        ep.outstanding--;
      },
    });
    await this.proc.cpu(cpu, `gni.${call}`);
    return SUCCESS;
  }

  /** postRdma of an RDMA_SEND descriptor (phit extension): a BTE send to the endpoint's peer domain. */
  private async postSend(ep: GniEp, desc: GniSendDescriptor): Promise<GniResult> {
    const call = 'postRdma';
    const events = this.postEvents(call, ep, desc);
    if ('rc' in events) return events;
    const { wantLocal, srcCq } = events;
    if (!(desc.local instanceof Uint8Array)) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.local must be a Uint8Array`);
    const len = desc.length ?? desc.local.length;
    if (!Number.isInteger(len) || len < 1) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.length=${len}; an RDMA_SEND moves at least one byte`);
    if (len > GNI_RDMA_MAX_BYTES) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.length=${len} exceeds the RDMA limit of ${GNI_RDMA_MAX_BYTES} bytes`);
    if (len > desc.local.length) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.length=${len} exceeds desc.local (${desc.local.length} bytes)`);
    const local = desc.local.subarray(0, len);
    const b = this.checkLocalReg(call, 'RDMA_SEND', desc.localMemHndl, local);
    if (b) return b;
    // the NIC addresses the peer domain's receive queue (its CDM's instance), as smsgSend its mailbox
    const remote = this.job.cdm(ep.remoteRank, ep.remoteInstId);
    if (!remote) return fail(GNI_RC.INVALID_STATE, `${call}: rank ${ep.remoteRank} has no attached domain with instId ${ep.remoteInstId}`);

    const peer = this.job.procs[ep.remoteRank]!;
    const serial = wantLocal ? this.nextPost++ : 0;
    if (wantLocal) this.posts.set(serial, { desc });
    await this.proc.cpu(0, `gni.${call}`);
    ep.outstanding++;
    const cpu = this.proc.nic.sendBte({
      local,
      remoteNode: peer.node,
      remoteInst: remote.mailboxInst,
      inst: this.proc.inst,
      ptag: ep.nic.domain,
      ...(wantLocal ? { cq: srcCq!.queue, cqData: serial } : {}),
      onComplete: () => {
        ep.outstanding--;
      },
    });
    await this.proc.cpu(cpu, `gni.${call}`);
    return SUCCESS;
  }

  /** The events a post asks for (`desc.cqMode`) and its source CQ, or why they are wrong. */
  private postEvents(call: string, ep: GniEp, desc: GniPostDescriptor): GniFailure | { readonly wantLocal: boolean; readonly wantRemote: boolean; readonly srcCq: GniCq | null } {
    const cqMode = desc.cqMode ?? GNI_CQMODE.LOCAL_EVENT;
    if (!Number.isInteger(cqMode) || cqMode < 0 || cqMode > 7) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.cqMode=${cqMode} must be GNI_CQMODE bits`);
    const wantLocal = (cqMode & (GNI_CQMODE.LOCAL_EVENT | GNI_CQMODE.GLOBAL_EVENT)) !== 0;
    const wantRemote = (cqMode & (GNI_CQMODE.REMOTE_EVENT | GNI_CQMODE.GLOBAL_EVENT)) !== 0;
    const srcCq = desc.srcCq ?? ep.cq;
    if (desc.srcCq) {
      const b = checkCq(call, desc.srcCq, this.rank);
      if (b) return b;
    }
    if (wantLocal && !srcCq) return fail(GNI_RC.INVALID_PARAM, `${call}: cqMode asks for a local event but the endpoint has no CQ and desc.srcCq is not set`);
    return { wantLocal, wantRemote, srcCq };
  }

  /** Whether `local` lies in `lm`, a registration of this process; `what` names the post in the message. */
  private checkLocalReg(call: string, what: string, lm: GniMemHandle | undefined, local: Uint8Array): GniFailure | undefined {
    const reg = lm ? this.regs.get(lm.handle) : undefined;
    if (!lm || !reg || reg.mh !== lm) return fail(GNI_RC.INVALID_PARAM, `${call}: ${what} needs desc.localMemHndl, a registration of this process`);
    if (!inside(reg.bytes, local)) return fail(GNI_RC.INVALID_PARAM, `${call}: desc.local lies outside the registration desc.localMemHndl`);
    return undefined;
  }

  // --- short messages

  /**
   * GNI_SmsgInit: sets up the endpoint's mailbox pair; both sides of a bound pair call it. The
   * local attributes give this side's message size and credits; received messages raise SMSG
   * events at `attr.rxCq` (default: the endpoint's CQ).
   */
  smsgInit(ep: GniEp, attr: GniSmsgAttr): GniResult {
    const bad = checkBoundEp('smsgInit', ep, this.rank);
    if (bad) return bad;
    if (attr === null || typeof attr !== 'object') return fail(GNI_RC.INVALID_PARAM, 'smsgInit: attr must be mailbox attributes');
    if (!Number.isInteger(attr.msgMaxSize) || attr.msgMaxSize < 1 || attr.msgMaxSize > GNI_SMSG_MAX_BYTES) {
      return fail(GNI_RC.INVALID_PARAM, `smsgInit: attr.msgMaxSize=${attr.msgMaxSize} must be an integer in 1..${GNI_SMSG_MAX_BYTES}`);
    }
    if (!Number.isInteger(attr.mboxMaxCredit) || attr.mboxMaxCredit < 1) return fail(GNI_RC.INVALID_PARAM, `smsgInit: attr.mboxMaxCredit=${attr.mboxMaxCredit} must be a positive integer`);
    if (attr.rxCq) {
      const b = checkCq('smsgInit', attr.rxCq, this.rank);
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
    const bad = checkBoundEp('smsgSend', ep, this.rank);
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
    const msg: SmsgMessage = { srcRank: this.rank, srcInstId: ep.nic.cdm.instId, seq: s.sendSeq++, msgId, tag, creditTo: ep, payload };
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
    const bad = checkBoundEp('smsgGetNext', ep, this.rank);
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
    const bad = checkBoundEp('smsgRelease', ep, this.rank);
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
  private onSmsg(nic: GniNic, m: SmsgMessage, payload: Uint8Array): void {
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

function isUint(v: number, limit: number): boolean {
  return Number.isInteger(v) && v >= 0 && v < limit;
}

/** Whether `part` is a view inside the bytes of `whole`. */
function inside(whole: Uint8Array, part: Uint8Array): boolean {
  return whole.buffer === part.buffer && part.byteOffset >= whole.byteOffset && part.byteOffset + part.length <= whole.byteOffset + whole.length;
}
