import { MpiError } from '../request.ts';
import { LOCK_EXCLUSIVE } from './constants.ts';

/**
 * The epochs one rank has open on a window (MPI-3.1 §11.5), as checked state: a fence epoch
 * (access and exposure to every rank), a post-start-complete-wait access epoch to the start
 * group and exposure epoch to the post group, and passive-target epochs (a lock per target, or
 * lockAll). A fence without MODE_NOSUCCEED opens a fence epoch; as in MPICH, one in which no
 * operation was issued ends by itself when another kind of epoch starts. Wrong synchronisation
 * fails with MPI_ERR_RMA_SYNC naming the call.
 */
export class Epochs {
  /** A fence epoch is open. */
  private fence = false;
  /** RMA operations issued since the fence epoch opened. */
  private opsInFence = 0;
  /** Targets of the open start (ranks of the window), or null. */
  private access: ReadonlySet<number> | null = null;
  /** Origins of the open post, or null. */
  private exposure: ReadonlySet<number> | null = null;
  /** Passive-target epochs: target -> lock type. */
  private readonly locks = new Map<number, number>();
  private all = false;

  /** Checks that an RMA operation to `target` is inside an access epoch to it; counts it. */
  operation(call: string, target: number): void {
    if (this.fence) {
      this.opsInFence++;
      return;
    }
    if (this.all || this.locks.has(target) || this.access?.has(target)) return;
    throw new MpiError('MPI_ERR_RMA_SYNC', `${call}: no access epoch to rank ${target} is open on this window (open one with fence, start, lock or lockAll)`);
  }

  /** Checks a request-based operation or flush to `target` (-1: any) is inside a passive-target epoch. */
  passive(call: string, target: number): void {
    if (this.all || (target < 0 ? this.locks.size > 0 : this.locks.has(target))) return;
    const to = target < 0 ? '' : ` to rank ${target}`;
    throw new MpiError('MPI_ERR_RMA_SYNC', `${call}: needs a passive-target epoch${to} (lock or lockAll); none is open`);
  }

  /** Whether a passive-target epoch to `target` is open. */
  isLocked(target: number): boolean {
    return this.all || this.locks.has(target);
  }

  /** A fence: no other kind of epoch may be open; opens a fence epoch unless `succeed` is false. */
  fenceCall(succeed: boolean): void {
    this.noneOpen('fence');
    this.fence = succeed;
    this.opsInFence = 0;
  }

  /** MPI_Win_start: opens an access epoch to `targets`. */
  start(targets: ReadonlySet<number>): void {
    if (this.access) throw new MpiError('MPI_ERR_RMA_SYNC', 'start: an access epoch of an earlier start is still open (call complete first)');
    if (this.all || this.locks.size > 0) throw new MpiError('MPI_ERR_RMA_SYNC', 'start: a passive-target epoch (lock or lockAll) is open on this window');
    this.endIdleFence('start');
    this.access = targets;
  }

  /** MPI_Win_complete: closes the start epoch; returns its targets. */
  complete(): ReadonlySet<number> {
    const a = this.access;
    if (!a) throw new MpiError('MPI_ERR_RMA_SYNC', 'complete: no access epoch of start is open');
    this.access = null;
    return a;
  }

  /** MPI_Win_post: opens an exposure epoch to `origins`. */
  post(origins: ReadonlySet<number>): void {
    if (this.exposure) throw new MpiError('MPI_ERR_RMA_SYNC', 'post: an exposure epoch of an earlier post is still open (call wait or test first)');
    this.endIdleFence('post');
    this.exposure = origins;
  }

  /** The origins of the open post; MPI_ERR_RMA_SYNC when none is open. */
  exposed(call: string): ReadonlySet<number> {
    if (!this.exposure) throw new MpiError('MPI_ERR_RMA_SYNC', `${call}: no exposure epoch of post is open`);
    return this.exposure;
  }

  /** Closes the post epoch (wait, or test that succeeded). */
  endExposure(): void {
    this.exposure = null;
  }

  /** MPI_Win_lock: a passive-target epoch to `target`. */
  lock(type: number, target: number): void {
    if (this.all) throw new MpiError('MPI_ERR_RMA_SYNC', `lock: rank ${target}: a lockAll epoch is open on this window`);
    if (this.locks.has(target)) throw new MpiError('MPI_ERR_RMA_SYNC', `lock: this rank already holds a ${this.locks.get(target) === LOCK_EXCLUSIVE ? 'exclusive' : 'shared'} lock on rank ${target} (unlock it first)`);
    if (this.access) throw new MpiError('MPI_ERR_RMA_SYNC', 'lock: an access epoch of start is open on this window');
    this.endIdleFence('lock');
    this.locks.set(target, type);
  }

  /** Drops a lock whose acquisition failed. */
  abandon(target: number): void {
    this.locks.delete(target);
  }

  /** MPI_Win_unlock: the lock type held on `target`; MPI_ERR_RMA_SYNC when none is. */
  unlock(target: number): number {
    const type = this.locks.get(target);
    if (type === undefined) {
      throw new MpiError('MPI_ERR_RMA_SYNC', `unlock: this rank holds no lock on rank ${target}${this.all ? ' (it holds lockAll: use unlockAll)' : ''}`);
    }
    this.locks.delete(target);
    return type;
  }

  /** MPI_Win_lock_all. */
  lockAll(): void {
    if (this.all) throw new MpiError('MPI_ERR_RMA_SYNC', 'lockAll: a lockAll epoch is already open on this window');
    if (this.locks.size > 0) throw new MpiError('MPI_ERR_RMA_SYNC', `lockAll: this rank holds locks on rank(s) ${[...this.locks.keys()].join(', ')}`);
    if (this.access) throw new MpiError('MPI_ERR_RMA_SYNC', 'lockAll: an access epoch of start is open on this window');
    this.endIdleFence('lockAll');
    this.all = true;
  }

  /** MPI_Win_unlock_all. */
  unlockAll(): void {
    if (!this.all) throw new MpiError('MPI_ERR_RMA_SYNC', 'unlockAll: no lockAll epoch is open on this window');
    this.all = false;
  }

  /** Checks that no epoch is open, or a fence epoch without operations (freeing the window). */
  closed(call: string): void {
    this.noneOpen(call);
    if (this.fence && this.opsInFence > 0) {
      throw new MpiError('MPI_ERR_RMA_SYNC', `${call}: a fence epoch with ${this.opsInFence} operation(s) is open; end it with a fence first`);
    }
  }

  /** Checks that no start, post or passive-target epoch is open. */
  private noneOpen(call: string): void {
    const open: string[] = [];
    if (this.access) open.push('an access epoch of start');
    if (this.exposure) open.push('an exposure epoch of post');
    if (this.locks.size > 0) open.push(`lock(s) on rank(s) ${[...this.locks.keys()].join(', ')}`);
    if (this.all) open.push('a lockAll epoch');
    if (open.length > 0) throw new MpiError('MPI_ERR_RMA_SYNC', `${call}: ${open.join(' and ')} ${open.length > 1 ? 'are' : 'is'} open on this window`);
  }

  /** Another kind of epoch starts: a fence epoch ends by itself if nothing was issued in it. */
  private endIdleFence(call: string): void {
    if (!this.fence) return;
    if (this.opsInFence > 0) {
      throw new MpiError('MPI_ERR_RMA_SYNC', `${call}: a fence epoch with ${this.opsInFence} operation(s) is open; end it with fence(MODE_NOSUCCEED) first`);
    }
    this.fence = false;
  }
}
