import type { Proc } from '../proc.ts';
import { ANY_SOURCE, ANY_TAG, bytesOf, PROC_NULL, type MpiWorld, type SendMode } from './core.ts';
import { BSEND_OVERHEAD, describe, TAG_UB, UNDEFINED } from './constants.ts';
import { ERRORS_ARE_FATAL, Errhandler } from './errhandler.ts';
import { checkCount, checkType, type Datatype } from './datatype.ts';
import { landing, sendBytes, userBytes, type Packer } from './datatype-pack.ts';
import { Group } from './group.ts';
import type { ReduceArray } from './ops.ts';
import { Message, MESSAGE_NO_PROC } from './mprobe.ts';
import { PersistentRequest } from './persistent.ts';
import { EMPTY_STATUS, MpiError, Request, waitAll, waitWoken, type Status } from './request.ts';
import { SendrecvRequest } from './sendrecv-request.ts';

/** One completed request of waitSome or testSome: its index in the list and its status. */
export interface Completion {
  readonly index: number;
  readonly status: Status;
}

/** A send's arguments: (buf, dest, tag), or MPI's long form (buf, count, datatype, dest, tag). */
export type SendArgs = [buf: ArrayBufferView, dest: number, tag: number] | [buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number];
/** A receive's arguments: (buf, source, tag), or MPI's long form (buf, count, datatype, source, tag). */
export type RecvArgs = [buf: ArrayBufferView, source: number, tag: number] | [buf: ArrayBufferView, count: number, datatype: Datatype, source: number, tag: number];
/** Where a long-form receive lands: elements of `elemBytes` bytes, unpacked at completion unless they land in place. */
interface RecvLayout {
  readonly elemBytes: number;
  readonly unpack: ((bytes: number) => number) | null;
}

/** What one rank's communicators share: its attached buffer for buffered sends. */
export class RankState {
  /** Bytes of the buffer attached with `bufferAttach` (0: none). */
  bsendCapacity = 0;
  /** Buffered sends not yet seen complete, with the bytes each holds (bufferDetach waits for them). */
  readonly bsendPending = new Map<Request, number>();
  /** The rank's MPI_REQUEST_NULL, made when first needed. */
  requestNull: Request | null = null;
  /** intercommCreate calls so far, by the pair of groups and tag (all their ranks make them in the same order). */
  readonly intercomms = new Map<string, number>();

  /**
   * Bytes of the buffer held by buffered sends still in progress; frees those that have
   * completed (as MPICH reclaims space at the next buffered send, not from a callback).
   */
  bsendUsed(): number {
    let used = 0;
    for (const [req, bytes] of this.bsendPending) {
      if (req.done) this.bsendPending.delete(req);
      else used += bytes;
    }
    return used;
  }
}

/** One of a rank's communicators' shared identity: members, contexts, the caller's rank. */
export interface CommShape {
  /** World rank of each communicator rank. */
  readonly members: Int32Array;
  /** Communicator rank of each world rank (-1: not a member); null for MPI_COMM_WORLD. */
  readonly inv: Int32Array | null;
  /** Context id of point-to-point traffic; collective traffic uses ctx + 1. */
  readonly ctx: number;
  readonly rank: number;
}

/**
 * What every communicator does (MPI_Comm): its ranks and group, point-to-point calls, requests and
 * buffered sends. Ranks, sources and destinations are ranks of this communicator; messages of
 * different communicators never match each other, and the library's collective traffic never
 * matches user messages. Collectives are added by `CollComm`, communicator management by `Comm`.
 */
export class CommBase {
  constructor(
    protected readonly world: MpiWorld,
    protected readonly proc: Proc,
    protected readonly state: RankState,
    protected readonly shape: CommShape,
  ) {}

  /** This rank in the communicator. */
  get rank(): number {
    return this.shape.rank;
  }

  /** Number of ranks in the communicator. */
  get size(): number {
    return this.shape.members.length;
  }

  /** The communicator's group (MPI_Comm_group). */
  get group(): Group {
    return new Group(Array.from(this.shape.members), this.proc.rank);
  }

  /** Whether this is an intercommunicator (MPI_Comm_test_inter): false here. */
  testInter(): boolean {
    this.live('testInter');
    return false;
  }

  /** World rank of communicator rank `r`. */
  worldRank(r: number): number {
    return this.shape.members[r]!;
  }

  // ---------------------------------------------------------------- point-to-point

  /** Blocking standard-mode send. */
  send(buf: ArrayBufferView, dest: number, tag: number): Promise<void>;
  /** MPI_Send's long form: `count` elements of `datatype` from `buf`. */
  send(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Promise<void>;
  async send(...a: SendArgs): Promise<void> {
    const [buf, dest, tag] = this.sendArgs('send', a);
    await this.blocking(this.startSend('send', buf, dest, tag, 'standard'));
  }

  /** Nonblocking send; the buffer must not change until the request completes. */
  isend(buf: ArrayBufferView, dest: number, tag: number): Request;
  /** MPI_Isend's long form: `count` elements of `datatype` from `buf`. */
  isend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  isend(...a: SendArgs): Request {
    const [buf, dest, tag] = this.sendArgs('isend', a);
    return this.startSend('isend', buf, dest, tag, 'standard');
  }

  /** Synchronous send: returns once a matching receive has started (MPI_Ssend). */
  ssend(buf: ArrayBufferView, dest: number, tag: number): Promise<void>;
  /** MPI_Ssend's long form: `count` elements of `datatype` from `buf`. */
  ssend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Promise<void>;
  async ssend(...a: SendArgs): Promise<void> {
    const [buf, dest, tag] = this.sendArgs('ssend', a);
    await this.blocking(this.startSend('ssend', buf, dest, tag, 'sync'));
  }

  /** Nonblocking synchronous send (MPI_Issend). */
  issend(buf: ArrayBufferView, dest: number, tag: number): Request;
  /** MPI_Issend's long form: `count` elements of `datatype` from `buf`. */
  issend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  issend(...a: SendArgs): Request {
    const [buf, dest, tag] = this.sendArgs('issend', a);
    return this.startSend('issend', buf, dest, tag, 'sync');
  }

  /** Ready send: the matching receive must already be posted (MPI_Rsend; sent as a standard send). */
  rsend(buf: ArrayBufferView, dest: number, tag: number): Promise<void>;
  /** MPI_Rsend's long form: `count` elements of `datatype` from `buf`. */
  rsend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Promise<void>;
  async rsend(...a: SendArgs): Promise<void> {
    const [buf, dest, tag] = this.sendArgs('rsend', a);
    await this.blocking(this.startSend('rsend', buf, dest, tag, 'standard'));
  }

  /** Nonblocking ready send (MPI_Irsend). */
  irsend(buf: ArrayBufferView, dest: number, tag: number): Request;
  /** MPI_Irsend's long form: `count` elements of `datatype` from `buf`. */
  irsend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  irsend(...a: SendArgs): Request {
    const [buf, dest, tag] = this.sendArgs('irsend', a);
    return this.startSend('irsend', buf, dest, tag, 'standard');
  }

  /**
   * Buffered send (MPI_Bsend): copies the message into the buffer attached with `bufferAttach`
   * and returns; the copy is sent from there. Fails with MPI_ERR_BUFFER when the buffer lacks
   * room (each message also takes BSEND_OVERHEAD bytes).
   */
  bsend(buf: ArrayBufferView, dest: number, tag: number): Promise<void>;
  /** MPI_Bsend's long form: `count` elements of `datatype` from `buf`. */
  bsend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Promise<void>;
  async bsend(...a: SendArgs): Promise<void> {
    const [buf, dest, tag] = this.sendArgs('bsend', a);
    await this.blocking(this.ibsend(buf, dest, tag));
  }

  /** Nonblocking buffered send (MPI_Ibsend): complete once the message is copied. */
  ibsend(buf: ArrayBufferView, dest: number, tag: number): Request;
  /** MPI_Ibsend's long form: `count` elements of `datatype` from `buf`. */
  ibsend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  ibsend(...a: SendArgs): Request {
    const [buf, dest, tag] = this.sendArgs('ibsend', a);
    const bytes = this.checkBuf('ibsend', buf);
    this.checkRank('ibsend', 'dest', dest, false);
    this.checkTag('ibsend', tag, false);
    const what = `ibsend(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`;
    const st = this.state;
    const need = bytes.length + BSEND_OVERHEAD;
    const used = st.bsendUsed();
    if (used + need > st.bsendCapacity) {
      throw new MpiError('MPI_ERR_BUFFER', `${what}: the attached buffer has ${st.bsendCapacity - used} of ${st.bsendCapacity} bytes free, the message needs ${need} (its bytes + BSEND_OVERHEAD); attach a larger one with bufferAttach`);
    }
    const copy = this.proc.isSkeleton(bytes) ? bytes : bytes.slice();
    this.proc.charge(Math.ceil(bytes.length / this.world.params.copyBytesPerPs));
    // the copy is sent in the background: no one waits on it until bufferDetach, and its space
    // is freed when the next buffered send finds it complete
    const inner = this.world.isend(this.proc.rank, copy, this.dest(dest), tag, this.shape.ctx, what);
    st.bsendPending.set(inner, need);
    // complete already, but polling it is still an MPI call that progresses the rank's other requests
    const req = new Request(this.proc, this.world.params.testOverheadPs, what, this.world.progressOf(this.proc.rank));
    req.complete({ source: dest, tag, count: 0, bytes: bytes.length });
    return req;
  }

  /** Blocking receive; returns the status (source, tag, count in elements of `buf`). */
  recv(buf: ArrayBufferView, source: number, tag: number): Promise<Status>;
  /** MPI_Recv's long form: up to `count` elements of `datatype` into `buf`; the status counts elements of `datatype`. */
  recv(buf: ArrayBufferView, count: number, datatype: Datatype, source: number, tag: number): Promise<Status>;
  async recv(...a: RecvArgs): Promise<Status> {
    const [buf, source, tag, layout] = this.recvArgs('recv', a);
    return this.blocking(this.startRecv('recv', buf, source, tag, layout));
  }

  /** Nonblocking receive. */
  irecv(buf: ArrayBufferView, source: number, tag: number): Request;
  /** MPI_Irecv's long form: up to `count` elements of `datatype` into `buf`. */
  irecv(buf: ArrayBufferView, count: number, datatype: Datatype, source: number, tag: number): Request;
  irecv(...a: RecvArgs): Request {
    const [buf, source, tag, layout] = this.recvArgs('irecv', a);
    return this.startRecv('irecv', buf, source, tag, layout);
  }

  /** Sends and receives at once (MPI_Sendrecv); returns the receive's status. */
  sendrecv(sendBuf: ArrayBufferView, dest: number, sendTag: number, recvBuf: ArrayBufferView, source: number, recvTag: number): Promise<Status>;
  /** MPI_Sendrecv's long form, each side (buf, count, datatype). */
  sendrecv(sendBuf: ArrayBufferView, sendCount: number, sendType: Datatype, dest: number, sendTag: number, recvBuf: ArrayBufferView, recvCount: number, recvType: Datatype, source: number, recvTag: number): Promise<Status>;
  async sendrecv(...a: unknown[]): Promise<Status> {
    const long = a.length > 6;
    const [sendBuf, dest, sendTag] = this.sendArgs('sendrecv', (long ? a.slice(0, 5) : a.slice(0, 3)) as SendArgs);
    const [recvBuf, source, recvTag, layout] = this.recvArgs('sendrecv', (long ? a.slice(5, 10) : a.slice(3, 6)) as RecvArgs);
    const r = this.startRecv('sendrecv', recvBuf, source, recvTag, layout);
    const s = this.startSend('sendrecv', sendBuf, dest, sendTag, 'standard');
    const [status] = await this.waitAll([r, s]);
    return status!;
  }

  /** Sends `buf` and receives into it (MPI_Sendrecv_replace). */
  sendrecvReplace(buf: ArrayBufferView, dest: number, sendTag: number, source: number, recvTag: number): Promise<Status>;
  /** MPI_Sendrecv_replace's long form: `count` elements of `datatype` at `buf`. */
  sendrecvReplace(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, sendTag: number, source: number, recvTag: number): Promise<Status>;
  async sendrecvReplace(...a: unknown[]): Promise<Status> {
    if (a.length > 5) {
      const [buf, count, datatype, dest, sendTag, source, recvTag] = a as [ArrayBufferView, number, Datatype, number, number, number, number];
      const [packed] = this.sendArgs('sendrecvReplace', [buf, count, datatype, dest, sendTag]);
      // a contiguous layout is sent from buf itself, which the receive overwrites: send a copy
      const copy = packed.buffer === buf.buffer ? this.copyOf(this.checkBuf('sendrecvReplace', packed)) : packed;
      const s = this.startSend('sendrecvReplace', copy, dest, sendTag, 'standard');
      const [into, , , layout] = this.recvArgs('sendrecvReplace', [buf, count, datatype, source, recvTag]);
      const [, status] = await this.waitAll([s, this.startRecv('sendrecvReplace', into, source, recvTag, layout)]);
      return status!;
    }
    const [buf, dest, sendTag, source, recvTag] = a as [ArrayBufferView, number, number, number, number];
    const copy = this.copyOf(this.checkBuf('sendrecvReplace', buf));
    const s = this.startSend('sendrecvReplace', copy, dest, sendTag, 'standard');
    const r = this.startRecv('sendrecvReplace', buf, source, recvTag);
    const [, status] = await this.waitAll([s, r]);
    return status!;
  }

  /**
   * Status of a message that a receive (source, tag) would match now, or null (MPI_Iprobe).
   * `count` is in elements of `elemBytes` bytes (default 1).
   */
  async iprobe(source: number, tag: number, elemBytes = 1): Promise<Status | null> {
    this.checkRank('iprobe', 'source', source, true);
    this.checkTag('iprobe', tag, true);
    await this.proc.cpu(this.world.params.testOverheadPs, `iprobe(source=${fmtSource(source)}, tag=${fmtTag(tag)})`);
    return this.world.iprobe(this.proc.rank, this.src(source), tag, this.shape.ctx, elemBytes, this.shape.inv);
  }

  /** Blocks until a message that a receive (source, tag) would match has arrived; returns its status (MPI_Probe). */
  async probe(source: number, tag: number, elemBytes = 1): Promise<Status> {
    this.checkRank('probe', 'source', source, true);
    this.checkTag('probe', tag, true);
    const what = `probe(source=${fmtSource(source)}, tag=${fmtTag(tag)})`;
    for (;;) {
      const s = this.world.iprobe(this.proc.rank, this.src(source), tag, this.shape.ctx, elemBytes, this.shape.inv);
      if (s) {
        await this.proc.cpu(this.world.params.testOverheadPs, what);
        return s;
      }
      await this.world.awaitArrival(this.proc.rank, what);
    }
  }

  /**
   * Waits for one request and returns its status; an inactive request (REQUEST_NULL, a persistent
   * request not started) returns the empty status at once (MPI_Wait).
   */
  wait(req: Request): Promise<Status> {
    this.checkRequest('wait', req);
    return req.wait();
  }

  /**
   * Waits for every request and returns their statuses in order, the empty status for inactive
   * ones and null entries (MPI_Waitall). The list is left as it is.
   */
  waitAll(reqs: readonly (Request | null)[]): Promise<Status[]> {
    const list = this.requestList('waitAll', reqs);
    return waitAll(this.proc, list, () => {
      const pending = list.filter((r) => !r.done);
      return `waitAll(${pending.length} of ${list.length} pending: ${pending.map((r) => r.what).join(', ')})`;
    });
  }

  /**
   * Waits until one of the active requests of `reqs` completes; returns its index and status and,
   * unless it is persistent, replaces it in `reqs` by REQUEST_NULL (MPI_Waitany). With no active
   * request (all null, REQUEST_NULL, inactive, or an empty list), returns index UNDEFINED and the
   * empty status at once.
   */
  async waitAny(reqs: (Request | null)[]): Promise<{ index: number; status: Status }> {
    this.requestList('waitAny', reqs);
    for (;;) {
      const active: Request[] = [];
      for (let i = 0; i < reqs.length; i++) {
        const r = reqs[i];
        if (!r?.active) continue;
        if (r.done) {
          const status = await r.wait();
          this.release(reqs, i);
          return { index: i, status };
        }
        active.push(r);
      }
      if (active.length === 0) return { index: UNDEFINED, status: EMPTY_STATUS };
      await waitWoken(this.proc, active, () => `waitAny(${active.map((r) => r.what).join(', ')})`);
    }
  }

  /**
   * Waits until at least one active request of `reqs` completes; returns the index and status of
   * every one that has, each replaced in `reqs` by REQUEST_NULL unless persistent (MPI_Waitsome).
   * With no active request, returns UNDEFINED at once (MPI's outcount MPI_UNDEFINED).
   */
  async waitSome(reqs: (Request | null)[]): Promise<Completion[] | typeof UNDEFINED> {
    this.requestList('waitSome', reqs);
    const active = reqs.filter((r): r is Request => r !== null && r.active);
    if (active.length === 0) return UNDEFINED;
    while (!active.some((r) => r.done)) await waitWoken(this.proc, active, () => `waitSome(${active.map((r) => r.what).join(', ')})`);
    return this.collect(reqs);
  }

  /** Polls one request once (costs a poll's CPU time); true if it has completed, or is inactive (MPI_Test). */
  test(req: Request): Promise<boolean> {
    this.checkRequest('test', req);
    return req.test();
  }

  /**
   * Polls once (one poll's CPU time): if every request has completed, returns their statuses in
   * order (the empty status for inactive ones and null entries), else null (MPI_Testall). The list
   * is left as it is.
   */
  async testAll(reqs: readonly (Request | null)[]): Promise<Status[] | null> {
    const list = this.requestList('testAll', reqs);
    await this.poll('testAll', list);
    if (!list.every((r) => r.done)) return null;
    return list.map((r) => r.take());
  }

  /**
   * Polls once (MPI_Testany): the first completed active request gives `flag` true, its index and
   * status, and is replaced in `reqs` by REQUEST_NULL unless persistent; none completed gives
   * `flag` false and index UNDEFINED; no active request gives `flag` true, index UNDEFINED and the
   * empty status.
   */
  async testAny(reqs: (Request | null)[]): Promise<{ flag: boolean; index: number; status: Status | null }> {
    const list = this.requestList('testAny', reqs);
    await this.poll('testAny', list);
    let active = false;
    for (let i = 0; i < reqs.length; i++) {
      const r = reqs[i];
      if (!r?.active) continue;
      active = true;
      if (!r.done) continue;
      const status = r.take();
      this.release(reqs, i);
      return { flag: true, index: i, status };
    }
    return active ? { flag: false, index: UNDEFINED, status: null } : { flag: true, index: UNDEFINED, status: EMPTY_STATUS };
  }

  /**
   * Polls once (MPI_Testsome): returns the index and status of every completed active request
   * (possibly none), each replaced in `reqs` by REQUEST_NULL unless persistent; UNDEFINED if no
   * request is active.
   */
  async testSome(reqs: (Request | null)[]): Promise<Completion[] | typeof UNDEFINED> {
    const list = this.requestList('testSome', reqs);
    await this.poll('testSome', list);
    if (!reqs.some((r) => r?.active)) return UNDEFINED;
    return this.collect(reqs);
  }

  /**
   * Whether a request has completed, and its status if so, without completing it: it stays as it
   * is for a later wait or test (MPI_Request_get_status). One poll's CPU time. An inactive request
   * gives `flag` true and the empty status.
   */
  async requestGetStatus(req: Request): Promise<{ flag: boolean; status: Status | null }> {
    this.checkRequest('requestGetStatus', req);
    req.checkUsable('requestGetStatus');
    await this.poll('requestGetStatus', [req]);
    return req.done ? { flag: true, status: req.peek() } : { flag: false, status: null };
  }

  /**
   * Frees a request (MPI_Request_free): an operation in progress still completes (a send still
   * delivers, a receive still fills its buffer), but the request can no longer be waited on,
   * tested, started or cancelled (MPI_ERR_REQUEST). REQUEST_NULL cannot be freed.
   */
  requestFree(req: Request): void {
    this.checkRequest('requestFree', req);
    if (req.isNull) throw new MpiError('MPI_ERR_REQUEST', 'requestFree: REQUEST_NULL cannot be freed');
    req.checkUsable('requestFree');
    req.free();
  }

  /**
   * Tries to cancel a pending request (MPI_Cancel). A receive not yet matched is cancelled; a
   * send is cancelled if no receive has matched its message yet (still leaving, in flight, or
   * queued at the receiver), even once it has completed locally. Wait on the request afterwards
   * either way; `status.cancelled` tells which happened. Returns the same answer.
   */
  cancel(req: Request): boolean {
    this.checkRequest('cancel', req);
    return req.cancel();
  }

  /** Attaches a buffer of `bytes` bytes for buffered sends (MPI_Buffer_attach; one per process). */
  bufferAttach(bytes: number): void {
    if (!Number.isInteger(bytes) || bytes < 0) throw new MpiError('MPI_ERR_BUFFER', `bufferAttach: bytes=${bytes} must be a non-negative integer`);
    if (this.state.bsendCapacity > 0) throw new MpiError('MPI_ERR_BUFFER', 'bufferAttach: a buffer is already attached; detach it first');
    this.state.bsendCapacity = bytes;
  }

  /** Waits until every buffered send has left the attached buffer, then detaches it; returns its size. */
  async bufferDetach(): Promise<number> {
    const st = this.state;
    await this.waitAll([...st.bsendPending.keys()]);
    st.bsendPending.clear();
    const n = st.bsendCapacity;
    st.bsendCapacity = 0;
    return n;
  }

  // ---------------------------------------------------------------- nonblocking sendrecv, matched probes

  /**
   * Nonblocking sendrecv (MPI_Isendrecv): one request, complete once both the send and the
   * receive are, whose status is the receive's.
   */
  isendrecv(sendBuf: ArrayBufferView, dest: number, sendTag: number, recvBuf: ArrayBufferView, source: number, recvTag: number): Request {
    this.checkBuf('isendrecv', sendBuf);
    this.checkRank('isendrecv', 'dest', dest, false);
    this.checkTag('isendrecv', sendTag, false);
    const r = this.startRecv('isendrecv', recvBuf, source, recvTag);
    const s = this.startSend('isendrecv', sendBuf, dest, sendTag, 'standard');
    return this.sendrecvRequest(`isendrecv(dest=${dest}, tag=${sendTag}; source=${fmtSource(source)}, tag=${fmtTag(recvTag)})`, r, s);
  }

  /** Nonblocking sendrecvReplace (MPI_Isendrecv_replace): sends `buf` and receives into it; the request's status is the receive's. */
  isendrecvReplace(buf: ArrayBufferView, dest: number, sendTag: number, source: number, recvTag: number): Request {
    const bytes = this.checkBuf('isendrecvReplace', buf);
    this.checkRank('isendrecvReplace', 'dest', dest, false);
    this.checkTag('isendrecvReplace', sendTag, false);
    this.checkRank('isendrecvReplace', 'source', source, true);
    this.checkTag('isendrecvReplace', recvTag, true);
    const s = this.startSend('isendrecvReplace', this.copyOf(bytes), dest, sendTag, 'standard');
    const r = this.startRecv('isendrecvReplace', buf, source, recvTag);
    return this.sendrecvRequest(`isendrecvReplace(dest=${dest}, tag=${sendTag}; source=${fmtSource(source)}, tag=${fmtTag(recvTag)})`, r, s);
  }

  /**
   * Matched probe (MPI_Improbe): the first message a receive (source, tag) would match now, taken
   * off the matching queues so that only `mrecv`/`imrecv` of the returned message can receive it,
   * with its status (`count` in elements of `elemBytes` bytes); null if none has arrived. A probe
   * of PROC_NULL returns MESSAGE_NO_PROC.
   */
  async improbe(source: number, tag: number, elemBytes = 1): Promise<{ message: Message; status: Status } | null> {
    this.checkRank('improbe', 'source', source, true);
    this.checkTag('improbe', tag, true);
    // it looks at the queues at the rank's own time, after the receives it posted before
    await this.proc.cpu(this.world.params.testOverheadPs, `improbe(source=${fmtSource(source)}, tag=${fmtTag(tag)})`);
    return this.matchProbe(source, tag, elemBytes);
  }

  /** Blocking matched probe (MPI_Mprobe): waits for a message a receive (source, tag) would match and takes it, as `improbe`. */
  async mprobe(source: number, tag: number, elemBytes = 1): Promise<{ message: Message; status: Status }> {
    this.checkRank('mprobe', 'source', source, true);
    this.checkTag('mprobe', tag, true);
    const what = `mprobe(source=${fmtSource(source)}, tag=${fmtTag(tag)})`;
    await this.proc.cpu(this.world.params.testOverheadPs, what);
    for (;;) {
      const got = this.matchProbe(source, tag, elemBytes);
      if (got) return got;
      await this.world.awaitArrival(this.proc.rank, what);
    }
  }

  /** Receives a message that `mprobe` or `improbe` matched (MPI_Mrecv); returns its status. */
  async mrecv(buf: ArrayBufferView, message: Message): Promise<Status> {
    const req = this.imrecvOf('mrecv', buf, message);
    return req.wait(() => req.what);
  }

  /** Nonblocking receive of a matched message (MPI_Imrecv); a rendezvous message's pull starts now. */
  imrecv(buf: ArrayBufferView, message: Message): Request {
    return this.imrecvOf('imrecv', buf, message);
  }

  // ---------------------------------------------------------------- persistent requests

  /** A persistent standard send (MPI_Send_init): inactive until `start`; each start sends `buf`'s contents of then. */
  sendInit(buf: ArrayBufferView, dest: number, tag: number): Request {
    return this.sendInitOf('sendInit', buf, dest, tag, 'standard');
  }

  /** A persistent synchronous send (MPI_Ssend_init). */
  ssendInit(buf: ArrayBufferView, dest: number, tag: number): Request {
    return this.sendInitOf('ssendInit', buf, dest, tag, 'sync');
  }

  /** A persistent ready send (MPI_Rsend_init; sent as a standard send). */
  rsendInit(buf: ArrayBufferView, dest: number, tag: number): Request {
    return this.sendInitOf('rsendInit', buf, dest, tag, 'standard');
  }

  /**
   * A persistent buffered send (MPI_Bsend_init): each start copies `buf` into the attached buffer
   * as `ibsend` does (MPI_ERR_BUFFER at the start that finds no room), so its copy and the library's
   * request for the copy are paid at each start.
   */
  bsendInit(buf: ArrayBufferView, dest: number, tag: number): Request {
    const bytes = this.checkBuf('bsendInit', buf);
    this.checkRank('bsendInit', 'dest', dest, false);
    this.checkTag('bsendInit', tag, false);
    return this.persistent(`bsendInit(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`, () => this.ibsend(buf, dest, tag));
  }

  /** A persistent receive (MPI_Recv_init): inactive until `start`; each start posts a receive into `buf`. */
  recvInit(buf: ArrayBufferView, source: number, tag: number): Request {
    const bytes = this.checkBuf('recvInit', buf);
    this.checkRank('recvInit', 'source', source, true);
    this.checkTag('recvInit', tag, true);
    const elem = 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    const what = `recvInit(source=${fmtSource(source)}, tag=${fmtTag(tag)})`;
    const { world, shape } = this;
    const rank = this.proc.rank;
    const from = this.src(source);
    return this.persistent(what, () => world.irecv(rank, bytes, elem, from, tag, shape.ctx, what, shape.inv, null, 0));
  }

  /** Starts an inactive persistent request (MPI_Start); MPI_ERR_REQUEST if it is active, freed, or not persistent. */
  start(req: Request): void {
    this.persistentOf('start', req).start();
  }

  /** Starts every request of `reqs` (MPI_Startall); all are checked first, so an error starts none. */
  startAll(reqs: readonly Request[]): void {
    const list = this.requestList('startAll', reqs).map((r, i) => this.persistentOf(`startAll: reqs[${i}]`, r));
    for (const [i, r] of list.entries()) r.checkStartable(`startAll: reqs[${i}]`);
    for (const r of list) r.start('startAll');
  }

  /** Sends on the communicator's collective context (never matches user messages). */
  protected collIsend(buf: Uint8Array, dest: number, tag: number, what: string): Request {
    return this.world.isend(this.proc.rank, buf, this.shape.members[dest]!, tag, this.shape.ctx + 1, what);
  }

  /** Receives on the communicator's collective context. */
  protected collIrecv(buf: Uint8Array, source: number, tag: number, what: string): Request {
    return this.world.irecv(this.proc.rank, buf, 1, this.shape.members[source]!, tag, this.shape.ctx + 1, what, this.shape.inv);
  }


  /** A copy of elements [from, to) of `buf` (an IN_PLACE send buffer): for a skeleton buffer, another of that length, uncopied. */
  protected copyOf<T extends ReduceArray | Uint8Array>(buf: T, from = 0, to = buf.length): T {
    const skeleton = this.proc.skeleton;
    if (skeleton?.holds(buf)) return skeleton.allocLike(buf, to - from);
    return buf.slice(from, to) as T;
  }

  // ---------------------------------------------------------------- requests

  /** This rank's MPI_REQUEST_NULL. */
  protected get requestNull(): Request {
    return (this.state.requestNull ??= Request.null(this.proc, this.world.params.testOverheadPs));
  }

  /** One poll of the rank's MPI library (a test call's CPU time), naming the requests for a trace of the wait. */
  private async poll(call: string, reqs: readonly Request[]): Promise<void> {
    this.world.progressOf(this.proc.rank).poll();
    await this.proc.cpu(this.world.params.testOverheadPs, `${call}(${reqs.length} requests)`);
  }

  /** Replaces `reqs[i]`, whose completion was just returned, by REQUEST_NULL unless it is persistent (as MPI frees it). */
  private release(reqs: (Request | null)[], i: number): void {
    if (!reqs[i]!.persistent) reqs[i] = this.requestNull;
  }

  /** Takes every completed active request of `reqs` (waitSome, testSome). */
  private collect(reqs: (Request | null)[]): Completion[] {
    const out: Completion[] = [];
    for (let i = 0; i < reqs.length; i++) {
      const r = reqs[i];
      if (!r?.active || !r.done) continue;
      out.push({ index: i, status: r.take() });
      this.release(reqs, i);
    }
    return out;
  }

  private sendrecvRequest(what: string, recv: Request, send: Request): Request {
    return new SendrecvRequest(this.proc, this.world.params.testOverheadPs, what, this.world.progressOf(this.proc.rank), recv, send);
  }

  /** improbe's match, as a message and its status; MESSAGE_NO_PROC for PROC_NULL. */
  private matchProbe(source: number, tag: number, elemBytes: number): { message: Message; status: Status } | null {
    if (source === PROC_NULL) return { message: MESSAGE_NO_PROC, status: { source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 } };
    const got = this.world.matchProbe(this.proc.rank, this.src(source), tag, this.shape.ctx);
    if (!got) return null;
    const { msg, searchPs } = got;
    const inv = this.shape.inv;
    const message = new Message(msg, this.proc.rank, searchPs, inv);
    return { message, status: { source: inv ? inv[msg.src]! : msg.src, tag: msg.tag, count: Math.floor(msg.bytes / elemBytes), bytes: msg.bytes } };
  }

  private imrecvOf(call: string, buf: ArrayBufferView, message: Message): Request {
    const bytes = this.checkBuf(call, buf);
    if (!(message instanceof Message)) throw new MpiError('MPI_ERR_REQUEST', `${call}: expected a message from mprobe or improbe, got ${describe(message)}`);
    if (message.noProc) {
      const req = new Request(this.proc, this.world.params.testOverheadPs, `${call}(MESSAGE_NO_PROC)`, this.world.progressOf(this.proc.rank));
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    const elem = 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    return message.receive(this.world, this.proc.rank, bytes, elem, call);
  }

  private sendInitOf(call: string, buf: ArrayBufferView, dest: number, tag: number, mode: SendMode): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'dest', dest, false);
    this.checkTag(call, tag, false);
    const what = `${call}(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`;
    const { world, shape } = this;
    const rank = this.proc.rank;
    const to = this.dest(dest);
    return this.persistent(what, () => world.isend(rank, bytes, to, tag, shape.ctx, what, mode, 0));
  }

  /** A persistent request whose starts run `startOp`; its allocation (mpi.requestOverhead) is charged now, once. */
  private persistent(what: string, startOp: () => Request): Request {
    const P = this.world.params;
    if (P.requestOverheadPs > 0) this.proc.charge(P.requestOverheadPs);
    return new PersistentRequest(this.proc, P.testOverheadPs, what, this.world.progressOf(this.proc.rank), startOp);
  }

  /** `req` as a persistent request; MPI_ERR_REQUEST if it is not one. */
  private persistentOf(call: string, req: Request): PersistentRequest {
    this.checkRequest(call, req);
    if (!(req instanceof PersistentRequest)) throw new MpiError('MPI_ERR_REQUEST', `${call}: ${req.what} is not a persistent request (make one with sendInit, recvInit, ...)`);
    return req;
  }

  // ---------------------------------------------------------------- datatypes

  /** This rank's process and the library's parameters, for packing derived datatypes. */
  protected get packer(): Packer {
    return (this.packerCache ??= { proc: this.proc, params: this.world.params });
  }
  private packerCache: Packer | null = null;

  /** A send's (buf, dest, tag): the long form's data as one run of bytes (packed, at its cost, if need be). */
  protected sendArgs(call: string, a: SendArgs): [ArrayBufferView, number, number] {
    if (a.length <= 3) return a as [ArrayBufferView, number, number];
    const [buf, count, datatype, dest, tag] = a as [ArrayBufferView, number, Datatype, number, number];
    const t = checkType(call, 'datatype', datatype);
    checkCount(call, 'count', count);
    return [sendBytes(this.packer, userBytes(call, 'buf', buf, count, t), 0, count, t), dest, tag];
  }

  /** A receive's (buf, source, tag) and, for the long form, where its data lands and how it is unpacked. */
  protected recvArgs(call: string, a: RecvArgs): [ArrayBufferView, number, number, RecvLayout | undefined] {
    if (a.length <= 3) return [...(a as [ArrayBufferView, number, number]), undefined];
    const [buf, count, datatype, source, tag] = a as [ArrayBufferView, number, Datatype, number, number];
    const t = checkType(call, 'datatype', datatype);
    checkCount(call, 'count', count);
    const l = landing(this.packer, userBytes(call, 'buf', buf, count, t), 0, count, t);
    return [l.bytes, source, tag, { elemBytes: Math.max(1, t.size), unpack: l.unpack }];
  }

  // ---------------------------------------------------------------- argument checks

  /** Fails with MPI_ERR_REQUEST unless `req` is a request. */
  protected checkRequest(call: string, req: unknown): asserts req is Request {
    if (!(req instanceof Request)) throw new MpiError('MPI_ERR_REQUEST', `${call}: expected a request, got ${describe(req)}`);
  }

  /**
   * Checks a list of requests (null entries allowed: REQUEST_NULL) and returns it with REQUEST_NULL
   * for the nulls; MPI_ERR_REQUEST for an entry that is not a request or was freed.
   */
  private requestList(call: string, reqs: readonly (Request | null)[]): Request[] {
    if (!Array.isArray(reqs)) throw new MpiError('MPI_ERR_ARG', `${call}: expected an array of requests, got ${describe(reqs)}`);
    return reqs.map((r: unknown, i) => {
      if (r === null) return this.requestNull;
      this.checkRequest(`${call}: reqs[${i}]`, r);
      r.checkUsable(`${call}: reqs[${i}]`);
      return r;
    });
  }

  protected checkBuf(call: string, buf: ArrayBufferView): Uint8Array {
    if (!ArrayBuffer.isView(buf)) throw new MpiError('MPI_ERR_BUFFER', `${call}: buf must be a typed array or DataView, got ${describe(buf)}`);
    return bytesOf(buf);
  }

  protected checkRank(call: string, name: string, v: number, wildcard: boolean): void {
    this.live(call);
    const ok = Number.isInteger(v) && ((v >= 0 && v < this.size) || v === PROC_NULL || (wildcard && v === ANY_SOURCE));
    if (!ok) {
      throw new MpiError('MPI_ERR_RANK', `${call}: ${name}=${v} is not a rank of the communicator (0..${this.size - 1}${wildcard ? ', mpi.ANY_SOURCE' : ''} or mpi.PROC_NULL)`);
    }
  }

  // ---------------------------------------------------------------- error handling

  /** What the communicator's failing calls do (MPI_Comm_set_errhandler); communicators made from it inherit it. */
  protected errhandler: Errhandler = ERRORS_ARE_FATAL;

  /** Sets the error handler (MPI_Comm_set_errhandler): mpi.ERRORS_ARE_FATAL, mpi.ERRORS_RETURN, or one of commCreateErrhandler. */
  setErrhandler(h: Errhandler): void {
    if (!(h instanceof Errhandler)) throw new MpiError('MPI_ERR_ARG', `setErrhandler: expected mpi.ERRORS_ARE_FATAL, mpi.ERRORS_RETURN or a handler of commCreateErrhandler, got ${describe(h)}`);
    this.errhandler = h;
  }

  /** The error handler (MPI_Comm_get_errhandler). */
  getErrhandler(): Errhandler {
    return this.errhandler;
  }

  /** For the guard of the public calls (see errhandler.ts). */
  errhandlerOf(): Errhandler {
    return this.errhandler;
  }

  fatalOf(): Error | null {
    return this.proc.fatal;
  }

  setFatal(err: Error): void {
    this.proc.fatal ??= err;
  }

  /** `c`, made from this communicator, with this one's error handler. */
  protected inherit<C extends CommBase>(c: C): C {
    c.errhandler = this.errhandler;
    return c;
  }

  /** Set by `free` (MPI_Comm_free): every later call on the communicator is MPI_ERR_COMM. */
  protected freed = false;

  /** Fails a call on a freed communicator. */
  protected live(call: string): void {
    if (this.freed) throw new MpiError('MPI_ERR_COMM', `${call}: the communicator was freed`);
  }

  protected checkTag(call: string, v: number, wildcard: boolean): void {
    const ok = Number.isInteger(v) && ((v >= 0 && v <= TAG_UB) || (wildcard && v === ANY_TAG));
    if (!ok) throw new MpiError('MPI_ERR_TAG', `${call}: tag=${v} must be an integer from 0 to ${TAG_UB}${wildcard ? ' or mpi.ANY_TAG' : ''}`);
  }

  /** World rank of destination `r` (PROC_NULL stays). */
  private dest(r: number): number {
    return r === PROC_NULL ? PROC_NULL : this.shape.members[r]!;
  }

  /** World rank of source `r` (wildcards and PROC_NULL stay). */
  private src(r: number): number {
    return r === PROC_NULL || r === ANY_SOURCE ? r : this.shape.members[r]!;
  }

  /** A blocking call: waits on the request it started, naming the call. */
  private blocking(req: Request): Promise<Status> {
    return req.wait(() => req.what);
  }

  private startSend(call: string, buf: ArrayBufferView, dest: number, tag: number, mode: SendMode): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'dest', dest, false);
    this.checkTag(call, tag, false);
    return this.world.isend(this.proc.rank, bytes, this.dest(dest), tag, this.shape.ctx, `${call}(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`, mode);
  }

  private startRecv(call: string, buf: ArrayBufferView, source: number, tag: number, layout?: RecvLayout): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'source', source, true);
    this.checkTag(call, tag, true);
    const elem = layout ? layout.elemBytes : 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    return this.world.irecv(this.proc.rank, bytes, elem, this.src(source), tag, this.shape.ctx, `${call}(source=${fmtSource(source)}, tag=${fmtTag(tag)})`, this.shape.inv, layout?.unpack);
  }
}

function fmtSource(s: number): string {
  return s === ANY_SOURCE ? 'ANY_SOURCE' : String(s);
}

function fmtTag(t: number): string {
  return t === ANY_TAG ? 'ANY_TAG' : String(t);
}
