/**
 * Flushing the buffer of buffered sends (MPI 4.1 §3.6.1, MPI_Buffer_flush and MPI_Buffer_iflush):
 * a request that completes once every message in the attached buffer has left it, that is once
 * the sends carrying the buffer's copies have completed. Those sends are the library's own; a
 * flush and bufferDetach only watch them, through a fan-out, so that several may wait at once.
 */
import type { Proc } from '../proc.ts';
import { EMPTY_STATUS, Request, type Progress, type RequestWaiter } from './request.ts';

/** Tells several waiters of one request that it completed (a Request has one waiter). */
class FanOut implements RequestWaiter {
  constructor(readonly waiters: RequestWaiter[]) {}

  requestDone(r: Request): void {
    for (const w of this.waiters.splice(0)) w.requestDone(r);
  }
}

/** Adds `w` to the waiters of `r`, which has not completed. */
function watch(r: Request, w: RequestWaiter): void {
  if (r.waiter === null) r.waiter = w;
  else if (r.waiter instanceof FanOut) r.waiter.waiters.push(w);
  else r.waiter = new FanOut([r.waiter, w]);
}

/** A request complete once all of `sends` are (the empty status): MPI_Buffer_iflush's. */
export class DrainRequest extends Request implements RequestWaiter {
  private left = 0;

  constructor(proc: Proc, testCostPs: number, what: string, progress: Progress | null, sends: Iterable<Request>) {
    super(proc, testCostPs, what, progress);
    for (const r of sends) {
      if (r.done) continue;
      this.left++;
      watch(r, this);
    }
    if (this.left === 0) this.complete(EMPTY_STATUS);
  }

  requestDone(): void {
    if (--this.left === 0) this.complete(EMPTY_STATUS);
  }
}
