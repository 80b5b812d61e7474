/**
 * Pools of the objects the MPI library alone sees on a collective's messages: requests and
 * posted-receive records, reused from message to message so the common path allocates neither.
 */
import type { Proc } from '../proc.ts';
import type { Posted } from './message.ts';
import { Request, type Progress } from './request.ts';

/**
 * Requests of one rank that the library alone ever sees (a collective's internal sends and
 * receives, which the schedule takes and drops at once), reused from message to message so a
 * message allocates no request. Every request of a pool has the same owner, poll cost and
 * progress; a request made for the program never comes from a pool.
 */
export class RequestPool {
  private readonly free: Request[] = [];

  constructor(
    private readonly proc: Proc,
    private readonly testCostPs: number,
    private readonly progress: Progress,
  ) {}

  /** A request described as `what`: a free one reused, or a new one of this pool. */
  take(what: string): Request {
    const r = this.free.pop();
    if (r !== undefined) return r.reuse(what);
    const n = new Request(this.proc, this.testCostPs, what, this.progress);
    n.pool = this;
    return n;
  }

  /** Takes back `r`, which `Request.recycle` has cleared. */
  put(r: Request): void {
    this.free.push(r);
  }

  /** Requests waiting to be reused. */
  get size(): number {
    return this.free.length;
  }
}

/**
 * Posted-receive records of pooled requests (see MpiWorld.irecv), free once their message is
 * delivered. A record is made with the same fields, in the same order, as the library's literal,
 * so queues see one shape.
 */
export class PostedPool {
  private readonly free: Posted[] = [];

  /** A posted receive with these fields: a free record reused, or a new one. */
  make(source: number, tag: number, ctx: number, buf: Uint8Array, elemBytes: number, req: Request, inv: Int32Array | null, unpack: Posted['unpack'], whole: boolean): Posted {
    const p = this.free.pop();
    if (p === undefined) return { source, tag, ctx, buf, elemBytes, req, inv, searchPs: 0, unpack, whole };
    const w = p as { -readonly [K in keyof Posted]: Posted[K] };
    w.source = source;
    w.tag = tag;
    w.ctx = ctx;
    w.buf = buf;
    w.elemBytes = elemBytes;
    w.req = req;
    w.inv = inv;
    w.searchPs = 0;
    w.unpack = unpack;
    w.whole = whole;
    return p;
  }

  /** Takes back `p`, which no queue, event or closure refers to any more. */
  release(p: Posted): void {
    this.free.push(p);
  }
}
