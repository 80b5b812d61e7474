import type { Proc } from '../proc.ts';
import { ANY_SOURCE, ANY_TAG, bytesOf, CTX_WORLD, CTX_WORLD_COLL, PROC_NULL, type MpiWorld } from './core.ts';
import { MAX, MIN, PROD, SUM, type NumericArray, type Op } from './ops.ts';
import { MpiError, type Request, type Status } from './request.ts';

export { MpiError, type Request, type Status } from './request.ts';
export type { NumericArray, Op } from './ops.ts';

/** Largest tag value (MPI_TAG_UB). */
export const TAG_UB = 0x7fffffff;

/**
 * The MPI face a rank program sees as `ctx.mpi`: names follow MPI in camelCase. Every call
 * checks its arguments and names the bad one; blocking calls suspend the rank in simulated time.
 */
export class Mpi {
  readonly ANY_SOURCE = ANY_SOURCE;
  readonly ANY_TAG = ANY_TAG;
  readonly PROC_NULL = PROC_NULL;
  readonly TAG_UB = TAG_UB;
  readonly SUM: Op = SUM;
  readonly MIN: Op = MIN;
  readonly MAX: Op = MAX;
  readonly PROD: Op = PROD;

  constructor(
    private readonly world: MpiWorld,
    private readonly proc: Proc,
  ) {}

  /** This rank in MPI_COMM_WORLD. */
  get rank(): number {
    return this.proc.rank;
  }

  /** Number of ranks in MPI_COMM_WORLD. */
  get size(): number {
    return this.world.size;
  }

  /** Blocking standard-mode send. */
  async send(buf: ArrayBufferView, dest: number, tag: number): Promise<void> {
    const what = `send(dest=${dest}, tag=${tag}, ${byteLen(buf)} bytes)`;
    await this.startSend('send', buf, dest, tag, CTX_WORLD, what).wait(() => what);
  }

  /** Nonblocking send; the buffer must not change until the request completes. */
  isend(buf: ArrayBufferView, dest: number, tag: number): Request {
    return this.startSend('isend', buf, dest, tag, CTX_WORLD, `isend(dest=${dest}, tag=${tag}, ${byteLen(buf)} bytes)`);
  }

  /** Blocking receive; returns the status (source, tag, count in elements of `buf`). */
  async recv(buf: ArrayBufferView, source: number, tag: number): Promise<Status> {
    const what = `recv(source=${fmtSource(source)}, tag=${fmtTag(tag)})`;
    return this.startRecv('recv', buf, source, tag, CTX_WORLD, what).wait(() => what);
  }

  /** Nonblocking receive. */
  irecv(buf: ArrayBufferView, source: number, tag: number): Request {
    return this.startRecv('irecv', buf, source, tag, CTX_WORLD, `irecv(source=${fmtSource(source)}, tag=${fmtTag(tag)})`);
  }

  /** Waits for one request. */
  wait(req: Request): Promise<Status> {
    return req.wait();
  }

  /** Waits for every request; returns their statuses in order. */
  async waitAll(reqs: readonly Request[]): Promise<Status[]> {
    const out: Status[] = [];
    const reason = (): string => {
      const pending = reqs.filter((r) => !r.done);
      return `waitAll(${pending.length} of ${reqs.length} pending: ${pending.map((r) => r.what).join(', ')})`;
    };
    for (const r of reqs) out.push(await r.wait(reason));
    return out;
  }

  /** Polls one request once (costs a poll's CPU time). */
  test(req: Request): Promise<boolean> {
    return req.test();
  }

  /** Blocks until every rank has called barrier (dissemination algorithm). */
  async barrier(): Promise<void> {
    const n = this.size;
    const me = this.rank;
    const token = new Uint8Array(0);
    for (let k = 1, round = 0; k < n; k *= 2, round++) {
      const to = (me + k) % n;
      const from = (me - k + n) % n;
      const what = `barrier() round ${round}: waiting for rank ${from}`;
      const r = this.world.irecv(me, token, 1, from, round, CTX_WORLD_COLL, what);
      const s = this.world.isend(me, token, to, round, CTX_WORLD_COLL, `barrier() round ${round}`);
      await r.wait(() => what);
      await s.wait(() => what);
    }
  }

  /**
   * Combines `sendBuf` of every rank with `op` into every rank's `recvBuf` (binomial reduce to
   * rank 0, then binomial broadcast). Both buffers must have the same type and length.
   */
  async allreduce(sendBuf: NumericArray, recvBuf: NumericArray, op: Op): Promise<void> {
    if (!isTypedArray(sendBuf) || !isTypedArray(recvBuf)) {
      throw new MpiError('MPI_ERR_BUFFER', `allreduce: sendBuf and recvBuf must be numeric typed arrays, got ${describe(sendBuf)} and ${describe(recvBuf)}`);
    }
    if (sendBuf.constructor !== recvBuf.constructor || sendBuf.length !== recvBuf.length) {
      throw new MpiError('MPI_ERR_COUNT', `allreduce: sendBuf and recvBuf must have the same type and length (got ${sendBuf.constructor.name}[${sendBuf.length}] and ${recvBuf.constructor.name}[${recvBuf.length}])`);
    }
    if (!op || typeof op.apply !== 'function') throw new MpiError('MPI_ERR_OP', 'allreduce: op must be one of mpi.SUM, mpi.MIN, mpi.MAX, mpi.PROD');
    const n = this.size;
    const me = this.rank;
    recvBuf.set(sendBuf as never);
    const tmp = new (recvBuf.constructor as new (n: number) => NumericArray)(recvBuf.length);
    const bytes = bytesOf(recvBuf);
    const tmpBytes = bytesOf(tmp);
    const elem = recvBuf.BYTES_PER_ELEMENT;
    const tag = 1 << 20;
    // reduce toward rank 0
    let mask = 1;
    while (mask < n) {
      if (me & mask) {
        const to = me - mask;
        const s = this.world.isend(me, bytes, to, tag, CTX_WORLD_COLL, `allreduce(${op.name}) reduce to ${to}`);
        await s.wait(() => `allreduce(${op.name}) reduce to ${to}`);
        break;
      }
      const from = me + mask;
      if (from < n) {
        const what = `allreduce(${op.name}): waiting for rank ${from}`;
        await this.world.irecv(me, tmpBytes, elem, from, tag, CTX_WORLD_COLL, what).wait(() => what);
        op.apply(recvBuf, tmp);
        await this.proc.cpu(Math.ceil(recvBuf.length / this.proc.machine.config.cpu.flopsPerPs), 'allreduce combine');
      }
      mask <<= 1;
    }
    // broadcast from rank 0
    let m = 1;
    while (m < n) m <<= 1;
    for (m >>= 1; m > 0; m >>= 1) {
      if (me % (2 * m) === 0 && me + m < n) {
        const s = this.world.isend(me, bytes, me + m, tag + 1, CTX_WORLD_COLL, `allreduce(${op.name}) bcast to ${me + m}`);
        await s.wait(() => `allreduce(${op.name}) bcast to ${me + m}`);
      } else if (me % (2 * m) === m) {
        const what = `allreduce(${op.name}): waiting for the result from rank ${me - m}`;
        await this.world.irecv(me, bytes, elem, me - m, tag + 1, CTX_WORLD_COLL, what).wait(() => what);
      }
    }
  }

  private checkBuf(call: string, buf: ArrayBufferView): Uint8Array {
    if (!ArrayBuffer.isView(buf)) throw new MpiError('MPI_ERR_BUFFER', `${call}: buf must be a typed array or DataView, got ${describe(buf)}`);
    return bytesOf(buf);
  }

  private checkRank(call: string, name: string, v: number, wildcard: boolean): void {
    const ok = Number.isInteger(v) && ((v >= 0 && v < this.size) || v === PROC_NULL || (wildcard && v === ANY_SOURCE));
    if (!ok) {
      throw new MpiError('MPI_ERR_RANK', `${call}: ${name}=${v} is not a rank of MPI_COMM_WORLD (0..${this.size - 1}${wildcard ? ', mpi.ANY_SOURCE' : ''} or mpi.PROC_NULL)`);
    }
  }

  private checkTag(call: string, v: number, wildcard: boolean): void {
    const ok = Number.isInteger(v) && ((v >= 0 && v <= TAG_UB) || (wildcard && v === ANY_TAG));
    if (!ok) throw new MpiError('MPI_ERR_TAG', `${call}: tag=${v} must be an integer from 0 to ${TAG_UB}${wildcard ? ' or mpi.ANY_TAG' : ''}`);
  }

  private startSend(call: string, buf: ArrayBufferView, dest: number, tag: number, ctx: number, what: string): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'dest', dest, false);
    this.checkTag(call, tag, false);
    return this.world.isend(this.rank, bytes, dest, tag, ctx, what);
  }

  private startRecv(call: string, buf: ArrayBufferView, source: number, tag: number, ctx: number, what: string): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'source', source, true);
    this.checkTag(call, tag, true);
    const elem = 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    return this.world.irecv(this.rank, bytes, elem, source, tag, ctx, what);
  }
}

function isTypedArray(v: unknown): v is NumericArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) && !(v instanceof BigUint64Array);
}

function byteLen(buf: ArrayBufferView): number | string {
  return ArrayBuffer.isView(buf) ? buf.byteLength : '?';
}

function fmtSource(s: number): string {
  return s === ANY_SOURCE ? 'ANY_SOURCE' : String(s);
}

function fmtTag(t: number): string {
  return t === ANY_TAG ? 'ANY_TAG' : String(t);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}
