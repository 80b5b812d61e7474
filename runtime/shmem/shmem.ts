import type { Dmapp, MallocOptions } from '../dmapp/dmapp.ts';
import type { Proc } from '../proc.ts';
import { ShmemActiveSet } from './active-set.ts';
import { ELEMS, type ElemArray, type ElemKind } from './elements.ts';
import { notifyingView } from './ptr-view.ts';
import { elemBytes, PeHeap, ShmemError, ShmemGlobalExit, Symmetric, type ElemType } from './symmetric.ts';
import type { ShmemJob } from './job.ts';
import type { ShmemTeam } from './team.ts';

export { ShmemCtx, type CtxOptions } from './contexts.ts';
export { ShmemTeam, type TeamConfig } from './team.ts';
export type { ElemArray, ElemKind } from './elements.ts';
export type { SignalOp } from './signals.ts';
export type { IndexArray, WaitType } from './wait.ts';
export { globalExitOf, PeHeap, ShmemError, ShmemGlobalExit, Symmetric, type AtomicType, type ElemType, type AtomicValue, type FetchArray, type FloatAtomicType, type ReduceType, type ShmemCmp, type ShmemType } from './symmetric.ts';

/** The element kind of each ElemType (the typed array `ptr` gives for it). */
const KIND_OF: Readonly<Record<ElemType, ElemKind>> = { int8: 'Int8', uint8: 'Uint8', int16: 'Int16', uint16: 'Uint16', int32: 'Int32', uint32: 'Uint32', int64: 'Int64', uint64: 'Uint64', float32: 'Float32', float64: 'Float64' };

/** The typed array of an ElemType's elements. */
export type ElemArrayOf<T extends ElemType> = {
  int8: Int8Array;
  uint8: Uint8Array;
  int16: Int16Array;
  uint16: Uint16Array;
  int32: Int32Array;
  uint32: Uint32Array;
  int64: BigInt64Array;
  uint64: BigUint64Array;
  float32: Float32Array;
  float64: Float64Array;
}[T];

/**
 * OpenSHMEM 1.5 (subset) over DMAPP, as Cray SHMEM is layered on the XE and XC (DESIGN.md).
 * Every remote access goes through this PE's `Dmapp`; nothing here touches the NIC.
 *
 * Signatures follow the C calls: a destination or source in the symmetric heap is a `Symmetric`
 * (offset into it with `at`/`element`, as with C pointer arithmetic), a private buffer is a
 * typed array, counts are elements (bytes for `...mem` calls): `putFloat64(dest, source, nelems,
 * pe)` is `shmem_double_put(dest, source, nelems, pe)`. The calls of `ctx.shmem` are those of
 * the default context (CTX_DEFAULT); `ctxCreate` makes others (see ShmemCtx). Team collectives
 * take the team first (`sumReduce(team, dest, source, nreduce, type)`); `broadcastmem`,
 * `fcollectmem`, `collectmem` and the `...ToAll` reductions without one are over all PEs; the
 * 1.4 active-set calls take `PE_start, logPE_stride, PE_size` and a `pSync` last, as in C.
 *
 * Completion and ordering, as OpenSHMEM defines them and no stronger unless said:
 * - puts (`putmem`, typed puts, `p`, `iput`) return once the source may be reused (it is copied
 *   into a bounce buffer) and complete at the next `quiet`/`fence`/`barrierAll`; the NIC routes
 *   packets adaptively, so two puts may land in either order;
 * - gets and `g` return with the data; `...Nbi` calls complete at `quiet`;
 * - `fence` is implemented as `quiet` (stronger than OpenSHMEM requires: it also waits);
 * - fetching atomics (`atomicFetchAdd`, ...) return the old value, so they have completed;
 *   non-fetching ones (`atomicSet`, `atomicAdd`, `atomicInc`, `atomicAnd/Or/Xor`) return once
 *   issued and complete at the next `quiet`/`fence`/`barrierAll`, as do the fetching `...Nbi`
 *   forms, whose old value is in their `fetch` element only then; like puts, two atomics
 *   issued without a `fence` between them may reach the target in either order;
 * - put-with-signal (`putSignal`, `putmemSignal`, their `...Nbi` forms) waits for its data's
 *   completion, then issues the signal AMO, complete at `quiet`: whoever sees the signal sees
 *   the data;
 * - loads and stores through `ptr` (PEs of this node) take no simulated time; a store through
 *   the view `ptr` gives wakes a PE waiting on those bytes at the time of the store;
 * - `barrierAll` (dissemination barrier of AMO signals, the default context's `quiet` first)
 *   and the world collectives are over all PEs; `malloc`/`free` include a barrier as OpenSHMEM
 *   requires; a team's calls involve its PEs only.
 * Waiting (`waitUntil`, the array and signal waits, the barrier) is exact: a PE whose condition
 * is false sleeps until data lands in the memory it watches, and resumes at the time that data
 * is visible plus one poll; a wait nothing can satisfy is a deadlock, reported by the run with
 * the call, PE and address.
 * Bad arguments throw `ShmemError` naming the call and argument; a failed NIC transaction
 * surfaces as a `ShmemError` (cause: the DMAPP error) from `quiet` or the blocking call.
 */
export class Shmem extends ShmemActiveSet {
  constructor(dmapp: Dmapp, proc: Proc, job: ShmemJob) {
    super(dmapp, proc, job, new PeHeap());
  }

  // --- setup

  /**
   * Marks the start of SHMEM use (shmem_init). The first SHMEM call of a PE (this one, `malloc`
   * or a collective) allocates the internal synchronisation segment from DMAPP's symmetric heap,
   * so a program that also calls `dmapp.malloc` must make that first call at the same point on
   * every PE.
   */
  init(): void {
    this.ready();
  }

  /**
   * OpenSHMEM 1.0's start (start_pes, deprecated since 1.2; Fortran's `call start_pes(0)`): `init`.
   * `npes` is unused and should be 0, as the specification says; `num_pes` and `my_pe` of that
   * era are `nPes` and `myPe`.
   */
  startPes(npes: number): void {
    if (!Number.isInteger(npes)) throw new ShmemError(`startPes: npes=${npes} must be an integer (it is unused; pass 0)`);
    this.init();
  }

  /** Ends SHMEM use (shmem_finalize): completes outstanding operations and synchronises all PEs. */
  async finalize(): Promise<void> {
    await this.barrierAll();
  }

  /** SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE: the thread levels of `initThread`. */
  readonly THREAD_SINGLE = 0;
  readonly THREAD_FUNNELED = 1;
  readonly THREAD_SERIALIZED = 2;
  readonly THREAD_MULTIPLE = 3;
  private threadLevel = 0;

  /**
   * Marks the start of SHMEM use asking for thread level `requested` (shmem_init_thread) and
   * returns the level provided: the one requested, as a phit PE is one thread of control, so
   * the promise of every level holds (no two threads ever call SHMEM at once). Fails on a level
   * that is none of THREAD_SINGLE .. THREAD_MULTIPLE.
   */
  initThread(requested: number): number {
    if (!Number.isInteger(requested) || requested < this.THREAD_SINGLE || requested > this.THREAD_MULTIPLE) {
      throw new ShmemError(`initThread: requested=${requested}; valid: THREAD_SINGLE (0), THREAD_FUNNELED (1), THREAD_SERIALIZED (2), THREAD_MULTIPLE (3)`);
    }
    this.threadLevel = requested;
    this.ready();
    return requested;
  }

  /** The thread level SHMEM was started with (shmem_query_thread): THREAD_SINGLE after `init`, the level provided after `initThread`. */
  queryThread(): number {
    return this.threadLevel;
  }

  /**
   * The profiling control of the OpenSHMEM profiling interface (shmem_pcontrol): level 0 disables profiling, 1
   * enables it, 2 asks for a profile to be flushed, others mean what a profiling library says.
   * phit's measurements (--metrics, traces) cover the whole run whatever the level, so this only
   * checks that `level` is an integer.
   */
  pcontrol(level: number): void {
    if (!Number.isInteger(level)) throw new ShmemError(`pcontrol: level=${level} must be an integer`);
  }

  /** The OpenSHMEM version this library implements (shmem_info_get_version). */
  infoGetVersion(): { major: number; minor: number } {
    return { major: 1, minor: 5 };
  }

  /** The library's name (shmem_info_get_name). */
  infoGetName(): string {
    return 'phit OpenSHMEM over DMAPP';
  }

  /**
   * Ends the run with `status` (shmem_global_exit): no call returns, every PE stops at once, and
   * the run is reported as ended by this PE with this status (`simulate` rejects with a
   * ShmemGlobalExit; the command line exits with the status).
   */
  globalExit(status: number): Promise<never> {
    if (!Number.isInteger(status)) return Promise.reject(new ShmemError(`globalExit: status=${status} must be an integer`));
    return Promise.reject(new ShmemGlobalExit(status, this.dmapp.pe, this.proc.time()));
  }

  // --- symmetric heap

  /**
   * Allocates `bytes` (zeroed) on the symmetric heap (shmem_malloc). Every PE makes the same
   * calls in the same order; returns after a barrier, so every PE's copy exists. A size of 0
   * allocates nothing and returns null at once, without the barrier (OpenSHMEM 1.5 §9.3.1).
   *
   * The heap is bounded, as SHMEM_SYMMETRIC_SIZE bounds it (machine parameter
   * `dmapp.symmetricSize`): an allocation that would take the PE's live allocations past it
   * allocates nothing and returns null after the barrier, as the specification's shmem_malloc
   * returns NULL when the memory is not available (§9.3.1). The library's own workspace (team
   * sync words, collective scratch) is not counted. The return type says `Symmetric` for the
   * common case: a program that may exhaust the heap checks for null, as C's does.
   */
  malloc(bytes: 0, opts?: MallocOptions): Promise<null>;
  malloc(bytes: number, opts?: MallocOptions): Promise<Symmetric>;
  async malloc(bytes: number, opts: MallocOptions = {}): Promise<Symmetric | null> {
    if (!Number.isInteger(bytes) || bytes < 0) throw new ShmemError(`malloc: bytes=${bytes} must be a non-negative integer`);
    this.ready();
    if (bytes === 0) return null;
    if (this.heap.used + bytes > this.proc.machine.config.dmapp.symmetricSizeBytes) {
      await this.barrierAll();
      return null;
    }
    const seg = this.dmapp.malloc(bytes, opts);
    this.heap.live.add(seg.id);
    this.heap.sizes.set(seg.id, bytes);
    this.heap.used += bytes;
    this.job.memory[this.dmapp.pe]!.set(seg.id, seg.local);
    await this.barrierAll();
    return new Symmetric(seg, 0, bytes, this.heap);
  }

  /**
   * Resizes an allocation (shmem_realloc): a new one of `bytes` holding the first
   * min(old, new) bytes of this PE's copy, the old one freed; every later access to the old
   * address fails. `ptr` null allocates, `bytes` 0 frees and returns null. Collective, with a
   * barrier, as `malloc`. The new copy is made beside the old one: when the heap bound
   * (`dmapp.symmetricSize`) leaves no room for both, the old allocation stays and this gives null.
   */
  async realloc(ptr: Symmetric | null, bytes: number, opts: MallocOptions = {}): Promise<Symmetric | null> {
    if (!Number.isInteger(bytes) || bytes < 0) throw new ShmemError(`realloc: bytes=${bytes} must be a non-negative integer`);
    if (ptr === null) return this.malloc(bytes, opts);
    this.checkSym('realloc', 'ptr', ptr);
    if (ptr.offset !== 0) throw new ShmemError(`realloc: ptr is at byte offset ${ptr.offset} of an allocation, not its start`);
    if (bytes === 0) {
      await this.free(ptr);
      return null;
    }
    // every PE's old copy stays readable until all have moved (the barrier of malloc)
    const next: Symmetric | null = await this.malloc(bytes, opts);
    // no room for the new copy beside the old: the old one stays, and the call gives null (§9.3.3)
    if (next === null) return null;
    const keep = Math.min(bytes, ptr.bytes);
    next.local.set(ptr.local.subarray(0, keep));
    await this.proc.cpu(Math.ceil(keep / this.proc.machine.config.cpu.memBytesPerPs), 'shmem.realloc(copy)');
    await this.free(ptr);
    return next;
  }

  /** SHMEM_MALLOC_ATOMICS_REMOTE: a hint of `mallocWithHints` (the object is used by remote atomics). */
  readonly MALLOC_ATOMICS_REMOTE = 1;
  /** SHMEM_MALLOC_SIGNAL_REMOTE: a hint of `mallocWithHints` (the object holds signals). */
  readonly MALLOC_SIGNAL_REMOTE = 2;

  /**
   * Allocates `bytes` with usage hints (shmem_malloc_with_hints): 0 or an OR of
   * MALLOC_ATOMICS_REMOTE and MALLOC_SIGNAL_REMOTE; other bits are ignored, as the specification
   * lets a library ignore any hint it cannot use. The hints change nothing here (Cray's NIC
   * serves atomics on any registered memory alike); the allocation is `malloc`'s.
   */
  mallocWithHints(bytes: 0, hints: number, opts?: MallocOptions): Promise<null>;
  mallocWithHints(bytes: number, hints: number, opts?: MallocOptions): Promise<Symmetric>;
  async mallocWithHints(bytes: number, hints: number, opts: MallocOptions = {}): Promise<Symmetric | null> {
    // a hint the library does not know is ignored, as OpenSHMEM 1.5 §9.3.2 says of a hint it cannot use
    if (!Number.isInteger(hints)) throw new ShmemError(`mallocWithHints: hints=${hints} must be an integer (0 or an OR of MALLOC_ATOMICS_REMOTE (1) and MALLOC_SIGNAL_REMOTE (2))`);
    return this.malloc(bytes, opts);
  }

  /**
   * Allocates `bytes` aligned to `alignment` bytes (shmem_align). Every allocation is a symmetric
   * segment of its own, which starts at offset 0 and so meets any alignment: this checks
   * `alignment` (a power of two, as the C library's) and allocates as `malloc` (null for 0 bytes).
   */
  align(alignment: number, bytes: 0, opts?: MallocOptions): Promise<null>;
  align(alignment: number, bytes: number, opts?: MallocOptions): Promise<Symmetric>;
  async align(alignment: number, bytes: number, opts: MallocOptions = {}): Promise<Symmetric | null> {
    if (!Number.isInteger(alignment) || alignment < 1 || (alignment & (alignment - 1)) !== 0) throw new ShmemError(`align: alignment=${alignment} must be a power of two`);
    return this.malloc(bytes, opts);
  }

  // --- memory of other PEs

  /**
   * PE `pe`'s copy of `dest` to the end of its allocation, as memory this PE may load and store
   * directly (shmem_ptr), when `pe` runs on this PE's node (XPMEM on the Cray XE and XC); null
   * otherwise. Without `type` the view is of bytes (C's `void *`); with one (`'float64'`, `'int32'`,
   * ... any ElemType: C's cast of the pointer) of that type's elements, `dest` aligned to them.
   * Loads and stores through it take no simulated time and bypass the NIC. A store through it (an
   * element assignment, `set`, `fill`, `copyWithin`, `reverse`, `sort`, or through one of its
   * `subarray`s) is visible at once and wakes a PE waiting on those bytes (`waitUntil`, the signal
   * and array waits, a lock or barrier wait) at this PE's time of the store, as a put's landing
   * would; a typed array made over its `.buffer` is a plain one, whose stores wake nobody.
   */
  ptr(dest: Symmetric, pe: number): Uint8Array | null;
  ptr<T extends ElemType>(dest: Symmetric, pe: number, type: T): ElemArrayOf<T> | null;
  ptr(dest: Symmetric, pe: number, type?: ElemType): ElemArray | null {
    this.checkPe('ptr', 'pe', pe);
    this.checkSym('ptr', 'dest', dest);
    const e = type === undefined ? 1 : elemBytes('ptr', type);
    if (dest.offset % e !== 0) throw new ShmemError(`ptr: dest is at byte offset ${dest.offset}, not aligned to the ${e}-byte ${type}`);
    if (this.job.nodeOf(pe) !== this.job.nodeOf(this.dmapp.pe)) return null;
    const mem = this.job.memory[pe]!.get(dest.segment.id);
    if (mem === undefined) throw new ShmemError(`ptr: PE ${pe} has not allocated dest's symmetric segment ${dest.segment.id} (yet)`);
    const Ctor = ELEMS[type === undefined ? 'Uint8' : KIND_OF[type]].array;
    const view = new Ctor(mem.buffer, mem.byteOffset + dest.offset, Math.floor(dest.bytes / e));
    const node = this.job.nodeOf(pe);
    return notifyingView(view, (from, bytes) => this.watch.stored(node, mem.buffer, from, bytes, this.proc.time()));
  }

  /** `ptr` for PE `pe` of `team` (shmem_team_ptr); null for TEAM_INVALID or a PE on another node. */
  teamPtr(team: ShmemTeam | null, dest: Symmetric, pe: number): Uint8Array | null;
  teamPtr<T extends ElemType>(team: ShmemTeam | null, dest: Symmetric, pe: number, type: T): ElemArrayOf<T> | null;
  teamPtr(team: ShmemTeam | null, dest: Symmetric, pe: number, type?: ElemType): ElemArray | null {
    if (team === null) return null;
    const t = this.checkTeam('teamPtr', 'team', team);
    if (!Number.isInteger(pe) || pe < 0 || pe >= t.pes.size) throw new ShmemError(`teamPtr: pe=${pe} is not a PE of ${t.label} (0..${t.pes.size - 1})`);
    return type === undefined ? this.ptr(dest, t.pes.pe(pe)) : this.ptr(dest, t.pes.pe(pe), type);
  }

  /** Whether `addr` is a live symmetric address, accessible on `pe` (shmem_addr_accessible); false for a PE out of range. */
  addrAccessible(addr: Symmetric, pe: number): boolean {
    if (!this.peAccessible(pe)) return false;
    return addr instanceof Symmetric && addr.owner === this.heap && this.heap.live.has(addr.segment.id);
  }

  // --- cache management (OpenSHMEM 1.5 §9.13, deprecated): these only order a non-coherent data
  // cache; the caches of the Cray XT, XE and XC nodes (and of the SiCortex and BlackWidow models)
  // are coherent, so Cray SHMEM made them no-ops, and so does phit. The line forms check their
  // address, as any routine that takes a symmetric address does.

  /** Does nothing (shmem_clear_cache_inv, deprecated): the node's cache is coherent. */
  clearCacheInv(): void {}

  /** Does nothing (shmem_set_cache_inv, deprecated): the node's cache is coherent. */
  setCacheInv(): void {}

  /** Does nothing but check `dest` (shmem_clear_cache_line_inv, deprecated): the node's cache is coherent. */
  clearCacheLineInv(dest: Symmetric): void {
    this.checkSym('clearCacheLineInv', 'dest', dest);
  }

  /** Does nothing but check `dest` (shmem_set_cache_line_inv, deprecated): the node's cache is coherent. */
  setCacheLineInv(dest: Symmetric): void {
    this.checkSym('setCacheLineInv', 'dest', dest);
  }

  /** Does nothing (shmem_udcflush, deprecated): the node's cache is coherent. */
  udcflush(): void {}

  /** Does nothing but check `dest` (shmem_udcflush_line, deprecated): the node's cache is coherent. */
  udcflushLine(dest: Symmetric): void {
    this.checkSym('udcflushLine', 'dest', dest);
  }

  /** Whether `pe` is a PE of the job this PE can reach (shmem_pe_accessible): every one of 0..npes-1. */
  peAccessible(pe: number): boolean {
    return Number.isInteger(pe) && pe >= 0 && pe < this.dmapp.npes;
  }

  /** Allocates `count` elements of `size` bytes, zeroed (shmem_calloc); null at once, without a barrier, when either is 0. */
  calloc(count: number, size: number, opts?: MallocOptions): Promise<Symmetric>;
  async calloc(count: number, size: number, opts: MallocOptions = {}): Promise<Symmetric | null> {
    if (!Number.isInteger(count) || count < 0) throw new ShmemError(`calloc: count=${count} must be a non-negative integer`);
    if (!Number.isInteger(size) || size < 0) throw new ShmemError(`calloc: size=${size} must be a non-negative integer`);
    return this.malloc(count * size, opts);
  }

  /** Frees an allocation (shmem_free): a barrier first, then every later access to it fails; null (what a 0-byte malloc gives) is no action, without a barrier. */
  async free(obj: Symmetric | null): Promise<void> {
    if (obj === null) return;
    this.checkSym('free', 'obj', obj);
    if (obj.offset !== 0) throw new ShmemError(`free: obj is at byte offset ${obj.offset} of an allocation, not its start`);
    await this.barrierAll();
    this.heap.live.delete(obj.segment.id);
    this.heap.used -= this.heap.sizes.get(obj.segment.id) ?? 0;
    this.heap.sizes.delete(obj.segment.id);
    this.job.memory[this.dmapp.pe]!.delete(obj.segment.id);
    this.dmapp.free(obj.segment);
  }
}
