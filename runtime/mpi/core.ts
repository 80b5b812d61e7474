import type { EventHandler } from '../../fabric/engine/engine.ts';
import type { MpiParams } from '../../fabric/machine.ts';
import { NicStatus } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import { CollLedger } from './agreement.ts';
import { MpiError, Request, type Progress, type Status } from './request.ts';

/** Wildcards and special ranks, with MPICH's values. */
export const ANY_SOURCE = -2;
export const ANY_TAG = -1;
export const PROC_NULL = -1;

type Kind = 'eager' | 'rts' | 'fin' | 'ack';

/** What travels in a message header (the short-message meta, or the on-node envelope). */
interface Envelope {
  readonly kind: Kind;
  readonly src: number;
  readonly tag: number;
  readonly ctx: number;
  /** Per (sender, receiver) sequence number: restores the non-overtaking order. */
  readonly seq: number;
  readonly bytes: number;
  /** Rendezvous: the sender's registered buffer. */
  readonly handle: number;
  /** The sender's request id: a rendezvous (answered by a FIN) or a synchronous send (answered by an ACK once matched); -1 otherwise. */
  readonly sreq: number;
  /** Synchronous mode: the sender's request completes only once a receive has matched. */
  readonly sync: boolean;
}

/** A message that has arrived (in order) at its receiver. */
interface Arrived {
  readonly env: Envelope;
  /** Eager or on-node payload. */
  readonly data: Uint8Array | null;
  /** True when it came over the on-node path. */
  readonly local: boolean;
  /** The sender's request, while the message may still be cancelled. */
  sender: Request | null;
}

/** A posted receive. */
interface Posted {
  readonly source: number;
  readonly tag: number;
  readonly ctx: number;
  readonly buf: Uint8Array;
  readonly elemBytes: number;
  readonly req: Request;
  /** Communicator rank of each world rank (-1: not a member), for the status; null: MPI_COMM_WORLD. */
  readonly inv: Int32Array | null;
}

const EV_SHM_ARRIVE = 0;
const EV_SHM_SENT = 1;
const EV_POST = 2;

/** A send mode's protocol difference: a synchronous send completes only once matched. */
export type SendMode = 'standard' | 'sync';

/** Bytes of any ArrayBufferView. */
export function bytesOf(buf: ArrayBufferView): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** What a trace learns from the MPI library: each message's send and match, each collective's algorithm. */
export interface MpiObserver {
  /** Rank `src` sent message number `seq` of the pair to `dst` on context `ctx` (even: user traffic, odd: collectives'). */
  sent(src: number, dst: number, seq: number, ctx: number): void;
  /** Rank `dst` matched that message to a receive. */
  matched(dst: number, src: number, seq: number, ctx: number): void;
  /** Rank `rank` runs a collective with algorithm `name`. */
  algorithm(rank: number, name: string): void;
}

/**
 * Per-rank MPI state: queues, sequence numbers, the rank's process, and when the rank is inside
 * MPI. A rank's calls act at its own clock, which may run ahead of the engine's time (CPU time
 * charged without a suspension): a call ahead of time records its time in `polls`, a wait the
 * time it began in `waitSince`, and a rendezvous pull that needs the rank's CPU starts at the
 * first of them at or after the moment it could (seed 001: large messages progress inside MPI
 * calls unless a progress thread runs).
 */
class Endpoint implements Progress {
  readonly posted: Posted[] = [];
  readonly unexpected: Arrived[] = [];
  /** Next sequence number to send to each peer (peers never sent to are absent: 0). */
  readonly sendSeq = new Map<number, number>();
  /** Next sequence number expected from each peer (absent: 0). */
  readonly recvSeq = new Map<number, number>();
  /** Arrivals ahead of their turn, per peer, keyed by sequence number. */
  readonly early = new Map<number, Map<number, Arrived>>();
  /** Protocol steps waiting for the rank to call MPI (rendezvous pulls without asynchronous progress). */
  readonly pending: (() => void)[] = [];
  /** Times (ps, increasing) of the rank's MPI calls made ahead of the engine's time and not yet reached. */
  private readonly polls: number[] = [];
  private pollHead = 0;
  /** The rank's time when its current wait began (inside MPI from then on); Infinity outside a wait. */
  private waitSince = Infinity;
  /** Probes waiting for any new unexpected message. */
  readonly probers: Request[] = [];
  constructor(
    readonly proc: Proc,
    private readonly world: MpiWorld,
  ) {}

  poll(): void {
    const at = this.proc.time();
    const now = this.proc.engine.now;
    if (at <= now) {
      while (this.pending.length > 0) this.pending.shift()!();
      return;
    }
    for (const step of this.pending.splice(0)) this.world.runAt(this.proc, at, step);
    if (this.pollHead > 0 && this.pollHead === this.polls.length) {
      this.polls.length = 0;
      this.pollHead = 0;
    }
    this.polls.push(at);
  }

  enter(): void {
    this.poll();
    this.waitSince = this.proc.time();
  }

  leave(): void {
    this.waitSince = Infinity;
  }

  /**
   * When a step that needs the rank's CPU can run if it becomes due now: now inside a wait, else
   * at the rank's next MPI call already made ahead of time, else -1 (at its next call).
   */
  cpuAt(): number {
    const now = this.proc.engine.now;
    if (this.waitSince <= now) return now;
    const polls = this.polls;
    while (this.pollHead < polls.length && polls[this.pollHead]! < now) this.pollHead++;
    if (this.pollHead < polls.length) return Math.min(polls[this.pollHead]!, this.waitSince);
    return this.waitSince < Infinity ? this.waitSince : -1;
  }
}

/**
 * The MPI library of one run, as Cray MPI over uGNI (seed 001, "Cray XC Network Software
 * Stack"): eager messages are short-message puts into the receiver's mailbox; larger ones send a
 * request-to-send, and the receiver pulls the data with a BTE get once it has matched, then
 * sends a FIN. Ranks on the same node use a shared-memory path. Matching follows MPI: by source,
 * tag and context, with wildcards, in arrival order, and messages between a pair of ranks
 * are matched in the order they were sent even when the network delivers them out of order.
 * Eager data and short protocol messages are handled by the NIC and the mailbox whenever they
 * arrive. A rendezvous pull needs the receiving rank's CPU: unless `mpi.asyncProgress` is on, a
 * request-to-send that matches while the rank computes waits until the rank next calls MPI
 * (seed 001: large messages progress inside MPI calls unless a progress thread runs).
 * With `mpi.railThreshold` set, a large message is pulled as `mpi.rails` gets over independent
 * paths (SiCortex multi-rail, seed 002 §6.1).
 */
export class MpiWorld implements EventHandler {
  private readonly eps: Endpoint[] = [];
  private readonly sendReqs = new Map<number, { req: Request; handle: number; proc: Proc; dst: number }>();
  private nextSreq = 1;
  private readonly shm = new Map<number, { to: number; arrived: Arrived; req: Request | null }>();
  private nextShm = 1;
  /** Sends whose caller is still spending the call's CPU time. */
  private readonly deferred = new Map<number, () => void>();
  private nextPost = 1;
  private readonly contexts = new Map<string, number>();
  private identity: Int32Array | null = null;
  private readonly memos = new Map<string, unknown>();
  private readonly comms = new Map<string, { readonly members: Int32Array; readonly inv: Int32Array; readonly ctx: number }>();
  private readonly ledgers = new Map<number, CollLedger>();
  /** Contexts 0 and 1 are MPI_COMM_WORLD's. */
  private nextContext = 2;
  readonly id: number;
  /** Told about sends, matches and collective algorithms when a run is traced; null otherwise. */
  observer: MpiObserver | null = null;

  constructor(
    readonly procs: readonly Proc[],
    readonly params: MpiParams,
    /** The run's collective algorithms by collective (`{allreduce: 'ring'}`); the rest chosen per call. */
    readonly algorithms: Readonly<Record<string, string>> = {},
  ) {
    const engine = procs[0]!.engine;
    this.id = engine.register(this);
    for (const p of procs) {
      this.eps.push(new Endpoint(p, this));
      // eager data lands in the mailbox buffer the NIC hands over with the header
      p.nic.setSmsgHandler(p.inst, (_srcNode, meta, payload) => this.onSmsg(p.rank, meta as Envelope, payload));
    }
  }

  get size(): number {
    return this.procs.length;
  }

  /** What rank `rank`'s requests tell the library when it enters an MPI call (for requests made outside the core). */
  progressOf(rank: number): Progress {
    return this.eps[rank]!;
  }

  /**
   * Context id of the communicator named `key` (its point-to-point context; +1 is its collective
   * one). Every member asks with the same key, made from the parent's context and the order of
   * creation, so all get the same id.
   */
  /** A value made once per run under `key` (per-communicator structures shared by its ranks). */
  memo<T>(key: string, make: () => T): T {
    let v = this.memos.get(key) as T | undefined;
    if (v === undefined) {
      v = make();
      this.memos.set(key, v);
    }
    return v;
  }

  /** Drops what `memo` made under `key`. */
  forget(key: string): void {
    this.memos.delete(key);
  }

  /** MPI_COMM_WORLD's members: rank r is world rank r (one array shared by every rank). */
  get worldMembers(): Int32Array {
    if (!this.identity) {
      this.identity = new Int32Array(this.size);
      for (let r = 0; r < this.size; r++) this.identity[r] = r;
    }
    return this.identity;
  }

  /**
   * The members (world ranks), the inverse map and the context of the communicator named `key`,
   * made once and shared by all its ranks.
   */
  commFor(key: string, members: ArrayLike<number>): { readonly members: Int32Array; readonly inv: Int32Array; readonly ctx: number } {
    let c = this.comms.get(key);
    if (!c) {
      const m = Int32Array.from(members);
      const inv = new Int32Array(this.size).fill(-1);
      m.forEach((w, r) => (inv[w] = r));
      c = { members: m, inv, ctx: this.contextFor(key) };
      this.comms.set(key, c);
    }
    return c;
  }

  /** The record of collective calls of the communicator with context `ctx` (shared by its ranks). */
  ledgerFor(ctx: number, members: Int32Array): CollLedger {
    let l = this.ledgers.get(ctx);
    if (!l) {
      l = new CollLedger(members, ctx === 0 ? 'MPI_COMM_WORLD' : `the communicator of context ${ctx} (${members.length} ranks)`);
      this.ledgers.set(ctx, l);
    }
    return l;
  }

  /** The first collective call that some ranks never made, described for the end of a run; null if none. */
  incompleteCollective(): string | null {
    for (const l of this.ledgers.values()) {
      const why = l.incomplete(this.procs);
      if (why) return why;
    }
    return null;
  }

  contextFor(key: string): number {
    let c = this.contexts.get(key);
    if (c === undefined) {
      c = this.nextContext;
      this.nextContext += 2;
      this.contexts.set(key, c);
    }
    return c;
  }

  /**
   * Starts a send of `buf` from `src` to `dst` and returns its request at once. The call's CPU
   * time (overhead, FMA stores) is charged to the sender's clock, and the message leaves when
   * that work is done.
   */
  isend(src: number, buf: Uint8Array, dst: number, tag: number, ctx: number, what: string, mode: SendMode = 'standard'): Request {
    const me = this.eps[src]!;
    const proc = me.proc;
    const P = this.params;
    const req = new Request(proc, P.testOverheadPs, what, me);
    if (dst === PROC_NULL) {
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    me.poll();
    const peer = this.eps[dst]!.proc;
    const seq = me.sendSeq.get(dst) ?? 0;
    me.sendSeq.set(dst, seq + 1);
    this.observer?.sent(src, dst, seq, ctx);
    const bytes = buf.length;
    const sync = mode === 'sync';
    let start: () => void;
    const leaves = proc.charge(P.sendOverheadPs + (peer.node === proc.node ? 0 : proc.crossPs));
    if (peer.node === proc.node) {
      // on-node path: copy into a shared buffer; the send completes when the copy is done (a
      // synchronous one when the receiver has matched too)
      const sreq = sync ? this.track(req, -1, proc, dst) : -1;
      const env: Envelope = { kind: 'eager', src, tag, ctx, seq, bytes, handle: -1, sreq, sync };
      const copyPs = Math.ceil(bytes / P.shmBytesPerPs);
      start = () => {
        const id = this.nextShm++;
        const now = proc.engine.now;
        this.shm.set(id, { to: dst, arrived: { env, data: proc.isSkeleton(buf) ? buf : buf.slice(), local: true, sender: req }, req: sync ? null : req });
        if (!sync) proc.engine.at(now + copyPs, this.id, EV_SHM_SENT, id);
        proc.engine.at(now + P.shmLatencyPs + copyPs, this.id, EV_SHM_ARRIVE, id);
      };
    } else if (bytes <= P.eagerMaxBytes) {
      const sreq = sync ? this.track(req, -1, proc, dst) : -1;
      const env: Envelope = { kind: 'eager', src, tag, ctx, seq, bytes, handle: -1, sreq, sync };
      start = () =>
        void proc.nic.sendSmsg(peer.node, peer.inst, env, buf, (s) => {
          // a synchronous send completes on the receiver's ACK instead
          if (!sync || s !== NicStatus.Ok) this.nicDone(req, s, bytes);
        });
      proc.charge(proc.nic.smsgCostPs(bytes));
    } else {
      // rendezvous: expose the buffer and announce it; the receiver pulls it
      start = () => {
        const handle = proc.nic.register(buf);
        const sreq = this.track(req, handle, proc, dst);
        const env: Envelope = { kind: 'rts', src, tag, ctx, seq, bytes, handle, sreq, sync };
        proc.nic.sendSmsg(peer.node, peer.inst, env, EMPTY, (s) => {
          if (s !== NicStatus.Ok) this.nicDone(req, s, bytes);
        });
      };
      proc.charge(proc.nic.smsgCostPs(0));
    }
    // the message leaves once the call's overhead is spent
    this.runAt(proc, leaves, start);
    return req;
  }

  /** Remembers a send request that a later FIN or ACK completes; returns its id. */
  private track(req: Request, handle: number, proc: Proc, dst: number): number {
    const sreq = this.nextSreq++;
    this.sendReqs.set(sreq, { req, handle, proc, dst });
    return sreq;
  }

  /** Runs `fn` at time `at` of `proc`'s clock: now, or by an event once the engine gets there. */
  runAt(proc: Proc, at: number, fn: () => void): void {
    if (at <= proc.engine.now) {
      fn();
      return;
    }
    const id = this.nextPost++;
    this.deferred.set(id, fn);
    proc.engine.at(Math.round(at), this.id, EV_POST, id);
  }

  /**
   * Posts a receive into `buf`; completes at once if a matching message already arrived. `inv`
   * maps world ranks to the communicator's ranks for the status (null: MPI_COMM_WORLD).
   */
  irecv(dst: number, buf: Uint8Array, elemBytes: number, source: number, tag: number, ctx: number, what: string, inv: Int32Array | null = null): Request {
    const me = this.eps[dst]!;
    const req = new Request(me.proc, this.params.testOverheadPs, what, me);
    if (source === PROC_NULL) {
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    me.poll();
    const posted: Posted = { source, tag, ctx, buf, elemBytes, req, inv };
    // the receive is posted at the rank's own time
    const at = me.proc.time();
    if (at > me.proc.engine.now) {
      let cancelled = false;
      req.canceller = () => {
        if (cancelled || req.done) return false;
        cancelled = true;
        req.complete({ source: ANY_SOURCE, tag: ANY_TAG, count: 0, bytes: 0, cancelled: true });
        return true;
      };
      this.runAt(me.proc, at, () => {
        if (!cancelled) this.post(me, posted);
      });
      return req;
    }
    this.post(me, posted);
    return req;
  }

  /** Matches a receive against the unexpected messages, or queues it. */
  private post(me: Endpoint, posted: Posted): void {
    const req = posted.req;
    const i = me.unexpected.findIndex((a) => matches(posted, a.env));
    if (i >= 0) {
      const [a] = me.unexpected.splice(i, 1);
      a!.sender = null;
      // matched inside the call (which acts now, at the caller's own time): protocol work starts now
      this.deliver(me, a!, posted, true);
    } else {
      me.posted.push(posted);
      req.canceller = () => {
        const k = me.posted.indexOf(posted);
        if (k < 0) return false;
        me.posted.splice(k, 1);
        req.complete({ source: ANY_SOURCE, tag: ANY_TAG, count: 0, bytes: 0, cancelled: true });
        return true;
      };
    }
  }

  /**
   * The status of the first unexpected message that a receive (source, tag, ctx) on rank `dst`
   * would match, or null (MPI_Iprobe); the message stays queued.
   */
  iprobe(dst: number, source: number, tag: number, ctx: number, elemBytes: number, inv: Int32Array | null): Status | null {
    const me = this.eps[dst]!;
    me.poll();
    if (source === PROC_NULL) return { source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 };
    const probe = { source, tag, ctx };
    const a = me.unexpected.find((x) => matches(probe, x.env));
    if (!a) return null;
    const env = a.env;
    return { source: inv ? inv[env.src]! : env.src, tag: env.tag, count: Math.floor(env.bytes / elemBytes), bytes: env.bytes };
  }

  /** Blocks rank `dst` until a new message joins its unexpected queue. */
  async awaitArrival(dst: number, what: string): Promise<void> {
    const me = this.eps[dst]!;
    const r = new Request(me.proc, 0, what, me);
    me.probers.push(r);
    await r.wait(() => what);
  }

  onEvent(kind: number, arg: number): void {
    if (kind === EV_POST) {
      const start = this.deferred.get(arg)!;
      this.deferred.delete(arg);
      start();
      return;
    }
    const m = this.shm.get(arg)!;
    if (kind === EV_SHM_SENT) {
      m.req!.complete({ source: m.to, tag: m.arrived.env.tag, count: 0, bytes: m.arrived.env.bytes });
      m.req = null;
    } else {
      this.shm.delete(arg);
      this.arrive(this.eps[m.to]!, m.arrived);
    }
  }

  /** Lets the sender of unexpected message `a` cancel it while it waits unmatched. */
  private offerCancel(me: Endpoint, a: Arrived): void {
    const req = a.sender;
    if (!req || req.done) return;
    req.canceller = () => {
      const k = me.unexpected.indexOf(a);
      if (k < 0) return false;
      me.unexpected.splice(k, 1);
      const env = a.env;
      const s = this.sendReqs.get(env.sreq);
      if (s) {
        this.sendReqs.delete(env.sreq);
        if (s.handle >= 0) s.proc.nic.deregister(s.handle);
      }
      req.complete({ source: me.proc.rank, tag: env.tag, count: 0, bytes: env.bytes, cancelled: true });
      return true;
    };
  }

  private nicDone(req: Request, s: NicStatus, bytes: number): void {
    if (s === NicStatus.Ok) req.complete({ source: -1, tag: -1, count: 0, bytes });
    else req.fail(new MpiError('MPI_ERR_OTHER', `network transfer failed with NIC status ${s}`));
  }

  /** A short message reached rank `to`'s mailbox. */
  private onSmsg(to: number, env: Envelope, payload: Uint8Array | null): void {
    if (env.kind === 'fin' || env.kind === 'ack') {
      const s = this.sendReqs.get(env.sreq)!;
      this.sendReqs.delete(env.sreq);
      if (s.handle >= 0) s.proc.nic.deregister(s.handle);
      s.req.complete({ source: to, tag: env.tag, count: 0, bytes: env.bytes });
      return;
    }
    this.arrive(this.eps[to]!, { env, data: env.kind === 'eager' ? payload : null, local: false, sender: this.sendReqs.get(env.sreq)?.req ?? null });
  }

  /** Accepts arrivals in sequence order per sender, then matches them. */
  private arrive(me: Endpoint, a: Arrived): void {
    const src = a.env.src;
    if (a.env.seq !== (me.recvSeq.get(src) ?? 0)) {
      let m = me.early.get(src);
      if (!m) me.early.set(src, (m = new Map()));
      m.set(a.env.seq, a);
      return;
    }
    let next: Arrived | undefined = a;
    while (next) {
      me.recvSeq.set(src, next.env.seq + 1);
      this.match(me, next);
      const m = me.early.get(src);
      next = m?.get(me.recvSeq.get(src)!);
      if (next) m!.delete(next.env.seq);
    }
  }

  private match(me: Endpoint, a: Arrived): void {
    const i = me.posted.findIndex((p) => matches(p, a.env));
    if (i < 0) {
      me.unexpected.push(a);
      this.offerCancel(me, a);
      for (const r of me.probers.splice(0)) r.complete({ source: -1, tag: -1, count: 0, bytes: 0 });
      return;
    }
    const [p] = me.posted.splice(i, 1);
    this.deliver(me, a, p!);
  }

  /**
   * A matched message: copy eager data (answering a synchronous send), or pull rendezvous data
   * with a BTE get. `inCall`: matched inside the receiver's own MPI call.
   */
  private deliver(me: Endpoint, a: Arrived, p: Posted, inCall = false): void {
    const env = a.env;
    const P = this.params;
    if (a.sender) {
      a.sender.canceller = null;
      a.sender = null;
    }
    if (env.bytes > p.buf.length) {
      p.req.fail(new MpiError('MPI_ERR_TRUNCATE', `message of ${env.bytes} bytes from rank ${env.src} (tag ${env.tag}) does not fit the ${p.buf.length}-byte receive buffer`));
      if (env.kind === 'rts') this.reply(me, env, 'fin');
      else if (env.sync) this.ack(me, env, a.local);
      return;
    }
    const status: Status = { source: p.inv ? p.inv[env.src]! : env.src, tag: env.tag, count: Math.floor(env.bytes / p.elemBytes), bytes: env.bytes };
    this.observer?.matched(me.proc.rank, env.src, env.seq, env.ctx);
    if (env.kind === 'eager') {
      // a skeleton buffer on either side: sizes only, no bytes
      if (!me.proc.isSkeleton(a.data!) && !me.proc.isSkeleton(p.buf)) p.buf.set(a.data!.subarray(0, env.bytes));
      const copy = a.local ? 0 : Math.ceil(env.bytes / P.copyBytesPerPs);
      p.req.complete(status, P.recvOverheadPs + copy);
      if (env.sync) this.ack(me, env, a.local);
      return;
    }
    const proc = me.proc;
    const sender = this.eps[env.src]!.proc;
    // multi-rail (seed 002 §6.1): a large message is pulled as `rails` gets, one per independent path
    const rails = P.railThresholdBytes > 0 && env.bytes >= P.railThresholdBytes ? Math.min(P.rails, env.bytes) : 1;
    const pull = (): void => {
      const local = p.buf.subarray(0, env.bytes);
      if (rails === 1) {
        proc.nic.post({
          op: 'get',
          mode: 'bte',
          local,
          remoteNode: sender.node,
          remoteHandle: env.handle,
          remoteOffset: 0,
          onComplete: (s) => {
            if (s !== NicStatus.Ok) p.req.fail(new MpiError('MPI_ERR_OTHER', `rendezvous get failed with NIC status ${s}`));
            else p.req.complete(status, P.recvOverheadPs);
            this.reply(me, env, 'fin');
          },
        });
        return;
      }
      // the receive completes, and the FIN goes, once every stream is in
      let left = rails;
      let failed: NicStatus = NicStatus.Ok;
      // streams split on packet boundaries
      const pkt = proc.nic.params.format.maxPayloadBytes;
      const part = Math.ceil(env.bytes / rails / pkt) * pkt;
      for (let i = 0; i < rails; i++) {
        const from = Math.min(i * part, env.bytes);
        proc.nic.post({
          op: 'get',
          mode: 'bte',
          local: local.subarray(from, Math.min(from + part, env.bytes)),
          remoteNode: sender.node,
          remoteHandle: env.handle,
          remoteOffset: from,
          path: i,
          onComplete: (s) => {
            if (s !== NicStatus.Ok && failed === NicStatus.Ok) failed = s;
            if (--left > 0) return;
            if (failed !== NicStatus.Ok) p.req.fail(new MpiError('MPI_ERR_OTHER', `rendezvous get failed with NIC status ${failed}`));
            else p.req.complete(status, P.recvOverheadPs);
            this.reply(me, env, 'fin');
          },
        });
      }
    };
    // the pull needs the receiver's CPU: now if it is inside MPI, else at its next MPI call
    if (inCall || P.asyncProgress) return pull();
    const at = me.cpuAt();
    if (at < 0) me.pending.push(pull);
    else this.runAt(proc, at, pull);
  }

  /** Tells a synchronous sender that its message has matched. */
  private ack(me: Endpoint, env: Envelope, local: boolean): void {
    if (!local) {
      this.reply(me, env, 'ack');
      return;
    }
    const s = this.sendReqs.get(env.sreq)!;
    this.sendReqs.delete(env.sreq);
    this.runAt(me.proc, me.proc.time() + this.params.shmLatencyPs, () => s.req.complete({ source: me.proc.rank, tag: env.tag, count: 0, bytes: env.bytes }));
  }

  /** Answers a sender: FIN (its rendezvous buffer is free) or ACK (its synchronous send matched). */
  private reply(me: Endpoint, env: Envelope, kind: 'fin' | 'ack'): void {
    const sender = this.eps[env.src]!.proc;
    const r: Envelope = { kind, src: me.proc.rank, tag: env.tag, ctx: env.ctx, seq: -1, bytes: env.bytes, handle: -1, sreq: env.sreq, sync: false };
    me.proc.nic.sendSmsg(sender.node, sender.inst, r, EMPTY, () => {});
  }
}

const EMPTY = new Uint8Array(0);

function matches(p: Pick<Posted, 'source' | 'tag' | 'ctx'>, env: Envelope): boolean {
  return (
    p.ctx === env.ctx &&
    (p.source === ANY_SOURCE || p.source === env.src) &&
    (p.tag === ANY_TAG || p.tag === env.tag)
  );
}
