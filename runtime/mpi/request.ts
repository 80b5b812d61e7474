import type { WaitReason } from '../../fabric/engine/engine.ts';
import type { Proc } from '../proc.ts';
import { errorCode } from './error-classes.ts';
import { UNDEFINED } from './constants.ts';
import { ANY_SOURCE, ANY_TAG } from './message.ts';
import type { RequestPool } from './request-pool.ts';

/** Status of a completed receive (or send): who, which tag, how much. */
export interface Status {
  readonly source: number;
  readonly tag: number;
  /** Elements received, in units of the receive buffer's element type. */
  readonly count: number;
  readonly bytes: number;
  /** Set (true) on the status of a request that `cancel` stopped. */
  readonly cancelled?: true;
}

/** The status a wait or test returns for an inactive request (MPI's empty status: any source, any tag, nothing received). */
export const EMPTY_STATUS: Status = Object.freeze({ source: ANY_SOURCE, tag: ANY_TAG, count: 0, bytes: 0 });

/**
 * Elements of `type` in the bytes `status` covers (MPI_Get_count): `type` is an element size in
 * bytes or a typed array constructor; UNDEFINED when the bytes are not a whole number of elements.
 */
export function getCount(status: Status, type: number | { readonly BYTES_PER_ELEMENT: number }): number {
  if (typeof status !== 'object' || status === null || !Number.isInteger(status.bytes)) {
    throw new MpiError('MPI_ERR_ARG', `getCount: expected a status (with bytes), got ${status === null ? 'null' : typeof status}`);
  }
  const size = typeof type === 'number' ? type : typeof type === 'function' || typeof type === 'object' ? type?.BYTES_PER_ELEMENT : undefined;
  if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) {
    throw new MpiError('MPI_ERR_TYPE', `getCount: type must be a positive element size in bytes or a typed array constructor, got ${typeof type === 'number' ? type : typeof type}`);
  }
  return status.bytes % size === 0 ? status.bytes / size : UNDEFINED;
}

/**
 * What a request tells its library when its owner begins and ends a wait: a rank inside a wait
 * polls the library, which runs the protocol steps that were waiting for it (rendezvous pulls).
 */
export interface Progress {
  /** The rank calls MPI at its own time: run (or schedule at that time) the steps waiting for a call. */
  poll(): void;
  /** The rank begins a wait at its own time: it is inside MPI from then until `leave`. */
  enter(): void;
  leave(): void;
  /**
   * Runs `step`, a protocol step that needs the rank's CPU: now if the rank is inside MPI (or a
   * progress thread runs, `mpi.asyncProgress`), else at its next MPI call.
   */
  onCpu(step: () => void): void;
}

/** Bits of Request's flags. */
const COMPLETED = 1;
const INACTIVE = 2;
const TAKEN = 4;
const RETURNED = 8;
const FREED = 16;
const WHAT_TO = 32;
/** Back in its pool (see RequestPool): no operation is attached until the pool hands it out again. */
const POOLED = 64;

/** Error raised by an MPI call, carrying the MPI error class name. */
export class MpiError extends Error {
  constructor(
    readonly errorClass: string,
    message: string,
  ) {
    super(`${errorClass}: ${message}`);
    this.name = 'MpiError';
  }

  /** The error's code (its class's number, as MPICH numbers them; see `mpi.errorString`). */
  get code(): number {
    return errorCode(this.errorClass);
  }
}

/** Told when a request it waits on completes: a blocked rank, or a collective's schedule. */
export interface RequestWaiter {
  requestDone(r: Request): void;
}

/**
 * A nonblocking operation. `wait()` blocks the calling rank in simulated time until the
 * operation completes; `test()` costs a poll's CPU time and reports whether it has.
 *
 * Waiting costs one suspension of the rank at most: the rank is resumed once, by the completion
 * itself, with the status in hand. CPU time the completion costs the owner (matching, copying)
 * is charged to the owner's clock when the completion is taken, without a suspension of its own;
 * the next call that acts on shared state catches up with it (see Proc).
 */
export class Request {
  /** The request's yes/no states, one bit each (see the accessors below): a request is a small object, made per message. */
  private flags = 0;
  private get completed(): boolean {
    return (this.flags & COMPLETED) !== 0;
  }
  private set completed(v: boolean) {
    this.flags = v ? this.flags | COMPLETED : this.flags & ~COMPLETED;
  }
  private result: Status | null = null;
  private failure: Error | null = null;
  /** CPU time the owner spends when it first observes completion (matching, copying). */
  private completionCpuPs = 0;
  /** Engine time (ps) the request completed at. */
  private completedAt = 0;
  /** Who is told when the request completes (one at a time). */
  waiter: RequestWaiter | null = null;
  /**
   * No operation is attached: MPI_REQUEST_NULL, or a persistent request not started (or whose
   * completion a wait or test has returned). Waits and tests return the empty status at once.
   */
  protected get inactive(): boolean {
    return (this.flags & INACTIVE) !== 0;
  }
  protected set inactive(v: boolean) {
    this.flags = v ? this.flags | INACTIVE : this.flags & ~INACTIVE;
  }
  /** The completion has been returned by a wait or test (MPI would have freed the request then). */
  private get taken(): boolean {
    return (this.flags & TAKEN) !== 0;
  }
  private set taken(v: boolean) {
    this.flags = v ? this.flags | TAKEN : this.flags & ~TAKEN;
  }
  /**
   * Its status (or error) has been handed to the program: MPI set the handle to MPI_REQUEST_NULL
   * then, so waits and tests give the empty status from now on. `test` returns no status and
   * leaves it for one wait.
   */
  private get returned(): boolean {
    return (this.flags & RETURNED) !== 0;
  }
  private set returned(v: boolean) {
    this.flags = v ? this.flags | RETURNED : this.flags & ~RETURNED;
  }
  /** Freed by `requestFree`: using it again is MPI_ERR_REQUEST. */
  private get freed(): boolean {
    return (this.flags & FREED) !== 0;
  }

  /** The description's text; with `whatPeer` >= 0, followed by ` to <peer>` or ` from <peer>`. */
  private whatText: string;
  /** The peer a collective step's description names (-1: none). */
  private whatPeer = -1;
  /** Whether the named peer is a destination (` to `) rather than a source (` from `). */
  private get whatTo(): boolean {
    return (this.flags & WHAT_TO) !== 0;
  }

  constructor(
    readonly proc: Proc,
    private readonly testCostPs: number,
    /** The call that made it, e.g. `irecv(source=3, tag=1)`, for deadlock diagnoses. */
    what: string,
    readonly progress: Progress | null = null,
  ) {
    this.whatText = what;
  }

  /** The call that made it, e.g. `irecv(source=3, tag=1)`, for deadlock diagnoses. */
  get what(): string {
    return this.whatPeer < 0 ? this.whatText : `${this.whatText} ${this.whatTo ? 'to' : 'from'} ${this.whatPeer}`;
  }

  /**
   * Names the peer of a collective step: the description becomes `<what> to <peer>` (`to`
   * true) or `<what> from <peer>`. The string is built only when a diagnosis reads it, so a
   * message on the common path allocates no text.
   */
  namePeer(to: boolean, peer: number): this {
    this.flags = to ? this.flags | WHAT_TO : this.flags & ~WHAT_TO;
    this.whatPeer = peer;
    return this;
  }

  /** Set by the library: how `cancel` tries to stop this request (false: too late). */
  canceller: ((req: Request) => boolean) | null = null;
  /** What the canceller stops (the library's own record of the operation, e.g. a send's message). */
  cancelTarget: object | null = null;
  /** The pool this request came from and goes back to once taken (`recycle`); null: never reused. */
  pool: RequestPool | null = null;
  /** A pooled request's status object, rewritten for each of its messages (see `ownStatus`). */
  private spare: { source: number; tag: number; count: number; bytes: number } | null = null;

  /** An inactive request that stands for no operation (MPI_REQUEST_NULL); one per rank. */
  static null(proc: Proc, testCostPs: number): Request {
    const r = new Request(proc, testCostPs, 'REQUEST_NULL');
    r.inactive = true;
    return r;
  }

  /** True once the operation has completed, or when no operation is attached (no simulated cost). */
  get done(): boolean {
    return this.completed || this.inactive;
  }

  /**
   * Whether an operation is attached whose completion no wait or test has returned yet: the
   * requests waitAny, testAny, waitSome and testSome consider. MPI_REQUEST_NULL, an inactive
   * persistent request and a request already waited on are not active.
   */
  get active(): boolean {
    return !this.inactive && !this.taken;
  }

  /** Whether this is MPI_REQUEST_NULL. */
  get isNull(): boolean {
    return this.inactive && !this.persistent;
  }

  /** Whether the request outlives its completions (MPI's persistent requests: started again and again). */
  get persistent(): boolean {
    return false;
  }

  /** Whether `requestFree` has freed it. */
  get isFreed(): boolean {
    return this.freed;
  }

  /** Fails with MPI_ERR_REQUEST, naming `call`, if the request was freed. */
  checkUsable(call: string): void {
    if (this.freed) throw new MpiError('MPI_ERR_REQUEST', `${call}: the request ${this.what} was freed by requestFree`);
  }

  /**
   * Frees the request (MPI_Request_free): an operation in progress goes on to completion, but
   * nothing may wait on, test, start or cancel the request any more.
   */
  free(): void {
    this.flags |= FREED;
  }

  /** Marks the request complete; tells its waiter. */
  complete(status: Status, completionCpuPs = 0): void {
    if (this.completed) return;
    this.completed = true;
    this.completedAt = this.proc.engine.now;
    this.result = status;
    this.completionCpuPs = completionCpuPs;
    this.notify();
  }

  /** Completes the request with an error that `wait()` will throw (an MpiError, or a fault of the library). */
  fail(err: Error): void {
    if (this.completed) return;
    this.completed = true;
    this.completedAt = this.proc.engine.now;
    this.failure = err;
    this.notify();
  }

  private notify(): void {
    const w = this.waiter;
    if (w !== null) {
      this.waiter = null;
      w.requestDone(this);
    }
  }

  /**
   * Takes the completion of a completed request, as the owner's next step (see Proc.completion):
   * the owner's time reaches the completion's, crossing to its socket if it had to block for it,
   * and it spends the CPU time the completion costs (once); returns the status, or throws the
   * request's error.
   */
  take(): Status {
    // a status already returned left MPI_REQUEST_NULL in the caller's handle: the empty status
    if (this.inactive || this.returned) return EMPTY_STATUS;
    const cpu = this.completionCpuPs;
    this.completionCpuPs = 0;
    this.proc.completion(this.completedAt, cpu);
    this.taken = true;
    this.returned = true;
    // a persistent request is inactive once its completion is returned, ready to start again
    if (this.persistent) this.inactive = true;
    if (this.failure) throw this.failure;
    return this.result!;
  }

  /**
   * The outcome of a completed request, handed to a request that stands for it (a persistent or
   * a combined request) without charging anyone: its status or error and the CPU time its
   * completion costs, which the other request's taker then spends.
   */
  handOver(): { readonly status: Status | null; readonly failure: Error | null; readonly cpuPs: number } {
    const cpuPs = this.completionCpuPs;
    this.completionCpuPs = 0;
    return { status: this.result, failure: this.failure, cpuPs };
  }

  /** Attaches a new operation to an inactive request (a persistent request's start): not complete, nothing taken. */
  protected activate(): void {
    this.inactive = false;
    this.taken = false;
    this.returned = false;
    this.completed = false;
    this.result = null;
    this.failure = null;
    this.completionCpuPs = 0;
  }

  /**
   * Completes the request as cancelled; a send that completed locally while its message was still
   * unmatched (an eager send) and whose completion no one has taken gets the cancelled status
   * instead of its own.
   */
  completeCancelled(status: Status): void {
    if (!this.completed) {
      this.complete(status);
      return;
    }
    this.result = status;
    this.failure = null;
  }

  /**
   * The status of a completed request without taking its completion (MPI_Request_get_status):
   * the empty status for an inactive one; throws the request's error. Call only when `done`.
   */
  peek(): Status {
    if (this.inactive) return EMPTY_STATUS;
    if (this.failure) throw this.failure;
    return this.result!;
  }

  /** What MPI_Request_get_status gives the program: as `peek`, but the empty status once a wait returned the status (the handle is REQUEST_NULL then). */
  statusForProgram(): Status {
    return this.returned ? EMPTY_STATUS : this.peek();
  }

  /**
   * Blocks until the operation completes and returns its status. A status is returned once: MPI
   * then sets the caller's handle to MPI_REQUEST_NULL, so a second wait on the same request
   * returns the empty status at once, as one on REQUEST_NULL does.
   */
  wait(reason?: WaitReason): Promise<Status> {
    if (this.freed) return Promise.reject(new MpiError('MPI_ERR_REQUEST', `wait: the request ${this.what} was freed by requestFree`));
    if (this.inactive || this.returned) return Promise.resolve(EMPTY_STATUS);
    this.proc.settle();
    if (this.completed) return settled(this);
    const pending = this.proc.pendingWait;
    if (pending instanceof RankWait && !this.proc.running) return pending.join(this);
    return new RankWait(this.proc, [this], 'one', reason ?? (() => `wait(${this.what})`)).promise as Promise<Status>;
  }

  /** Polls once (costing the machine's test overhead); true if the operation has completed. */
  async test(): Promise<boolean> {
    this.checkUsable('test');
    this.progress?.poll();
    await this.proc.cpu(this.testCostPs, `test(${this.what})`);
    if (!this.done) return false;
    const fresh = !this.inactive && !this.returned;
    this.take();
    // the completion is taken, but its status is not returned: the next wait still returns it
    if (fresh) this.returned = false;
    return true;
  }

  /**
   * Tries to cancel the operation (MPI_Cancel): true if it was stopped before it took effect (a
   * receive not yet matched, a send whose message no receive has matched yet). False once its
   * completion has been returned by a wait or test, or for an inactive request.
   */
  cancel(): boolean {
    this.checkUsable('cancel');
    if (this.taken || this.inactive || !this.canceller) return false;
    if (!this.canceller(this)) return false;
    this.canceller = null;
    return true;
  }

  /** The status, once complete. */
  get status(): Status | null {
    return this.result;
  }

  /**
   * Gives a pooled request whose completion has just been taken back to its pool, if nothing in
   * the library still refers to it: no waiter, and no canceller (a send whose message no receive
   * has matched yet keeps one, and its message keeps the request: such a request is left to the
   * garbage collector). Does nothing for a request made outside a pool. Only the one that took
   * the completion, and that alone holds the request (a collective's schedule, see CollRun),
   * may call this.
   */
  recycle(): void {
    const pool = this.pool;
    if (pool === null || (this.flags & (TAKEN | POOLED)) !== TAKEN || this.waiter !== null || this.canceller !== null || this.cancelTarget !== null) return;
    this.flags = POOLED;
    this.result = null;
    this.failure = null;
    pool.put(this);
  }

  /**
   * This request's own status object, set to these values: a pooled request's status is read by
   * no one but the schedule that takes it, so each of its messages rewrites the same object.
   */
  ownStatus(source: number, tag: number, count: number, bytes: number): Status {
    const s = (this.spare ??= { source, tag, count, bytes });
    s.source = source;
    s.tag = tag;
    s.count = count;
    s.bytes = bytes;
    return s;
  }

  /** Whether this request is back in its pool (handed to no one). */
  get inPool(): boolean {
    return (this.flags & POOLED) !== 0;
  }

  /** Makes a request from the pool a new one described as `what`, every field as the constructor sets it. */
  reuse(what: string): this {
    this.flags = 0;
    this.result = null;
    this.failure = null;
    this.completionCpuPs = 0;
    this.completedAt = 0;
    this.waiter = null;
    this.whatText = what;
    this.whatPeer = -1;
    this.canceller = null;
    this.cancelTarget = null;
    return this;
  }
}

/** The status of a completed request as a settled promise. */
function settled(r: Request): Promise<Status> {
  try {
    return Promise.resolve(r.take());
  } catch (e) {
    return Promise.reject(e as Error);
  }
}

/**
 * Waits for every request of `reqs` and returns their statuses in order; the first failed one,
 * in order, is thrown once all are complete.
 */
export function waitAll(proc: Proc, reqs: readonly Request[], reason: WaitReason): Promise<Status[]> {
  proc.settle();
  const pending = proc.pendingWait;
  if (pending instanceof RankWait && !proc.running) return Promise.all(reqs.map((r) => pending.join(r)));
  for (const r of reqs) if (!r.done) return new RankWait(proc, reqs, 'all', reason).promise as Promise<Status[]>;
  try {
    return Promise.resolve(reqs.map((r) => r.take()));
  } catch (e) {
    return Promise.reject(e as Error);
  }
}

/** Blocks until one of `reqs` has completed, consuming nothing (waitAny and waitSome build on it). */
export function waitWoken(proc: Proc, reqs: readonly Request[], reason: WaitReason): Promise<void> {
  for (const r of reqs) if (r.done) return Promise.resolve();
  return new RankWait(proc, reqs, 'any', reason).promise as Promise<void>;
}

/**
 * A rank blocked in a wait on some requests: one suspension of its thread, resumed by the
 * completion that satisfies the wait (one, all, or any of them) with the result in hand. The
 * rank is inside MPI, polling, from its own time at the start of the wait until it resumes.
 */
class RankWait implements RequestWaiter {
  readonly promise: Promise<unknown>;
  private left: number;
  private readonly progress: Progress | null;
  /** Waits of this rank begun while this one was pending (Promise.all over wait() calls): they end with it. */
  private readonly joined: { readonly req: Request; readonly resolve: (s: Status) => void; readonly reject: (e: unknown) => void }[] = [];
  /** The wait is satisfied and its thread woken (it may not have resumed yet). */
  private fired = false;
  /** The wait is starting: its poll (`progress.enter`) runs schedule steps due, which may complete what it waits for. */
  private entering = false;
  /** The outcome of a wait satisfied while it was starting: it ends without a suspension. */
  private early: { readonly value: unknown; readonly failure: unknown } | null = null;

  constructor(
    private readonly proc: Proc,
    private readonly reqs: readonly Request[],
    private readonly mode: 'one' | 'all' | 'any',
    reason: WaitReason,
  ) {
    let left = 0;
    for (const r of reqs) {
      if (r.done) continue;
      if (r.waiter !== null) throw new MpiError('MPI_ERR_REQUEST', `${r.what}: already waited on by another call of this rank`);
      r.waiter = this;
      left++;
    }
    this.left = mode === 'any' ? 1 : left;
    this.progress = reqs.find((r) => r.progress !== null)?.progress ?? null;
    this.entering = true;
    this.progress?.enter();
    this.entering = false;
    if (this.early) {
      const { value, failure } = this.early;
      this.promise = failure !== null ? Promise.reject(failure as Error) : Promise.resolve(value);
      return;
    }
    this.promise = proc.suspend(reason);
    proc.pendingWait = this;
  }

  /**
   * A wait on `req` that this rank began while this one was still pending (its code went on
   * without awaiting, as `Promise.all([a.wait(), b.wait()])` does): both end together once all
   * their requests have completed, as MPI_Waitall would. A wake already given is taken back until
   * then. Joining a waitAny is refused.
   */
  join(req: Request): Promise<Status> {
    if (this.mode === 'any') return Promise.reject(new MpiError('MPI_ERR_REQUEST', `wait(${req.what}) began while a waitAny of this rank is pending; await it first`));
    if (req.waiter !== null && !req.done) return Promise.reject(new MpiError('MPI_ERR_REQUEST', `${req.what}: already waited on by another call of this rank`));
    return new Promise<Status>((resolve, reject) => {
      this.joined.push({ req, resolve, reject });
      if (req.done) {
        // complete already: it ends with the rest, or now if they have ended
        if (this.fired) this.settleJoined();
        return;
      }
      req.waiter = this;
      if (this.fired) {
        this.fired = false;
        this.left = 0;
        this.proc.unresume();
        this.progress?.enter();
      }
      this.left++;
    });
  }

  requestDone(): void {
    if (--this.left > 0) return;
    if (this.mode === 'any') for (const r of this.reqs) if (r.waiter === this) r.waiter = null;
    this.fired = true;
    // a wait on a collective (no progress of its own) ends where the collective's last wait did
    this.progress?.leave();
    if (this.mode === 'any') return this.wake(undefined, null);
    let value: unknown;
    let failure: unknown = null;
    try {
      value = this.mode === 'one' ? this.reqs[0]!.take() : this.reqs.map((r) => r.take());
    } catch (e) {
      failure = e;
    }
    this.settleJoined();
    this.wake(value, failure);
  }

  /** Resumes the thread with the wait's outcome, or, while the wait is starting, keeps the outcome for it. */
  private wake(value: unknown, failure: unknown): void {
    if (this.entering) this.early = { value, failure };
    else if (failure !== null) this.proc.resumeWithError(failure);
    else this.proc.resume(value);
  }

  /** Hands the joined waits their statuses (or errors). */
  private settleJoined(): void {
    for (const j of this.joined.splice(0)) {
      try {
        j.resolve(j.req.take());
      } catch (e) {
        j.reject(e);
      }
    }
  }
}
