import type { EventHandler } from '../../fabric/engine/engine.ts';
import type { MpiParams } from '../../fabric/machine.ts';
import { NicStatus } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import { MpiError, Request, type Status } from './request.ts';

/** Wildcards and special ranks, with MPICH's values. */
export const ANY_SOURCE = -2;
export const ANY_TAG = -1;
export const PROC_NULL = -1;

/** Context ids: user point-to-point and the library's own collective traffic never match. */
export const CTX_WORLD = 0;
export const CTX_WORLD_COLL = 1;

type Kind = 'eager' | 'rts' | 'fin';

/** What travels in a message header (the short-message meta, or the on-node envelope). */
interface Envelope {
  readonly kind: Kind;
  readonly src: number;
  readonly tag: number;
  readonly ctx: number;
  /** Per (sender, receiver) sequence number: restores the non-overtaking order. */
  readonly seq: number;
  readonly bytes: number;
  /** Rendezvous: the sender's registered buffer and request. */
  readonly handle: number;
  readonly sreq: number;
}

/** A message that has arrived (in order) at its receiver. */
interface Arrived {
  readonly env: Envelope;
  /** Eager or on-node payload. */
  readonly data: Uint8Array | null;
  /** True when it came over the on-node path. */
  readonly local: boolean;
}

/** A posted receive. */
interface Posted {
  readonly source: number;
  readonly tag: number;
  readonly ctx: number;
  readonly buf: Uint8Array;
  readonly elemBytes: number;
  readonly req: Request;
}

const EV_SHM_ARRIVE = 0;
const EV_SHM_SENT = 1;
const EV_POST = 2;

/** Bytes of any ArrayBufferView. */
export function bytesOf(buf: ArrayBufferView): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Per-rank MPI state: queues, sequence numbers and the rank's process. */
class Endpoint {
  readonly posted: Posted[] = [];
  readonly unexpected: Arrived[] = [];
  /** Next sequence number to send to each peer. */
  readonly sendSeq: Int32Array;
  /** Next sequence number expected from each peer. */
  readonly recvSeq: Int32Array;
  /** Arrivals ahead of their turn, per peer, keyed by sequence number. */
  readonly early = new Map<number, Map<number, Arrived>>();
  constructor(
    readonly proc: Proc,
    size: number,
  ) {
    this.sendSeq = new Int32Array(size);
    this.recvSeq = new Int32Array(size);
  }
}

/**
 * The MPI library of one run, as Cray MPI over uGNI (seed 001, "Cray XC Network Software
 * Stack"): eager messages are short-message puts into the receiver's mailbox; larger ones send a
 * request-to-send, and the receiver pulls the data with a BTE get once it has matched, then
 * sends a FIN. Ranks on the same node use a shared-memory path. Matching follows MPI: by source,
 * tag and context, with wildcards, in arrival order, and messages between a pair of ranks
 * are matched in the order they were sent even when the network delivers them out of order.
 * Progress is asynchronous: protocol steps happen in NIC events, not only inside MPI calls.
 */
export class MpiWorld implements EventHandler {
  private readonly eps: Endpoint[] = [];
  private readonly sendReqs = new Map<number, { req: Request; handle: number; proc: Proc }>();
  private nextSreq = 1;
  private readonly shm = new Map<number, { to: number; arrived: Arrived; req: Request | null }>();
  private nextShm = 1;
  /** Sends whose caller is still spending the call's CPU time. */
  private readonly deferred = new Map<number, () => void>();
  private nextPost = 1;
  readonly id: number;

  constructor(
    readonly procs: readonly Proc[],
    readonly params: MpiParams,
  ) {
    const engine = procs[0]!.engine;
    this.id = engine.register(this);
    for (const p of procs) {
      this.eps.push(new Endpoint(p, procs.length));
      // eager data lands in the mailbox buffer the NIC hands over with the header
      p.nic.setSmsgHandler(p.inst, (_srcNode, meta, payload) => this.onSmsg(p.rank, meta as Envelope, payload));
    }
  }

  get size(): number {
    return this.procs.length;
  }

  /**
   * Starts a send of `buf` from `src` to `dst` and returns its request at once. The call's CPU
   * time (overhead, FMA stores) is charged to the sender's clock, and the message leaves when
   * that work is done.
   */
  isend(src: number, buf: Uint8Array, dst: number, tag: number, ctx: number, what: string): Request {
    const me = this.eps[src]!;
    const proc = me.proc;
    const P = this.params;
    const req = new Request(proc, P.testOverheadPs, what);
    if (dst === PROC_NULL) {
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    const peer = this.eps[dst]!.proc;
    const seq = me.sendSeq[dst]!;
    me.sendSeq[dst] = seq + 1;
    const bytes = buf.length;
    let start: () => void;
    const leaves = proc.charge(P.sendOverheadPs);
    if (peer.node === proc.node) {
      // on-node path: copy into a shared buffer; the send completes when the copy is done
      const env: Envelope = { kind: 'eager', src, tag, ctx, seq, bytes, handle: -1, sreq: -1 };
      const copyPs = Math.ceil(bytes / P.shmBytesPerPs);
      start = () => {
        const id = this.nextShm++;
        const now = proc.engine.now;
        this.shm.set(id, { to: dst, arrived: { env, data: buf.slice(), local: true }, req });
        proc.engine.at(now + copyPs, this.id, EV_SHM_SENT, id);
        proc.engine.at(now + P.shmLatencyPs + copyPs, this.id, EV_SHM_ARRIVE, id);
      };
    } else if (bytes <= P.eagerMaxBytes) {
      const env: Envelope = { kind: 'eager', src, tag, ctx, seq, bytes, handle: -1, sreq: -1 };
      start = () => void proc.nic.sendSmsg(peer.node, peer.inst, env, buf, (s) => this.nicDone(req, s, bytes));
      proc.charge(proc.nic.smsgCostPs(bytes));
    } else {
      // rendezvous: expose the buffer and announce it; the receiver pulls it
      start = () => {
        const handle = proc.nic.register(buf);
        const sreq = this.nextSreq++;
        this.sendReqs.set(sreq, { req, handle, proc });
        const env: Envelope = { kind: 'rts', src, tag, ctx, seq, bytes, handle, sreq };
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

  /** Runs `fn` at time `at` of `proc`'s clock: now, or by an event once the engine gets there. */
  private runAt(proc: Proc, at: number, fn: () => void): void {
    if (at <= proc.engine.now) {
      fn();
      return;
    }
    const id = this.nextPost++;
    this.deferred.set(id, fn);
    proc.engine.at(Math.round(at), this.id, EV_POST, id);
  }

  /** Posts a receive into `buf`; completes at once if a matching message already arrived. */
  irecv(dst: number, buf: Uint8Array, elemBytes: number, source: number, tag: number, ctx: number, what: string): Request {
    const me = this.eps[dst]!;
    const req = new Request(me.proc, this.params.testOverheadPs, what);
    if (source === PROC_NULL) {
      req.complete({ source: PROC_NULL, tag: ANY_TAG, count: 0, bytes: 0 });
      return req;
    }
    const posted: Posted = { source, tag, ctx, buf, elemBytes, req };
    const i = me.unexpected.findIndex((a) => matches(posted, a.env));
    if (i >= 0) {
      const [a] = me.unexpected.splice(i, 1);
      // matched inside the call: protocol work starts at the caller's own time
      this.runAt(me.proc, me.proc.time(), () => this.deliver(me, a!, posted));
    } else {
      me.posted.push(posted);
    }
    return req;
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

  private nicDone(req: Request, s: NicStatus, bytes: number): void {
    if (s === NicStatus.Ok) req.complete({ source: -1, tag: -1, count: 0, bytes });
    else req.fail(new MpiError('MPI_ERR_OTHER', `network transfer failed with NIC status ${s}`));
  }

  /** A short message reached rank `to`'s mailbox. */
  private onSmsg(to: number, env: Envelope, payload: Uint8Array | null): void {
    if (env.kind === 'fin') {
      const s = this.sendReqs.get(env.sreq)!;
      this.sendReqs.delete(env.sreq);
      s.proc.nic.deregister(s.handle);
      s.req.complete({ source: to, tag: env.tag, count: 0, bytes: env.bytes });
      return;
    }
    this.arrive(this.eps[to]!, { env, data: env.kind === 'eager' ? payload : null, local: false });
  }

  /** Accepts arrivals in sequence order per sender, then matches them. */
  private arrive(me: Endpoint, a: Arrived): void {
    const src = a.env.src;
    if (a.env.seq !== me.recvSeq[src]) {
      let m = me.early.get(src);
      if (!m) me.early.set(src, (m = new Map()));
      m.set(a.env.seq, a);
      return;
    }
    let next: Arrived | undefined = a;
    while (next) {
      me.recvSeq[src] = next.env.seq + 1;
      this.match(me, next);
      const m = me.early.get(src);
      next = m?.get(me.recvSeq[src]!);
      if (next) m!.delete(next.env.seq);
    }
  }

  private match(me: Endpoint, a: Arrived): void {
    const i = me.posted.findIndex((p) => matches(p, a.env));
    if (i < 0) {
      me.unexpected.push(a);
      return;
    }
    const [p] = me.posted.splice(i, 1);
    this.deliver(me, a, p!);
  }

  /** A matched message: copy eager data, or pull rendezvous data with a BTE get. */
  private deliver(me: Endpoint, a: Arrived, p: Posted): void {
    const env = a.env;
    const P = this.params;
    if (env.bytes > p.buf.length) {
      p.req.fail(new MpiError('MPI_ERR_TRUNCATE', `message of ${env.bytes} bytes from rank ${env.src} (tag ${env.tag}) does not fit the ${p.buf.length}-byte receive buffer`));
      if (env.kind === 'rts') this.finish(me, env);
      return;
    }
    const status: Status = { source: env.src, tag: env.tag, count: Math.floor(env.bytes / p.elemBytes), bytes: env.bytes };
    if (env.kind === 'eager') {
      p.buf.set(a.data!.subarray(0, env.bytes));
      const copy = a.local ? 0 : Math.ceil(env.bytes / P.copyBytesPerPs);
      p.req.complete(status, P.recvOverheadPs + copy);
      return;
    }
    const proc = me.proc;
    const sender = this.eps[env.src]!.proc;
    proc.nic.post({
      op: 'get',
      mode: 'bte',
      local: p.buf.subarray(0, env.bytes),
      remoteNode: sender.node,
      remoteHandle: env.handle,
      remoteOffset: 0,
      onComplete: (s) => {
        if (s !== NicStatus.Ok) p.req.fail(new MpiError('MPI_ERR_OTHER', `rendezvous get failed with NIC status ${s}`));
        else p.req.complete(status, P.recvOverheadPs);
        this.finish(me, env);
      },
    });
  }

  /** Tells a rendezvous sender that its buffer is free. */
  private finish(me: Endpoint, env: Envelope): void {
    const sender = this.eps[env.src]!.proc;
    const fin: Envelope = { kind: 'fin', src: me.proc.rank, tag: env.tag, ctx: env.ctx, seq: -1, bytes: env.bytes, handle: -1, sreq: env.sreq };
    me.proc.nic.sendSmsg(sender.node, sender.inst, fin, EMPTY, () => {});
  }
}

const EMPTY = new Uint8Array(0);

function matches(p: Posted, env: Envelope): boolean {
  return (
    p.ctx === env.ctx &&
    (p.source === ANY_SOURCE || p.source === env.src) &&
    (p.tag === ANY_TAG || p.tag === env.tag)
  );
}
