import type { Proc } from '../proc.ts';
import type { Coll, Step } from './coll/transport.ts';
import { Request, type Progress, type RequestWaiter, type Status } from './request.ts';

const DONE: Status = Object.freeze({ source: -1, tag: -1, count: 0, bytes: 0 });

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
  private readonly resumeFn = (): void => this.resume();

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
    if (!this.blocking) return this.progress.onCpu(this.resumeFn);
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
    this.advance(err);
  }

  /** A wait of the algorithm has ended: the library's bookkeeping before the next step (mpi.collectiveStep). */
  private stepEnds(): void {
    if (this.stepPs > 0) this.proc.charge(this.stepPs);
  }

  /** Takes the completions the wait that just ended was for (their CPU time, the first error). */
  private takeAll(): void {
    const one = this.wait1;
    const many = this.waitN;
    this.wait1 = null;
    this.waitN = null;
    if (one) one.take();
    if (many) for (const r of many) r.take();
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
          this.wait1 = step;
          this.left = 1;
          step.waiter = this;
          if (this.blocking) this.progress.enter();
          return;
        }
        try {
          step.take();
        } catch (e) {
          err = e;
        }
        this.stepEnds();
        continue;
      }
      let left = 0;
      for (const q of step) {
        if (q.done) continue;
        q.waiter = this;
        left++;
      }
      if (left > 0) {
        this.waitN = step;
        this.left = left;
        if (this.blocking) this.progress.enter();
        return;
      }
      try {
        for (const q of step) q.take();
      } catch (e) {
        err = e;
      }
      this.stepEnds();
    }
  }
}
