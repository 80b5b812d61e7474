/**
 * What MPI's matching works on: a message (its envelope, then what its receiver keeps), a posted
 * receive, the match rule, and the small tables the library keeps them in.
 */
import type { Request } from './request.ts';

const EMPTY = new Uint8Array(0);

/** Wildcards and special ranks, with MPICH's values. */
export const ANY_SOURCE = -2;
export const ANY_TAG = -1;
export const PROC_NULL = -1;
/** The root's own root argument in a collective on an intercommunicator (MPI_ROOT). */
export const ROOT = -3;

/** A table of values by slot, slots reused once taken (events carry slots instead of closures). */
export class Slots<T> {
  private readonly items: (T | undefined)[] = [];
  private readonly free: number[] = [];
  /** Stores `v`; returns its slot. */
  put(v: T): number {
    const i = this.free.length > 0 ? this.free.pop()! : this.items.length;
    this.items[i] = v;
    return i;
  }
  get(i: number): T {
    return this.items[i]!;
  }
  /** Returns the value of slot `i` and frees the slot. */
  take(i: number): T {
    const v = this.items[i]!;
    this.items[i] = undefined;
    this.free.push(i);
    return v;
  }
}

export type Kind = 'eager' | 'rts' | 'fin' | 'ack';

/**
 * A message: the header that travels with it (the short-message meta, or the on-node envelope),
 * then, once it has arrived, what its receiver keeps; and, on the sender's side until it leaves,
 * its request, buffer and destination. One object per message from send to match; an eager
 * network message's object is then reused for a later message (see MsgPool).
 */
export class Msg {
  /** Eager or on-node payload, once arrived. */
  data: Uint8Array | null = null;
  /** True when it came over the on-node path. */
  local = false;
  /** The sender's request, while the message may still be cancelled (until a receive matches it). */
  sender: Request | null = null;
  /** Cancelled by its sender before any receive matched it: it arrives, but matches nothing. */
  cancelled = false;
  /** Neighbours in its sender's list of unmatched sends (see Endpoint.unmatched), while `sender` is set. */
  prevUnmatched: Msg | null = null;
  nextUnmatched: Msg | null = null;
  /** Sender side: its request and buffer (until the message has left). */
  req: Request | null = null;
  buf: Uint8Array = EMPTY;
  /** Destination world rank. */
  dst = -1;
  /** CPU time of the posted-queue search that found no receive for it, charged to the receive that takes it. */
  searchPs = 0;
  /** Owners that have not let go of the object yet (MsgPool); 0: it is never reused. */
  holds = 0;
  // the envelope is set when the object is made or reused for a message, and read-only till then
  constructor(
    public kind: Kind,
    public src: number,
    public tag: number,
    public ctx: number,
    /** Per (sender, receiver) sequence number: restores the non-overtaking order. */
    public seq: number,
    public bytes: number,
    /** Rendezvous: the sender's registered buffer. */
    public handle: number,
    /** The sender's request id: a rendezvous (answered by a FIN) or a synchronous send (answered by an ACK once matched); -1 otherwise. */
    public sreq: number,
    /** Synchronous mode: the sender's request completes only once a receive has matched. */
    public sync: boolean,
  ) {}

  /** Makes this object, which no one holds any more, a new message, every field as the constructor sets it. */
  reuse(kind: Kind, src: number, tag: number, ctx: number, seq: number, bytes: number, handle: number, sreq: number, sync: boolean): this {
    this.data = null;
    this.local = false;
    this.sender = null;
    this.cancelled = false;
    this.prevUnmatched = null;
    this.nextUnmatched = null;
    this.req = null;
    this.buf = EMPTY;
    this.dst = -1;
    this.searchPs = 0;
    this.holds = 0;
    this.kind = kind;
    this.src = src;
    this.tag = tag;
    this.ctx = ctx;
    this.seq = seq;
    this.bytes = bytes;
    this.handle = handle;
    this.sreq = sreq;
    this.sync = sync;
    return this;
  }
}

/**
 * Message objects to reuse: an eager message over the network is held by its two ends (the
 * source's completion and the receive that takes it, `holds` 2); once both have let go, no
 * queue, request or event refers to it, and the next message takes it.
 */
export class MsgPool {
  private readonly free: Msg[] = [];

  /** A message with this envelope: a free object reused, or a new one. */
  make(kind: Kind, src: number, tag: number, ctx: number, seq: number, bytes: number, handle: number, sreq: number, sync: boolean): Msg {
    const m = this.free.pop();
    return m !== undefined ? m.reuse(kind, src, tag, ctx, seq, bytes, handle, sreq, sync) : new Msg(kind, src, tag, ctx, seq, bytes, handle, sreq, sync);
  }

  /** One holder of `m` lets go; the last one frees it for reuse (nothing for a message no one holds). */
  release(m: Msg): void {
    if (m.holds > 0 && --m.holds === 0) this.free.push(m);
  }
}

/** A posted receive. */
export interface Posted {
  readonly source: number;
  readonly tag: number;
  readonly ctx: number;
  readonly buf: Uint8Array;
  readonly elemBytes: number;
  readonly req: Request;
  /** Communicator rank of each world rank (-1: not a member), for the status; null: MPI_COMM_WORLD. */
  readonly inv: Int32Array | null;
  /** CPU time of the queue searches on the way to its match (mpi.matchEntry), charged at completion. */
  searchPs: number;
  /** A derived-datatype receive: unpacks the first `bytes` received bytes into the user's layout, returns the CPU time (ps) it took. */
  readonly unpack?: ((bytes: number) => number) | null;
  /** The buffer is a typed array of `elemBytes`-byte elements (the short form): a message must fill whole elements (else MPI_ERR_TYPE). */
  readonly whole?: boolean;
}

/** Whether posted receive (or probe) `p` takes message `env`: context, source and tag, wildcards allowed. */
export function matches(p: Pick<Posted, 'source' | 'tag' | 'ctx'>, env: Msg): boolean {
  return (
    p.ctx === env.ctx &&
    (p.source === ANY_SOURCE || p.source === env.src) &&
    (p.tag === ANY_TAG || p.tag === env.tag)
  );
}
