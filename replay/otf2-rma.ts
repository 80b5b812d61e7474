/**
 * The one-sided calls of an OTF2 trace (the RMA records of Score-P's MPI adapter, as
 * `otf2-rma-writer.ts` writes them) turned into replay calls: RmaWinCreate is MPI_Win_create (or
 * MPI_Win_allocate, by its region) on the window's communicator, RmaWinDestroy MPI_Win_free,
 * RmaPut, RmaGet and an accumulate's RmaAtomic the transfer to the target rank with its bytes,
 * an RmaCollectiveEnd of the barrier collective MPI_Win_fence, an RmaGroupSync the start, post,
 * complete, wait or test its region names (the group's world ranks as ranks of the window's
 * communicator; a test whose sync level is none did not end the epoch), RmaRequestLock and
 * RmaReleaseLock MPI_Win_lock (with the lock type) and MPI_Win_unlock. The completion records
 * (RmaOpComplete*) and RmaCollectiveBegin add nothing. What OTF2 lacks comes from phit's
 * attributes (`otf2-rma-records.ts`): window bytes and displacement unit, displacement, element
 * bytes, the accumulate's op, assertions. A trace without them (Score-P's own) replays each
 * transfer at displacement 0 in elements of the widest of 8, 4, 2 or 1 bytes that divides its
 * bytes (an accumulate with MPI_SUM), on windows of displacement unit 1 sized to the largest
 * access any rank made on them (`largestAccesses`, read before the replay starts).
 */
import type { RmaCall, TraceCall, TraceOp, WinSyncCall } from './calls.ts';
import type { Otf2Comm } from './otf2-defs.ts';
import { type Otf2Event, type Otf2EventReader } from './otf2-events.ts';
import { ATOMIC_ACCUMULATE, ATTRIBUTES, LOCK, RMA, SYNC_LEVEL, WIN_COLL, type PhitAttribute } from './otf2-rma-records.ts';

/** What turning RMA events into calls needs from the reader. */
export interface RmaContext {
  /** This rank in the world. */
  readonly rank: number;
  /** The communicator of window `win`; throws on an undefined window. */
  windowComm(win: number, e: Otf2Event): Otf2Comm;
  /** The replay's handle of a communicator. */
  handle(c: Otf2Comm): number;
  /** The world ranks of group `id`; throws on an undefined group. */
  group(id: number, e: Otf2Event): readonly number[];
  /** The value of one of phit's attributes on `e`, undefined when the event has none. */
  attribute(e: Otf2Event, a: PhitAttribute): number | undefined;
  /** A string of the definitions. */
  string(id: number): string | undefined;
  /** The largest access on window `win` in the whole trace (bytes), for a trace without phit's attributes. */
  largestAccess(win: number): number;
}

/** Reduction ops by MPI name, as the `phit::op` attribute gives them. */
const OPS: ReadonlySet<string> = new Set(['sum', 'max', 'min', 'prod', 'land', 'band', 'lor', 'bor', 'lxor', 'bxor', 'minloc', 'maxloc', 'replace']);

/** Elements for `bytes`: the widest of 8, 4, 2 or 1 bytes that divides them. */
function elementBytes(bytes: number): number {
  return bytes % 8 === 0 ? 8 : bytes % 4 === 0 ? 4 : bytes % 2 === 0 ? 2 : 1;
}

/** The call of one RMA event of region `name`, or null for an event that makes none. */
export function rmaCall(name: string, e: Otf2Event, ctx: RmaContext): TraceCall | null {
  const sync = (call: WinSyncCall['call'], more: Partial<WinSyncCall> = {}): WinSyncCall => ({ call, name, win: e.win, group: null, target: -1, exclusive: false, assert: 0, ...more });
  const assert = (): number => ctx.attribute(e, 'assert') ?? 0;
  switch (e.type) {
    case RMA.winCreate: {
      const comm = ctx.windowComm(e.win, e);
      const bytes = ctx.attribute(e, 'windowBytes') ?? ctx.largestAccess(e.win);
      return { call: 'winCreate', name, comm: ctx.handle(comm), win: e.win, bytes, dispUnit: ctx.attribute(e, 'dispUnit') ?? 1 };
    }
    case RMA.winDestroy:
      return sync('winFree');
    case RMA.collectiveEnd:
      return e.op === WIN_COLL.barrier ? sync('fence', { assert: assert() }) : null;
    case RMA.groupSync: {
      const kind = name.toLowerCase();
      if (kind === 'mpi_win_start' || kind === 'mpi_win_post') {
        const c = ctx.windowComm(e.win, e);
        const members = c.self ? [ctx.rank] : c.members;
        const group = ctx.group(e.group, e).map((w) => members.indexOf(w));
        return sync(kind === 'mpi_win_start' ? 'winStart' : 'winPost', { group, assert: assert() });
      }
      if (kind === 'mpi_win_complete') return sync('winComplete');
      if (kind === 'mpi_win_wait') return sync('winWait');
      if (kind === 'mpi_win_test') return sync('winTest', { flag: e.level !== SYNC_LEVEL.none });
      return null;
    }
    case RMA.requestLock:
      return sync('lock', { target: e.peer, exclusive: e.op === LOCK.exclusive, assert: assert() });
    case RMA.releaseLock:
      return sync('unlock', { target: e.peer });
    case RMA.put:
    case RMA.get:
    case RMA.atomic: {
      if (e.type === RMA.atomic && e.op !== ATOMIC_ACCUMULATE) return { call: 'unsupported', name, nearest: null };
      const typeBytes = ctx.attribute(e, 'elementBytes') ?? elementBytes(e.bytes);
      const opName = ctx.attribute(e, 'op');
      const op = (opName === undefined ? 'sum' : (ctx.string(opName) ?? '').replace(/^MPI_/, '').toLowerCase()) as TraceOp;
      const call: RmaCall = {
        call: e.type === RMA.put ? 'put' : e.type === RMA.get ? 'get' : 'accumulate',
        name, win: e.win, target: e.peer, disp: ctx.attribute(e, 'displacement') ?? 0, count: typeBytes > 0 ? e.bytes / typeBytes : 0, typeBytes, op: OPS.has(op) ? op : 'sum',
      };
      return call;
    }
    default:
      return null;
  }
}

/** Whether a trace's definitions name phit's window attribute (so its RMA records carry phit's attributes). */
export function hasPhitAttributes(attributes: ReadonlyMap<string, number>): boolean {
  return attributes.has(ATTRIBUTES.windowBytes.name);
}

/** The largest put, get or accumulate (bytes) on each window, over every rank's events. */
export function largestAccesses(readers: readonly Otf2EventReader[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of readers) {
    for (let e = r.next(); e !== null; e = r.next()) {
      if (e.type !== RMA.put && e.type !== RMA.get && e.type !== RMA.atomic) continue;
      out.set(e.win, Math.max(out.get(e.win) ?? 0, e.bytes, e.received));
    }
  }
  return out;
}
