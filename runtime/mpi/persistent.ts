import type { Proc } from '../proc.ts';
import { MpiError, Request, type Progress, type RequestWaiter } from './request.ts';

/**
 * A persistent request (MPI_Send_init, MPI_Recv_init, ...): made inactive with its arguments
 * bound, started again and again with `start`, each start running one operation. A wait or test
 * that returns an operation's completion leaves the request inactive, ready for the next start,
 * until `requestFree` frees it. The request's allocation (mpi.requestOverhead) is paid once, when
 * it is made, not at each start (MPI 4.0 §3.9).
 */
export class PersistentRequest extends Request implements RequestWaiter {
  /** The operation of the current (or last) start; null before the first. */
  private op: Request | null = null;

  constructor(
    proc: Proc,
    testCostPs: number,
    what: string,
    progress: Progress,
    /** Starts one operation with the bound arguments and returns its request. */
    private readonly startOp: () => Request,
  ) {
    super(proc, testCostPs, what, progress);
    this.inactive = true;
  }

  override get persistent(): boolean {
    return true;
  }

  /** Starts the next operation (MPI_Start); MPI_ERR_REQUEST if the request is active or freed. */
  start(call = 'start'): void {
    this.checkStartable(call);
    const op = this.startOp();
    this.activate();
    this.op = op;
    if (op.done) this.requestDone(op);
    else op.waiter = this;
  }

  /** Fails with MPI_ERR_REQUEST, naming `call`, unless the request can be started now. */
  checkStartable(call: string): void {
    this.checkUsable(call);
    if (!this.inactive) throw new MpiError('MPI_ERR_REQUEST', `${call}: ${this.what} is active: it was started and no wait or test has completed it yet`);
  }

  /** The started operation has completed: so has this request, with its status and completion cost. */
  requestDone(op: Request): void {
    const o = op.handOver();
    if (o.failure) this.fail(o.failure);
    else this.complete(o.status!, o.cpuPs);
  }

  /** Cancels the active operation (the request itself stays, inactive once waited on). */
  override cancel(): boolean {
    this.checkUsable('cancel');
    const op = this.op;
    if (!this.active || op === null || !op.cancel()) return false;
    this.completeCancelled(op.status!);
    return true;
  }
}
