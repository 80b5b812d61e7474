import type { Proc } from '../proc.ts';
import type { Coll, Step } from './coll/transport.ts';
import type { MpiObserver } from './core.ts';
import { Request, type Progress, type RequestWaiter, type Status } from './request.ts';

const DONE: Status = Object.freeze({ source: -1, tag: -1, count: 0, bytes: 0 });

/**
 * Told of each round of a collective's schedule (a step that waits for messages): its number
 * from 0, when it was posted and when its wait was over (ps of the rank's clock), and what it
 * waited for (the requests' descriptions).
 */
export type RoundListener = (index: number, fromPs: number, toPs: number, what: string) => void;

/** Requests named in a round's description; more are counted. */
const ROUND_NAMES = 4;

/**
 * One rank's run of a collective algorithm (a generator of steps, see `Step`), driven by the
 * library rather than by the rank's thread: the algorithm runs up to its next wait at once, and
 * each completion that ends a wait runs it on from inside the event that completed it. CPU time
 * the algorithm spends (combining, copying, taking a completion) moves the rank's clock on
 * without a suspension; the messages it posts act at that clock. The rank itself waits on
 * `request` once, for the whole collective. A nonblocking collective's schedule instead moves on
 * only inside the rank's MPI calls (or in a progress thread, `mpi.asyncProgress`), as MPICH's
 * nonblocking schedules do.
 *
 * Timing is that of running the algorithm on the rank's thread: every wait ends at the later of
 * the rank's clock and the completion, inside a wait the rank polls MPI (pending rendezvous
 * pulls start), and each wait's end crosses to the rank's socket as a thread's does.
 */
export class CollRun implements RequestWaiter {
  /** Completes when the algorithm has returned, or fails with the error it threw. */
  readonly request: Request;
  private wait1: Request | null = null;
  private waitN: readonly Request[] | null = null;
  private left = 0;
  /** `resume` as a protocol step (a nonblocking collective's), made on first use. */
  private resumeFn: (() => void) | null = null;
  /** Told of each round (trace timelines); null: nobody listens. */
  rounds: RoundListener | null = null;
  private roundIndex = 0;
  private roundFromPs = 0;
  private roundWhat = '';

  constructor(
    private readonly proc: Proc,
    private readonly gen: Coll,
    readonly what: string,
    private readonly progress: Progress,
    /** CPU time of the call's entry (mpi.collectiveOverhead). */
    private readonly entryPs = 0,
    /** CPU time per step of the schedule (mpi.collectiveStep). */
    private readonly stepPs = 0,
    /**
     * False for a nonblocking collective: the rank goes on with its own work, and the schedule
     * moves on only inside the rank's MPI calls (a test, a wait, any blocking call), or at once
     * in a progress thread with `mpi.asyncProgress` (see Progress.onCpu).
     */
    private readonly blocking = true,
    /** A nonblocking collective's poll cost (mpi test overhead). */
    testCostPs = 0,
  ) {
    this.request = blocking ? new Request(proc, 0, what) : new Request(proc, testCostPs, what, progress);
  }

  /** Runs the algorithm up to its first wait; returns its request. */
  start(): Request {
    this.proc.settle();
    if (this.entryPs > 0) this.proc.charge(this.entryPs);
    this.advance(null);
    return this.request;
  }

  /** What the algorithm waits for, for deadlock diagnoses. */
  describe(): string {
    const pending = this.waitN ? this.waitN.filter((r) => !r.done) : this.wait1 && !this.wait1.done ? [this.wait1] : [];
    return pending.length > 0 ? pending.map((r) => r.what).join(', ') : this.what;
  }

  requestDone(): void {
    if (--this.left > 0) return;
    if (!this.blocking) return this.progress.onCpu((this.resumeFn ??= (): void => this.resume()));
    this.progress.leave();
    this.resume();
  }

  /** The wait that just ended: takes its completions and runs the algorithm on. */
  private resume(): void {
    let err: unknown = null;
    try {
      this.takeAll();
    } catch (e) {
      err = e;
    }
    this.stepEnds();
    if (this.rounds !== null) this.rounds(this.roundIndex++, this.roundFromPs, this.proc.time(), this.roundWhat);
    this.advance(err);
  }

  /** Notes a round that starts now, waiting for `reqs`. */
  private roundStarts(reqs: readonly Request[]): void {
    this.roundFromPs = this.proc.time();
    const names = reqs.slice(0, ROUND_NAMES).map((r) => r.what);
    if (reqs.length > ROUND_NAMES) names.push(`and ${reqs.length - ROUND_NAMES} more`);
    this.roundWhat = names.join('; ');
  }

  /** A wait of the algorithm has ended: the library's bookkeeping before the next step (mpi.collectiveStep). */
  private stepEnds(): void {
    if (this.stepPs > 0) this.proc.charge(this.stepPs);
  }

  /**
   * Takes the completions the wait that just ended was for (their CPU time, the first error).
   * A pooled request (one the algorithm asked for with `once`) goes back to its pool once taken:
   * nothing but this schedule held it.
   */
  private takeAll(): void {
    const one = this.wait1;
    const many = this.waitN;
    this.wait1 = null;
    this.waitN = null;
    if (one) takeOnce(one);
    if (many) for (let i = 0; i < many.length; i++) takeOnce(many[i]!);
  }

  /** Runs the algorithm on (throwing `err` into it if not null) until it waits or ends. */
  private advance(err: unknown): void {
    const gen = this.gen;
    for (;;) {
      let r: IteratorResult<Step, void>;
      try {
        r = err !== null ? gen.throw(err) : gen.next();
      } catch (e) {
        this.request.fail(e as Error);
        return;
      }
      err = null;
      if (r.done) {
        this.request.complete(DONE);
        return;
      }
      const step = r.value;
      if (step === null || step === undefined) continue;
      if (typeof step === 'number') {
        if (step > 0) this.proc.charge(step);
        continue;
      }
      if (step instanceof Request) {
        if (!step.done) {
          if (this.rounds !== null) this.roundStarts([step]);
          this.wait1 = step;
          this.left = 1;
          step.waiter = this;
          if (this.blocking) this.progress.enter();
          return;
        }
        try {
          takeOnce(step);
        } catch (e) {
          err = e;
        }
        this.stepEnds();
        continue;
      }
      let left = 0;
      for (let i = 0; i < step.length; i++) {
        const q = step[i]!;
        if (q.done) continue;
        q.waiter = this;
        left++;
      }
      if (left > 0) {
        if (this.rounds !== null) this.roundStarts(step);
        this.waitN = step;
        this.left = left;
        if (this.blocking) this.progress.enter();
        return;
      }
      // a wait on nothing (a block of MPICH's scattered alltoallv whose partners all have empty
      // counts posts no request, and MPI_Waitall on none returns at once) is no step of the schedule
      if (step.length === 0) continue;
      try {
        for (let i = 0; i < step.length; i++) takeOnce(step[i]!);
      } catch (e) {
        err = e;
      }
      this.stepEnds();
    }
  }
}

/** Takes `r`'s completion (throwing its error) and gives a pooled request back to its pool. */
function takeOnce(r: Request): void {
  r.take();
  if (r.pool !== null) r.recycle();
}

/** Tells `observer` of the rounds of rank `rank`'s run `run`, if it watches rounds. */
export function watchRounds(run: CollRun, observer: MpiObserver | null | undefined, rank: number): void {
  const round = observer?.round;
  if (round === undefined) return;
  run.rounds = (index, fromPs, toPs, what) => round.call(observer, rank, index, fromPs, toPs, what);
}
