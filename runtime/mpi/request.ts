import type { Proc } from '../proc.ts';

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

/** What a request tells its library when its owner enters and leaves a blocking or polling call. */
export interface Progress {
  /** The rank is inside an MPI call: run the protocol steps that waited for it. */
  enter(): void;
  leave(): void;
}

/** Error raised by an MPI call, carrying the MPI error class name. */
export class MpiError extends Error {
  constructor(
    readonly errorClass: string,
    message: string,
  ) {
    super(`${errorClass}: ${message}`);
    this.name = 'MpiError';
  }
}

/**
 * A nonblocking operation. `wait()` blocks the calling rank in simulated time until the
 * operation completes; `test()` costs a poll's CPU time and reports whether it has.
 */
export class Request {
  private completed = false;
  private result: Status | null = null;
  private failure: MpiError | null = null;
  private waiter = false;
  /** CPU time the owner spends when it first observes completion (matching, copying). */
  private completionCpuPs = 0;

  constructor(
    private readonly proc: Proc,
    private readonly testCostPs: number,
    /** The call that made it, e.g. `irecv(source=3, tag=1)`, for deadlock diagnoses. */
    readonly what: string,
    private readonly progress: Progress | null = null,
  ) {}

  /** Set by the library: how `cancel` tries to stop this request (false: too late). */
  canceller: (() => boolean) | null = null;

  /** True once the operation has completed (no simulated cost). */
  get done(): boolean {
    return this.completed;
  }

  /** Marks the request complete; wakes its owner if it is waiting on it. */
  complete(status: Status, completionCpuPs = 0): void {
    if (this.completed) return;
    this.completed = true;
    this.result = status;
    this.completionCpuPs = completionCpuPs;
    if (this.waiter) this.proc.wake();
  }

  /** Completes the request with an error that `wait()` will throw. */
  fail(err: MpiError): void {
    if (this.completed) return;
    this.completed = true;
    this.failure = err;
    if (this.waiter) this.proc.wake();
  }

  /** Blocks until the operation completes and returns its status. */
  async wait(reason?: () => string): Promise<Status> {
    if (!this.completed) {
      this.progress?.enter();
      try {
        while (!this.completed) {
          this.waiter = true;
          await this.proc.block(reason ?? (() => `wait(${this.what})`));
          this.waiter = false;
        }
      } finally {
        this.waiter = false;
        this.progress?.leave();
      }
    }
    return this.finish();
  }

  /** Polls once (costing the machine's test overhead); true if the operation has completed. */
  async test(): Promise<boolean> {
    this.progress?.enter();
    this.progress?.leave();
    await this.proc.cpu(this.testCostPs, `test(${this.what})`);
    if (!this.completed) return false;
    await this.finish();
    return true;
  }

  /**
   * Blocks until this or another request completes, without consuming the result (waitAny and
   * waitSome use it on every request they wait for).
   */
  async waitWoken(others: readonly Request[], reason: () => string): Promise<void> {
    this.progress?.enter();
    try {
      // spend the CPU time owed first, so that a completion cannot cut that short
      await this.proc.cpu(0, reason);
      if (others.some((r) => r.completed)) return;
      for (const r of others) r.waiter = true;
      await this.proc.block(reason);
    } finally {
      for (const r of others) r.waiter = false;
      this.progress?.leave();
    }
  }

  /** Tries to cancel the operation (MPI_Cancel): true if it was stopped before it took effect. */
  cancel(): boolean {
    if (this.completed || !this.canceller) return false;
    if (!this.canceller()) return false;
    this.canceller = null;
    return true;
  }

  /** The status, once complete. */
  get status(): Status | null {
    return this.result;
  }

  private async finish(): Promise<Status> {
    if (this.failure) throw this.failure;
    const cpu = this.completionCpuPs;
    if (cpu > 0) {
      this.completionCpuPs = 0;
      await this.proc.cpu(cpu, `completing ${this.what}`);
    }
    return this.result!;
  }
}
