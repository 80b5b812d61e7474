/**
 * The replay program: every rank reads its own calls from a trace and issues each through
 * phit's MPI with the traced arguments (peer, tag, communicator, bytes, root, op), so the
 * protocols, collective algorithms and network are the simulated machine's. The time between
 * two calls becomes `ctx.compute`, scaled by `computeScale`. Buffers come from `ctx.alloc`: in
 * a skeleton run (what `phit replay` does) they cost no memory, so traced messages of any size
 * move their sizes only.
 */
import type { ArrayType } from '../fabric/skeleton.ts';
import type { Comm, Op, Request, ReduceArray } from '../runtime/mpi/mpi.ts';
import type { RankContext, RankProgram } from '../runtime/rank.ts';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, SELF, TraceFormatError, WORLD, type CollCall, type CompletionCall, type InitCall, type TraceCall, type TraceOp, type TraceSource, type VCollCall } from './calls.ts';
import { WindowReplay, type WindowHost } from './replay-windows.ts';

/** What to do with a call the replay does not issue. */
export type UnsupportedMode = 'map' | 'skip';

/** Options of a replay. */
export interface ReplayOptions {
  /** Factor on every traced computation time (default 1; 2: a processor half as fast). */
  readonly computeScale?: number;
  /** `map` (default): issue the nearest supported call; `skip`: issue nothing. */
  readonly unsupported?: UnsupportedMode;
}

/** An unsupported call's count and what it became (null: skipped). */
export interface UnsupportedCount {
  count: number;
  mappedTo: string | null;
}

/** What one rank replayed. */
export interface RankReplay {
  /** Calls read from the trace, by traced name. */
  readonly traced: Record<string, number>;
  /** MPI calls issued. */
  issued: number;
  /** Payload bytes the rank's point-to-point sends moved (collectives' not counted). */
  sentBytes: number;
  /** Calls that needed no MPI call (MPI_Comm_rank, MPI_Wtime, MPI_Init, ...). */
  local: number;
  /** Computation between calls, after scaling (ps). */
  computePs: number;
  /** Completion calls on requests the replay had already completed (a test that succeeded earlier). */
  doneRequests: number;
  /** Requests still pending when the trace ended; the replay waits for them. */
  leftPending: number;
  /** Bytes the rank's puts, gets and accumulates moved. */
  rmaBytes: number;
  readonly unsupported: Record<string, UnsupportedCount>;
}

/** Most ps one `ctx.compute` call takes; longer gaps are issued in pieces. */
const COMPUTE_PIECE_PS = 1e15;

/** The rank program that replays `source` (one reader per rank, opened when the rank starts). */
export function replayProgram(source: TraceSource, opts: ReplayOptions = {}): RankProgram<RankReplay> {
  const scale = opts.computeScale ?? 1;
  if (!Number.isFinite(scale) || scale < 0) throw new RangeError(`computeScale must be a non-negative number, got ${scale}`);
  const mode = opts.unsupported ?? 'map';
  return async (ctx) => {
    if (ctx.size !== source.ranks) throw new RangeError(`${source.path}: the trace has ${source.ranks} ranks, the run ${ctx.size}`);
    const r = new RankReplayer(ctx, scale, mode);
    const trace = source.open(ctx.rank);
    for (let c = trace.next(); c !== null; c = trace.next()) await r.issue(c);
    await r.finish();
    return r.stats;
  };
}

/** The element type of the buffers a reduction uses, and how many elements `count` items of `typeBytes` make. */
interface ReduceShape {
  readonly Type: ArrayType<ReduceArray>;
  readonly per: number;
}

/** Buffers of bytes, for the collectives that only move data: ranks may describe the same bytes with different datatypes. */
const BYTES: ReduceShape = { Type: Uint8Array, per: 1 };

/** One rank's replay state: its communicators and live requests by trace handle. */
class RankReplayer implements WindowHost {
  readonly stats: RankReplay = { traced: {}, issued: 0, sentBytes: 0, local: 0, computePs: 0, doneRequests: 0, leftPending: 0, rmaBytes: 0, unsupported: {} };
  private readonly comms = new Map<number, Comm>();
  /** Live requests by trace handle; a handle can name several (MPICH hands every send it completed at once the same handle). */
  private readonly requests = new Map<number, Request[]>();
  /** Scratch buffers by role, grown to the largest request (views of the skeleton store in a skeleton run). */
  private readonly pools = new Map<string, ArrayBufferView>();
  /** Persistent requests by trace handle, made once by their init and started as the trace starts them. */
  private readonly inits = new Map<number, Request>();
  private readonly windows = new WindowReplay(this);

  constructor(
    readonly ctx: RankContext,
    private readonly scale: number,
    private readonly mode: UnsupportedMode,
  ) {
    this.comms.set(WORLD, ctx.mpi);
    this.comms.set(SELF, ctx.mpi.COMM_SELF);
  }

  async issue(c: TraceCall): Promise<void> {
    this.stats.traced[c.name] = (this.stats.traced[c.name] ?? 0) + 1;
    if (c.call === 'unsupported') {
      const nearest = this.mode === 'map' ? c.nearest : null;
      const u = (this.stats.unsupported[c.name] ??= { count: 0, mappedTo: nearest ? nearest.name : null });
      u.count++;
      if (nearest) await this.run(nearest);
      return;
    }
    await this.run(c);
  }

  /** Waits for the requests the trace left pending (as SimGrid's replay does at the end). */
  async finish(): Promise<void> {
    const all = [...this.requests.values()].flat();
    this.requests.clear();
    if (all.length === 0) return;
    this.stats.leftPending += all.length;
    await this.ctx.mpi.waitAll(all);
  }

  private async run(c: TraceCall): Promise<void> {
    const mpi = this.ctx.mpi;
    switch (c.call) {
      case 'compute': {
        const t0 = this.ctx.now();
        if (c.flops > 0) await this.ctx.compute({ flops: c.flops * this.scale });
        let ps = Math.round(c.ps * this.scale);
        while (ps > 0) {
          const piece = Math.min(ps, COMPUTE_PIECE_PS);
          await this.ctx.compute(piece);
          ps -= piece;
        }
        this.stats.computePs += Math.round((this.ctx.now() - t0) * 1e6);
        return;
      }
      case 'local':
        this.stats.local++;
        return;
      case 'unsupported':
        return this.issue(c);
      case 'send': {
        const comm = this.comm(c.comm, c.name);
        const buf = this.bytes('send', c.bytes);
        const dest = c.peer === PROC_NULL ? mpi.PROC_NULL : c.peer;
        this.stats.issued++;
        if (dest !== mpi.PROC_NULL) this.stats.sentBytes += c.bytes;
        if (c.req === undefined) {
          if (c.mode === 'sync') await comm.ssend(buf, dest, c.tag);
          else if (c.mode === 'ready') await comm.rsend(buf, dest, c.tag);
          else await comm.send(buf, dest, c.tag);
        } else {
          this.track(c.req, c.mode === 'sync' ? comm.issend(buf, dest, c.tag) : c.mode === 'ready' ? comm.irsend(buf, dest, c.tag) : comm.isend(buf, dest, c.tag));
        }
        return;
      }
      case 'recv': {
        const comm = this.comm(c.comm, c.name);
        const buf = this.bytes('recv', c.bytes < 0 ? UNKNOWN_RECV_BYTES : c.bytes);
        const source = c.peer === ANY_SOURCE ? mpi.ANY_SOURCE : c.peer === PROC_NULL ? mpi.PROC_NULL : c.peer;
        const tag = c.tag === ANY_TAG ? mpi.ANY_TAG : c.tag;
        this.stats.issued++;
        if (c.req === undefined) await comm.recv(buf, source, tag);
        else this.track(c.req, comm.irecv(buf, source, tag));
        return;
      }
      case 'sendrecv': {
        const comm = this.comm(c.comm, c.name);
        const source = c.source === ANY_SOURCE ? mpi.ANY_SOURCE : c.source === PROC_NULL ? mpi.PROC_NULL : c.source;
        const dest = c.dest === PROC_NULL ? mpi.PROC_NULL : c.dest;
        this.stats.issued++;
        if (dest !== mpi.PROC_NULL) this.stats.sentBytes += c.sendBytes;
        const recvTag = c.recvTag === ANY_TAG ? mpi.ANY_TAG : c.recvTag;
        if (c.name === 'MPI_Sendrecv_replace' && c.sendBytes === c.recvBytes) await comm.sendrecvReplace(this.bytes('send', c.sendBytes), dest, c.sendTag, source, recvTag);
        else await comm.sendrecv(this.bytes('send', c.sendBytes), dest, c.sendTag, this.bytes('recv', c.recvBytes), source, recvTag);
        return;
      }
      case 'wait':
      case 'waitall':
      case 'waitany':
      case 'waitsome':
      case 'test':
      case 'testall':
      case 'testany':
      case 'testsome':
        return this.complete(c);
      case 'split':
      case 'dup':
      case 'free':
        return this.commCall(c);
      case 'init':
        return this.init(c);
      case 'start': {
        const reqs = c.reqs.map((h) => {
          const r = this.inits.get(h);
          if (!r) throw new TraceFormatError(`rank ${this.ctx.rank}: ${c.name} of request ${h}, which no persistent init of the trace made`);
          return r;
        });
        this.stats.issued++;
        if (c.call === 'start' && reqs.length === 1 && c.name === 'MPI_Start') mpi.start(reqs[0]!);
        else mpi.startAll(reqs);
        c.reqs.forEach((h, i) => {
          this.track(h, reqs[i]!);
          const op = this.initOps.get(h);
          if (op?.call === 'send' && op.peer !== PROC_NULL) this.stats.sentBytes += op.bytes;
        });
        return;
      }
      case 'requestFree':
      case 'cancel': {
        const r = this.requests.get(c.req)?.[0] ?? this.inits.get(c.req);
        // a request the replay already completed and let go of (a free after its last wait is the usual case for persistent ones)
        if (!r) {
          this.stats.doneRequests++;
          return;
        }
        this.stats.issued++;
        if (c.call === 'cancel') {
          mpi.cancel(r);
          return;
        }
        mpi.requestFree(r);
        this.inits.delete(c.req);
        this.initOps.delete(c.req);
        this.untrack(c.req, r);
        return;
      }
      case 'probe':
      case 'iprobe': {
        const comm = this.comm(c.comm, c.name);
        const source = c.peer === ANY_SOURCE ? mpi.ANY_SOURCE : c.peer === PROC_NULL ? mpi.PROC_NULL : c.peer;
        const tag = c.tag === ANY_TAG ? mpi.ANY_TAG : c.tag;
        this.stats.issued++;
        if (c.call === 'probe') await comm.probe(source, tag);
        else await comm.iprobe(source, tag);
        return;
      }
      case 'winCreate':
        this.stats.issued++;
        return this.windows.create(c);
      case 'put':
      case 'get':
      case 'accumulate':
        this.stats.issued++;
        this.stats.rmaBytes += await this.windows.transfer(c);
        return;
      case 'winFree':
      case 'fence':
      case 'winStart':
      case 'winComplete':
      case 'winPost':
      case 'winWait':
      case 'winTest':
      case 'lock':
      case 'unlock':
        if (await this.windows.sync(c)) this.stats.issued++;
        else this.stats.local++;
        return;
      case 'alltoallv':
      case 'allgatherv':
      case 'gatherv':
      case 'scatterv':
      case 'reduceScatter':
        return this.vcoll(c);
      default:
        return this.coll(c);
    }
  }

  /** The communicator of trace handle `h`; a handle the trace never made is a bad trace. */
  comm(h: number, name: string): Comm {
    const comm = this.comms.get(h);
    if (!comm) throw new TraceFormatError(`rank ${this.ctx.rank}: ${name} on communicator ${h}, which the trace never created`);
    return comm;
  }

  /** A scratch buffer of `count` elements of `Type` for `role` (send, recv, ...). */
  buffer<T extends ReduceArray>(role: string, Type: ArrayType<T>, count: number): T {
    const key = `${role}:${Type.name}`;
    let b = this.pools.get(key) as T | undefined;
    if (!b || b.length < count) {
      b = this.ctx.alloc(Type, Math.max(count, b ? 2 * b.length : 0));
      this.pools.set(key, b);
    }
    return b.subarray(0, count) as T;
  }

  private bytes(role: string, n: number): Uint8Array {
    return this.buffer(role, Uint8Array, n);
  }

  private track(handle: number, req: Request): void {
    const list = this.requests.get(handle);
    if (list) list.push(req);
    else this.requests.set(handle, [req]);
  }

  /** Forgets live request `req` of `handle`. */
  private untrack(handle: number, req: Request): void {
    const list = this.requests.get(handle);
    if (!list) return;
    const at = list.indexOf(req);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.requests.delete(handle);
  }

  /** The operations of the persistent requests, by handle (for the bytes each start sends). */
  private readonly initOps = new Map<number, InitCall['op']>();

  /** Makes a persistent request (MPI_Send_init, MPI_Recv_init, ...); a buffered one is made as a standard one, as the replay's buffered sends are. */
  private init(c: InitCall): void {
    const mpi = this.ctx.mpi;
    const op = c.op;
    const comm = this.comm(op.comm, c.name);
    this.stats.issued++;
    let r: Request;
    if (op.call === 'send') {
      const dest = op.peer === PROC_NULL ? mpi.PROC_NULL : op.peer;
      const buf = this.ctx.alloc(Uint8Array, op.bytes);
      r = op.mode === 'sync' ? comm.ssendInit(buf, dest, op.tag) : op.mode === 'ready' ? comm.rsendInit(buf, dest, op.tag) : comm.sendInit(buf, dest, op.tag);
    } else {
      const source = op.peer === ANY_SOURCE ? mpi.ANY_SOURCE : op.peer === PROC_NULL ? mpi.PROC_NULL : op.peer;
      r = comm.recvInit(this.ctx.alloc(Uint8Array, op.bytes), source, op.tag === ANY_TAG ? mpi.ANY_TAG : op.tag);
    }
    this.inits.set(c.req, r);
    this.initOps.set(c.req, op);
  }

  /** The element type and op of an accumulate of items of `typeBytes`. */
  reduceShape(typeBytes: number, op: TraceOp): { Type: ReduceShape['Type']; per: number; op: Op } {
    const s = op === 'minloc' || op === 'maxloc' ? this.pairShape(typeBytes) : this.shape(typeBytes, op);
    return { ...s, op: op === 'replace' ? this.ctx.mpi.REPLACE : this.op(op, s.Type) };
  }

  private async complete(c: CompletionCall): Promise<void> {
    const mpi = this.ctx.mpi;
    // each time a handle is named, the next live request it names (oldest first)
    const handles = c.reqs ?? [...this.requests.keys()].flatMap((h) => this.requests.get(h)!.map(() => h));
    const live: Request[] = [];
    const ids: number[] = [];
    const used = new Map<number, number>();
    for (const h of handles) {
      const k = used.get(h) ?? 0;
      const r = this.requests.get(h)?.[k];
      if (r) {
        live.push(r);
        ids.push(h);
        used.set(h, k + 1);
      }
    }
    if (live.length === 0) {
      // MPI_Wait on a request already completed (by an earlier test): nothing to wait for
      this.stats.doneRequests++;
      return;
    }
    this.stats.issued++;
    const drop = (i: number): void => {
      const list = this.requests.get(ids[i]!);
      if (!list) return;
      const at = list.indexOf(live[i]!);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.requests.delete(ids[i]!);
    };
    switch (c.call) {
      case 'wait':
        await mpi.wait(live[0]!);
        drop(0);
        return;
      case 'waitall':
        await mpi.waitAll(live);
        ids.forEach((_, i) => drop(i));
        return;
      case 'waitany': {
        const { index } = await mpi.waitAny(live);
        if (index >= 0) drop(index);
        return;
      }
      case 'waitsome': {
        const done = await mpi.waitSome(live);
        if (Array.isArray(done)) for (const d of done) drop(d.index);
        return;
      }
      case 'test':
        if (await mpi.test(live[0]!)) drop(0);
        return;
      case 'testall':
        if (await mpi.testAll(live)) ids.forEach((_, i) => drop(i));
        return;
      case 'testany': {
        const { flag, index } = await mpi.testAny(live);
        if (flag && index >= 0) drop(index);
        return;
      }
      case 'testsome': {
        const done = await mpi.testSome(live);
        if (Array.isArray(done)) for (const d of done) drop(d.index);
        return;
      }
    }
  }

  private async commCall(c: TraceCall & { call: 'split' | 'dup' | 'free' }): Promise<void> {
    const comm = this.comm(c.comm, c.name);
    this.stats.issued++;
    if (c.call === 'free') {
      if (c.comm === WORLD || c.comm === SELF) throw new TraceFormatError(`rank ${this.ctx.rank}: ${c.name} of a predefined communicator`);
      await comm.free();
      this.comms.delete(c.comm);
      return;
    }
    const made = c.call === 'dup' ? await comm.dup() : await comm.split(c.color < 0 ? this.ctx.mpi.UNDEFINED : c.color, c.key);
    if (c.newComm !== null && made) this.comms.set(c.newComm, made);
  }

  /** The op of a reduction on arrays of `Type`: the traced one where it applies, else sum. */
  private op(op: TraceOp, Type: ReduceShape['Type']): Op {
    const mpi = this.ctx.mpi;
    const integer = (Type as unknown) !== Float64Array;
    switch (op) {
      case 'max':
        return mpi.MAX;
      case 'min':
        return mpi.MIN;
      case 'prod':
        return mpi.PROD;
      case 'minloc':
        return mpi.MINLOC;
      case 'maxloc':
        return mpi.MAXLOC;
      case 'land':
        return integer ? mpi.LAND : mpi.SUM;
      case 'lor':
        return integer ? mpi.LOR : mpi.SUM;
      case 'lxor':
        return integer ? mpi.LXOR : mpi.SUM;
      case 'band':
        return integer ? mpi.BAND : mpi.SUM;
      case 'bor':
        return integer ? mpi.BOR : mpi.SUM;
      case 'bxor':
        return integer ? mpi.BXOR : mpi.SUM;
      default:
        return mpi.SUM;
    }
  }

  /** Elements of a buffer holding items of `typeBytes`: the widest element that divides them; integers for bitwise and logical ops. */
  private shape(typeBytes: number, op: TraceOp): ReduceShape {
    const bits = op === 'band' || op === 'bor' || op === 'bxor' || op === 'land' || op === 'lor' || op === 'lxor';
    if (typeBytes % 8 === 0) return { Type: bits ? BigInt64Array : Float64Array, per: typeBytes / 8 };
    if (typeBytes % 4 === 0) return { Type: Int32Array, per: typeBytes / 4 };
    if (typeBytes % 2 === 0) return { Type: Int16Array, per: typeBytes / 2 };
    return { Type: Uint8Array, per: typeBytes };
  }

  private async coll(c: CollCall): Promise<void> {
    const comm = this.comm(c.comm, c.name);
    const size = comm.size;
    this.stats.issued++;
    if (c.call === 'barrier') {
      await this.blockingOrNot(comm, c, 'barrier');
      return;
    }
    const reduces = c.call === 'reduce' || c.call === 'allreduce' || c.call === 'scan' || c.call === 'exscan';
    const { Type, per } = !reduces ? BYTES : c.op === 'minloc' || c.op === 'maxloc' ? this.pairShape(c.typeBytes) : this.shape(c.typeBytes, c.op);
    const n = c.count * (reduces ? per : c.typeBytes);
    const send = this.buffer('send', Type, c.call === 'scatter' ? n * size : n);
    const wide = c.call === 'alltoall' || c.call === 'allgather' || c.call === 'gather';
    const recv = this.buffer('recv', Type, wide ? n * size : n);
    const atRoot = comm.rank === c.root;
    switch (c.call) {
      case 'bcast':
        await this.blockingOrNot(comm, c, 'bcast', send, c.root);
        break;
      case 'reduce':
        await this.blockingOrNot(comm, c, 'reduce', send, atRoot ? recv : null, this.op(c.op, Type), c.root);
        break;
      case 'allreduce':
        await this.blockingOrNot(comm, c, 'allreduce', send, recv, this.op(c.op, Type));
        break;
      case 'scan':
        await this.blockingOrNot(comm, c, 'scan', send, recv, this.op(c.op, Type));
        break;
      case 'exscan':
        await this.blockingOrNot(comm, c, 'exscan', send, recv, this.op(c.op, Type));
        break;
      case 'alltoall':
        await this.blockingOrNot(comm, c, 'alltoall', this.buffer('send', Type, n * size), recv);
        break;
      case 'allgather':
        await this.blockingOrNot(comm, c, 'allgather', send, recv);
        break;
      case 'gather':
        await this.blockingOrNot(comm, c, 'gather', send, atRoot ? recv : null, c.root);
        break;
      case 'scatter':
        await this.blockingOrNot(comm, c, 'scatter', atRoot ? send : null, this.buffer('recv', Type, n), c.root);
        break;
    }
    if (c.flops > 0) await this.ctx.compute({ flops: c.flops * this.scale });
  }

  /** Runs collective `method` of `comm`, or its nonblocking form (`ibcast` for `bcast`) when the trace gave the call a request, which is then tracked. */
  private async blockingOrNot(comm: Comm, c: { readonly req?: number }, method: string, ...args: unknown[]): Promise<void> {
    const f = comm as unknown as Record<string, (...a: unknown[]) => unknown>;
    if (c.req === undefined) await f[method]!.apply(comm, args);
    else this.track(c.req, f[`i${method}`]!.apply(comm, args) as Request);
  }

  /** MINLOC and MAXLOC items: (value, index) pairs of two equal elements. */
  private pairShape(typeBytes: number): ReduceShape {
    if (typeBytes % 16 === 0) return { Type: Float64Array, per: typeBytes / 8 };
    return { Type: Int32Array, per: Math.max(2, Math.floor(typeBytes / 4)) };
  }

  private async vcoll(c: VCollCall): Promise<void> {
    const comm = this.comm(c.comm, c.name);
    const size = comm.size;
    // only reduce-scatter combines data: the others move bytes, whatever each rank's datatype
    const { Type, per } = c.call === 'reduceScatter' ? this.shape(c.typeBytes, c.op) : { Type: BYTES.Type, per: c.typeBytes };
    const scaled = (xs: readonly number[] | null): number[] | null => (xs ? xs.map((x) => x * per) : null);
    const displs = (xs: readonly number[]): number[] => {
      const d = new Array<number>(xs.length);
      let at = 0;
      for (let i = 0; i < xs.length; i++) {
        d[i] = at;
        at += xs[i]!;
      }
      return d;
    };
    const sum = (xs: readonly number[] | null): number => (xs ? xs.reduce((a, b) => a + b, 0) : 0);
    const sendCounts = scaled(c.sendCounts);
    const recvCounts = scaled(c.recvCounts);
    const need = (what: string, xs: number[] | null, len: number): number[] => {
      if (!xs || xs.length !== len) throw new TraceFormatError(`rank ${this.ctx.rank}: ${c.name} needs ${len} ${what}, the trace gives ${xs ? xs.length : 'none'}`);
      return xs;
    };
    const atRoot = comm.rank === c.root;
    this.stats.issued++;
    switch (c.call) {
      case 'alltoallv': {
        const s = need('send counts', sendCounts, size);
        const r = need('receive counts', recvCounts, size);
        await this.blockingOrNot(comm, c, 'alltoallv', this.buffer('send', Type, sum(s)), s, displs(s), this.buffer('recv', Type, sum(r)), r, displs(r));
        break;
      }
      case 'allgatherv': {
        const s = need('send count', sendCounts, 1);
        const r = need('receive counts', recvCounts, size);
        await this.blockingOrNot(comm, c, 'allgatherv', this.buffer('send', Type, s[0]!), this.buffer('recv', Type, sum(r)), r, displs(r));
        break;
      }
      case 'gatherv': {
        const s = need('send count', sendCounts, 1);
        const r = atRoot ? need('receive counts', recvCounts, size) : null;
        await this.blockingOrNot(comm, c, 'gatherv', this.buffer('send', Type, s[0]!), r ? this.buffer('recv', Type, sum(r)) : null, r, r ? displs(r) : null, c.root);
        break;
      }
      case 'scatterv': {
        const s = atRoot ? need('send counts', sendCounts, size) : null;
        const r = need('receive count', recvCounts, 1);
        await this.blockingOrNot(comm, c, 'scatterv', s ? this.buffer('send', Type, sum(s)) : null, s, s ? displs(s) : null, this.buffer('recv', Type, r[0]!), c.root);
        break;
      }
      case 'reduceScatter': {
        const r = need('receive counts', recvCounts, size);
        await this.blockingOrNot(comm, c, 'reduceScatter', this.buffer('send', Type, sum(r)), this.buffer('recv', Type, r[comm.rank]!), r, this.op(c.op, Type));
        break;
      }
    }
    if (c.flops > 0) await this.ctx.compute({ flops: c.flops * this.scale });
  }
}

/** The buffer of a receive whose size the trace does not give (SimGrid's size 0: the replay probes in SimGrid); a skeleton buffer costs nothing. */
const UNKNOWN_RECV_BYTES = 1 << 30;
