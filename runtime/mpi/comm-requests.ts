import { ANY_TAG, PROC_NULL, type SendMode } from './core.ts';
import { CommBase, fmtSource, fmtTag, type Completion, type RecvArgs, type SendArgs } from './comm-base.ts';
import { checkCount, checkType, type Datatype } from './datatype.ts';
import { landing, sendBytes, userBytes } from './datatype-pack.ts';
import { describe, UNDEFINED } from './constants.ts';
import { Message, MESSAGE_NO_PROC } from './mprobe.ts';
import { PersistentRequest } from './persistent.ts';
import { EMPTY_STATUS, MpiError, Request, waitAll, waitWoken, type Status } from './request.ts';
import { SendrecvRequest } from './sendrecv-request.ts';

/** mrecv's and imrecv's arguments: (buf, message) or the long form (buf, count, datatype, message). */
type MrecvArgs = [buf: ArrayBufferView, message: Message] | [buf: ArrayBufferView, count: number, datatype: Datatype, message: Message];

/**
 * A communicator's requests (MPI chapter 3.7-3.9): the wait and test families over requests of
 * any kind, their statuses and REQUEST_NULL, cancel, nonblocking sendrecv, matched probes and
 * persistent point-to-point requests. The point-to-point calls that make requests are
 * CommBase's; collectives are added by CollComm.
 */
export class RequestComm extends CommBase {

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
    return req.done ? { flag: true, status: req.statusForProgram() } : { flag: false, status: null };
  }

  /**
   * testAny without completing anything (MPI_Request_get_status_any, MPI 4.1): the first active
   * request that has completed gives `flag` true, its index and status, and stays in `reqs` as it
   * is; none completed gives `flag` false and index UNDEFINED; no active request gives `flag`
   * true, index UNDEFINED and the empty status. One poll's CPU time.
   */
  async requestGetStatusAny(reqs: readonly (Request | null)[]): Promise<{ flag: boolean; index: number; status: Status | null }> {
    const list = this.requestList('requestGetStatusAny', reqs);
    await this.poll('requestGetStatusAny', list);
    let active = false;
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      if (!r.active) continue;
      active = true;
      if (r.done) return { flag: true, index: i, status: r.statusForProgram() };
    }
    return active ? { flag: false, index: UNDEFINED, status: null } : { flag: true, index: UNDEFINED, status: EMPTY_STATUS };
  }

  /**
   * testAll without completing anything (MPI_Request_get_status_all, MPI 4.1): when every request
   * has completed, their statuses in order (the empty status for inactive ones and null entries),
   * else null; the requests stay as they are. One poll's CPU time.
   */
  async requestGetStatusAll(reqs: readonly (Request | null)[]): Promise<Status[] | null> {
    const list = this.requestList('requestGetStatusAll', reqs);
    await this.poll('requestGetStatusAll', list);
    if (!list.every((r) => r.done)) return null;
    return list.map((r) => (r.active ? r.statusForProgram() : EMPTY_STATUS));
  }

  /**
   * testSome without completing anything (MPI_Request_get_status_some, MPI 4.1): the index and
   * status of every active request that has completed (possibly none), the requests left as they
   * are; UNDEFINED when no request is active. One poll's CPU time.
   */
  async requestGetStatusSome(reqs: readonly (Request | null)[]): Promise<Completion[] | typeof UNDEFINED> {
    const list = this.requestList('requestGetStatusSome', reqs);
    await this.poll('requestGetStatusSome', list);
    if (!list.some((r) => r.active)) return UNDEFINED;
    const out: Completion[] = [];
    for (let i = 0; i < list.length; i++) if (list[i]!.active && list[i]!.done) out.push({ index: i, status: list[i]!.statusForProgram() });
    return out;
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


  // ---------------------------------------------------------------- nonblocking sendrecv, matched probes

  /**
   * Nonblocking sendrecv (MPI_Isendrecv): one request, complete once both the send and the
   * receive are, whose status is the receive's.
   */
  isendrecv(sendBuf: ArrayBufferView, dest: number, sendTag: number, recvBuf: ArrayBufferView, source: number, recvTag: number): Request {
    this.checkBuf('isendrecv', sendBuf);
    this.checkRank('isendrecv', 'dest', dest, false);
    this.checkTag('isendrecv', sendTag, false, 'sendTag');
    this.checkTag('isendrecv', recvTag, true, 'recvTag');
    const r = this.startRecv('isendrecv', recvBuf, source, recvTag);
    const s = this.startSend('isendrecv', sendBuf, dest, sendTag, 'standard');
    return this.sendrecvRequest(`isendrecv(dest=${dest}, tag=${sendTag}; source=${fmtSource(source)}, tag=${fmtTag(recvTag)})`, r, s);
  }

  /** Nonblocking sendrecvReplace (MPI_Isendrecv_replace): sends `buf` and receives into it; the request's status is the receive's. */
  isendrecvReplace(buf: ArrayBufferView, dest: number, sendTag: number, source: number, recvTag: number): Request {
    const bytes = this.checkBuf('isendrecvReplace', buf);
    this.checkRank('isendrecvReplace', 'dest', dest, false);
    this.checkTag('isendrecvReplace', sendTag, false, 'sendTag');
    this.checkRank('isendrecvReplace', 'source', source, true);
    this.checkTag('isendrecvReplace', recvTag, true, 'recvTag');
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
  async mrecv(buf: ArrayBufferView, message: Message): Promise<Status>;
  /** MPI_Mrecv's long form: up to `count` elements of `datatype` into `buf`; the status counts elements of `datatype`. */
  async mrecv(buf: ArrayBufferView, count: number, datatype: Datatype, message: Message): Promise<Status>;
  async mrecv(...a: MrecvArgs): Promise<Status> {
    const req = this.imrecvOf('mrecv', a);
    return req.wait(() => req.what);
  }

  /** Nonblocking receive of a matched message (MPI_Imrecv); a rendezvous message's pull starts now. */
  imrecv(buf: ArrayBufferView, message: Message): Request;
  /** MPI_Imrecv's long form: up to `count` elements of `datatype` into `buf`, unpacked at completion. */
  imrecv(buf: ArrayBufferView, count: number, datatype: Datatype, message: Message): Request;
  imrecv(...a: MrecvArgs): Request {
    return this.imrecvOf('imrecv', a);
  }

  // ---------------------------------------------------------------- persistent requests

  /** A persistent standard send (MPI_Send_init): inactive until `start`; each start sends `buf`'s contents of then. */
  sendInit(buf: ArrayBufferView, dest: number, tag: number): Request;
  /**
   * MPI_Send_init's long form: each start sends `count` elements of `datatype` from `buf` (packed
   * then); the request keeps the type, so it may be freed after the call, as MPI allows.
   */
  sendInit(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  sendInit(...a: SendArgs): Request {
    return this.sendInitOf('sendInit', a, 'standard');
  }

  /** A persistent synchronous send (MPI_Ssend_init). */
  ssendInit(buf: ArrayBufferView, dest: number, tag: number): Request;
  /** MPI_Ssend_init's long form, as sendInit's. */
  ssendInit(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  ssendInit(...a: SendArgs): Request {
    return this.sendInitOf('ssendInit', a, 'sync');
  }

  /** A persistent ready send (MPI_Rsend_init; sent as a standard send). */
  rsendInit(buf: ArrayBufferView, dest: number, tag: number): Request;
  /** MPI_Rsend_init's long form, as sendInit's. */
  rsendInit(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  rsendInit(...a: SendArgs): Request {
    return this.sendInitOf('rsendInit', a, 'standard');
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
  recvInit(buf: ArrayBufferView, source: number, tag: number): Request;
  /**
   * MPI_Recv_init's long form: each start posts a receive of up to `count` elements of `datatype`
   * into `buf` (unpacked at completion); the request keeps the type, so it may be freed after the call.
   */
  recvInit(buf: ArrayBufferView, count: number, datatype: Datatype, source: number, tag: number): Request;
  recvInit(...a: RecvArgs): Request {
    const long = a.length > 3;
    const [buf, source, tag] = (long ? [a[0], a[3], a[4]] : a) as [ArrayBufferView, number, number];
    const bytes = this.checkBuf('recvInit', buf);
    this.checkRank('recvInit', 'source', source, true);
    this.checkTag('recvInit', tag, true);
    const what = `recvInit(source=${fmtSource(source)}, tag=${fmtTag(tag)})`;
    const { world, shape } = this;
    const rank = this.proc.rank;
    const from = this.src(source);
    if (long) {
      const [count, t] = this.typedArgs('recvInit', a[1], a[2]);
      return this.persistent(what, () => {
        const l = landing(this.packer, userBytes('recvInit', 'buf', buf, count, t), 0, count, t);
        return world.irecv(rank, l.bytes, Math.max(1, t.size), from, tag, shape.ctx, what, shape.inv, l.unpack, 0, false);
      });
    }
    const elem = 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    return this.persistent(what, () => world.irecv(rank, bytes, elem, from, tag, shape.ctx, what, shape.inv, null, 0, true));
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

  private imrecvOf(call: string, a: MrecvArgs): Request {
    const long = a.length > 2;
    const [buf, message] = (long ? [a[0], a[3]] : a) as [ArrayBufferView, Message];
    const bytes = this.checkBuf(call, buf);
    if (!(message instanceof Message)) throw new MpiError('MPI_ERR_REQUEST', `${call}: expected a message from mprobe or improbe, got ${describe(message)}`);
    if (message.noProc) {
      const req = new Request(this.proc, this.world.params.testOverheadPs, `${call}(MESSAGE_NO_PROC)`, this.world.progressOf(this.proc.rank));
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    if (long) {
      const [count, t] = this.typedArgs(call, a[1], a[2]);
      const l = landing(this.packer, userBytes(call, 'buf', buf, count, t), 0, count, t);
      return message.receive(this.world, this.proc.rank, l.bytes, Math.max(1, t.size), call, l.unpack);
    }
    const elem = 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    return message.receive(this.world, this.proc.rank, bytes, elem, call);
  }

  private sendInitOf(call: string, a: SendArgs, mode: SendMode): Request {
    const long = a.length > 3;
    const [buf, dest, tag] = (long ? [a[0], a[3], a[4]] : a) as [ArrayBufferView, number, number];
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'dest', dest, false);
    this.checkTag(call, tag, false);
    const { world, shape } = this;
    const rank = this.proc.rank;
    const to = this.dest(dest);
    if (long) {
      const [count, t] = this.typedArgs(call, a[1], a[2]);
      const what = `${call}(dest=${dest}, tag=${tag}, ${count} x ${t.name})`;
      // packed at each start (the buffer's contents of then); the type was checked at the call
      return this.persistent(what, () => world.isend(rank, sendBytes(this.packer, userBytes(call, 'buf', buf, count, t), 0, count, t), to, tag, shape.ctx, what, mode, 0));
    }
    const what = `${call}(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`;
    return this.persistent(what, () => world.isend(rank, bytes, to, tag, shape.ctx, what, mode, 0));
  }

  /** A long form's (count, datatype), checked at the call: a committed, unfreed type and a count. */
  private typedArgs(call: string, count: unknown, datatype: unknown): [number, Datatype] {
    const t = checkType(call, 'datatype', datatype);
    return [checkCount(call, 'count', count), t];
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

}
