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
  resolve: ((value: void) => void) | null = null;
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
  /** The run's only source of randomness. */
  readonly rng: Prng;
  private readonly queue = new EventQueue(4096);
  private readonly handlers: EventHandler[] = [];
  private readonly threads: Thread[] = [];
  private readonly ready: Thread[] = [];
  private running = 0;
  private quiescent: (() => void) | null = null;
  private failure: RankError | null = null;
  private readonly selfId: number;
  private progressFn: ProgressFn | null = null;
  private progressEvery = PROGRESS_EVERY;
  /** Event count of the next progress call; Infinity when nobody listens (one compare per event). */
  private nextProgress = Infinity;

  constructor(seed = 1) {
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
   * Blocks the calling thread until `wake(thread)`; `reason` names the call it waits in, for the
   * deadlock diagnosis. Must be called by the thread itself while it runs.
   */
  suspend(thread: Thread, reason: WaitReason): Promise<void> {
    if (thread.state !== ThreadState.Running) {
      throw new Error(`engine: ${thread.label} suspended while not running`);
    }
    thread.state = ThreadState.Blocked;
    thread.reason = reason;
    const p = new Promise<void>((resolve) => {
      thread.resolve = resolve;
    });
    this.threadStopped();
    return p;
  }

  /** Makes a blocked thread runnable at the current time; it resumes after the current event. */
  wake(thread: Thread): void {
    if (thread.state !== ThreadState.Blocked) return;
    thread.state = ThreadState.Ready;
    this.ready.push(thread);
  }

  /** Suspends the thread for `ps` of simulated time (its clock advances by that much). */
  sleep(thread: Thread, ps: number, reason: WaitReason = 'compute'): Promise<void> {
    const p = this.suspend(thread, reason);
    this.queue.push(this.now + Math.max(0, Math.round(ps)), this.selfId, EV_WAKE, thread.id);
    return p;
  }

  onEvent(kind: number, arg: number): void {
    if (kind === EV_WAKE) {
      const t = this.threads[arg];
      if (t) this.wake(t);
    }
  }

  /** Runs until no event remains; throws DeadlockError or RankError as described above. */
  async run(limitPs = Infinity): Promise<void> {
    for (const s of this.starters.splice(0)) s();
    await this.settle();
    const q = this.queue;
    const handlers = this.handlers;
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.ready.length > 0) {
        await this.resumeReady();
        continue;
      }
      if (!q.pop()) break;
      if (q.popTime > limitPs) {
        throw new Error(`simulated time limit of ${limitPs / 1e6} us reached`);
      }
      this.now = q.popTime;
      this.events++;
      if (this.events >= this.nextProgress) this.progress();
      handlers[q.popTarget]!.onEvent(q.popKind, q.popArg);
      // run all same-time events that do not wake a thread before awaiting anything
      while (this.ready.length === 0 && q.pop(this.now)) {
        this.events++;
        if (this.events >= this.nextProgress) this.progress();
        handlers[q.popTarget]!.onEvent(q.popKind, q.popArg);
      }
    }
    if (this.failure) throw this.failure;
    const blocked = this.threads.filter((t) => !t.done);
    if (blocked.length > 0) {
      throw new DeadlockError(
        this.now,
        blocked.map((t) => `${t.label}: ${typeof t.reason === 'function' ? t.reason() : t.reason}`),
      );
    }
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

  private threadStopped(): void {
    this.running--;
    if (this.running === 0 && this.quiescent) {
      const q = this.quiescent;
      this.quiescent = null;
      q();
    }
  }

  private async resumeReady(): Promise<void> {
    while (this.ready.length > 0) {
      const batch = this.ready.splice(0);
      for (const t of batch) {
        t.state = ThreadState.Running;
        this.running++;
        const r = t.resolve!;
        t.resolve = null;
        r();
      }
      await this.settle();
    }
  }

  private settle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.quiescent = resolve;
    });
  }
}
