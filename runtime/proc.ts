import type { Engine, Thread, WaitReason } from '../fabric/engine/engine.ts';
import type { Machine } from '../fabric/machine.ts';
import type { Nic } from '../fabric/nic/nic.ts';
import { inStore, type SkeletonStore } from '../fabric/skeleton.ts';
import type { Detours } from './noise.ts';

/** What a span of a process's time was spent on. */
export type SpanKind = 0 | 1 | 2;
/** `ctx.compute`. */
export const SPAN_COMPUTE: SpanKind = 0;
/** CPU time inside communication calls. */
export const SPAN_TRANSFER: SpanKind = 1;
/** Blocked in a wait. */
export const SPAN_WAIT: SpanKind = 2;

/** Receives the compute and wait spans of a process (ps), in time order. */
export interface SpanListener {
  span(kind: SpanKind, fromPs: number, toPs: number): void;
}

/**
 * A process (rank) as the runtime layers see it: its thread, its node and NIC, and the CPU-time
 * helpers every API face uses to charge simulated time for its own work.
 */
export class Proc {
  /**
   * The process's own clock (ps). Calls that cost CPU time without blocking (an isend) move it
   * ahead of the engine's time; the next blocking call first catches up to it.
   */
  private clock = 0;

  /** CPU time (ps) spent in `cpu(ps, 'compute')`, i.e. the program's own modelled computation. */
  computePs = 0;
  /** CPU time (ps) charged for anything else: call overheads, copies, issue costs, polls. */
  transferPs = 0;
  /** Time (ps) the process's clock stood still while the engine's time went on: blocked in waits. */
  waitPs = 0;
  /** End of the time accounted so far (ps): compute + transfer + wait. */
  private mark = 0;
  /** Told about each compute and wait span when a trace is recorded; null otherwise. */
  spans: SpanListener | null = null;

  constructor(
    readonly rank: number,
    /** Node the process runs on. */
    readonly node: number,
    /** Index of the process among those of its node (its NIC instance / mailbox). */
    readonly inst: number,
    readonly thread: Thread,
    readonly machine: Machine,
    /** Extra time of a rank on a socket without the NIC: per send posted and per wait returned (ps). */
    readonly crossPs = 0,
    /** The OS detours of the rank's core, or null for a quiet core. */
    readonly noise: Detours | null = null,
  ) {}

  get engine(): Engine {
    return this.machine.engine;
  }

  get nic(): Nic {
    return this.machine.nics[this.node]!;
  }

  /** The run's skeleton store (a skeleton run), or null: every byte moves. */
  get skeleton(): SkeletonStore | null {
    return this.nic.skeleton;
  }

  /** Whether `v` is a skeleton buffer: its bytes never move (one identity test; false outside a skeleton run). */
  isSkeleton(v: ArrayBufferView): boolean {
    return inStore(v, this.nic.skeleton);
  }

  /** The process's time (ps): the engine's time, or later while it owes CPU time. */
  time(): number {
    return Math.max(this.clock, this.engine.now);
  }

  /**
   * Runs `fn` as a helper thread of this process would (an MPI progress thread), at the engine's
   * time rather than at the rank's clock, which may be ahead while it computes: the CPU time `fn`
   * charges is the helper's, and the rank's clock is left where it was.
   */
  aside<T>(fn: () => T): T {
    const clock = this.clock;
    const mark = this.mark;
    const now = this.engine.now;
    if (clock <= now) return fn();
    this.clock = now;
    this.mark = now;
    try {
      return fn();
    } finally {
      this.clock = clock;
      this.mark = mark;
    }
  }

  /** Charges `ps` of CPU time without yielding; returns the time the work ends. */
  charge(ps: number): number {
    return this.advance(ps, SPAN_TRANSFER);
  }

  /** Spends `ps` of this process's CPU time (its clock advances, others run meanwhile). */
  cpu(ps: number, reason: WaitReason = 'compute'): Promise<void> {
    this.advance(ps, reason === 'compute' ? SPAN_COMPUTE : SPAN_TRANSFER);
    return this.catchUp(reason);
  }

  /**
   * Accounts the time up to now: a clock that stood still while the engine's time went on was
   * blocked, and that span is waiting. Returns the process's time.
   */
  settle(): number {
    const t = this.time();
    if (t > this.mark) {
      this.waitPs += t - this.mark;
      this.spans?.span(SPAN_WAIT, this.mark, t);
      this.mark = t;
    }
    return t;
  }

  /** Moves the clock `ps` of CPU time on and accounts the span as compute or transfer (`kind`); returns its end. */
  private advance(ps: number, kind: typeof SPAN_COMPUTE | typeof SPAN_TRANSFER): number {
    const from = this.settle();
    const to = this.noise ? this.noise.run(from, ps) : from + ps;
    this.clock = to;
    this.mark = to;
    if (kind === SPAN_COMPUTE) this.computePs += to - from;
    else this.transferPs += to - from;
    if (this.spans && to > from && kind === SPAN_COMPUTE) this.spans.span(kind, from, to);
    return to;
  }

  /**
   * Suspends the rank's thread until `resume` or `resumeWithError` (a wait of the MPI library);
   * unlike `block`, it does not first catch up with CPU time owed: the rank's clock may stay
   * ahead of the engine's time, and the wait ends at the later of the two.
   */
  suspend<T>(reason: WaitReason): Promise<T> {
    return this.engine.suspend<T>(this.thread, reason);
  }

  /** The MPI wait the thread was last suspended in (see RankWait), so that a second wait of the same moment can join it. */
  pendingWait: unknown = null;
  /** An MPI error the program caught under MPI_ERRORS_ARE_FATAL: the rank fails at its next MPI call or its end. */
  fatal: Error | null = null;

  /** Whether the rank's code runs now (not blocked, not woken and waiting to resume). */
  get running(): boolean {
    return this.engine.isRunning(this.thread);
  }

  /** Takes back a resumption not yet delivered: the thread stays in its wait. */
  unresume(): void {
    this.engine.unwake(this.thread);
  }

  /** Resumes the suspended thread with `value` at the current time. */
  resume(value: unknown): void {
    this.engine.wake(this.thread, value);
  }

  /** Resumes the suspended thread with `error` thrown at its wait. */
  resumeWithError(error: unknown): void {
    this.engine.wakeWithError(this.thread, error);
  }

  /**
   * Takes a completion the rank waited for, in the order the rank looks at its completions: the
   * rank's time (where its accounting stands, at least its clock) reaches `at`, the completion's
   * time, if it is behind: it blocked for it, waiting, and the completion then crosses to its
   * socket and waits out an OS detour of its core; then it spends `cpuPs` on it (matching,
   * copying). Unlike `cpu`, nothing here looks at the engine's time: a wait that resumes late
   * takes its completions at the times they happened.
   */
  completion(at: number, cpuPs: number): void {
    let from = this.mark;
    const blocked = at > from;
    if (blocked) {
      this.waitPs += at - from;
      this.spans?.span(SPAN_WAIT, from, at);
      from = at;
    }
    if (blocked && (this.noise || this.crossPs > 0)) {
      const to = this.noise ? this.noise.run(from, this.crossPs) : from + this.crossPs;
      if (to > from) {
        this.waitPs += to - from;
        this.spans?.span(SPAN_WAIT, from, to);
        from = to;
      }
    }
    if (cpuPs > 0) {
      const to = this.noise ? this.noise.run(from, cpuPs) : from + cpuPs;
      this.transferPs += to - from;
      from = to;
    }
    this.clock = from;
    this.mark = from;
  }

  /** Blocks until something calls `engine.wake(this.thread)`, after any CPU time it owes. */
  async block(reason: WaitReason): Promise<void> {
    await this.catchUp(reason);
    await this.engine.suspend(this.thread, reason);
    if (this.noise || this.crossPs > 0) {
      // the completion crosses to this rank's socket, and a core in an OS detour resumes after it
      const now = this.engine.now;
      const resume = this.noise ? this.noise.run(now, this.crossPs) : now + this.crossPs;
      if (resume > now) await this.engine.sleep(this.thread, resume - now, reason);
    }
  }

  private catchUp(reason: WaitReason): Promise<void> {
    const ahead = this.clock - this.engine.now;
    return ahead > 0 ? this.engine.sleep(this.thread, ahead, reason) : Promise.resolve();
  }

  /** Wakes this process if it is blocked. */
  wake(): void {
    this.engine.wake(this.thread);
  }
}
