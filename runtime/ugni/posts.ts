/**
 * uGNI posts: FMA puts, gets and AMOs, RDMA (BTE) puts and gets, and the BTE send (RDMA_SEND) with
 * its receive buffers.
 */
import type { AmoOp, AmoRequest, NicTransfer } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import { GNI_CQMODE, GNI_RC, type GniAmoCmd, type GniFailure, type GniPostType, type GniResult } from './codes.ts';
import { checkBoundEp, checkCq, checkNic, fail, isUint } from './checks.ts';
import type { GniCompletions } from './completions.ts';
import type { GniJob } from './job.ts';
import type { GniMemory } from './memory.ts';
import type { GniCq, GniEp, GniNic, GniPostDescriptor, GniRecvBuffer, GniSendDescriptor } from './objects.ts';

/** Largest FMA put or get (bytes): FMA streams PIO stores, so very long transfers belong on the BTE. */
export const GNI_FMA_MAX_BYTES = 2 ** 30;
/** Largest RDMA (BTE) transfer (bytes): seed 001 "Remote Memory Access", up to 4 GB per block transfer. */
export const GNI_RDMA_MAX_BYTES = 2 ** 32;

const SUCCESS = { rc: GNI_RC.SUCCESS } as const;

/** Each AMO command: the NIC's operation, and whether it fetches the old value. */
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
 * The posts of one process's uGNI face (postFma, postRdma and postRecvBuffer of Gni): each
 * descriptor checked, naming the bad field, then issued to the NIC; a post asking for a local
 * event is tracked by the completion queues until its event is read.
 */
export class GniPosts {
  constructor(
    private readonly proc: Proc,
    private readonly job: GniJob,
    private readonly mem: GniMemory,
    private readonly cqs: GniCompletions,
  ) {}

  /**
   * Posts a receive buffer for RDMA_SEND to this domain (phit extension: the BTE's channel
   * operation, which uGNI never exposed; see the comment of Gni). Buffers are taken one per send
   * in posting order, when the send's first packet reaches the NIC; the RECV event at `buf.cq`
   * carries `buf.userId`, the message's length and the sender's node. A send longer than the
   * buffer it takes fails with ReceiveOverflow at both ends, writes nothing and uses the buffer
   * up (the NIC retires the descriptor it matched); a send that finds no buffer fails with
   * NoReceiveBuffer at the sender only. Costs the CPU time of a BTE descriptor post.
   */
  async postRecvBuffer(nic: GniNic, buf: GniRecvBuffer): Promise<GniResult> {
    const bad = checkNic('postRecvBuffer', nic, this.proc.rank);
    if (bad) return bad;
    if (buf === null || typeof buf !== 'object') return fail(GNI_RC.INVALID_PARAM, 'postRecvBuffer: buf must be a receive buffer');
    const badCq = checkCq('postRecvBuffer', buf.cq, this.proc.rank);
    if (badCq) return badCq;
    if (buf.cq.nic !== nic) return fail(GNI_RC.INVALID_PARAM, 'postRecvBuffer: buf.cq belongs to another nic handle');
    const mh = buf.memHndl;
    const reg = mh === null || typeof mh !== 'object' ? undefined : this.mem.registration(mh.handle);
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


  /** GNI_PostFma and GNI_PostRdma (Gni.postFma, Gni.postRdma): checks the descriptor and issues it. */
  async post(call: 'postFma' | 'postRdma', ep: GniEp, desc: GniPostDescriptor): Promise<GniResult> {
    const bad = checkBoundEp(call, ep, this.proc.rank);
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
      const b = this.mem.checkLocalReg(call, `${desc.type}${desc.amoCmd ? ` ${desc.amoCmd}` : ''}`, desc.localMemHndl, local);
      if (b) return b;
    }

    const peer = this.job.procs[ep.remoteRank]!;
    const serial = wantLocal ? this.cqs.track(desc) : 0;
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
    const b = this.mem.checkLocalReg(call, 'RDMA_SEND', desc.localMemHndl, local);
    if (b) return b;
    // the NIC addresses the peer domain's receive queue (its CDM's instance), as smsgSend its mailbox
    const remote = this.job.cdm(ep.remoteRank, ep.remoteInstId);
    if (!remote) return fail(GNI_RC.INVALID_STATE, `${call}: rank ${ep.remoteRank} has no attached domain with instId ${ep.remoteInstId}`);

    const peer = this.job.procs[ep.remoteRank]!;
    const serial = wantLocal ? this.cqs.track(desc) : 0;
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
      const b = checkCq(call, desc.srcCq, this.proc.rank);
      if (b) return b;
    }
    if (wantLocal && !srcCq) return fail(GNI_RC.INVALID_PARAM, `${call}: cqMode asks for a local event but the endpoint has no CQ and desc.srcCq is not set`);
    return { wantLocal, wantRemote, srcCq };
  }
}
