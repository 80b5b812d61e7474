import type { AmoRequest } from '../../../fabric/nic/nic.ts';
import type { Request } from '../request.ts';
import { LOCK_EXCLUSIVE } from './constants.ts';
import { CTRL_ACC, CTRL_LOCK, type TargetInfo } from './control.ts';
import type { RmaNic, RmaTransfer } from './transport.ts';

/** The lock word's exclusive flag, above the count of shared holders (as Open MPI's osc/rdma lays it out). */
const EXCLUSIVE = 1n << 32n;
const MASK = (1n << 64n) - 1n;

const fetchAdd = (v: bigint): AmoRequest => ({ op: 'add', width: 8, operand: v & MASK, fetch: true });
const add = (v: bigint): AmoRequest => ({ op: 'add', width: 8, operand: v & MASK, fetch: false });
const DONE = { source: -1, tag: -1, count: 0, bytes: 0 };

/**
 * Who waits for a lock word of a window to change. A try that finds a word taken does not spin:
 * the origin sleeps until another origin gives the word back in a way that could let the try
 * succeed (the give-back AMO's completion), and tries again then, as a spinning origin would
 * find it free at its next try. A shared try waits for an exclusive holder's release; an
 * exclusive try for any holder's (shared holders' and backed-out shared tries' included). A
 * lock that is never given back so ends the run with a deadlock report instead of spinning
 * forever. A give-back counted since the try was issued makes the next try start at once, so
 * none is missed.
 */
export class LockWatch {
  /** Give-backs seen per channel: three per rank (lock released by any holder, lock released by an exclusive holder, accumulate mutex). */
  private readonly changes: Float64Array;
  /** Per channel: who waits. */
  private readonly waiters: Request[][];
  /** Per channel: null while nobody holds its turn, else the origins waiting for the turn, first come first. */
  private readonly turns: (Request[] | null)[];

  constructor(size: number) {
    this.changes = new Float64Array(3 * size);
    this.waiters = Array.from({ length: 3 * size }, () => []);
    this.turns = new Array<Request[] | null>(3 * size).fill(null);
  }

  /**
   * Takes the turn of channel `c`: at once when nobody holds it, else after those that asked
   * before (first come, first served). Only the turn's holder tries the word, so an origin that
   * gives the word back and at once wants it again queues behind the others instead of taking it
   * before their tries arrive (which starved them: MPI asks that an enabled operation completes).
   */
  async takeTurn(nic: RmaNic, c: number, what: string): Promise<void> {
    const q = this.turns[c];
    if (!q) {
      this.turns[c] = [];
      return;
    }
    const req = nic.request(what);
    q.push(req);
    await req.wait(() => what);
  }

  /** Passes the turn of channel `c` to the first origin waiting for it, or frees it. */
  passTurn(c: number): void {
    const next = this.turns[c]!.shift();
    if (next) next.complete(DONE);
    else this.turns[c] = null;
  }

  /** Give-backs on channel `c` so far. */
  seen(c: number): number {
    return this.changes[c]!;
  }

  /** Channel `c` saw a give-back: its waiters try again. */
  changed(c: number): void {
    this.changes[c]!++;
    for (const r of this.waiters[c]!.splice(0)) r.complete(DONE);
  }

  /** Blocks until channel `c` has seen more than `above` give-backs (at once if it has). */
  async until(nic: RmaNic, c: number, above: number, what: string): Promise<void> {
    if (this.changes[c]! > above) return;
    const req = nic.request(what);
    this.waiters[c]!.push(req);
    await req.wait(() => what);
  }
}

/** Channels of `t`'s words in a LockWatch: its lock given back by anyone, by an exclusive holder; its accumulate mutex. */
const dropped = (t: TargetInfo): number => 3 * t.rank;
const freed = (t: TargetInfo): number => 3 * t.rank + 1;
const accWord = (t: TargetInfo): number => 3 * t.rank + 2;

/** The word at `offset` of `t`'s control segment as a transfer's target (the library's own, ordered traffic). */
function at(t: TargetInfo, offset: number): Omit<RmaTransfer, 'op' | 'local'> {
  return { target: t.rank, proc: t.proc, handle: t.ctrlHandle, offset, internal: true, ordered: true };
}

/** A non-fetching add to a word that others may wait on: the waiters of `channels` try again once it has completed, and the turn of channel `turn` (if any) passes on. */
async function giveBack(nic: RmaNic, watch: LockWatch, t: TargetInfo, offset: number, channels: readonly number[], v: bigint, what: string, turn?: number): Promise<void> {
  const onDone = (): void => {
    channels.forEach((c) => watch.changed(c));
    if (turn !== undefined) watch.passTurn(turn);
  };
  await nic.issue({ ...at(t, offset), op: 'amo', local: new Uint8Array(0), amo: add(v), onDone }, what);
}

/**
 * Takes the passive-target lock of `t` with NIC atomics on its lock word, as Cray MPICH's DMAPP
 * path and Open MPI's osc/rdma do: an exclusive lock is a compare-and-swap of 0 to the exclusive
 * flag; a shared lock is a fetch-and-add of 1, backed out (add -1) while the fetched word shows an
 * exclusive holder. A try that fails waits for the word to be given back (see LockWatch) and
 * tries again. Each try is one AMO round trip from the origin; the target's CPU is not involved.
 * Exclusive lockers take turns first come, first served (as MPICH's target grants the requests of
 * its lock queue in order), so one that unlocks and at once locks again does not starve them.
 */
export async function acquireLock(nic: RmaNic, watch: LockWatch, t: TargetInfo, type: number, what: string): Promise<void> {
  const reason = `${what}: waiting for rank ${t.rank}'s lock to be released`;
  if (type !== LOCK_EXCLUSIVE) return acquireLockTries(nic, watch, t, type, what, reason);
  await watch.takeTurn(nic, dropped(t), reason);
  try {
    await acquireLockTries(nic, watch, t, type, what, reason);
  } catch (e) {
    watch.passTurn(dropped(t));
    throw e;
  }
}

/** The tries of acquireLock. */
async function acquireLockTries(nic: RmaNic, watch: LockWatch, t: TargetInfo, type: number, what: string, reason: string): Promise<void> {
  for (;;) {
    if (type === LOCK_EXCLUSIVE) {
      const since = watch.seen(dropped(t));
      if ((await nic.amo(at(t, CTRL_LOCK), { op: 'cswap', width: 8, operand: EXCLUSIVE, compare: 0n, fetch: true }, what)) === 0n) return;
      await watch.until(nic, dropped(t), since, reason);
    } else {
      const since = watch.seen(freed(t));
      if (((await nic.amo(at(t, CTRL_LOCK), fetchAdd(1n), what)) & EXCLUSIVE) === 0n) return;
      await giveBack(nic, watch, t, CTRL_LOCK, [dropped(t)], -1n, what);
      await watch.until(nic, freed(t), since, reason);
    }
  }
}

/** Shared locks on every rank of `ts` (lockAll): one fetch-and-add to each at once, then a retry for each that found an exclusive holder. */
export async function acquireShared(nic: RmaNic, watch: LockWatch, ts: readonly TargetInfo[], what: string): Promise<void> {
  const since = ts.map((t) => watch.seen(freed(t)));
  const olds = await nic.amoAll(
    ts.map((t) => at(t, CTRL_LOCK)),
    fetchAdd(1n),
    what,
  );
  for (let i = 0; i < ts.length; i++) {
    if ((olds[i]! & EXCLUSIVE) === 0n) continue;
    const t = ts[i]!;
    await giveBack(nic, watch, t, CTRL_LOCK, [dropped(t)], -1n, what);
    await watch.until(nic, freed(t), since[i]!, `${what}: waiting for rank ${t.rank}'s lock to be released`);
    await acquireLock(nic, watch, t, 0, what);
  }
}

/** Gives the lock of `t` back: one non-fetching AMO, ordered behind the origin's earlier ones; the origin does not wait for it. */
export async function releaseLock(nic: RmaNic, watch: LockWatch, t: TargetInfo, type: number, what: string): Promise<void> {
  if (type === LOCK_EXCLUSIVE) await giveBack(nic, watch, t, CTRL_LOCK, [dropped(t), freed(t)], -EXCLUSIVE, what, dropped(t));
  else await giveBack(nic, watch, t, CTRL_LOCK, [dropped(t)], -1n, what);
}

/**
 * Takes `t`'s accumulate mutex for origin `me` (a rank of the window): compare-and-swap of 0 to
 * me + 1, tried again when it changes. The origins take turns first come, first served (as a
 * target that applies accumulates in their order of arrival serves them): the turn passes on when
 * the holder's release has reached the word.
 */
export async function acquireMutex(nic: RmaNic, watch: LockWatch, t: TargetInfo, me: number, what: string): Promise<void> {
  const w = accWord(t);
  await watch.takeTurn(nic, w, `${what}: waiting for rank ${t.rank}'s accumulate mutex`);
  for (;;) {
    const since = watch.seen(w);
    if ((await nic.amo(at(t, CTRL_ACC), { op: 'cswap', width: 8, operand: BigInt(me + 1), compare: 0n, fetch: true }, what)) === 0n) return;
    await watch.until(nic, w, since, `${what}: waiting for rank ${t.rank}'s accumulate mutex`);
  }
}

/** Gives `t`'s accumulate mutex back (non-fetching, not waited for). */
export async function releaseMutex(nic: RmaNic, watch: LockWatch, t: TargetInfo, me: number, what: string): Promise<void> {
  const w = accWord(t);
  await nic.issue({ ...at(t, CTRL_ACC), op: 'amo', local: new Uint8Array(0), amo: add(-BigInt(me + 1)), onDone: () => (watch.changed(w), watch.passTurn(w)) }, what);
}
