import { EventQueue, MAX_HANDLERS } from './event-queue.ts';
import { Prng } from './prng.ts';

/** Anything that receives events: fabric components implement this; no closures per event. */
export interface EventHandler {
  onEvent(kind: number, arg: number): void;
}

/** A run that ended with ranks still blocked and nothing left to happen. */
export class DeadlockError extends Error {
  constructor(
    readonly timePs: number,
    readonly blocked: readonly string[],
  ) {
    super(
      `deadlock at ${(timePs / 1e6).toFixed(3)} us: no event is pending and ${blocked.length} ` +
        `rank(s) are blocked:\n  ${blocked.join('\n  ')}`,
    );
    this.name = 'DeadlockError';
  }
}

/** A rank program threw; the run stops at the simulated time it failed. */
export class RankError extends Error {
  constructor(
    readonly rank: number,
    readonly timePs: number,
    readonly error: unknown,
  ) {
    super(`rank ${rank} failed at ${(timePs / 1e6).toFixed(3)} us: ${error instanceof Error ? error.message : String(error)}`);
    this.name = 'RankError';
  }
}

/** What a blocked thread waits in, built only when a diagnosis needs it. */
export type WaitReason = string | (() => string);

const enum ThreadState {
  Created,
  Running,
  Blocked,
  Ready,
  Done,
}

/** A rank's thread of control as the engine sees it. */
export class Thread {
  state: ThreadState = ThreadState.Created;
  reason: WaitReason = '';
  /** Settles the promise the thread waits on (set while it is blocked). */
  resolve: ((value: unknown) => void) | null = null;
  reject: ((error: unknown) => void) | null = null;
  /** What the next resumption hands the thread: a value, or an error to throw (`failed`). */
  value: unknown = undefined;
  failed = false;
  /** Why the thread was stopped from outside (its node died), or null. */
  killed: string | null = null;
  constructor(
    readonly id: number,
    readonly label: string,
  ) {}
  get done(): boolean {
    return this.state === ThreadState.Done;
  }
  get blocked(): boolean {
    return this.state === ThreadState.Blocked;
  }
}

const EV_WAKE = 0;

/** Receives the simulated time (ps) and the events processed so far, while a run goes on. */
export type ProgressFn = (nowPs: number, events: number) => void;

/** Events between two progress calls unless told otherwise (2^18). */
export const PROGRESS_EVERY = 1 << 18;

/**
 * The discrete-event engine: one queue of (time, seq) events and the async rank threads it
 * resumes. Time is integer picoseconds. Ranks run only between events and never see wall clock:
 * after resuming threads the engine waits until every one of them has blocked again or ended,
 * then takes the next event.
 */
export class Engine implements EventHandler {
  /** Current simulated time in ps. */
  now = 0;
  /** Events processed so far. */
  events = 0;
  /** The run's source of randomness. */
  readonly rng: Prng;
  /** The seed the run started from (components with a stream of their own derive it from this). */
  readonly seed: number;
  private readonly queue = new EventQueue(4096);
  private readonly handlers: EventHandler[] = [];
  private readonly threads: Thread[] = [];
  private readonly ready: Thread[] = [];
  private running = 0;
  private failure: RankError | null = null;
  private readonly selfId: number;
  private progressFn: ProgressFn | null = null;
  private progressEvery = PROGRESS_EVERY;
  /** Event count of the next progress call; Infinity when nobody listens (one compare per event). */
  private nextProgress = Infinity;
  /**
   * Called when no event is left and threads are still blocked, before the run ends with a
   * deadlock report: it may wake threads or schedule events (a runtime failing waits that can
   * now never be satisfied), and the run goes on if it did.
   */
  onStall: (() => void) | null = null;

  constructor(seed = 1) {
    this.seed = seed;
    this.rng = new Prng(seed);
    this.selfId = this.register(this);
  }

  /** Registers an event handler and returns the id to schedule events on it. */
  register(handler: EventHandler): number {
    if (this.handlers.length >= MAX_HANDLERS) throw new RangeError(`engine: more than ${MAX_HANDLERS} event handlers`);
    this.handlers.push(handler);
    return this.handlers.length - 1;
  }

  /** Schedules `handler.onEvent(kind, arg)` at absolute time `at` (ps, never in the past); `kind` is an integer in [0, 256). */
  at(at: number, handler: number, kind: number, arg: number): void {
    this.queue.push(at < this.now ? this.now : at, handler, kind, arg);
  }

  /** Calls `fn(nowPs, events)` every `every` events of `run` and `drain`; null stops the calls. */
  onProgress(fn: ProgressFn | null, every = PROGRESS_EVERY): void {
    if (!Number.isInteger(every) || every < 1) throw new RangeError(`progress interval must be a positive integer of events, got ${every}`);
    this.progressFn = fn;
    this.progressEvery = every;
    this.nextProgress = fn ? this.events + every : Infinity;
  }

  private progress(): void {
    this.nextProgress = this.events + this.progressEvery;
    this.progressFn!(this.now, this.events);
  }

  /** Number of pending events. */
  get pending(): number {
    return this.queue.size;
  }

  /** Creates a thread; `start` runs its body when the engine runs. */
  spawn(label: string, body: (thread: Thread) => Promise<void>): Thread {
    const t = new Thread(this.threads.length, label);
    this.threads.push(t);
    this.starters.push(() => this.startThread(t, body));
    return t;
  }
  private readonly starters: (() => void)[] = [];

  /**
   * Blocks the calling thread until `wake(thread, value)` (the promise resolves with `value`) or
   * `wakeWithError(thread, error)` (it rejects); `reason` names the call it waits in, for the
   * deadlock diagnosis. Must be called by the thread itself while it runs.
   */
  suspend<T = void>(thread: Thread, reason: WaitReason): Promise<T> {
    if (thread.state !== ThreadState.Running) {
      const what = typeof reason === 'function' ? reason() : reason;
      throw new Error(`${thread.label}: ${what} began while another blocking call of this rank is still pending; await each call in turn (MPI waits on several requests may run together: Promise.all of their wait(), or waitAll)`);
    }
    thread.state = ThreadState.Blocked;
    thread.reason = reason;
    const p = new Promise<T>((resolve, reject) => {
      thread.resolve = resolve as (value: unknown) => void;
      thread.reject = reject;
    });
    this.threadStopped();
    return p;
  }

  /** Makes a blocked thread runnable at the current time with `value`; it resumes after the current event. */
  wake(thread: Thread, value?: unknown): void {
    if (thread.state !== ThreadState.Blocked) return;
    thread.state = ThreadState.Ready;
    thread.value = value;
    thread.failed = false;
    this.ready.push(thread);
  }

  /** Whether the thread runs now (between its resumption and its next block or end). */
  isRunning(thread: Thread): boolean {
    return thread.state === ThreadState.Running;
  }

  /** Takes back a wake that has not resumed the thread yet: it is blocked again, in the same wait. */
  unwake(thread: Thread): void {
    if (thread.state !== ThreadState.Ready) return;
    const i = this.ready.indexOf(thread);
    if (i >= 0) this.ready.splice(i, 1);
    thread.state = ThreadState.Blocked;
    thread.value = undefined;
    thread.failed = false;
  }

  /** Like `wake`, but the thread's wait throws `error`. */
  wakeWithError(thread: Thread, error: unknown): void {
    if (thread.state !== ThreadState.Blocked) return;
    this.wake(thread, error);
    thread.failed = true;
  }

  /**
   * Stops a thread that is not running (its node died): it never resumes, its pending call
   * never returns, and the run no longer waits for it. `why` stays on the thread for reports.
   */
  kill(thread: Thread, why: string): void {
    if (thread.state === ThreadState.Done || thread.state === ThreadState.Running) return;
    if (thread.state === ThreadState.Ready) this.unwake(thread);
    thread.state = ThreadState.Done;
    thread.killed = why;
    thread.resolve = null;
    thread.reject = null;
  }

  /** Suspends the thread for `ps` of simulated time (its clock advances by that much). */
  sleep(thread: Thread, ps: number, reason: WaitReason = 'compute'): Promise<void> {
    // the wake-up is queued first: suspending may run the event loop at once
    this.queue.push(this.now + Math.max(0, Math.round(ps)), this.selfId, EV_WAKE, thread.id);
    return this.suspend(thread, reason);
  }

  onEvent(kind: number, arg: number): void {
    if (kind === EV_WAKE) {
      const t = this.threads[arg];
      if (t) this.wake(t);
    }
  }

  /**
   * Runs until no event remains; rejects with DeadlockError or RankError as described above.
   * The event loop runs whenever no thread runs: started here, then by the last thread to block
   * or end, which hands the loop on synchronously. A woken thread resumes through the one promise
   * it waits on, with no promise of the engine's own in between.
   */
  run(limitPs = Infinity): Promise<void> {
    this.limitPs = limitPs;
    const finished = new Promise<void>((resolve, reject) => {
      this.finish = resolve;
      this.abort = reject;
    });
    this.watchIdle();
    // the start holds a running slot of its own, so the loop waits for every thread's first block
    this.running++;
    for (const s of this.starters.splice(0)) s();
    this.threadStopped();
    return finished;
  }
  private limitPs = Infinity;
  private finish: (() => void) | null = null;
  private abort: ((e: unknown) => void) | null = null;
  private looping = false;

  /**
   * The event loop: takes events until one wakes a thread, then resumes the woken threads and
   * returns (they run once the caller's stack unwinds; the last of them to stop calls it again);
   * ends the run when no event is left.
   */
  private loop(): void {
    if (this.looping || this.finish === null) return;
    this.looping = true;
    try {
      const q = this.queue;
      const handlers = this.handlers;
      for (;;) {
        if (this.failure) return this.end(this.failure);
        const ready = this.ready;
        if (ready.length > 0) {
          // resume every thread woken at this time, in the order they were woken
          const n = ready.length;
          for (let i = 0; i < n; i++) {
            const t = ready[i]!;
            t.state = ThreadState.Running;
            this.running++;
            const settle = t.failed ? t.reject! : t.resolve!;
            t.resolve = null;
            t.reject = null;
            const v = t.value;
            t.value = undefined;
            settle(v);
          }
          ready.length = 0;
          return;
        }
        if (!q.pop()) {
          if (this.onStall !== null && this.threads.some((t) => t.blocked)) {
            this.onStall();
            if (this.ready.length > 0 || q.size > 0) continue;
          }
          return this.end(null);
        }
        if (q.popTime > this.limitPs) return this.end(new Error(`simulated time limit of ${this.limitPs / 1e6} us reached`));
        this.now = q.popTime;
        this.events++;
        if (this.events >= this.nextProgress) this.progress();
        handlers[q.popTarget]!.onEvent(q.popKind, q.popArg);
        // run all same-time events that do not wake a thread before resuming anything
        while (this.ready.length === 0 && q.pop(this.now)) {
          this.events++;
          if (this.events >= this.nextProgress) this.progress();
          handlers[q.popTarget]!.onEvent(q.popKind, q.popArg);
        }
      }
    } catch (e) {
      this.end(e);
    } finally {
      this.looping = false;
    }
  }

  /**
   * A rank that awaits something outside the simulation that never settles (`await new
   * Promise(() => {})`) holds its running slot for ever: the engine cannot go on, and the host's
   * event loop empties. Under Node the run then ends with a deadlock report naming such ranks,
   * rather than the process exiting silently with the run unfinished.
   */
  private watchIdle(): void {
    const proc = (globalThis as { process?: { once(e: string, f: () => void): void; removeListener(e: string, f: () => void): void } }).process;
    if (!proc?.once) return;
    const onIdle = (): void => {
      if (!this.finish) return;
      const stuck = this.threads.filter((t) => t.state === ThreadState.Running);
      this.end(new DeadlockError(this.now, stuck.map((t) => `${t.label}: awaits something outside the simulation that never settles (a promise no MPI, SHMEM or engine call made)`)));
    };
    proc.once('beforeExit', onIdle);
    this.unwatchIdle = () => proc.removeListener('beforeExit', onIdle);
  }
  private unwatchIdle: (() => void) | null = null;

  /** Ends the run: with `error`, or, when none, with a deadlock report if threads are still blocked. */
  private end(error: unknown): void {
    const finish = this.finish!;
    const abort = this.abort!;
    this.finish = null;
    this.abort = null;
    this.unwatchIdle?.();
    this.unwatchIdle = null;
    if (error !== null) return abort(error);
    const blocked = this.threads.filter((t) => !t.done);
    if (blocked.length > 0) {
      return abort(new DeadlockError(this.now, blocked.map((t) => `${t.label}: ${typeof t.reason === 'function' ? t.reason() : t.reason}`)));
    }
    finish();
  }

  /** Runs only the event loop, without threads (for fabric benchmarks and unit tests). */
  drain(limitPs = Infinity): void {
    const q = this.queue;
    const handlers = this.handlers;
    while (q.pop(limitPs)) {
      this.now = q.popTime;
      this.events++;
      if (this.events >= this.nextProgress) this.progress();
      handlers[q.popTarget]!.onEvent(q.popKind, q.popArg);
    }
  }

  private startThread(t: Thread, body: (thread: Thread) => Promise<void>): void {
    // a thread killed before the run began never starts
    if (t.state === ThreadState.Done) return;
    t.state = ThreadState.Running;
    this.running++;
    body(t).then(
      () => {
        t.state = ThreadState.Done;
        this.threadStopped();
      },
      (err: unknown) => {
        t.state = ThreadState.Done;
        if (!this.failure) this.failure = new RankError(t.id, this.now, err);
        this.threadStopped();
      },
    );
  }

  /** A thread blocked or ended: when none runs any more, the event loop goes on. */
  private threadStopped(): void {
    if (--this.running === 0) this.loop();
  }
}
