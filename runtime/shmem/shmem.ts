import type { Dmapp, MallocOptions } from '../dmapp/dmapp.ts';
import type { Proc } from '../proc.ts';
import { ShmemActiveSet } from './active-set.ts';
import { PeHeap, ShmemError, Symmetric } from './symmetric.ts';
import type { ShmemJob } from './job.ts';

export { ShmemCtx, type CtxOptions } from './contexts.ts';
export { ShmemTeam, type TeamConfig } from './team.ts';
export { PeHeap, ShmemError, Symmetric, type AtomicType, type AtomicValue, type FetchArray, type FloatAtomicType, type ReduceType, type ShmemCmp, type ShmemType } from './symmetric.ts';

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
 * - `barrierAll` (dissemination barrier of AMO signals, the default context's `quiet` first)
 *   and the world collectives are over all PEs; `malloc`/`free` include a barrier as OpenSHMEM
 *   requires; a team's calls involve its PEs only.
 * Waiting (`waitUntil`, the barrier) is exact: a PE whose condition is false sleeps until data
 * lands in the memory it watches, and resumes at the time that data is visible plus one poll; a
 * wait nothing can satisfy is a deadlock, reported by the run with the call, PE and address.
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

  /** Ends SHMEM use (shmem_finalize): completes outstanding operations and synchronises all PEs. */
  async finalize(): Promise<void> {
    await this.barrierAll();
  }

  // --- symmetric heap

  /**
   * Allocates `bytes` (zeroed) on the symmetric heap (shmem_malloc). Every PE makes the same
   * calls in the same order; returns after a barrier, so every PE's copy exists.
   */
  async malloc(bytes: number, opts: MallocOptions = {}): Promise<Symmetric> {
    if (!Number.isInteger(bytes) || bytes < 0) throw new ShmemError(`malloc: bytes=${bytes} must be a non-negative integer`);
    this.ready();
    const seg = this.dmapp.malloc(bytes, opts);
    this.heap.live.add(seg.id);
    await this.barrierAll();
    return new Symmetric(seg, 0, bytes, this.heap);
  }

  /** Allocates `count` elements of `size` bytes, zeroed (shmem_calloc). */
  async calloc(count: number, size: number, opts: MallocOptions = {}): Promise<Symmetric> {
    if (!Number.isInteger(count) || count < 0) throw new ShmemError(`calloc: count=${count} must be a non-negative integer`);
    if (!Number.isInteger(size) || size < 0) throw new ShmemError(`calloc: size=${size} must be a non-negative integer`);
    return this.malloc(count * size, opts);
  }

  /** Frees an allocation (shmem_free): a barrier first, then every later access to it fails. */
  async free(obj: Symmetric): Promise<void> {
    this.checkSym('free', 'obj', obj);
    if (obj.offset !== 0) throw new ShmemError(`free: obj is at byte offset ${obj.offset} of an allocation, not its start`);
    await this.barrierAll();
    this.heap.live.delete(obj.segment.id);
    this.dmapp.free(obj.segment);
  }
}
