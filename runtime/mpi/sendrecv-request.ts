import type { Proc } from '../proc.ts';
import { Request, type Progress, type RequestWaiter } from './request.ts';

/**
 * The request of MPI_Isendrecv and MPI_Isendrecv_replace: complete once both its receive and its
 * send are, with the receive's status (or the first error, the receive's before the send's).
 */
export class SendrecvRequest extends Request implements RequestWaiter {
  private left = 2;

  constructor(
    proc: Proc,
    testCostPs: number,
    what: string,
    progress: Progress,
    private readonly recv: Request,
    private readonly send: Request,
  ) {
    super(proc, testCostPs, what, progress);
    for (const r of [recv, send]) {
      if (r.done) this.requestDone();
      else r.waiter = this;
    }
  }

  requestDone(): void {
    if (--this.left > 0) return;
    const r = this.recv.handOver();
    const s = this.send.handOver();
    const failure = r.failure ?? s.failure;
    if (failure) this.fail(failure);
    else this.complete(r.status!, r.cpuPs + s.cpuPs);
  }
}
