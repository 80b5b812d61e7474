import type { Engine, EventHandler, WaitReason } from '../../fabric/engine/engine.ts';
import type { LandingListener } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';

/** Event: a landing a PE waits for is visible now (arg: the PE). */
const EV_LANDED = 0;
/** Event: the peer a PE waits for has made its first SHMEM call (arg: the PE). */
const EV_STARTED = 1;

/** A PE suspended until data lands in bytes [from, to) of `buffer` (its own memory). */
interface MemoryWait {
  readonly proc: Proc;
  readonly buffer: ArrayBufferLike;
  readonly from: number;
  readonly to: number;
  /** Time of the earliest wake-up scheduled for this wait; Infinity: none yet. */
  wakeAt: number;
}

/**
 * What the PEs of one SHMEM job wait on, so that no wait polls: data landing in a PE's own
 * memory (the NIC's landing listener, installed on a node only while one of its PEs waits), and
 * a peer's first SHMEM call (the bootstrap of the first barrier). A waiter is woken at the time
 * the landing is visible in host memory, or at the peer's call, and then checks its condition
 * itself; a wait that nothing wakes is left to the engine's deadlock report.
 */
export class ShmemWatch implements LandingListener, EventHandler {
  private readonly id: number;
  /** Per PE: its wait on memory, or null. */
  private readonly waits: (MemoryWait | null)[];
  /** Per node: the memory waits of its PEs. */
  private readonly byNode: MemoryWait[][] = [];
  /** Per PE: whether it has made its first SHMEM call (set up its synchronisation segment). */
  private readonly started: boolean[];
  /** Per PE: the PEs suspended until it has started. */
  private readonly startWaiters: number[][];
  /** Per PE: the peer it is suspended for, or -1. */
  private readonly waitsFor: Int32Array;

  constructor(
    private readonly engine: Engine,
    /** The job's processes, by PE number. */
    private readonly procs: readonly Proc[],
  ) {
    this.id = engine.register(this);
    this.waits = procs.map(() => null);
    this.started = procs.map(() => false);
    this.startWaiters = procs.map(() => []);
    this.waitsFor = new Int32Array(procs.length).fill(-1);
  }

  /**
   * Suspends `proc` until remote data lands in `bytes` bytes at byte `offset` of `mem` (its own
   * memory) and is visible there; `reason` names the wait in a deadlock report. The caller checks
   * its condition right before (with nothing in between that could let data land unseen) and again after.
   */
  untilLanding(proc: Proc, mem: Uint8Array, offset: number, bytes: number, reason: WaitReason): Promise<void> {
    const from = mem.byteOffset + offset;
    const w: MemoryWait = { proc, buffer: mem.buffer, from, to: from + bytes, wakeAt: Infinity };
    this.waits[proc.rank] = w;
    const list = (this.byNode[proc.node] ??= []);
    list.push(w);
    if (list.length === 1) proc.nic.landing = this;
    return proc.suspend(reason);
  }

  /** The NIC of `node` wrote `bytes` at `offset` of `mem`, visible at `visiblePs`: wakes the PEs that wait on those bytes then. */
  landed(node: number, mem: Uint8Array, offset: number, bytes: number, visiblePs: number): void {
    this.written(node, mem.buffer, mem.byteOffset + offset, bytes, visiblePs);
  }

  /**
   * A PE of `node` stored `bytes` at byte `from` of `buffer` (memory of a PE of that node) by
   * load and store, through `shmem.ptr`, at `atPs`: wakes the PEs that wait on those bytes then,
   * as a landing would.
   */
  stored(node: number, buffer: ArrayBufferLike, from: number, bytes: number, atPs: number): void {
    this.written(node, buffer, from, bytes, atPs);
  }

  /** Bytes [from, from + bytes) of `buffer` on `node` changed, visible at `visiblePs`: wakes the PEs that wait on them then. */
  private written(node: number, buffer: ArrayBufferLike, from: number, bytes: number, visiblePs: number): void {
    const list = this.byNode[node];
    if (list === undefined) return;
    const to = from + bytes;
    for (const w of list) {
      if (w.buffer !== buffer || to <= w.from || from >= w.to) continue;
      // a wake-up already due no later sees this landing's bytes too: they are in memory by then
      const at = Math.max(visiblePs, this.engine.now);
      if (at >= w.wakeAt) continue;
      w.wakeAt = at;
      this.engine.at(at, this.id, EV_LANDED, w.proc.rank);
    }
  }

  /** Whether PE `pe` has made its first SHMEM call. */
  hasStarted(pe: number): boolean {
    return this.started[pe]!;
  }

  /** PE `pe` makes its first SHMEM call at `atPs`: the PEs waiting for it wake then. */
  start(pe: number, atPs: number): void {
    if (this.started[pe]) return;
    this.started[pe] = true;
    for (const r of this.startWaiters[pe]!) this.engine.at(atPs, this.id, EV_STARTED, r);
    this.startWaiters[pe] = [];
  }

  /** Suspends `proc` until PE `peer` has made its first SHMEM call (returns at once if it has). */
  async untilStarted(proc: Proc, peer: number, reason: WaitReason): Promise<void> {
    if (this.started[peer]) return;
    this.startWaiters[peer]!.push(proc.rank);
    this.waitsFor[proc.rank] = peer;
    await proc.suspend(reason);
  }

  onEvent(kind: number, pe: number): void {
    if (kind === EV_STARTED) {
      if (this.waitsFor[pe]! < 0) return;
      this.waitsFor[pe] = -1;
      this.procs[pe]!.resume(undefined);
      return;
    }
    const w = this.waits[pe];
    // a wake-up of an earlier wait, or one superseded by an earlier landing, is ignored
    if (w === null || w === undefined || w.wakeAt !== this.engine.now) return;
    this.waits[pe] = null;
    const list = this.byNode[w.proc.node]!;
    list.splice(list.indexOf(w), 1);
    if (list.length === 0) w.proc.nic.landing = null;
    w.proc.resume(undefined);
  }
}
