import { NicStatus, statusName, type AmoRequest } from '../../../fabric/nic/nic.ts';
import type { Proc } from '../../proc.ts';
import { MpiError, Request, waitAll, type Progress, type Status } from '../request.ts';

/** One NIC transaction of a window: a put, get or AMO on a registered segment of a target rank. */
export interface RmaTransfer {
  readonly op: 'put' | 'get' | 'amo';
  /** Target rank in the window's communicator (for flush bookkeeping). */
  readonly target: number;
  /** Target process: its node, and the handle of the segment on its NIC. */
  readonly proc: Proc;
  readonly handle: number;
  readonly offset: number;
  /** Source of a put, destination of a get, the old value of a fetching AMO. */
  readonly local: Uint8Array;
  readonly amo?: AmoRequest;
  /** Ask for a destination-side event with this user data (a notification). */
  readonly remoteData?: number;
  /** The library's own traffic (locks, notifications): not an operation of the user's epoch. */
  readonly internal?: boolean;
  /** Keep the transaction's packets in order behind earlier ordered ones to the same target (accumulates). */
  readonly ordered?: boolean;
  /** Called when the origin buffer may be reused (local completion). */
  readonly onLocal?: () => void;
  /** Called when every response is back (remote completion), with the NIC's status. */
  readonly onDone?: (status: NicStatus) => void;
}

const DONE: Status = { source: -1, tag: -1, count: 0, bytes: 0 };

/** A wait of the rank until no operation of a kind (to one target or all) is outstanding. */
interface Waiter {
  /** Target rank, or -1 for every target. */
  readonly target: number;
  readonly local: boolean;
  readonly req: Request;
}

/**
 * One rank's side of a window on its NIC: issues the window's puts, gets and AMOs as DMAPP
 * does (FMA up to `dmapp.bteThreshold` bytes, the BTE above, every call charging `dmapp.overhead`
 * and the NIC's issue cost; a NIC without FMA runs them all on its block engine), and keeps what a
 * synchronisation call waits for: the user's operations not yet complete at their target
 * (remote completion: every response is back) or whose origin buffer is still in use (local
 * completion: an FMA put or a non-fetching AMO has taken its data when issued, a BTE put when
 * the block engine has read it, a get or fetching AMO when its data is back).
 */
export class RmaNic {
  private readonly remote: Int32Array;
  private readonly local: Int32Array;
  private remoteTotal = 0;
  private localTotal = 0;
  /** The library's own transactions in flight (locks, notifications). */
  private internal = 0;
  private readonly waiters: Waiter[] = [];
  private internalWaiter: Request | null = null;
  /** The first failed transaction since the last synchronisation, reported by the next wait. */
  private failure: MpiError | null = null;

  constructor(
    private readonly proc: Proc,
    private readonly progress: Progress,
    /** Ranks of the window's communicator. */
    size: number,
  ) {
    this.remote = new Int32Array(size);
    this.local = new Int32Array(size);
  }

  /** User operations to `target` (-1: any) not yet complete at the target. */
  pending(target = -1): number {
    return target < 0 ? this.remoteTotal : this.remote[target]!;
  }

  /** A request of this rank that the library completes (a wait's handle, or an r-call's). */
  request(what: string): Request {
    return new Request(this.proc, this.proc.machine.config.mpi.testOverheadPs, what, this.progress);
  }

  /**
   * Issues one transaction at the rank's time, after the library's CPU time (`dmapp.overhead`),
   * and charges the NIC's issue cost; resolves once the rank may go on.
   */
  async issue(t: RmaTransfer, what: string): Promise<void> {
    const proc = this.proc;
    const d = proc.machine.config.dmapp;
    await proc.cpu(d.overheadPs, what);
    // a NIC without FMA (SeaStar) runs every transfer on its block engine, which reads the source itself
    const bte = t.op !== 'amo' && (t.local.length > d.bteThresholdBytes || !proc.nic.params.hasFma);
    // an FMA put's data is stored into the NIC window at issue: the origin buffer is free at once
    const localAtIssue = (t.op === 'put' && !bte) || (t.op === 'amo' && !t.amo!.fetch);
    const local = t.op === 'put' && !bte && !proc.isSkeleton(t.local) ? t.local.slice() : t.local;
    const counted = !t.internal;
    if (counted) {
      this.remote[t.target]!++;
      this.remoteTotal++;
      if (!localAtIssue) {
        this.local[t.target]!++;
        this.localTotal++;
      }
    } else {
      this.internal++;
    }
    const cost = proc.nic.post({
      op: t.op,
      mode: bte ? 'bte' : 'fma',
      local,
      remoteNode: t.proc.node,
      inst: proc.inst,
      remoteHandle: t.handle,
      remoteOffset: t.offset,
      ...(t.amo ? { amo: t.amo } : {}),
      ...(t.remoteData !== undefined ? { remoteEvent: true, remoteData: t.remoteData } : {}),
      ...(t.ordered ? { ordered: true } : {}),
      onComplete: (s) => {
        if (s !== NicStatus.Ok && this.failure === null) {
          this.failure = new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the transfer with status ${statusName(s)}`);
        }
        if (counted) {
          this.remote[t.target]!--;
          this.remoteTotal--;
          if (!localAtIssue) {
            this.local[t.target]!--;
            this.localTotal--;
          }
          t.onLocal?.();
          t.onDone?.(s);
          this.wakeWaiters();
        } else {
          t.onDone?.(s);
          if (--this.internal === 0 && this.internalWaiter) {
            const r = this.internalWaiter;
            this.internalWaiter = null;
            r.complete(DONE);
          }
        }
      },
    });
    if (localAtIssue) t.onLocal?.();
    await proc.cpu(cost, what);
  }

  /** Issues one transaction and waits for its remote completion; returns its status. */
  async run(t: RmaTransfer, what: string): Promise<NicStatus> {
    const req = this.request(what);
    let status = NicStatus.Ok;
    await this.issue(
      {
        ...t,
        onDone: (s) => {
          status = s;
          req.complete(DONE);
        },
      },
      what,
    );
    await req.wait(() => what);
    return status;
  }

  /** An AMO issued and waited for; returns the old value (fetched) or 0n. Fails on a NIC error. */
  async amo(t: Omit<RmaTransfer, 'op' | 'local'>, amo: AmoRequest, what: string): Promise<bigint> {
    const local = new Uint8Array(amo.fetch ? 8 : 0);
    const s = await this.run({ ...t, op: 'amo', local, amo }, what);
    if (s !== NicStatus.Ok) throw new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the atomic with status ${statusName(s)}`);
    return amo.fetch ? new DataView(local.buffer).getBigUint64(0, true) : 0n;
  }

  /**
   * AMOs to several targets issued one after another and waited for together (the first
   * step of lockAll); returns each old value (fetched) or 0n, in order.
   */
  async amoAll(ts: readonly Omit<RmaTransfer, 'op' | 'local'>[], amo: AmoRequest, what: string): Promise<bigint[]> {
    const reqs: Request[] = [];
    const locals: Uint8Array[] = [];
    for (const t of ts) {
      const req = this.request(what);
      const local = new Uint8Array(amo.fetch ? 8 : 0);
      reqs.push(req);
      locals.push(local);
      await this.issue(
        {
          ...t,
          op: 'amo',
          local,
          amo,
          onDone: (s) => (s === NicStatus.Ok ? req.complete(DONE) : req.fail(new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the atomic to rank ${t.target} with status ${statusName(s)}`))),
        },
        what,
      );
    }
    await waitAll(this.proc, reqs, () => what);
    return locals.map((l) => (amo.fetch ? new DataView(l.buffer).getBigUint64(0, true) : 0n));
  }

  /**
   * Waits until the user's operations to `target` (-1: all) are complete at their target
   * (`local`: at the origin); then throws the first NIC failure since the last wait, if any.
   */
  async wait(target: number, local: boolean, what: string): Promise<void> {
    if (!this.satisfied(target, local)) {
      const req = this.request(what);
      this.waiters.push({ target, local, req });
      await req.wait(() => what);
    }
    const f = this.failure;
    if (f) {
      this.failure = null;
      throw f;
    }
  }

  /** Waits until the library's own transactions are complete (before the window's memory goes). */
  async drainInternal(what: string): Promise<void> {
    if (this.internal === 0) return;
    const req = this.request(what);
    this.internalWaiter = req;
    await req.wait(() => what);
  }

  private satisfied(target: number, local: boolean): boolean {
    const counts = local ? this.local : this.remote;
    return target < 0 ? (local ? this.localTotal : this.remoteTotal) === 0 : counts[target] === 0;
  }

  private wakeWaiters(): void {
    for (let i = 0; i < this.waiters.length; ) {
      const w = this.waiters[i]!;
      if (this.satisfied(w.target, w.local)) {
        this.waiters.splice(i, 1);
        w.req.complete(DONE);
      } else {
        i++;
      }
    }
  }
}
