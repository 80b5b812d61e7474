import type { Proc } from '../proc.ts';

/** Status of a completed receive (or send): who, which tag, how much. */
export interface Status {
  readonly source: number;
  readonly tag: number;
  /** Elements received, in units of the receive buffer's element type. */
  readonly count: number;
  readonly bytes: number;
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
  ) {}

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
    while (!this.completed) {
      this.waiter = true;
      await this.proc.block(reason ?? (() => `wait(${this.what})`));
      this.waiter = false;
    }
    return this.finish();
  }

  /** Polls once (costing the machine's test overhead); true if the operation has completed. */
  async test(): Promise<boolean> {
    await this.proc.cpu(this.testCostPs, `test(${this.what})`);
    if (!this.completed) return false;
    await this.finish();
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
