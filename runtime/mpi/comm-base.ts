import type { Proc } from '../proc.ts';
import { ANY_SOURCE, ANY_TAG, bytesOf, PROC_NULL, type MpiWorld, type SendMode } from './core.ts';
import { BSEND_OVERHEAD, describe, TAG_UB } from './constants.ts';
import { callErrhandler, checkErrhandler, ERRORS_ARE_FATAL, type Errhandler } from './errhandler.ts';
import { checkCount, checkType, type Datatype } from './datatype.ts';
import { landing, sendBytes, userBytes, type Packer } from './datatype-pack.ts';
import { Group } from './group.ts';
import { DrainRequest } from './bsend-flush.ts';
import type { ReduceArray } from './ops.ts';
import { MpiError, Request, waitAll, waitWoken, type Status } from './request.ts';

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
    if (!Number.isInteger(r) || r < 0 || r >= this.shape.members.length) throw new MpiError('MPI_ERR_RANK', `worldRank: r=${String(r)} is not a rank of the communicator (0..${this.shape.members.length - 1})`);
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
    await this.blocking(this.startBsend('bsend', buf, dest, tag));
  }

  /** Nonblocking buffered send (MPI_Ibsend): complete once the message is copied. */
  ibsend(buf: ArrayBufferView, dest: number, tag: number): Request;
  /** MPI_Ibsend's long form: `count` elements of `datatype` from `buf`. */
  ibsend(buf: ArrayBufferView, count: number, datatype: Datatype, dest: number, tag: number): Request;
  ibsend(...a: SendArgs): Request {
    const [buf, dest, tag] = this.sendArgs('ibsend', a);
    return this.startBsend('ibsend', buf, dest, tag);
  }

  /** A buffered send's copy into the attached buffer, its errors naming `call`. */
  private startBsend(call: string, buf: ArrayBufferView, dest: number, tag: number): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'dest', dest, false);
    this.checkTag(call, tag, false);
    const what = `${call}(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`;
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
    const inner = this.track(this.world.isend(this.proc.rank, copy, this.dest(dest), tag, this.shape.ctx, what));
    st.bsendPending.set(inner, need);
    // complete already, but polling it is still an MPI call that progresses the rank's other requests
    const req = new Request(this.proc, this.world.params.testOverheadPs, what, this.world.progressOf(this.proc.rank));
    req.complete({ source: dest, tag, count: 0, bytes: bytes.length });
    // cancelling it cancels the copy's send while no receive has matched it, and frees its space
    req.canceller = () => {
      if (!inner.cancel()) return false;
      st.bsendPending.delete(inner);
      req.completeCancelled({ source: dest, tag, count: 0, bytes: 0, cancelled: true });
      return true;
    };
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
    this.checkTag('sendrecv', sendTag, false, 'sendTag');
    this.checkTag('sendrecv', recvTag, true, 'recvTag');
    const r = this.startRecv('sendrecv', recvBuf, source, recvTag, layout);
    const s = this.startSend('sendrecv', sendBuf, dest, sendTag, 'standard');
    const [status] = await this.waitOwn('sendrecv', [r, s]);
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
      const [, status] = await this.waitOwn('sendrecvReplace', [s, this.startRecv('sendrecvReplace', into, source, recvTag, layout)]);
      return status!;
    }
    const [buf, dest, sendTag, source, recvTag] = a as [ArrayBufferView, number, number, number, number];
    const copy = this.copyOf(this.checkBuf('sendrecvReplace', buf));
    const s = this.startSend('sendrecvReplace', copy, dest, sendTag, 'standard');
    const r = this.startRecv('sendrecvReplace', buf, source, recvTag);
    const [, status] = await this.waitOwn('sendrecvReplace', [s, r]);
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
  /** Attaches a buffer of `bytes` bytes for buffered sends (MPI_Buffer_attach; one per process). */
  bufferAttach(bytes: number): void {
    if (!Number.isInteger(bytes) || bytes < 0) throw new MpiError('MPI_ERR_BUFFER', `bufferAttach: bytes=${bytes} must be a non-negative integer`);
    if (this.state.bsendCapacity > 0) throw new MpiError('MPI_ERR_BUFFER', 'bufferAttach: a buffer is already attached; detach it first');
    this.state.bsendCapacity = bytes;
  }

  /** Waits until every buffered send has left the attached buffer, then detaches it; returns its size. */
  async bufferDetach(): Promise<number> {
    const st = this.state;
    const sends = [...st.bsendPending.keys()];
    await this.waitOwn('bufferDetach', [this.bufferDrain('bufferDetach')]);
    for (const r of sends) r.take();
    st.bsendPending.clear();
    const n = st.bsendCapacity;
    st.bsendCapacity = 0;
    return n;
  }

  /**
   * A request complete once every message now in the attached buffer has left it
   * (MPI_Buffer_iflush, MPI 4.1); the buffer stays attached. Complete at once when it is empty.
   */
  bufferIflush(): Request {
    return this.bufferDrain('bufferIflush');
  }

  /** Waits until every message now in the attached buffer has left it (MPI_Buffer_flush, MPI 4.1); the buffer stays attached. */
  async bufferFlush(): Promise<void> {
    await this.waitOwn('bufferFlush', [this.bufferDrain('bufferFlush')]);
  }

  private bufferDrain(call: string): Request {
    const sends = [...this.state.bsendPending.keys()];
    return new DrainRequest(this.proc, this.world.params.testOverheadPs, `${call}(${sends.filter((r) => !r.done).length} buffered sends)`, this.world.progressOf(this.proc.rank), sends);
  }

  /** Sends on the communicator's collective context (never matches user messages); `once`: a pooled request (CollTransport.isend). */
  protected collIsend(buf: Uint8Array, dest: number, tag: number, what: string, once = false): Request {
    return this.world.isend(this.proc.rank, buf, this.shape.members[dest]!, tag, this.shape.ctx + 1, what, 'standard', this.world.params.requestOverheadPs, once);
  }

  /** Receives on the communicator's collective context; `once`: a pooled request (CollTransport.irecv). */
  protected collIrecv(buf: Uint8Array, source: number, tag: number, what: string, once = false): Request {
    return this.world.irecv(this.proc.rank, buf, 1, this.shape.members[source]!, tag, this.shape.ctx + 1, what, this.shape.inv, null, this.world.params.requestOverheadPs, false, once);
  }


  /** A copy of elements [from, to) of `buf` (an IN_PLACE send buffer): for a skeleton buffer, another of that length, uncopied. */
  protected copyOf<T extends ReduceArray | Uint8Array>(buf: T, from = 0, to = buf.length): T {
    const skeleton = this.proc.skeleton;
    if (skeleton?.holds(buf)) return skeleton.allocLike(buf, to - from);
    return buf.slice(from, to) as T;
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
    checkErrhandler('setErrhandler', 'comm', h, 'mpi.ERRORS_ARE_FATAL, mpi.ERRORS_RETURN or a handler of commCreateErrhandler');
    this.errhandler = h;
  }

  /** The error handler (MPI_Comm_get_errhandler). */
  getErrhandler(): Errhandler {
    this.live('getErrhandler');
    return this.errhandler;
  }

  /** Invokes the communicator's error handler with `code` (MPI_Comm_call_errhandler): see errhandler.ts's `callErrhandler`. */
  callErrhandler(code: number): void {
    this.live('callErrhandler');
    callErrhandler(this, 'callErrhandler', code);
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

  /** Operations started on this communicator that may be in progress (for `disconnect`), pruned of finished ones as the set grows. */
  private started: Set<Request> | null = null;
  private startedMark = 64;

  /** Records `req`, an operation started on this communicator, for `disconnect`; returns it. */
  protected track(req: Request): Request {
    const s = (this.started ??= new Set());
    s.add(req);
    if (s.size > this.startedMark) {
      for (const r of s) if (r.done) s.delete(r);
      this.startedMark = 2 * Math.max(64, s.size);
    }
    return req;
  }

  /**
   * Waits, taking no completion from the program, until every operation started on this
   * communicator has completed, those freed with requestFree and buffered sends' copies included
   * (MPI_Comm_disconnect's wait). A started persistent operation is waited on through its request.
   */
  protected async drain(call: string): Promise<void> {
    for (;;) {
      const left = [...(this.started ?? [])].filter((r) => !r.done);
      this.started = new Set(left);
      if (left.length === 0) return;
      const roots = new Set<Request>();
      for (const r of left) {
        let x = r;
        while (x.waiter instanceof Request) x = x.waiter;
        if (x.waiter === null && !x.done) roots.add(x);
      }
      if (roots.size === 0) throw new MpiError('MPI_ERR_REQUEST', `${call}: ${left[0]!.what} is still being waited on by another call of this rank`);
      await waitWoken(this.proc, [...roots], () => `${call}(waiting for ${left.map((r) => r.what).join(', ')})`);
    }
  }

  /** Fails a call on a freed communicator. */
  protected live(call: string): void {
    if (this.freed) throw new MpiError('MPI_ERR_COMM', `${call}: the communicator was freed`);
  }

  /** MPI_ERR_TAG, naming `call` and the argument (`name`, `tag` if omitted), unless `v` is a tag (or ANY_TAG where `wildcard`). */
  protected checkTag(call: string, v: number, wildcard: boolean, name = 'tag'): void {
    const ok = Number.isInteger(v) && ((v >= 0 && v <= TAG_UB) || (wildcard && v === ANY_TAG));
    if (!ok) throw new MpiError('MPI_ERR_TAG', `${call}: ${name}=${v} must be an integer from 0 to ${TAG_UB}${wildcard ? ' or mpi.ANY_TAG' : ''}`);
  }

  /** World rank of destination `r` (PROC_NULL stays). */
  protected dest(r: number): number {
    return r === PROC_NULL ? PROC_NULL : this.shape.members[r]!;
  }

  /** World rank of source `r` (wildcards and PROC_NULL stay). */
  protected src(r: number): number {
    return r === PROC_NULL || r === ANY_SOURCE ? r : this.shape.members[r]!;
  }

  /** Waits for the requests one call of the library made itself (sendrecv's halves, buffered sends' copies). */
  protected waitOwn(call: string, reqs: Request[]): Promise<Status[]> {
    return waitAll(this.proc, reqs, () => `${call}(${reqs.filter((r) => !r.done).map((r) => r.what).join(', ')})`);
  }

  /** A blocking call: waits on the request it started, naming the call. */
  private blocking(req: Request): Promise<Status> {
    return req.wait(() => req.what);
  }

  protected startSend(call: string, buf: ArrayBufferView, dest: number, tag: number, mode: SendMode): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'dest', dest, false);
    this.checkTag(call, tag, false);
    return this.track(this.world.isend(this.proc.rank, bytes, this.dest(dest), tag, this.shape.ctx, `${call}(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`, mode));
  }

  protected startRecv(call: string, buf: ArrayBufferView, source: number, tag: number, layout?: RecvLayout): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'source', source, true);
    this.checkTag(call, tag, true);
    const elem = layout ? layout.elemBytes : 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    const what = `${call}(source=${fmtSource(source)}, tag=${fmtTag(tag)})`;
    return this.track(this.world.irecv(this.proc.rank, bytes, elem, this.src(source), tag, this.shape.ctx, what, this.shape.inv, layout?.unpack, undefined, layout === undefined));
  }
}

export function fmtSource(s: number): string {
  return s === ANY_SOURCE ? 'ANY_SOURCE' : String(s);
}

export function fmtTag(t: number): string {
  return t === ANY_TAG ? 'ANY_TAG' : String(t);
}
