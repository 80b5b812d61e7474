/**
 * One-sided MPI (MPI-3.1 chapter 11) as Cray MPICH maps it onto Gemini and Aries when its RMA
 * runs over DMAPP (MPICH_RMA_OVER_DMAPP), on every machine phit has:
 *
 * - **Memory**: each rank registers its window memory with its NIC (winAllocate and
 *   winAllocateShared on pages of `dmapp.heapPage`, a user buffer of winCreate on 4 KiB pages, a
 *   dynamic window's regions as they are attached) and a small control segment holding its lock
 *   word, its accumulate mutex and its notification slot (control.ts). Creating a window is an
 *   allgather of every rank's handles, size and displacement unit over a duplicate of the
 *   communicator.
 * - **put, get** (and rput, rget): one contiguous NIC transfer each, FMA up to
 *   `dmapp.bteThreshold` bytes and BTE above, with real data and the NIC's timing; every call
 *   charges `dmapp.overhead` and the NIC's issue cost, as a DMAPP call does. Targets on the
 *   origin's node take the same path through the NIC (no shared-memory shortcut), so the NIC's
 *   atomics stay coherent with every access.
 * - **Atomics**: accumulate, getAccumulate and fetchAndOp on 8-byte integers (BigInt64Array,
 *   BigUint64Array) with SUM, BAND, BOR, BXOR, REPLACE (swap) and NO_OP (a fetching add of 0), and
 *   compareAndSwap on 8-byte integers, are one NIC AMO per element (ordered routing, so one
 *   origin's accumulates to a target act in order). Everything else (other types, PROD, MIN, MAX,
 *   the logical ops, MINLOC/MAXLOC; the modelled AMO unit has no min/max, as Gemini has none) is a
 *   read-modify-write by the origin's CPU under the target's accumulate mutex (accumulate.ts): the
 *   target's CPU is never involved, and such a call completes before it returns. With derived
 *   datatypes (acc-layout.ts) the origin is packed as point-to-point packs it, and the
 *   read-modify-write reads and writes the target one transfer per contiguous piece under one hold
 *   of the mutex; pair types (MINLOC, MAXLOC, REPLACE, NO_OP) always take that path. Accumulates are
 *   atomic per element among those with the same op or NO_OP on the same type (MPI's default
 *   accumulate_ops, same_op_no_op), and one origin's accumulates to a target act in issue order.
 * - **Synchronisation**: fence is a wait for the origin's operations to complete at their
 *   targets, then a barrier; post and complete send notifications as puts with a
 *   destination-side event into the peer's completion queue (pscw.ts), and start and wait block
 *   until those events; lock and unlock take and give back the target's lock word with NIC
 *   atomics, a failed try waiting for the word to be given back before it tries again (locks.ts),
 *   so an exclusive lock really excludes and a lock never given back is a deadlock report; flush
 *   waits for remote completion, flushLocal for local completion.
 *
 * Per machine: xe6 (Gemini) and xc30 (Aries) run the mapping as above, with their AMO caches;
 * xt4 (SeaStar) has no FMA, so its NIC runs every put and get on its block engine and its
 * embedded processor performs the atomics (`amo.op`); sc5832 and bw use their own NIC blocks the
 * same way, without an AMO cache. Every preset has a one-sided path through its NIC, so none
 * falls back to messages.
 *
 * Errors: an operation outside an access epoch, wrong synchronisation, unlock without lock and
 * free with an epoch open fail with MPI_ERR_RMA_SYNC; a target that is not a rank with
 * MPI_ERR_RANK; a displacement or count past the target's window with MPI_ERR_RMA_RANGE; buffers
 * of different types with MPI_ERR_TYPE; an op an accumulate cannot take with MPI_ERR_OP; any call
 * on a freed window with MPI_ERR_WIN. Each message names the call.
 */
import { Attributes, type Keyval } from '../attributes.ts';
import { describe } from '../constants.ts';
import { callErrhandler, checkErrhandler, ERRORS_ARE_FATAL, guardMethods, type Errhandler } from '../errhandler.ts';
import { Group } from '../group.ts';
import { PROC_NULL } from '../message.ts';
import { MpiError } from '../request.ts';
import { checkAssert, LOCK_EXCLUSIVE, LOCK_SHARED, MODE_NOCHECK, MODE_NOSUCCEED } from './constants.ts';
import { CTRL_NOTE } from './control.ts';
import { acquireLock, acquireShared, releaseLock } from './locks.ts';
import { EMPTY, viewBytes, WinOperations } from './operations.ts';
import type { SharedSegment, WinFlavor, WinHost, WinParts, WinShared } from './parts.ts';
import { noteData, NOTE_COMPLETE, NOTE_POST } from './pscw.ts';

export { viewBytes } from './operations.ts';
export { WinShared, type SharedSegment, type WinFlavor, type WinHost, type WinParts } from './parts.ts';

/**
 * A window (MPI_Win) as one rank sees it: its local memory exposed to the other ranks of the
 * communicator, the one-sided calls on it and their synchronisation. Made by the communicator's
 * `winCreate`, `winAllocate`, `winAllocateShared` or `winCreateDynamic` (collective). Buffers are
 * typed arrays whose length is the count; displacements are in units of the target's
 * `dispUnit` (bytes of an address for a dynamic window). See the top of this file for how each
 * call maps onto the NIC.
 */
export class Win extends WinOperations {
  /** Targets locked with MODE_NOCHECK (no lock word taken); lockAll with it. */
  private readonly unchecked = new Set<number>();
  private uncheckedAll = false;
  /** Window rank of each world rank of the communicator. */
  private readonly byWorld = new Map<number, number>();

  /** What the window's failing calls do (MPI_Win_set_errhandler; ERRORS_ARE_FATAL by default, as MPI has it). */
  private errhandler: Errhandler = ERRORS_ARE_FATAL;
  /** The attributes cached on the window (attributes.ts). */
  private readonly attrs = new Attributes<Win>('win');
  private name = '';

  constructor(host: WinHost, shared: WinShared, parts: WinParts) {
    super(host, shared, parts);
    for (let r = 0; r < host.comm.size; r++) this.byWorld.set(host.comm.worldRank(r), r);
  }

  /** Sets the window's error handler (MPI_Win_set_errhandler): mpi.ERRORS_ARE_FATAL, mpi.ERRORS_RETURN, or one of winCreateErrhandler. */
  setErrhandler(h: Errhandler): void {
    checkErrhandler('setErrhandler', 'win', h, 'mpi.ERRORS_ARE_FATAL, mpi.ERRORS_RETURN or a handler of winCreateErrhandler');
    this.errhandler = h;
  }

  /** Invokes the window's error handler with `code` (MPI_Win_call_errhandler): see errhandler.ts's `callErrhandler`. */
  callErrhandler(code: number): void {
    this.live('callErrhandler');
    callErrhandler(this, 'callErrhandler', code);
  }

  /** Caches `value` on the window under `keyval` (MPI_Win_set_attr); a value already there is deleted first (its delete callback runs). */
  setAttr(keyval: Keyval<Win>, value: unknown): void {
    this.live('setAttr');
    this.attrs.set(this, 'setAttr', keyval, value);
  }

  /** The window's attribute under `keyval` (MPI_Win_get_attr): `{ flag, value }`; the predefined keyvals (mpi.WIN_BASE, ...) always answer. */
  getAttr(keyval: Keyval<Win>): { flag: boolean; value?: unknown } {
    this.live('getAttr');
    return this.attrs.get(this, 'getAttr', keyval);
  }

  /** Deletes the window's attribute under `keyval` (MPI_Win_delete_attr), running its delete callback. */
  deleteAttr(keyval: Keyval<Win>): void {
    this.live('deleteAttr');
    this.attrs.delete(this, 'deleteAttr', keyval);
  }

  /** Names the window (MPI_Win_set_name): a local call, each rank names its own side. */
  setName(name: string): void {
    this.live('setName');
    if (typeof name !== 'string') throw new MpiError('MPI_ERR_ARG', `setName: name must be a string, got ${describe(name)}`);
    this.name = name;
  }

  /** The window's name (MPI_Win_get_name): what setName gave, '' if none. */
  getName(): string {
    this.live('getName');
    return this.name;
  }

  /** The window's error handler (MPI_Win_get_errhandler). */
  getErrhandler(): Errhandler {
    this.live('getErrhandler');
    return this.errhandler;
  }

  /** For the guard of the window's calls (see errhandler.ts). */
  errhandlerOf(): Errhandler {
    return this.errhandler;
  }

  fatalOf(): Error | null {
    return this.host.proc.fatal;
  }

  setFatal(err: Error): void {
    this.host.proc.fatal ??= err;
  }

  /** How the window's memory was made: 'create', 'allocate', 'shared' or 'dynamic'. */
  get flavor(): WinFlavor {
    return this.parts.flavor;
  }

  /** This rank's displacement unit (bytes). */
  get dispUnit(): number {
    return this.parts.dispUnit;
  }

  /** This rank's window memory (empty for a dynamic window). */
  get buf(): Uint8Array {
    return this.parts.mem ?? EMPTY;
  }

  /** The group of the window's communicator (MPI_Win_get_group). */
  getGroup(): Group {
    this.live('getGroup');
    return this.host.comm.group;
  }

  /**
   * Rank `rank`'s segment of a shared window, which this rank may read and write directly
   * (MPI_Win_shared_query); PROC_NULL gives the first rank's segment that is not empty. Any
   * flavor may be asked (MPI-4.1 §12.2.3): a window of winCreate, winAllocate or
   * winCreateDynamic answers size 0 and an empty buffer for every rank, since phit keeps that
   * memory private to its rank (reached only through the NIC), with the rank's displacement unit.
   */
  sharedQuery(rank: number): SharedSegment {
    this.live('sharedQuery');
    let r = rank;
    if (rank === PROC_NULL) {
      r = this.flavor === 'shared' ? this.parts.targets.findIndex((t) => t.size > 0) : -1;
      if (r < 0) r = 0;
    } else {
      this.checkRank('sharedQuery', 'rank', rank);
    }
    const t = this.parts.targets[r]!;
    if (this.flavor !== 'shared') return { buf: EMPTY, size: 0, dispUnit: t.dispUnit };
    return { buf: this.shared.segments[r] ?? EMPTY, size: t.size, dispUnit: t.dispUnit };
  }

  /**
   * Attaches `buf` to a dynamic window (MPI_Win_attach) and returns its address: origins name
   * its bytes by this address (plus a byte offset) as the displacement. Local; the address
   * reaches origins by any means (a send, a put).
   */
  attach(buf: ArrayBufferView): number {
    this.live('attach');
    this.dynamicOnly('attach');
    return this.shared.tables[this.host.comm.rank]!.attach(this.host.proc, viewBytes('attach', buf), this.host.proc.machine.config.mpi.maxAttach);
  }

  /** Detaches memory attached with `attach` (MPI_Win_detach): the same view. */
  detach(buf: ArrayBufferView): void {
    this.live('detach');
    this.dynamicOnly('detach');
    this.shared.tables[this.host.comm.rank]!.detach(this.host.proc, viewBytes('detach', buf));
  }

  /**
   * Frees the window (MPI_Win_free; collective): no epoch may be open (a fence epoch in which
   * nothing was issued may). Deletes its attributes, waits until every rank is done with the window, then deregisters
   * its memory; any later call on it fails with MPI_ERR_WIN.
   */
  async free(): Promise<void> {
    this.live('free');
    this.epochs.closed('free');
    // the attributes' delete callbacks run first, the last set first (attributes.ts)
    this.attrs.clear(this, 'free');
    await this.nic.wait(-1, false, 'free');
    // the library's own traffic (lock releases, notifications) lands before anyone deregisters
    await this.nic.drainInternal('free');
    await this.host.comm.barrier();
    this.freed = true;
    const proc = this.host.proc;
    if (this.parts.memHandle >= 0) proc.nic.deregister(this.parts.memHandle);
    proc.nic.deregister(this.parts.ctrlHandle);
    this.shared.tables[this.host.comm.rank]!.clear(proc);
    this.host.world.registry.forget(this.host.key);
    this.host.world.registry.forget(`${this.host.key}:shm`);
  }

  // ---------------------------------------------------------------- synchronisation

  /**
   * Ends the fence epoch and opens the next (MPI_Win_fence; collective): this rank's operations
   * complete at their targets, then a barrier. With MODE_NOSUCCEED no epoch follows; the other
   * asserts are accepted.
   */
  async fence(assert = 0): Promise<void> {
    this.live('fence');
    checkAssert('fence', assert);
    this.epochs.fenceCall((assert & MODE_NOSUCCEED) === 0);
    await this.nic.wait(-1, false, 'fence');
    await this.host.comm.barrier();
  }

  /** Opens an exposure epoch to the ranks of `group` (MPI_Win_post): tells each of them; does not block. */
  async post(group: Group, assert = 0): Promise<void> {
    this.live('post');
    checkAssert('post', assert);
    const origins = this.ranksOf('post', group);
    this.epochs.post(origins);
    this.parts.notices.expect(origins.size);
    if ((assert & MODE_NOCHECK) !== 0) return;
    for (const o of origins) await this.notify(o, NOTE_POST, 'post');
  }

  /** Opens an access epoch to the ranks of `group` (MPI_Win_start): blocks until each has posted (not with MODE_NOCHECK). */
  async start(group: Group, assert = 0): Promise<void> {
    this.live('start');
    checkAssert('start', assert);
    const targets = this.ranksOf('start', group);
    this.epochs.start(targets);
    if ((assert & MODE_NOCHECK) !== 0) return;
    const n = this.parts.notices;
    if (!n.postedBy(targets)) {
      const what = `start: waiting for the post of rank(s) ${[...targets].join(', ')}`;
      const req = this.nic.request(what);
      n.until(() => n.postedBy(targets), req);
      await req.wait(() => what);
    }
    n.consume(targets);
  }

  /** Ends the start epoch (MPI_Win_complete): its operations complete at their targets, then each target is told. */
  async complete(): Promise<void> {
    this.live('complete');
    const targets = this.epochs.complete();
    await this.nic.wait(-1, false, 'complete');
    for (const t of targets) await this.notify(t, NOTE_COMPLETE, 'complete');
  }

  /** Ends the post epoch (MPI_Win_wait): blocks until every origin of the post has called complete. */
  async wait(): Promise<void> {
    this.live('wait');
    this.epochs.exposed('wait');
    const n = this.parts.notices;
    if (!n.completed) {
      const what = `wait: ${n.missing} origin(s) of the post have not called complete`;
      const req = this.nic.request(what);
      n.until(() => n.completed, req);
      await req.wait(() => what);
    }
    this.epochs.endExposure();
  }

  /** Whether every origin of the post has called complete (MPI_Win_test; one poll); if so, ends the post epoch. */
  async test(): Promise<boolean> {
    this.live('test');
    this.epochs.exposed('test');
    await this.host.proc.cpu(this.host.world.params.testOverheadPs, 'test');
    if (!this.parts.notices.completed) return false;
    this.epochs.endExposure();
    return true;
  }

  /**
   * Opens a passive-target epoch to `rank` (MPI_Win_lock) and takes its lock: LOCK_EXCLUSIVE
   * waits until no other origin holds it, LOCK_SHARED until no origin holds it exclusively.
   * With MODE_NOCHECK no lock is taken (the program guarantees no conflict).
   */
  async lock(lockType: number, rank: number, assert = 0): Promise<void> {
    this.live('lock');
    if (lockType !== LOCK_EXCLUSIVE && lockType !== LOCK_SHARED) throw new MpiError('MPI_ERR_LOCKTYPE', `lock: lockType=${lockType} must be mpi.LOCK_EXCLUSIVE or mpi.LOCK_SHARED`);
    checkAssert('lock', assert);
    if (rank === PROC_NULL) return;
    this.checkRank('lock', 'rank', rank);
    this.epochs.lock(lockType, rank);
    if ((assert & MODE_NOCHECK) !== 0) {
      this.unchecked.add(rank);
      return;
    }
    try {
      await acquireLock(this.nic, this.shared.locks, this.parts.targets[rank]!, lockType, `lock(${lockType === LOCK_EXCLUSIVE ? 'EXCLUSIVE' : 'SHARED'}, ${rank})`);
    } catch (e) {
      this.epochs.abandon(rank);
      throw e;
    }
  }

  /** Ends the passive-target epoch to `rank` (MPI_Win_unlock): its operations complete at the target, then the lock is given back. */
  async unlock(rank: number): Promise<void> {
    this.live('unlock');
    if (rank === PROC_NULL) return;
    this.checkRank('unlock', 'rank', rank);
    const type = this.epochs.unlock(rank);
    try {
      await this.nic.wait(rank, false, `unlock(${rank})`);
    } finally {
      if (!this.unchecked.delete(rank)) await releaseLock(this.nic, this.shared.locks, this.parts.targets[rank]!, type, `unlock(${rank})`);
    }
  }

  /** A shared lock on every rank (MPI_Win_lock_all). */
  async lockAll(assert = 0): Promise<void> {
    this.live('lockAll');
    checkAssert('lockAll', assert);
    this.epochs.lockAll();
    if ((assert & MODE_NOCHECK) !== 0) {
      this.uncheckedAll = true;
      return;
    }
    await acquireShared(this.nic, this.shared.locks, this.parts.targets, 'lockAll');
  }

  /** Ends lockAll (MPI_Win_unlock_all): every operation completes at its target, then every lock is given back. */
  async unlockAll(): Promise<void> {
    this.live('unlockAll');
    this.epochs.unlockAll();
    try {
      await this.nic.wait(-1, false, 'unlockAll');
    } finally {
      if (this.uncheckedAll) this.uncheckedAll = false;
      else for (const t of this.parts.targets) await releaseLock(this.nic, this.shared.locks, t, LOCK_SHARED, 'unlockAll');
    }
  }

  /** Completes this rank's operations to `rank` at the target (MPI_Win_flush; passive-target epochs). */
  async flush(rank: number): Promise<void> {
    await this.flushCall('flush', rank, false);
  }

  /** Completes every operation of this rank at its target (MPI_Win_flush_all). */
  async flushAll(): Promise<void> {
    await this.flushCall('flushAll', null, false);
  }

  /** Completes this rank's operations to `rank` at the origin: their buffers may be reused (MPI_Win_flush_local). */
  async flushLocal(rank: number): Promise<void> {
    await this.flushCall('flushLocal', rank, true);
  }

  /** Completes every operation of this rank at the origin (MPI_Win_flush_local_all). */
  async flushLocalAll(): Promise<void> {
    await this.flushCall('flushLocalAll', null, true);
  }

  /** Synchronises the public and private copies of the window (MPI_Win_sync): one copy in phit's unified memory, so a memory barrier. */
  async sync(): Promise<void> {
    this.live('sync');
    await this.host.proc.cpu(0, 'sync');
  }

  // ---------------------------------------------------------------- internals

  /** A flush of one target, or of every target (`rank` null: flushAll, flushLocalAll). */
  private async flushCall(call: string, rank: number | null, local: boolean): Promise<void> {
    this.live(call);
    if (rank === PROC_NULL) return;
    if (rank !== null) this.checkRank(call, 'rank', rank);
    this.epochs.passive(call, rank ?? -1);
    await this.nic.wait(rank ?? -1, local, rank === null ? call : `${call}(${rank})`);
  }

  /** Sends a notification of `kind` to rank `to`'s control segment (a put with a destination-side event). */
  private async notify(to: number, kind: number, call: string): Promise<void> {
    const t = this.parts.targets[to]!;
    await this.nic.issue({ op: 'put', target: to, proc: t.proc, handle: t.ctrlHandle, offset: CTRL_NOTE, local: new Uint8Array(8), remoteData: noteData(kind, this.host.comm.rank), internal: true }, `${call}: telling rank ${to}`);
  }

  /** Window ranks of a group's members (MPI_ERR_GROUP for one outside the window). */
  private ranksOf(call: string, group: Group): Set<number> {
    if (!(group instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `${call}: expected a Group, got ${describe(group)}`);
    const out = new Set<number>();
    for (const w of group.ranks) {
      const r = this.byWorld.get(w);
      if (r === undefined) throw new MpiError('MPI_ERR_GROUP', `${call}: world rank ${w} of the group is not in the window's communicator`);
      out.add(r);
    }
    return out;
  }

  private dynamicOnly(call: string): void {
    if (this.flavor !== 'dynamic') throw new MpiError('MPI_ERR_RMA_FLAVOR', `${call}: only a window of winCreateDynamic takes attached memory`);
  }
}

// every call of a window reports to the window's error handler
guardMethods(WinOperations.prototype, ['put', 'get', 'accumulate', 'getAccumulate', 'fetchAndOp', 'compareAndSwap', 'rput', 'rget', 'raccumulate', 'rgetAccumulate']);
guardMethods(Win.prototype, ['callErrhandler', 'setAttr', 'getAttr', 'deleteAttr', 'setName', 'getName', 'getGroup', 'sharedQuery', 'attach', 'detach', 'free', 'fence', 'post', 'start', 'complete', 'wait', 'test', 'lock', 'unlock', 'lockAll', 'unlockAll', 'flush', 'flushAll', 'flushLocal', 'flushLocalAll', 'sync']);
