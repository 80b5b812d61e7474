/**
 * Collective algorithms written by users: a small schedule API (send, receive, reduce-local,
 * copy, in rounds) over one rank of a communicator, and the wrapper that runs such an algorithm
 * as one of the library's own, naming the algorithm, the round and the rank in every error.
 */
import type { Op } from '../ops.ts';
import { MpiError, type Request } from '../request.ts';
import type { Algorithm, Collective, CollectiveFns } from './index.ts';
import type { Coll, CollTransport, Step } from './transport.ts';
import { alloc as allocLike, bytes, combine, copy, TAG, type Buf } from './util.ts';

/** Tags a user algorithm may give its messages (added to its collective's base tag). */
export const USER_TAGS = 16;

/** Where in a buffer a send or receive acts: `offset` and `count` in elements (default: the whole buffer), and a tag in [0, 16). */
export interface Part {
  readonly offset?: number;
  readonly count?: number;
  readonly tag?: number;
}

/**
 * What a user's algorithm runs over: this rank of the communicator, and the calls of the
 * schedule. Sends and receives return requests; the algorithm yields a request, or an array of
 * them, to wait for them together (one round), or the CPU time (ps) that `reduceLocal` and
 * `copy` return. Each yield ends a round; errors name the round.
 */
export class Schedule {
  /** Rounds the algorithm has yielded so far. */
  round = 0;

  constructor(
    private readonly t: CollTransport,
    /** The collective and the algorithm's name, for messages: `allreduce(./my-ring.ts)`. */
    readonly label: string,
    private readonly baseTag: number,
  ) {}

  /** This rank in the communicator. */
  get rank(): number {
    return this.t.rank;
  }

  /** Ranks in the communicator. */
  get size(): number {
    return this.t.size;
  }

  /** Sends elements [offset, offset + count) of `buf` to rank `dest`. */
  send(buf: Buf, dest: number, part: Part = {}): Request {
    const [off, count, tag] = this.check('send', buf, dest, part);
    return this.t.isend(bytes(buf, off, count), dest, this.baseTag + tag, `${this.label} round ${this.round}: send to ${dest}`);
  }

  /** Receives into elements [offset, offset + count) of `buf` from rank `source`. */
  recv(buf: Buf, source: number, part: Part = {}): Request {
    const [off, count, tag] = this.check('recv', buf, source, part);
    return this.t.irecv(bytes(buf, off, count), source, this.baseTag + tag, `${this.label} round ${this.round}: receive from ${source}`);
  }

  /**
   * Combines `other` into `acc` (same length): `acc = acc op other`, or `other op acc` when
   * `otherIsLower` (it holds lower ranks' data; matters for a non-commutative op). Returns the
   * CPU time to yield.
   */
  reduceLocal(op: Op, acc: Buf, other: Buf, otherIsLower = false): number {
    if (acc.length !== other.length || acc.constructor !== other.constructor) {
      throw new MpiError('MPI_ERR_ARG', `reduceLocal: acc and other must have one element type and length (got ${acc.length} ${acc.constructor.name} and ${other.length} ${other.constructor.name})`);
    }
    return combine(this.t, op, acc, other, otherIsLower);
  }

  /** Copies `count` elements of `src` from `srcOffset` into `dst` at `dstOffset`; returns the CPU time to yield. */
  copy(dst: Buf, dstOffset: number, src: Buf, srcOffset: number, count: number): number {
    checkRange('dstOffset', dstOffset, count, dst.length);
    checkRange('srcOffset', srcOffset, count, src.length);
    return copy(this.t, dst, dstOffset, src, srcOffset, count);
  }

  /** A zeroed scratch array of `n` elements of `like`'s type. */
  alloc<T extends Buf>(like: T, n: number): T {
    if (!Number.isInteger(n) || n < 0) throw new MpiError('MPI_ERR_ARG', `alloc: n must be a non-negative integer, got ${n}`);
    return allocLike(this.t, like, n);
  }

  private check(call: string, buf: Buf, peer: number, part: Part): [number, number, number] {
    if (!Number.isInteger(peer) || peer < 0 || peer >= this.t.size) throw new MpiError('MPI_ERR_RANK', `${call}: rank ${peer} is not in 0..${this.t.size - 1}`);
    const off = part.offset ?? 0;
    const count = part.count ?? buf.length - off;
    const tag = part.tag ?? 0;
    if (!Number.isInteger(off) || !Number.isInteger(count) || off < 0 || count < 0 || off + count > buf.length) {
      throw new MpiError('MPI_ERR_COUNT', `${call}: offset ${off} and count ${count} fall outside a buffer of ${buf.length} elements`);
    }
    if (!Number.isInteger(tag) || tag < 0 || tag >= USER_TAGS) throw new MpiError('MPI_ERR_TAG', `${call}: tag must be an integer in [0, ${USER_TAGS}), got ${tag}`);
    return [off, count, tag];
  }
}

/** `count` elements from `offset` lie within a buffer of `length` elements (MPI_ERR_ARG naming `name` otherwise). */
function checkRange(name: string, offset: number, count: number, length: number): void {
  if (!Number.isInteger(offset) || !Number.isInteger(count) || offset < 0 || count < 0 || offset + count > length) {
    throw new MpiError('MPI_ERR_ARG', `copy: ${name} ${offset} and count ${count} fall outside a buffer of ${length} elements`);
  }
}

/** A user's algorithm: a generator over the schedule and the collective's own arguments (see CollectiveFns). */
export type UserRun = (s: Schedule, ...args: never[]) => Generator<Step, void, unknown>;

/** What a user's algorithm file exports: the generator itself, or it with its collective and whether it needs a commutative op. */
export interface UserAlgorithmModule {
  readonly collective?: string;
  readonly name?: string;
  readonly commutativeOnly?: boolean;
  readonly run: UserRun;
}

/**
 * A user's algorithm for `collective`, named `name` (its file), as the library runs its own:
 * `exported` is the file's default export, a generator function or a UserAlgorithmModule.
 * Throws MpiError (MPI_ERR_ARG) naming what is wrong with it.
 */
export function userAlgorithm<C extends Collective>(collective: C, name: string, exported: unknown): Algorithm<C> {
  const where = `${collective} algorithm ${name}`;
  const mod: Partial<UserAlgorithmModule> | null = typeof exported === 'function' ? { run: exported as UserRun } : typeof exported === 'object' && exported !== null ? (exported as Partial<UserAlgorithmModule>) : null;
  if (mod === null || typeof mod.run !== 'function') {
    throw new MpiError('MPI_ERR_ARG', `${where}: the default export must be a generator function (schedule, ...arguments) or { run, collective?, commutativeOnly? }, got ${exported === null ? 'null' : typeof exported}`);
  }
  if (mod.run.constructor?.name !== 'GeneratorFunction') throw new MpiError('MPI_ERR_ARG', `${where}: run must be a generator function (function* ...), got a ${mod.run.constructor?.name ?? 'function'}`);
  if (mod.collective !== undefined && mod.collective !== collective) throw new MpiError('MPI_ERR_ARG', `${where}: the file is for ${String(mod.collective)}, not ${collective}`);
  if (mod.commutativeOnly !== undefined && typeof mod.commutativeOnly !== 'boolean') throw new MpiError('MPI_ERR_ARG', `${where}: commutativeOnly must be true or false, got ${typeof mod.commutativeOnly}`);
  const run = mod.run;
  const label = `${collective}(${name})`;
  const base = TAG[(collective === 'reduceScatterBlock' ? 'reduceScatter' : collective) as keyof typeof TAG];
  const fn = ((t: CollTransport, ...args: never[]) => drive(new Schedule(t, label, base), run, args)) as unknown as CollectiveFns[C];
  return Object.freeze({ name, fn, commutativeOnly: mod.commutativeOnly ?? false, origin: 'user', cost: 'as written', help: `user algorithm (${name})` });
}

/**
 * Runs the user's generator as a library algorithm: counts its rounds, and turns whatever it
 * throws (an MPI error of a call, a bug) into an MpiError naming the algorithm, round and rank.
 */
function* drive(s: Schedule, run: UserRun, args: never[]): Coll {
  let it: Generator<Step, void, unknown>;
  try {
    it = run(s, ...args);
  } catch (e) {
    throw blame(s, e);
  }
  let err: { e: unknown } | null = null;
  for (;;) {
    let r: IteratorResult<Step, void>;
    try {
      r = err !== null ? it.throw(err.e) : it.next();
    } catch (e) {
      throw blame(s, e);
    }
    err = null;
    if (r.done) return;
    const step = r.value;
    if (!isStep(step)) throw blame(s, new MpiError('MPI_ERR_ARG', `yielded ${typeof step}; yield a request, an array of requests or a CPU time in ps`));
    try {
      yield step;
      s.round++;
    } catch (e) {
      // the error names the round whose wait it ended
      err = { e };
    }
  }
}

function isStep(v: unknown): v is Step {
  return v === null || v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0) || Array.isArray(v) || (typeof v === 'object' && typeof (v as { wait?: unknown }).wait === 'function');
}

/** `e` as an MpiError that names the algorithm, the round and the rank (its class kept; MPI_ERR_OTHER for a bug). */
function blame(s: Schedule, e: unknown): MpiError {
  const cls = e instanceof MpiError ? e.errorClass : 'MPI_ERR_OTHER';
  const msg = e instanceof MpiError ? e.message.slice(cls.length + 2) : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  if (msg.startsWith(`${s.label} `)) return e instanceof MpiError ? e : new MpiError(cls, msg);
  return new MpiError(cls, `${s.label} round ${s.round}, rank ${s.rank}: ${msg}`);
}
