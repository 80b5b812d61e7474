import type { MpiParams } from '../../fabric/machine.ts';
import type { Proc } from '../proc.ts';
import type { AlgorithmChoice } from './coll/index.ts';
import { ANY_SOURCE, ANY_TAG, Msg, PROC_NULL, Slots, type Posted } from './message.ts';
import { CommRegistry } from './comm-registry.ts';
import { Endpoint } from './endpoint.ts';
import { EV_POST, EV_RECV, EV_SEND, EV_SHM_SENT, P2pProtocol, unpacked } from './p2p-protocol.ts';
import { MpiError, Request, type Progress, type Status } from './request.ts';
import { PostedPool, RequestPool } from './request-pool.ts';

/** The canceller of a receive not yet posted: it completes cancelled, and its post then does nothing. */
const cancelBeforePost = (req: Request): boolean => {
  req.complete({ source: -2, tag: -1, count: 0, bytes: 0, cancelled: true });
  return true;
};

export { ANY_SOURCE, ANY_TAG, PROC_NULL, ROOT } from './message.ts';

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
  /** A round of rank `rank`'s collective schedule (see RoundListener); absent: rounds are not watched. */
  round?(rank: number, index: number, fromPs: number, toPs: number, what: string): void;
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
 * paths (SiCortex multi-rail, seed 002 §6.1). This file holds the requests, matching and
 * progress; how a message travels (on-node, eager, rendezvous, FIN and ACK) is `P2pProtocol`'s
 * (p2p-protocol.ts).
 */
export class MpiWorld extends P2pProtocol {
  /** Point-to-point messages sent between ranks (collectives' included), for the benchmarks' messages per second. */
  messages = 0;
  /** Messages whose sender is still spending the call's CPU time, by slot. */
  private readonly outbox = new Slots<Msg>();
  /** Receives to post at their rank's own time, by slot. */
  private readonly posts = new Slots<Posted>();
  /** Each rank's pool of the requests only the library sees (made on first use), by rank. */
  private readonly pools: (RequestPool | undefined)[] = [];
  /** Posted-receive records of pooled requests, free for reuse once their message is delivered. */
  private readonly postedPool = new PostedPool();
  /** Cancels a posted receive that has not matched (the canceller of every posted receive). */
  private readonly cancelPosted = (req: Request): boolean => {
    const p = req.cancelTarget as Posted | null;
    if (!p || !this.eps[req.proc.rank]!.posted.remove(p)) return false;
    req.cancelTarget = null;
    req.complete({ source: ANY_SOURCE, tag: ANY_TAG, count: 0, bytes: 0, cancelled: true });
    return true;
  };
  /**
   * Cancels a send whose message no receive has matched yet, wherever the message is: still in the
   * sender's call, in flight, waiting for its turn at the receiver, or queued there unexpected. A
   * message cancelled before it arrives still arrives (its sequence number keeps the pair's order)
   * but matches nothing. The outcome is decided at once, without the protocol messages a library
   * exchanges to learn it.
   */
  private readonly cancelSend = (req: Request): boolean => {
    const m = req.cancelTarget as Msg | null;
    if (!m || m.sender !== req) return false;
    this.eps[m.src]!.dropUnmatched(m);
    req.cancelTarget = null;
    m.cancelled = true;
    m.sender = null;
    this.eps[m.dst]!.unexpected.remove(m);
    // nothing will pull the rendezvous buffer or answer the synchronous send
    const s = m.sreq >= 0 ? this.sendReqs.get(m.sreq) : undefined;
    if (s) {
      this.sendReqs.delete(m.sreq);
      if (s.handle >= 0) s.proc.nic.deregister(s.handle);
    }
    req.completeCancelled({ source: m.dst, tag: m.tag, count: 0, bytes: 0, cancelled: true });
    return true;
  };
  /** Communicators, their contexts and collective records, shared by the ranks. */
  readonly registry: CommRegistry;
  /** Told about sends, matches and collective algorithms when a run is traced; null otherwise. */
  observer: MpiObserver | null = null;

  constructor(
    procs: readonly Proc[],
    params: MpiParams,
    /** The run's collective algorithms by collective (`{allreduce: 'ring'}`); the rest chosen per call. */
    readonly algorithms: Readonly<Record<string, AlgorithmChoice>> = {},
  ) {
    super(procs, params);
    this.registry = new CommRegistry(procs);
    for (const p of procs) {
      this.eps.push(new Endpoint(p, this));
      // eager data lands in the mailbox buffer the NIC lends with the header (copied if kept)
      p.nic.setSmsgHandler(p.inst, (_srcNode, meta, payload) => this.onSmsg(p.rank, meta as Msg, payload), 0, true);
    }
  }

  get size(): number {
    return this.procs.length;
  }

  /**
   * Rank `rank`'s program has returned (MPI_Finalize): the library goes on progressing what it
   * still has under way (a freed receive's rendezvous pull), as if the rank waited in MPI from now.
   */
  finalize(rank: number): void {
    this.eps[rank]!.enter();
  }

  /**
   * What rank `rank` left under way when its program returned: receives still posted, and sends
   * not complete whose message no receive has matched (each as its call, e.g. `irecv(source=1,
   * tag=5)`). MPI_Finalize with requests pending is erroneous; the run warns of them.
   */
  pendingAt(rank: number): string[] {
    const out = this.eps[rank]!.posted.items().filter((p) => !p.req.done).map((p) => p.req.what);
    const sends: string[] = [];
    for (let m = this.eps[rank]!.unmatched; m !== null; m = m.nextUnmatched) if (!m.sender!.done) sends.push(m.sender!.what);
    // the list holds the newest send first
    return out.concat(sends.reverse());
  }

  /** What rank `rank`'s requests tell the library when it enters an MPI call (for requests made outside the core). */
  progressOf(rank: number): Progress {
    return this.eps[rank]!;
  }


  /**
   * Starts a send of `buf` from `src` to `dst` and returns its request at once. The call's CPU
   * time (overhead, FMA stores) is charged to the sender's clock, and the message leaves when
   * that work is done.
   */
  isend(src: number, buf: Uint8Array, dst: number, tag: number, ctx: number, what: string, mode: SendMode = 'standard', requestOverheadPs = this.params.requestOverheadPs, pooled = false): Request {
    const me = this.eps[src]!;
    const proc = me.proc;
    const P = this.params;
    const req = pooled ? this.poolOf(src).take(what) : new Request(proc, P.testOverheadPs, what, me);
    if (dst === PROC_NULL) {
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    me.poll();
    this.messages++;
    const peer = this.eps[dst]!.proc;
    const seq = me.sendSeq.next(dst);
    this.observer?.sent(src, dst, seq, ctx);
    const bytes = buf.length;
    const sync = mode === 'sync';
    let leaves = proc.charge((peer.node === proc.node ? P.shmSendOverheadPs : P.sendOverheadPs + proc.crossPs) + requestOverheadPs);
    // the library sends no faster than its message rate allows (mpi.messageGap): a send that
    // comes sooner spins until then
    if (P.messageGapPs > 0 && peer.node !== proc.node) {
      if (leaves < me.nextSendPs) leaves = proc.charge(me.nextSendPs - leaves);
      me.nextSendPs = leaves + P.messageGapPs;
    }
    // a synchronous send is answered (on-node or eager) by the receiver's match; a rendezvous
    // send by the FIN of its pull, tracked when it leaves
    const sreq = sync && (peer.node === proc.node || bytes <= P.eagerMaxBytes) ? this.track(req, -1, proc, dst) : -1;
    const m = this.msgs.make(peer.node !== proc.node && bytes > P.eagerMaxBytes ? 'rts' : 'eager', src, tag, ctx, seq, bytes, -1, sreq, sync);
    // an eager message over the network is reused once its source completion and its receive are done
    if (m.kind === 'eager' && !sync && peer.node !== proc.node) m.holds = 2;
    m.req = req;
    m.buf = buf;
    m.dst = dst;
    // cancellable until a receive matches it
    m.sender = req;
    me.addUnmatched(m);
    req.canceller = this.cancelSend;
    req.cancelTarget = m;
    if (peer.node !== proc.node) proc.charge(proc.nic.smsgCostPs(m.kind === 'eager' ? bytes : 0));
    // the message leaves once the call's overhead is spent
    if (leaves <= proc.engine.now) this.launch(m);
    else proc.engine.at(Math.round(leaves), this.id, EV_SEND, this.outbox.put(m));
    return req;
  }

  /**
   * Rank `rank`'s pool of requests that only the library sees: a send or receive made with
   * `pooled` (a collective's step, see CollTransport's `once`) takes its request from here, and
   * the schedule that takes its completion gives it back (Request.recycle).
   */
  private poolOf(rank: number): RequestPool {
    let pool = this.pools[rank];
    if (pool === undefined) {
      const me = this.eps[rank]!;
      pool = this.pools[rank] = new RequestPool(me.proc, this.params.testOverheadPs, me);
    }
    return pool;
  }

  /**
   * Posts a receive into `buf`; completes at once if a matching message already arrived. `inv`
   * maps world ranks to the communicator's ranks for the status (null: MPI_COMM_WORLD); `unpack`
   * moves a derived datatype's bytes from `buf` to the user's layout at completion; `whole`: a
   * message must fill whole elements of `elemBytes` bytes (a typed array buffer). `pooled`: the
   * request and its posted record come from the rank's pool (a collective's step, see `poolOf`).
   */
  irecv(dst: number, buf: Uint8Array, elemBytes: number, source: number, tag: number, ctx: number, what: string, inv: Int32Array | null = null, unpack: Posted['unpack'] = null, requestOverheadPs = this.params.requestOverheadPs, whole = false, pooled = false): Request {
    const me = this.eps[dst]!;
    const req = pooled ? this.poolOf(dst).take(what) : new Request(me.proc, this.params.testOverheadPs, what, me);
    if (source === PROC_NULL) {
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    me.poll();
    if (requestOverheadPs > 0) me.proc.charge(requestOverheadPs);
    const posted: Posted = pooled ? this.postedPool.make(source, tag, ctx, buf, elemBytes, req, inv, unpack, whole) : { source, tag, ctx, buf, elemBytes, req, inv, searchPs: 0, unpack, whole };
    // the receive is posted at the rank's own time
    const at = me.proc.time();
    if (at > me.proc.engine.now) {
      // not posted yet: cancelling it completes it, and the post then does nothing
      req.canceller = cancelBeforePost;
      me.proc.engine.at(Math.round(at), this.id, EV_RECV, this.posts.put(posted));
      return req;
    }
    this.post(me, posted);
    return req;
  }

  /** Matches a receive against the unexpected messages, or queues it. */
  private post(me: Endpoint, posted: Posted): void {
    const q = me.unexpected;
    const a = q.take(posted.source, posted.tag, posted.ctx);
    // the CPU time of a linear search, as the library spends it: one step per message looked at
    posted.searchPs += q.searched * this.params.matchEntryPs;
    if (a !== null) {
      posted.searchPs += a.searchPs;
      posted.req.canceller = null;
      // matched inside the call (which acts now, at the caller's own time): protocol work starts now
      this.deliver(me, a, posted, true);
    } else if (this.failures.any && this.failures.errorFor(posted, me.proc.engine.now, me.proc.rank, this.eps.length)) {
      posted.req.fail(this.failures.errorFor(posted, me.proc.engine.now, me.proc.rank, this.eps.length)!);
    } else {
      me.posted.push(posted);
      posted.req.canceller = this.cancelPosted;
      posted.req.cancelTarget = posted;
    }
  }

  /**
   * Rank `rank`, on `node`, died at `deathPs`: from `knownPs` (its death plus the NIC timeout)
   * every receive from it that nothing can match any more fails, those posted then and those
   * posted later.
   */
  peerDied(rank: number, node: number, deathPs: number, knownPs: number): void {
    this.failures.add(rank, node, deathPs, knownPs);
    this.runAt(this.procs[0]!, knownPs, () => this.failures.failPosted(this.eps, knownPs));
  }

  /**
   * No event is left and ranks are blocked: every receive from any source whose communicator's
   * other ranks are all dead or finished, one of them dead, fails now (peer-failures.ts).
   */
  failStalledReceives(): void {
    if (this.failures.any) this.failures.failPosted(this.eps, this.procs[0]!.engine.now, true);
  }

  /**
   * The status of the first unexpected message that a receive (source, tag, ctx) on rank `dst`
   * would match, or null (MPI_Iprobe); the message stays queued.
   */
  iprobe(dst: number, source: number, tag: number, ctx: number, elemBytes: number, inv: Int32Array | null): Status | null {
    const me = this.eps[dst]!;
    me.poll();
    if (source === PROC_NULL) return { source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 };
    const a = me.unexpected.find(source, tag, ctx);
    if (!a) return null;
    return { source: inv ? inv[a.src]! : a.src, tag: a.tag, count: Math.floor(a.bytes / elemBytes), bytes: a.bytes };
  }

  /**
   * Matches the first unexpected message that a receive (source, tag, ctx) on rank `dst` would
   * match and takes it off the queue, so that no other receive can (MPI_Improbe); null if none.
   * `searchPs` is the CPU time of the queue searches on its way, charged when it is received.
   */
  matchProbe(dst: number, source: number, tag: number, ctx: number): { readonly msg: Msg; readonly searchPs: number } | null {
    const me = this.eps[dst]!;
    me.poll();
    const q = me.unexpected;
    const a = q.take(source, tag, ctx);
    if (a === null) return null;
    this.dropSender(a);
    // the program holds it now (mrecv): never reused
    a.holds = 0;
    return { msg: a, searchPs: a.searchPs + q.searched * this.params.matchEntryPs };
  }

  /**
   * Receives message `msg`, which `matchProbe` took for rank `dst`, into `buf` (MPI_Imrecv): as a
   * receive that has just matched it, at the rank's own time; a rendezvous pull starts then.
   */
  receiveMatched(dst: number, msg: Msg, searchPs: number, buf: Uint8Array, elemBytes: number, what: string, inv: Int32Array | null, whole = false, unpack: Posted['unpack'] = null): Request {
    const me = this.eps[dst]!;
    const req = new Request(me.proc, this.params.testOverheadPs, what, me);
    me.poll();
    if (this.params.requestOverheadPs > 0) me.proc.charge(this.params.requestOverheadPs);
    const posted: Posted = { source: msg.src, tag: msg.tag, ctx: msg.ctx, buf, elemBytes, req, inv, searchPs, unpack, whole };
    this.runAt(me.proc, me.proc.time(), () => this.deliver(me, msg, posted, true));
    return req;
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
      this.deferred.take(arg)();
      return;
    }
    if (kind === EV_SEND) {
      this.launch(this.outbox.take(arg));
      return;
    }
    if (kind === EV_RECV) {
      const p = this.posts.take(arg);
      if (!p.req.done) this.post(this.eps[p.req.proc.rank]!, p);
      return;
    }
    if (kind === EV_SHM_SENT) {
      const m = this.shm.get(arg);
      m.req!.complete({ source: m.dst, tag: m.tag, count: 0, bytes: m.bytes });
      m.req = null;
    } else {
      const m = this.shm.take(arg);
      this.arrive(this.eps[m.dst]!, m);
    }
  }

  /** Message `a` has matched: its sender can no longer cancel it. */
  private dropSender(a: Msg): void {
    const req = a.sender;
    if (!req) return;
    a.sender = null;
    this.eps[a.src]!.dropUnmatched(a);
    if (req.canceller === this.cancelSend) {
      req.canceller = null;
      req.cancelTarget = null;
    }
  }

  /** Accepts arrivals in sequence order per sender, then matches them. */
  protected arrive(me: Endpoint, a: Msg): void {
    const src = a.src;
    if (a.seq !== me.recvSeq.get(src)) {
      let m = me.early.get(src);
      if (!m) me.early.set(src, (m = new Map()));
      m.set(a.seq, a);
      me.earlyCount++;
      return;
    }
    let next: Msg | undefined = a;
    while (next) {
      me.recvSeq.set(src, next.seq + 1);
      // a cancelled message only keeps the order
      if (!next.cancelled) this.match(me, next);
      if (me.earlyCount === 0) break;
      const m = me.early.get(src);
      if (m === undefined) break;
      next = m.get(next.seq + 1);
      if (next) {
        m.delete(next.seq);
        me.earlyCount--;
      }
    }
  }

  private match(me: Endpoint, a: Msg): void {
    const q = me.posted;
    const p = q.take(a.src, a.tag, a.ctx);
    // the CPU time of a linear search, as the library spends it: one step per receive looked at
    const searchPs = q.searched * this.params.matchEntryPs;
    if (p === null) {
      a.searchPs += searchPs;
      me.unexpected.push(a);
      if (me.probers.length > 0) for (const r of me.probers.splice(0)) r.complete({ source: -1, tag: -1, count: 0, bytes: 0 });
      return;
    }
    p.searchPs += searchPs;
    p.req.canceller = null;
    p.req.cancelTarget = null;
    this.deliver(me, a, p);
  }

  /**
   * A matched message: copy eager data (answering a synchronous send), or pull rendezvous data
   * with a BTE get. `inCall`: matched inside the receiver's own MPI call.
   */
  private deliver(me: Endpoint, a: Msg, p: Posted, inCall = false): void {
    const env = a;
    const P = this.params;
    this.dropSender(a);
    const partial = p.whole === true && env.bytes % p.elemBytes !== 0;
    if (env.bytes > p.buf.length || partial) {
      p.req.fail(
        partial
          ? new MpiError('MPI_ERR_TYPE', `message of ${env.bytes} bytes from rank ${env.src} (tag ${env.tag}) is not a whole number of the receive buffer's ${p.elemBytes}-byte elements`)
          : new MpiError('MPI_ERR_TRUNCATE', `message of ${env.bytes} bytes from rank ${env.src} (tag ${env.tag}) does not fit the ${p.buf.length}-byte receive buffer`),
      );
      if (env.kind === 'rts') this.reply(me, env, 'fin');
      else if (env.sync) this.ack(me, env, a.local);
      return;
    }
    const source = p.inv ? p.inv[env.src]! : env.src;
    const count = Math.floor(env.bytes / p.elemBytes);
    // a pooled request (a collective's step) keeps one status object for all its messages
    const status: Status = p.req.pool !== null ? p.req.ownStatus(source, env.tag, count, env.bytes) : { source, tag: env.tag, count, bytes: env.bytes };
    this.observer?.matched(me.proc.rank, env.src, env.seq, env.ctx);
    if (env.kind === 'eager') {
      const data = a.data!;
      if (!me.proc.isSkeleton(data) && !me.proc.isSkeleton(p.buf)) p.buf.set(data.length === env.bytes ? data : data.subarray(0, env.bytes));
      a.data = null;
      const copy = a.local ? 0 : Math.ceil(env.bytes / P.copyBytesPerPs);
      const req = p.req;
      req.complete(status, (a.local ? P.shmRecvOverheadPs : P.recvOverheadPs) + p.searchPs + copy + unpacked(p, env.bytes));
      if (env.sync) this.ack(me, env, a.local);
      this.msgs.release(a);
      // a pooled request's record: no queue, event or closure refers to it any more
      if (req.pool !== null) this.postedPool.release(p);
      return;
    }
    this.rendezvous(me, env, p, status, inCall);
  }
}
