/**
 * The one-sided calls of one rank written as OTF2 events, as Score-P's MPI adapter writes them
 * (SCOREP_Mpi_Rma.c and scorep_mpi_rma_request.c of Score-P 8): MPI_Win_create (and
 * MPI_Win_allocate) is an RmaCollectiveBegin, the RmaWinCreate of its window and an
 * RmaCollectiveEnd of the create-handle collective (create-handle-and-allocate), MPI_Win_free the
 * same with RmaWinDestroy and destroy-handle (-and-deallocate); MPI_Put, MPI_Get and
 * MPI_Accumulate are an RmaPut, RmaGet and RmaAtomic (accumulate) with the target rank, the
 * origin's bytes and a matching id, one per window, target and kind of completion until the
 * operations complete (gets complete remotely when they complete locally, puts and accumulates
 * do not). The call that completes them writes, for each matching id, RmaOpCompleteNonBlocking and,
 * for gets and in MPI_Win_unlock for all, RmaOpCompleteRemote. MPI_Win_fence is an
 * RmaCollectiveBegin and an RmaCollectiveEnd of the barrier collective (sync level process and
 * memory); MPI_Win_start and MPI_Win_post an RmaGroupSync (process) with the epoch's group,
 * MPI_Win_complete, MPI_Win_wait and a successful MPI_Win_test one (process and memory) with it,
 * an unsuccessful MPI_Win_test one with sync level none; MPI_Win_lock an RmaRequestLock with the
 * target and lock type (lock id 0), MPI_Win_unlock an RmaReleaseLock. Groups are comm groups of
 * world ranks. phit's attributes (`otf2-rma-records.ts`) ride on RmaWinCreate (window bytes and
 * displacement unit), the transfers (displacement, element bytes and, for an accumulate, the op),
 * and the fence's RmaCollectiveEnd, the start's and post's RmaGroupSync and the RmaRequestLock
 * (assertions, when there are any).
 */
import type { LoggedCall, RankLog } from './call-log.ts';
import type { RmaCall, WinCreateCall, WinSyncCall } from './calls.ts';
import { Otf2Fields, OTF2_UNDEFINED } from './otf2-file-writer.ts';
import { ATOMIC_ACCUMULATE, ATTRIBUTES, LOCK, RMA, SYNC_LEVEL, TYPE, WIN_COLL, type PhitAttribute } from './otf2-rma-records.ts';

/** What the RMA events need from the archive: global ids of windows, groups, attributes and strings. */
export interface Otf2RmaIds {
  /** Whether phit's attributes are written (false: the RMA records alone, as Score-P writes them). */
  readonly withAttributes: boolean;
  /** A new window made on `comm` (a communicator handle of `rank`); returns its global id. */
  newWindow(rank: RankLog, comm: number): number;
  /** The id of the comm group with these world ranks. */
  group(worldRanks: readonly number[]): number;
  /** The id of one of phit's attributes. */
  attribute(a: PhitAttribute): number;
  /** The id of a string. */
  string(s: string): number;
}

/** Emits one event: type, time, fields, singleton, and the attribute list before it (null: none). */
export type RmaEmit = (type: number, at: number, fields: Otf2Fields, singleton: boolean, attrs: Otf2Fields | null) => void;

/** Completion kinds of Score-P's RMA requests: separate (puts, accumulates), combined (gets complete remotely with their local completion). */
type Completion = 'separate' | 'combined';

/** An RMA request of Score-P's: the operations to one target of one kind, until they complete. */
interface RmaRequest {
  readonly target: number;
  readonly kind: Completion;
  readonly id: number;
  completedLocally: boolean;
}

/** One window of the rank: global id, communicator members, whether allocated, open requests, epoch groups. */
interface WindowState {
  readonly id: number;
  readonly members: readonly number[];
  readonly allocated: boolean;
  readonly requests: RmaRequest[];
  access: number;
  exposure: number;
}

/** One rank's one-sided state while its events are written. */
export class RmaEvents {
  private readonly windows = new Map<number, WindowState>();
  private nextMatching = 1;

  constructor(
    private readonly rank: RankLog,
    private readonly ids: Otf2RmaIds,
    private readonly event: RmaEmit,
  ) {}

  /** Writes the events of a one-sided call; false if `l` is not one. */
  write(l: LoggedCall): boolean {
    const c = l.call;
    switch (c.call) {
      case 'winCreate':
        this.create(c, l);
        return true;
      case 'put':
      case 'get':
      case 'accumulate':
        this.transfer(c, l);
        return true;
      case 'winFree':
      case 'fence':
      case 'winStart':
      case 'winComplete':
      case 'winPost':
      case 'winWait':
      case 'winTest':
      case 'lock':
      case 'unlock':
        this.sync(c, l);
        return true;
      default:
        return false;
    }
  }

  /** An attribute list of phit's attributes (undefined values left out); null when empty. */
  private attrs(list: readonly (readonly [PhitAttribute, number | string | undefined])[]): Otf2Fields | null {
    const kept = list.filter((a): a is readonly [PhitAttribute, number | string] => a[1] !== undefined);
    if (kept.length === 0 || !this.ids.withAttributes) return null;
    const f = new Otf2Fields().int(kept.length);
    for (const [a, v] of kept) {
      const t = ATTRIBUTES[a].type;
      f.int(this.ids.attribute(a)).u8(t).int(t === TYPE.string ? this.ids.string(String(v)) : Number(v));
    }
    return f;
  }

  private create(c: WinCreateCall, l: LoggedCall): void {
    const id = this.ids.newWindow(this.rank, c.comm);
    const allocated = c.name === 'MPI_Win_allocate';
    const members = this.rank.comms.get(c.comm)?.members ?? [this.rank.worldRank];
    this.windows.set(c.win, { id, members, allocated, requests: [], access: OTF2_UNDEFINED, exposure: OTF2_UNDEFINED });
    this.event(RMA.collectiveBegin, l.fromPs, new Otf2Fields(), false, null);
    this.event(RMA.winCreate, l.toPs, new Otf2Fields().int(id), false, this.attrs([['windowBytes', c.bytes], ['dispUnit', c.dispUnit]]));
    this.collEnd(allocated ? WIN_COLL.createHandleAndAllocate : WIN_COLL.createHandle, SYNC_LEVEL.process, id, l.toPs, null);
  }

  private collEnd(op: number, level: number, win: number, at: number, attrs: Otf2Fields | null): void {
    // collective op, sync level, window, root (none), bytes sent and received
    this.event(RMA.collectiveEnd, at, new Otf2Fields().u8(op).int(level).int(win).int(OTF2_UNDEFINED).int(0).int(0), false, attrs);
  }

  private transfer(c: RmaCall, l: LoggedCall): void {
    const w = this.of(c.win);
    const kind: Completion = c.call === 'get' ? 'combined' : 'separate';
    let req = w.requests.find((r) => r.target === c.target && r.kind === kind);
    if (!req) {
      req = { target: c.target, kind, id: this.nextMatching++, completedLocally: false };
      w.requests.push(req);
    }
    const bytes = c.count * c.typeBytes;
    const attrs = this.attrs([['displacement', c.disp], ['elementBytes', c.typeBytes], ['op', c.call === 'accumulate' ? `MPI_${c.op.toUpperCase()}` : undefined]]);
    const f = new Otf2Fields().int(w.id).int(c.target);
    // RmaAtomic: type, bytes sent, bytes received; RmaPut and RmaGet: bytes
    if (c.call === 'accumulate') f.u8(ATOMIC_ACCUMULATE).int(bytes).int(0);
    else f.int(bytes);
    f.int(req.id);
    this.event(c.call === 'put' ? RMA.put : c.call === 'get' ? RMA.get : RMA.atomic, l.fromPs, f, false, attrs);
  }

  /**
   * Completion of the window's requests (to `target` only, if given): standard (fence, complete,
   * wait, test: remote completion for gets only; completed requests are dropped, but a test's
   * separate ones are kept) or full (unlock: remote completion for all).
   */
  private complete(w: WindowState, at: number, how: 'standard' | 'full' | 'test', target?: number): void {
    const kept: RmaRequest[] = [];
    for (const r of [...w.requests].sort((a, b) => a.target - b.target || (a.kind === b.kind ? 0 : a.kind === 'separate' ? -1 : 1))) {
      if (target !== undefined && r.target !== target) {
        kept.push(r);
        continue;
      }
      if (!r.completedLocally) {
        this.event(RMA.opCompleteNonBlocking, at, new Otf2Fields().int(w.id).int(r.id), false, null);
        r.completedLocally = true;
        if (how !== 'full' && r.kind === 'combined') this.event(RMA.opCompleteRemote, at, new Otf2Fields().int(w.id).int(r.id), false, null);
      }
      if (how === 'full') this.event(RMA.opCompleteRemote, at, new Otf2Fields().int(w.id).int(r.id), false, null);
      if (how === 'test' && r.kind === 'separate') kept.push(r);
    }
    w.requests.splice(0, w.requests.length, ...kept);
  }

  private groupSync(level: number, w: WindowState, group: number, at: number, attrs: Otf2Fields | null = null): void {
    this.event(RMA.groupSync, at, new Otf2Fields().int(level).int(w.id).int(group), false, attrs);
  }

  private sync(c: WinSyncCall, l: LoggedCall): void {
    const w = this.of(c.win);
    const both = SYNC_LEVEL.process | SYNC_LEVEL.memory;
    const assert = this.attrs([['assert', c.assert === 0 ? undefined : c.assert]]);
    switch (c.call) {
      case 'winFree':
        this.event(RMA.collectiveBegin, l.fromPs, new Otf2Fields(), false, null);
        this.event(RMA.winDestroy, l.toPs, new Otf2Fields().int(w.id), false, null);
        this.collEnd(w.allocated ? WIN_COLL.destroyHandleAndDeallocate : WIN_COLL.destroyHandle, SYNC_LEVEL.process, w.id, l.toPs, null);
        this.windows.delete(c.win);
        return;
      case 'fence':
        this.event(RMA.collectiveBegin, l.fromPs, new Otf2Fields(), false, null);
        this.complete(w, l.toPs, 'standard');
        this.collEnd(WIN_COLL.barrier, both, w.id, l.toPs, assert);
        return;
      case 'winStart':
      case 'winPost': {
        const g = this.ids.group((c.group ?? []).map((r) => w.members[r] ?? r));
        if (c.call === 'winStart') w.access = g;
        else w.exposure = g;
        this.groupSync(SYNC_LEVEL.process, w, g, l.toPs, assert);
        return;
      }
      case 'winComplete':
        this.complete(w, l.toPs, 'standard');
        this.groupSync(both, w, w.access, l.toPs);
        return;
      case 'winWait':
        this.complete(w, l.toPs, 'standard');
        this.groupSync(both, w, w.exposure, l.toPs);
        return;
      case 'winTest':
        if (c.flag === true) {
          this.complete(w, l.toPs, 'test');
          this.groupSync(both, w, w.exposure, l.toPs);
        } else this.groupSync(SYNC_LEVEL.none, w, w.exposure, l.toPs);
        return;
      case 'lock':
        // window, remote, lock id, lock type
        this.event(RMA.requestLock, l.fromPs, new Otf2Fields().int(w.id).int(c.target).int(0).u8(c.exclusive ? LOCK.exclusive : LOCK.shared), false, assert);
        return;
      case 'unlock':
        this.complete(w, l.toPs, 'full', c.target);
        this.event(RMA.releaseLock, l.toPs, new Otf2Fields().int(w.id).int(c.target).int(0), false, null);
        return;
    }
  }

  private of(handle: number): WindowState {
    const w = this.windows.get(handle);
    if (!w) throw new RangeError(`OTF2: rank ${this.rank.worldRank}: a one-sided call on window ${handle}, which the log never created`);
    return w;
  }
}
