import { DmappError, type Dmapp, type DmappType, type MallocOptions, type SymmetricSegment } from '../dmapp/dmapp.ts';
import type { AmoOp } from '../../fabric/nic/nic.ts';
import type { Proc } from '../proc.ts';
import type { ShmemWatch } from './watch.ts';

/** Error from an OpenSHMEM call: names the call and the bad argument (or wraps a NIC failure as `cause`). */
export class ShmemError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ShmemError';
  }
}

/** Element types of the typed calls (the `TYPE` of `shmem_TYPE_put`, in TypeScript words). */
export type ShmemType = 'int32' | 'uint32' | 'int64' | 'uint64' | 'float64';
/** Types of the atomics (`shmem_TYPE_atomic_*`): values and results are bigints, signed or not as named. */
export type AtomicType = 'int32' | 'uint32' | 'int64' | 'uint64';
/** Types of the reductions (`shmem_TYPE_OP_to_all`). */
export type ReduceType = 'float64' | 'int32' | 'int64';
/**
 * Where a fetching non-blocking atomic (`atomicFetchAddNbi`, ...) puts the old value, with an
 * `index`: the C calls' `TYPE *fetch`. A private typed array of the atomic's type (BigInt64Array
 * for int64, BigUint64Array for uint64, Int32Array for int32, Uint32Array for uint32). The call
 * returns once the AMO is issued; the NIC writes `fetch[index]` when the answer arrives, at some
 * point before the next `quiet` (or `barrierAll`) returns, so read it only after that.
 */
export type FetchArray = BigInt64Array | BigUint64Array | Int32Array | Uint32Array;
/** Comparison of `waitUntil` (SHMEM_CMP_EQ, ... in lower case). */
export type ShmemCmp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

const TYPES: Readonly<Record<ShmemType, { bytes: 4 | 8; dmapp: DmappType }>> = {
  int32: { bytes: 4, dmapp: 'dw' },
  uint32: { bytes: 4, dmapp: 'dw' },
  int64: { bytes: 8, dmapp: 'qw' },
  uint64: { bytes: 8, dmapp: 'qw' },
  float64: { bytes: 8, dmapp: 'qw' },
};
const CMPS: readonly ShmemCmp[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
const ATOMIC_TYPES: readonly AtomicType[] = ['int32', 'uint32', 'int64', 'uint64'];
const REDUCE_TYPES: readonly ReduceType[] = ['float64', 'int32', 'int64'];

/** Bytes of the internal synchronisation segment: one 8-byte barrier counter per dissemination round. */
const SYNC_ROUNDS = 64;

/**
 * A symmetric address: a symmetric-heap allocation (from `Shmem.malloc`) or a byte offset into
 * one (`at`), the analogue of a C pointer into the symmetric heap. `local` and the typed views
 * show this PE's copy; remote calls name the same address on another PE.
 */
export class Symmetric {
  /** @internal */
  constructor(
    /** The DMAPP segment holding it (the same segment id on every PE). */
    readonly segment: SymmetricSegment,
    /** Byte offset of this address inside the segment. */
    readonly offset: number,
    /** Bytes from this address to the end of the allocation. */
    readonly bytes: number,
    /** @internal the allocating Shmem (a PE may only name its own symmetric objects) */
    readonly owner: object,
  ) {}

  /** This PE's bytes, from this address to the end of the allocation. */
  get local(): Uint8Array {
    return this.segment.local.subarray(this.offset, this.offset + this.bytes);
  }

  /** The address `byteOffset` bytes further on (`(char *)p + byteOffset`). */
  at(byteOffset: number): Symmetric {
    if (!Number.isInteger(byteOffset) || byteOffset < 0 || byteOffset > this.bytes) {
      throw new ShmemError(`at: byteOffset=${byteOffset} must be an integer in 0..${this.bytes} (the bytes of this symmetric object)`);
    }
    return new Symmetric(this.segment, this.offset + byteOffset, this.bytes - byteOffset, this.owner);
  }

  /** The address of element `index` of an array of `type` starting here (`&p[index]`). */
  element(type: ShmemType, index: number): Symmetric {
    return this.at(typeInfo('element', type).bytes * index);
  }

  /** This PE's copy as float64 elements (the address must be 8-byte aligned). */
  float64(): Float64Array {
    return new Float64Array(this.segment.local.buffer, this.viewStart('float64', 8), Math.floor(this.bytes / 8));
  }
  /** This PE's copy as int32 elements (4-byte aligned). */
  int32(): Int32Array {
    return new Int32Array(this.segment.local.buffer, this.viewStart('int32', 4), Math.floor(this.bytes / 4));
  }
  /** This PE's copy as uint32 elements (4-byte aligned). */
  uint32(): Uint32Array {
    return new Uint32Array(this.segment.local.buffer, this.viewStart('uint32', 4), Math.floor(this.bytes / 4));
  }
  /** This PE's copy as int64 (bigint) elements (8-byte aligned). */
  int64(): BigInt64Array {
    return new BigInt64Array(this.segment.local.buffer, this.viewStart('int64', 8), Math.floor(this.bytes / 8));
  }
  /** This PE's copy as uint64 (bigint) elements (8-byte aligned). */
  uint64(): BigUint64Array {
    return new BigUint64Array(this.segment.local.buffer, this.viewStart('uint64', 8), Math.floor(this.bytes / 8));
  }

  private viewStart(type: string, align: number): number {
    if (this.offset % align !== 0) throw new ShmemError(`${type}: the symmetric address is at byte offset ${this.offset}, not ${align}-byte aligned`);
    return this.segment.local.byteOffset + this.offset;
  }
}

/**
 * OpenSHMEM 1.5 (subset) over DMAPP, as Cray SHMEM is layered on the XE and XC (DESIGN.md).
 * Every remote access goes through this PE's `Dmapp`; nothing here touches the NIC.
 *
 * Signatures follow the C calls with the team/pSync arguments dropped: a destination or source
 * in the symmetric heap is a `Symmetric` (offset into it with `at`/`element`, as with C pointer
 * arithmetic), a private buffer is a typed array, counts are elements (bytes for `...mem` calls):
 * `putFloat64(dest, source, nelems, pe)` is `shmem_double_put(dest, source, nelems, pe)`.
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
 * - `barrierAll` (dissemination barrier of AMO signals, `quiet` first) and the collectives are
 *   over all PEs; `malloc`/`free` include a barrier as OpenSHMEM requires.
 * Waiting (`waitUntil`, the barrier) is exact: a PE whose condition is false sleeps until data
 * lands in the memory it watches, and resumes at the time that data is visible plus one poll; a
 * wait nothing can satisfy is a deadlock, reported by the run with the call, PE and address.
 * Bad arguments throw `ShmemError` naming the call and argument; a failed NIC transaction
 * surfaces as a `ShmemError` (cause: the DMAPP error) from `quiet` or the blocking call.
 */
export class Shmem {
  private sync: SymmetricSegment | null = null;
  private scratch: SymmetricSegment | null = null;
  /** Every PE's contribution to the current `collectmem`, 8 bytes per PE. */
  private sizes: SymmetricSegment | null = null;
  private readonly live = new Set<number>();
  private barriers = 0;

  constructor(
    private readonly dmapp: Dmapp,
    private readonly proc: Proc,
    /** What the job's PEs wait on (shared by all of them). */
    private readonly watch: ShmemWatch,
  ) {}

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

  /** This PE's number. */
  myPe(): number {
    return this.dmapp.pe;
  }

  /** Number of PEs. */
  nPes(): number {
    return this.dmapp.npes;
  }

  /** The process this PE runs as (for CPU-time charges). */
  protected get process(): Proc {
    return this.proc;
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
    this.live.add(seg.id);
    await this.barrierAll();
    return new Symmetric(seg, 0, bytes, this);
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
    this.live.delete(obj.segment.id);
    this.dmapp.free(obj.segment);
  }

  // --- contiguous puts and gets

  /** Puts `nbytes` of `source` to `dest` on `pe` (shmem_putmem); completes at `quiet`. */
  async putmem(dest: Symmetric, source: ArrayBufferView, nbytes: number, pe: number): Promise<void> {
    // the bounce-buffer copy: `source` may be reused as soon as this returns
    const src = this.copyOf(this.bytesArg('putmem', 'source', source, nbytes));
    await this.putBytes('putmem', dest, src, pe, true);
  }

  /** Gets `nbytes` from `source` on `pe` into `dest` (shmem_getmem); returns with the data. */
  async getmem(dest: ArrayBufferView, source: Symmetric, nbytes: number, pe: number): Promise<void> {
    const dst = this.bytesArg('getmem', 'dest', dest, nbytes);
    await this.getBytes('getmem', dst, source, pe, true);
  }

  /** Non-blocking put (shmem_putmem_nbi): `source` must stay unchanged until `quiet`. */
  async putmemNbi(dest: Symmetric, source: ArrayBufferView, nbytes: number, pe: number): Promise<void> {
    const src = this.bytesArg('putmemNbi', 'source', source, nbytes);
    await this.putBytes('putmemNbi', dest, src, pe, false);
  }

  /** Non-blocking get (shmem_getmem_nbi): `dest` holds the data after `quiet`. */
  async getmemNbi(dest: ArrayBufferView, source: Symmetric, nbytes: number, pe: number): Promise<void> {
    const dst = this.bytesArg('getmemNbi', 'dest', dest, nbytes);
    await this.getBytes('getmemNbi', dst, source, pe, false);
  }

  /** Puts `nelems` float64 of `source` to `dest` on `pe` (shmem_double_put). */
  async putFloat64(dest: Symmetric, source: Float64Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putBytes('putFloat64', dest, this.bounce('putFloat64', 'float64', source, nelems), pe, true);
  }
  /** Puts `nelems` int32 (shmem_int32_put). */
  async putInt32(dest: Symmetric, source: Int32Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putBytes('putInt32', dest, this.bounce('putInt32', 'int32', source, nelems), pe, true);
  }
  /** Puts `nelems` int64 (shmem_int64_put). */
  async putInt64(dest: Symmetric, source: BigInt64Array | readonly bigint[], nelems: number, pe: number): Promise<void> {
    return this.putBytes('putInt64', dest, this.bounce('putInt64', 'int64', source, nelems), pe, true);
  }
  /** Gets `nelems` float64 from `source` on `pe` into `dest` (shmem_double_get). */
  async getFloat64(dest: Float64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getBytes('getFloat64', typedDest('getFloat64', Float64Array, dest, nelems, 8), source, pe, true);
  }
  /** Gets `nelems` int32 (shmem_int32_get). */
  async getInt32(dest: Int32Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getBytes('getInt32', typedDest('getInt32', Int32Array, dest, nelems, 4), source, pe, true);
  }
  /** Gets `nelems` int64 (shmem_int64_get). */
  async getInt64(dest: BigInt64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getBytes('getInt64', typedDest('getInt64', BigInt64Array, dest, nelems, 8), source, pe, true);
  }
  /** Non-blocking float64 put (shmem_double_put_nbi): `source` must stay unchanged until `quiet`. */
  async putFloat64Nbi(dest: Symmetric, source: Float64Array, nelems: number, pe: number): Promise<void> {
    return this.putBytes('putFloat64Nbi', dest, typedDest('putFloat64Nbi', Float64Array, source, nelems, 8), pe, false);
  }
  /** Non-blocking float64 get (shmem_double_get_nbi): `dest` holds the data after `quiet`. */
  async getFloat64Nbi(dest: Float64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getBytes('getFloat64Nbi', typedDest('getFloat64Nbi', Float64Array, dest, nelems, 8), source, pe, false);
  }

  // --- single elements

  /** Puts one float64 (shmem_double_p). */
  async pFloat64(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putBytes('pFloat64', dest, typedCopy('pFloat64', 'float64', [value], 1), pe, true);
  }
  /** Puts one int32 (shmem_int32_p). */
  async pInt32(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putBytes('pInt32', dest, typedCopy('pInt32', 'int32', [value], 1), pe, true);
  }
  /** Puts one int64 (shmem_int64_p). */
  async pInt64(dest: Symmetric, value: bigint, pe: number): Promise<void> {
    return this.putBytes('pInt64', dest, typedCopy('pInt64', 'int64', [value], 1), pe, true);
  }
  /** Gets one float64 (shmem_double_g). */
  async gFloat64(source: Symmetric, pe: number): Promise<number> {
    const v = new Float64Array(1);
    await this.getBytes('gFloat64', new Uint8Array(v.buffer), source, pe, true);
    return v[0]!;
  }
  /** Gets one int32 (shmem_int32_g). */
  async gInt32(source: Symmetric, pe: number): Promise<number> {
    const v = new Int32Array(1);
    await this.getBytes('gInt32', new Uint8Array(v.buffer), source, pe, true);
    return v[0]!;
  }
  /** Gets one int64 (shmem_int64_g). */
  async gInt64(source: Symmetric, pe: number): Promise<bigint> {
    const v = new BigInt64Array(1);
    await this.getBytes('gInt64', new Uint8Array(v.buffer), source, pe, true);
    return v[0]!;
  }

  // --- strided

  /** Strided put (shmem_double_iput): element i of `source` (every `sst`) to element i*`dst` of `dest` on `pe`. */
  async iputFloat64(dest: Symmetric, source: Float64Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iput('iputFloat64', 'float64', dest, source, dst, sst, nelems, pe);
  }
  /** Strided int32 put (shmem_int32_iput). */
  async iputInt32(dest: Symmetric, source: Int32Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iput('iputInt32', 'int32', dest, source, dst, sst, nelems, pe);
  }
  /** Strided int64 put (shmem_int64_iput). */
  async iputInt64(dest: Symmetric, source: BigInt64Array | readonly bigint[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iput('iputInt64', 'int64', dest, source, dst, sst, nelems, pe);
  }
  /** Strided get (shmem_double_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetFloat64(dest: Float64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iget('igetFloat64', 'float64', dest, source, dst, sst, nelems, pe);
  }
  /** Strided int32 get (shmem_int32_iget). */
  async igetInt32(dest: Int32Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iget('igetInt32', 'int32', dest, source, dst, sst, nelems, pe);
  }
  /** Strided int64 get (shmem_int64_iget). */
  async igetInt64(dest: BigInt64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iget('igetInt64', 'int64', dest, source, dst, sst, nelems, pe);
  }

  // --- ordering and completion

  /** Waits until every put, get and AMO this PE issued has completed (shmem_quiet). */
  async quiet(): Promise<void> {
    await this.nic('quiet', this.dmapp.gsyncWait());
  }

  /**
   * Orders this PE's puts and non-blocking atomics to each PE (shmem_fence). Implemented as
   * `quiet`, which is stronger than OpenSHMEM requires (it waits for completion, not only for
   * ordering).
   */
  async fence(): Promise<void> {
    await this.nic('fence', this.dmapp.gsyncWait());
  }

  // --- atomics (values and results are bigints of `type`, default int64; the non-fetching ones complete at `quiet`)

  /** Atomically reads `source` on `pe` (shmem_atomic_fetch). */
  async atomicFetch(source: Symmetric, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicFetch', 'source', 'add', 'blocking', source, 0n, pe, type) as Promise<bigint>;
  }
  /** Atomically writes `value` to `dest` on `pe` (shmem_atomic_set); returns once issued, completes at `quiet`. */
  async atomicSet(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicSet', 'dest', 'swap', 'nbi', dest, value, pe, type);
  }
  /** Atomically adds `value` (shmem_atomic_add); returns once issued, completes at `quiet`. */
  async atomicAdd(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicAdd', 'dest', 'add', 'nbi', dest, value, pe, type);
  }
  /** Atomically adds `value`, returning the old value (shmem_atomic_fetch_add). */
  async atomicFetchAdd(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicFetchAdd', 'dest', 'add', 'blocking', dest, value, pe, type) as Promise<bigint>;
  }
  /** Atomically adds one (shmem_atomic_inc). */
  async atomicInc(dest: Symmetric, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicInc', 'dest', 'add', 'nbi', dest, 1n, pe, type);
  }
  /** Atomically adds one, returning the old value (shmem_atomic_fetch_inc). */
  async atomicFetchInc(dest: Symmetric, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicFetchInc', 'dest', 'add', 'blocking', dest, 1n, pe, type) as Promise<bigint>;
  }
  /** Atomically writes `value`, returning the old value (shmem_atomic_swap). */
  async atomicSwap(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicSwap', 'dest', 'swap', 'blocking', dest, value, pe, type) as Promise<bigint>;
  }
  /** Writes `value` if `dest` equals `cond`; returns the old value (shmem_atomic_compare_swap). */
  async atomicCompareSwap(dest: Symmetric, cond: bigint | number, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicCompareSwap', 'dest', 'cswap', 'blocking', dest, value, pe, type, cond) as Promise<bigint>;
  }
  /** Atomic bitwise and (shmem_atomic_and). */
  async atomicAnd(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicAnd', 'dest', 'and', 'nbi', dest, value, pe, type);
  }
  /** Atomic bitwise and, returning the old value (shmem_atomic_fetch_and). */
  async atomicFetchAnd(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicFetchAnd', 'dest', 'and', 'blocking', dest, value, pe, type) as Promise<bigint>;
  }
  /** Atomic bitwise or (shmem_atomic_or). */
  async atomicOr(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicOr', 'dest', 'or', 'nbi', dest, value, pe, type);
  }
  /** Atomic bitwise or, returning the old value (shmem_atomic_fetch_or). */
  async atomicFetchOr(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicFetchOr', 'dest', 'or', 'blocking', dest, value, pe, type) as Promise<bigint>;
  }
  /** Atomic bitwise xor (shmem_atomic_xor). */
  async atomicXor(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicXor', 'dest', 'xor', 'nbi', dest, value, pe, type);
  }
  /** Atomic bitwise xor, returning the old value (shmem_atomic_fetch_xor). */
  async atomicFetchXor(dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<bigint> {
    return this.atomic('atomicFetchXor', 'dest', 'xor', 'blocking', dest, value, pe, type) as Promise<bigint>;
  }

  // --- non-blocking fetching atomics (OpenSHMEM 1.5 `..._nbi`): `fetch[index]` holds the old value after `quiet`

  /** Atomic read of `source` on `pe` into `fetch[index]` (shmem_atomic_fetch_nbi). */
  async atomicFetchNbi(fetch: FetchArray, index: number, source: Symmetric, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicFetchNbi', 'source', 'add', 'nbi', source, 0n, pe, type, undefined, { fetch, index });
  }
  /** Atomic add, the old value into `fetch[index]` (shmem_atomic_fetch_add_nbi). */
  async atomicFetchAddNbi(fetch: FetchArray, index: number, dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicFetchAddNbi', 'dest', 'add', 'nbi', dest, value, pe, type, undefined, { fetch, index });
  }
  /** Atomic increment, the old value into `fetch[index]` (shmem_atomic_fetch_inc_nbi). */
  async atomicFetchIncNbi(fetch: FetchArray, index: number, dest: Symmetric, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicFetchIncNbi', 'dest', 'add', 'nbi', dest, 1n, pe, type, undefined, { fetch, index });
  }
  /** Atomic swap, the old value into `fetch[index]` (shmem_atomic_swap_nbi). */
  async atomicSwapNbi(fetch: FetchArray, index: number, dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicSwapNbi', 'dest', 'swap', 'nbi', dest, value, pe, type, undefined, { fetch, index });
  }
  /** Writes `value` if `dest` equals `cond`, the old value into `fetch[index]` (shmem_atomic_compare_swap_nbi). */
  async atomicCompareSwapNbi(fetch: FetchArray, index: number, dest: Symmetric, cond: bigint | number, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicCompareSwapNbi', 'dest', 'cswap', 'nbi', dest, value, pe, type, cond, { fetch, index });
  }
  /** Atomic bitwise and, the old value into `fetch[index]` (shmem_atomic_fetch_and_nbi). */
  async atomicFetchAndNbi(fetch: FetchArray, index: number, dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicFetchAndNbi', 'dest', 'and', 'nbi', dest, value, pe, type, undefined, { fetch, index });
  }
  /** Atomic bitwise or, the old value into `fetch[index]` (shmem_atomic_fetch_or_nbi). */
  async atomicFetchOrNbi(fetch: FetchArray, index: number, dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicFetchOrNbi', 'dest', 'or', 'nbi', dest, value, pe, type, undefined, { fetch, index });
  }
  /** Atomic bitwise xor, the old value into `fetch[index]` (shmem_atomic_fetch_xor_nbi). */
  async atomicFetchXorNbi(fetch: FetchArray, index: number, dest: Symmetric, value: bigint | number, pe: number, type: AtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicFetchXorNbi', 'dest', 'xor', 'nbi', dest, value, pe, type, undefined, { fetch, index });
  }

  // --- point-to-point synchronisation

  /**
   * Waits until this PE's `ivar` (a local symmetric variable of `type`, default int64) compares
   * to `value` as `cmp` says (shmem_wait_until). Reads local memory, charging a poll's CPU time;
   * while the condition is false the PE sleeps until remote data lands on `ivar`, and reads it
   * again once that write is visible. A condition nothing can make true is a deadlock.
   */
  async waitUntil(ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: AtomicType = 'int64'): Promise<void> {
    const { read, want } = this.condition('waitUntil', ivar, cmp, value, type);
    await this.poll(
      () => compare(read(), cmp, want),
      () => `waitUntil(ivar at segment ${ivar.segment.id} byte ${ivar.offset}, ${cmp} ${want}) on PE ${this.myPe()}: the ${type} value is ${read()}`,
      ivar.segment.local,
      ivar.offset,
      TYPES[type].bytes,
    );
  }

  /** Whether this PE's `ivar` compares to `value` as `cmp` says, without waiting (shmem_test). */
  async test(ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: AtomicType = 'int64'): Promise<boolean> {
    const { read, want } = this.condition('test', ivar, cmp, value, type);
    await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'shmem.test');
    return compare(read(), cmp, want);
  }

  /** Checks the arguments of a wait or test on `ivar`; returns a reader of its local value and the value to compare with. */
  private condition(call: string, ivar: Symmetric, cmp: ShmemCmp, value: bigint | number, type: AtomicType): { read: () => bigint; want: bigint } {
    this.checkSym(call, 'ivar', ivar);
    if (!CMPS.includes(cmp)) throw new ShmemError(`${call}: cmp=${String(cmp)}; valid: ${CMPS.join(', ')}`);
    const width = this.atomicType(call, type);
    this.checkRange(call, 'ivar', ivar, width);
    if (ivar.offset % width !== 0) throw new ShmemError(`${call}: ivar is at byte offset ${ivar.offset}, not aligned to the ${width}-byte ${type}`);
    const want = this.operand(call, 'value', value, type);
    const view = new DataView(ivar.segment.local.buffer, ivar.segment.local.byteOffset, ivar.segment.local.byteLength);
    return { read: () => readVar(view, ivar.offset, type), want };
  }

  // --- collectives (all PEs)

  /**
   * Barrier over all PEs (shmem_barrier_all): `quiet`, then a dissemination barrier: in round k
   * each PE adds one (an AMO) to round k's counter on PE (me + 2^k) mod n and waits, as
   * `waitUntil` does, until its own counter has been signalled as many times as barriers were
   * entered.
   */
  async barrierAll(): Promise<void> {
    this.ready();
    await this.quiet();
    const n = this.nPes();
    const me = this.myPe();
    const epoch = BigInt(++this.barriers);
    const sync = this.sync!;
    const view = new DataView(sync.local.buffer, sync.local.byteOffset, sync.local.byteLength);
    for (let k = 0, d = 1; d < n; k++, d *= 2) {
      const to = (me + d) % n;
      await this.signal(to, sync, k * 8);
      const from = (me - d + n) % n;
      await this.poll(
        () => view.getBigUint64(k * 8, true) >= epoch,
        () => `barrierAll #${epoch} on PE ${me}: round ${k} never heard from PE ${from} (has every PE called barrierAll?)`,
        sync.local,
        k * 8,
        8,
      );
    }
  }

  /**
   * Copies `nbytes` of `source` on PE `root` into `dest` on every PE, root included
   * (shmem_broadcastmem, OpenSHMEM 1.5 team semantics): a barrier, a get from the root, a barrier.
   */
  async broadcastmem(dest: Symmetric, source: Symmetric, nbytes: number, root: number): Promise<void> {
    const call = 'broadcastmem';
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkPe(call, 'root', root);
    this.checkRange(call, 'dest', dest, nbytes);
    this.checkRange(call, 'source', source, nbytes);
    await this.barrierAll();
    if (this.myPe() === root) {
      if ((dest.segment !== source.segment || dest.offset !== source.offset) && this.moves(dest.local, source.local)) dest.local.set(source.local.subarray(0, nbytes));
    } else if (nbytes > 0) {
      await this.nic(call, this.dmapp.get(root, source.segment, source.offset, dest.local.subarray(0, nbytes)));
    }
    await this.barrierAll();
  }

  /**
   * Concatenates every PE's `nbytes` of `source` into `dest` on every PE, PE i's block at byte
   * i * nbytes (shmem_fcollectmem): a barrier, a put of this PE's block to every PE, a barrier.
   */
  async fcollectmem(dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    const call = 'fcollectmem';
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkRange(call, 'dest', dest, nbytes * this.nPes());
    this.checkRange(call, 'source', source, nbytes);
    await this.barrierAll();
    await this.putToAll(call, dest.segment, dest.offset + this.myPe() * nbytes, this.copyOf(source.local.subarray(0, nbytes)));
    await this.barrierAll();
  }

  /**
   * Concatenates every PE's `nbytes` of `source`, which may differ between PEs (0 included), into
   * `dest` on every PE in PE order (shmem_collectmem). Each PE puts its size to every PE, then a
   * barrier; each PE sums the sizes before its own (an exclusive prefix sum) to find its offset
   * in `dest` and puts its block there on every PE; a barrier. `dest` must hold the total: too
   * small a `dest` fails on every PE (they all see the same sizes) after that last barrier and
   * before any data moves.
   */
  async collectmem(dest: Symmetric, source: Symmetric, nbytes: number): Promise<void> {
    const call = 'collectmem';
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nbytes', nbytes);
    this.checkRange(call, 'source', source, nbytes);
    const n = this.nPes();
    const me = this.myPe();
    const block = this.copyOf(source.local.subarray(0, nbytes));
    // a PE's slot is rewritten only after every PE has left the previous collectmem's last
    // barrier, having read it: no barrier is needed before the sizes go out, except after the
    // first call's allocation (every PE makes it at the same call)
    if (!this.sizes) {
      this.ready();
      this.sizes = this.dmapp.malloc(8 * n);
      await this.barrierAll();
    }
    const sizes = this.sizes;
    await this.putToAll(call, sizes, 8 * me, new Uint8Array(new BigUint64Array([BigInt(nbytes)]).buffer));
    // the barrier also guarantees every PE has entered, so no PE still reads its old dest
    await this.barrierAll();
    const all = new BigUint64Array(sizes.local.buffer, sizes.local.byteOffset, n);
    let before = 0;
    let total = 0;
    for (let p = 0; p < n; p++) {
      const b = Number(all[p]!);
      if (p < me) before += b;
      total += b;
    }
    if (total > dest.bytes) {
      // the last barrier all the same, so no PE's next collectmem overwrites sizes not yet read
      await this.barrierAll();
      throw new ShmemError(`${call}: the ${n} PEs contribute ${total} bytes in all (this PE ${nbytes}), more than the ${dest.bytes} bytes at dest (byte offset ${dest.offset} of its symmetric object)`);
    }
    await this.putToAll(call, dest.segment, dest.offset + before, block);
    await this.barrierAll();
  }

  /** Element-wise sum over all PEs of `nreduce` elements of `source` into `dest` on every PE (shmem_TYPE_sum_to_all). */
  async sumToAll(dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    return this.reduce('sumToAll', 'sum', dest, source, nreduce, type);
  }
  /** Element-wise minimum over all PEs (shmem_TYPE_min_to_all). */
  async minToAll(dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    return this.reduce('minToAll', 'min', dest, source, nreduce, type);
  }
  /** Element-wise maximum over all PEs (shmem_TYPE_max_to_all). */
  async maxToAll(dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    return this.reduce('maxToAll', 'max', dest, source, nreduce, type);
  }

  // --- internals

  /** Sets up the internal synchronisation segment on first use (the same point on every PE). */
  private ready(): void {
    if (this.sync) return;
    this.sync = this.dmapp.malloc(SYNC_ROUNDS * 8);
    this.watch.start(this.myPe(), this.proc.time());
  }

  /**
   * Adds one to a barrier counter on PE `to`. A peer that has not made its first SHMEM call has
   * no synchronisation segment yet: like the launcher's bootstrap barrier, wait until it has
   * (then notice it with one poll), however long that takes.
   */
  private async signal(to: number, sync: SymmetricSegment, offset: number): Promise<void> {
    if (!this.watch.hasStarted(to)) {
      await this.watch.untilStarted(this.proc, to, () => `barrierAll on PE ${this.myPe()}: PE ${to} has not made its first SHMEM call (has every PE called barrierAll?)`);
      await this.proc.cpu(this.proc.machine.config.mpi.testOverheadPs, 'shmem bootstrap');
    }
    await this.nic('barrierAll', this.dmapp.amo('barrierAll', 'add', false, 'nbi', to, sync, offset, 1n));
  }

  /**
   * Waits until `ok()`, which reads `bytes` bytes at `offset` of this PE's `mem`: each read costs
   * a poll's CPU time; while it is false the PE sleeps until remote data lands on those bytes
   * and is visible, then reads again. `what` names the wait in a deadlock report.
   */
  private async poll(ok: () => boolean, what: () => string, mem: Uint8Array, offset: number, bytes: number): Promise<void> {
    const pollPs = this.proc.machine.config.mpi.testOverheadPs;
    for (;;) {
      await this.proc.cpu(pollPs, what);
      // nothing lands between this read and the suspension: both happen at this instant
      if (ok()) return;
      await this.watch.untilLanding(this.proc, mem, offset, bytes, what);
    }
  }

  /** Puts `block` to byte `at` of `seg` on every PE, this one by a local copy (nbi; completes at the next quiet). */
  private async putToAll(call: string, seg: SymmetricSegment, at: number, block: Uint8Array): Promise<void> {
    const n = this.nPes();
    const me = this.myPe();
    if (block.length === 0) return;
    if (this.moves(seg.local, block)) seg.local.set(block, at);
    for (let i = 1; i < n; i++) {
      const pe = (me + i) % n;
      await this.nic(call, this.dmapp.putNbi(pe, seg, at, block));
    }
  }

  private async reduce(call: string, op: 'sum' | 'min' | 'max', dest: Symmetric, source: Symmetric, nreduce: number, type: ReduceType): Promise<void> {
    if (!REDUCE_TYPES.includes(type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${REDUCE_TYPES.join(', ')}`);
    this.checkSym(call, 'dest', dest);
    this.checkSym(call, 'source', source);
    this.checkCount(call, 'nreduce', nreduce);
    const e = TYPES[type].bytes;
    this.checkRange(call, 'dest', dest, nreduce * e);
    this.checkRange(call, 'source', source, nreduce * e);
    if (dest.offset % e !== 0) throw new ShmemError(`${call}: dest is at byte offset ${dest.offset}, not aligned to the ${e}-byte ${type}`);
    if (source.offset % e !== 0) throw new ShmemError(`${call}: source is at byte offset ${source.offset}, not aligned to the ${e}-byte ${type}`);
    const n = this.nPes();
    const block = nreduce * e;
    // every PE asks for the same size, so every PE grows its scratch at the same call; a skeleton
    // source (symmetric: on every PE) gets a skeleton scratch
    const skeleton = this.proc.isSkeleton(source.local);
    if (!this.scratch || this.scratch.local.length < n * block || this.proc.isSkeleton(this.scratch.local) !== skeleton) {
      if (this.scratch) this.dmapp.free(this.scratch);
      this.ready();
      this.scratch = this.dmapp.malloc(Math.max(n * block, 64), { skeleton });
    }
    const scratch = this.scratch;
    // the barrier also guarantees no PE still reads its scratch from the previous reduction
    await this.barrierAll();
    await this.putToAll(call, scratch, this.myPe() * block, this.copyOf(source.local.subarray(0, block)));
    await this.barrierAll();
    // skeleton data is not folded; its time is charged all the same
    if (!this.moves(dest.local, scratch.local)) {
      await this.proc.cpu(Math.ceil((n * nreduce) / this.proc.machine.config.cpu.flopsPerPs), `shmem.${call}`);
      return;
    }
    // fold the blocks in PE order on every PE, so every PE gets bit-identical results
    const buf = scratch.local.buffer;
    const base = scratch.local.byteOffset;
    if (type === 'int64') {
      const out = new BigInt64Array(dest.segment.local.buffer, dest.segment.local.byteOffset + dest.offset, nreduce);
      const all = new BigInt64Array(buf, base, n * nreduce);
      for (let j = 0; j < nreduce; j++) {
        let acc = all[j]!;
        for (let p = 1; p < n; p++) {
          const v = all[p * nreduce + j]!;
          acc = op === 'sum' ? BigInt.asIntN(64, acc + v) : op === 'min' ? (v < acc ? v : acc) : v > acc ? v : acc;
        }
        out[j] = acc;
      }
    } else {
      const view = (b: ArrayBufferLike, at: number, len: number): Float64Array | Int32Array => (type === 'float64' ? new Float64Array(b, at, len) : new Int32Array(b, at, len));
      const out = view(dest.segment.local.buffer, dest.segment.local.byteOffset + dest.offset, nreduce);
      const all = view(buf, base, n * nreduce);
      for (let j = 0; j < nreduce; j++) {
        let acc = all[j]!;
        for (let p = 1; p < n; p++) {
          const v = all[p * nreduce + j]!;
          acc = op === 'sum' ? (type === 'int32' ? (acc + v) | 0 : acc + v) : op === 'min' ? Math.min(acc, v) : Math.max(acc, v);
        }
        out[j] = acc;
      }
    }
    // the local fold's CPU time: one operation per element and PE
    await this.proc.cpu(Math.ceil((n * nreduce) / this.proc.machine.config.cpu.flopsPerPs), `shmem.${call}`);
  }

  /** Copies `src` (already a private copy) to `dest` on `pe`; `copied` charges the bounce-buffer copy. */
  private async putBytes(call: string, dest: Symmetric, src: Uint8Array, pe: number, copied: boolean): Promise<void> {
    this.checkSym(call, 'dest', dest);
    this.checkPe(call, 'pe', pe);
    this.checkRange(call, 'dest', dest, src.length);
    if (src.length === 0) return;
    if (copied) await this.proc.cpu(Math.ceil(src.length / this.proc.machine.config.cpu.memBytesPerPs), `shmem.${call}(copy)`);
    await this.nic(call, this.dmapp.putNbi(pe, dest.segment, dest.offset, src));
  }

  /** Gets into `dst` from `source` on `pe`; `blocking` waits for the data. */
  private async getBytes(call: string, dst: Uint8Array, source: Symmetric, pe: number, blocking: boolean): Promise<void> {
    this.checkSym(call, 'source', source);
    this.checkPe(call, 'pe', pe);
    this.checkRange(call, 'source', source, dst.length);
    if (dst.length === 0) return;
    if (blocking) await this.nic(call, this.dmapp.get(pe, source.segment, source.offset, dst));
    else await this.nic(call, this.dmapp.getNbi(pe, source.segment, source.offset, dst));
  }

  private async iput(call: string, type: ReduceType, dest: Symmetric, source: ArrayLike<number> | ArrayLike<bigint>, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    this.checkSym(call, 'dest', dest);
    this.checkPe(call, 'pe', pe);
    this.checkStride(call, dst, sst, nelems);
    if (nelems === 0) return;
    const e = TYPES[type].bytes;
    this.checkRange(call, 'dest', dest, ((nelems - 1) * dst + 1) * e);
    const src = this.bounce(call, type, source, (nelems - 1) * sst + 1);
    await this.proc.cpu(Math.ceil(src.length / this.proc.machine.config.cpu.memBytesPerPs), `shmem.${call}(copy)`);
    await this.nic(call, this.dmapp.iputNbi(pe, dest.segment, dest.offset, src, TYPES[type].dmapp, dst, sst, nelems));
  }

  private async iget(call: string, type: ReduceType, dest: Float64Array | Int32Array | BigInt64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    this.checkSym(call, 'source', source);
    this.checkPe(call, 'pe', pe);
    this.checkStride(call, dst, sst, nelems);
    if (nelems === 0) return;
    const e = TYPES[type].bytes;
    this.checkRange(call, 'source', source, ((nelems - 1) * sst + 1) * e);
    const need = (nelems - 1) * dst + 1;
    if (!ArrayBuffer.isView(dest) || dest.BYTES_PER_ELEMENT !== e || dest.length < need) {
      throw new ShmemError(`${call}: dest must be a ${type} typed array of at least ${need} elements (nelems=${nelems}, dst=${dst})`);
    }
    const bytes = new Uint8Array(dest.buffer, dest.byteOffset, dest.byteLength);
    await this.nic(call, this.dmapp.igetNbi(pe, source.segment, source.offset, bytes, TYPES[type].dmapp, dst, sst, nelems));
    await this.nic(call, this.dmapp.gsyncWait());
  }

  /**
   * One AMO on `dest` at `pe`. 'blocking' fetches and resolves to the old value; 'nbi' returns
   * once issued and completes at `quiet`: without `into` it fetches nothing, with it the NIC
   * writes the old value into `into.fetch[into.index]` when the answer arrives.
   */
  private async atomic(
    call: string,
    arg: string,
    op: AmoOp,
    completion: 'blocking' | 'nbi',
    dest: Symmetric,
    value: bigint | number,
    pe: number,
    type: AtomicType,
    cond?: bigint | number,
    into?: { fetch: FetchArray; index: number },
  ): Promise<bigint | undefined> {
    this.checkSym(call, arg, dest);
    this.checkPe(call, 'pe', pe);
    const width = this.atomicType(call, type);
    if (dest.offset % width !== 0) throw new ShmemError(`${call}: ${arg} is at byte offset ${dest.offset}, not aligned to the ${width}-byte ${type}`);
    this.checkRange(call, arg, dest, width);
    const operand = this.operand(call, 'value', value, type);
    const compareWith = cond === undefined ? undefined : this.operand(call, 'cond', cond, type);
    const result = into === undefined ? undefined : fetchElement(call, into.fetch, into.index, type);
    const fetch = completion === 'blocking' || result !== undefined;
    const bits = width * 8;
    const r = await this.nic(call, this.dmapp.amo(call, op, fetch, completion, pe, dest.segment, dest.offset, BigInt.asUintN(bits, operand), compareWith === undefined ? undefined : BigInt.asUintN(bits, compareWith), width, result));
    if (completion !== 'blocking') return undefined;
    const old = r as bigint;
    return type.startsWith('u') ? BigInt.asUintN(bits, old) : BigInt.asIntN(bits, old);
  }

  /** Awaits a DMAPP call, turning its DmappError into a ShmemError of `call` (the DMAPP error as cause). */
  private async nic<T>(call: string, p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      if (e instanceof DmappError) throw new ShmemError(`${call}: ${e.message}`, { cause: e });
      throw e;
    }
  }

  private atomicType(call: string, type: AtomicType): 4 | 8 {
    if (!ATOMIC_TYPES.includes(type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${ATOMIC_TYPES.join(', ')}`);
    return TYPES[type].bytes;
  }

  /** A bigint operand of `type` (numbers must be safe integers); out-of-range values are an error. */
  private operand(call: string, arg: string, v: bigint | number, type: AtomicType): bigint {
    let b: bigint;
    if (typeof v === 'bigint') b = v;
    else if (typeof v === 'number' && Number.isSafeInteger(v)) b = BigInt(v);
    else throw new ShmemError(`${call}: ${arg}=${String(v)} must be a bigint or a safe integer`);
    const bits = TYPES[type].bytes * 8;
    const lo = type.startsWith('u') ? 0n : -(1n << BigInt(bits - 1));
    const hi = type.startsWith('u') ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
    if (b < lo || b > hi) throw new ShmemError(`${call}: ${arg}=${b} does not fit ${type} (${lo}..${hi})`);
    return b;
  }

  private checkPe(call: string, arg: string, pe: number): void {
    if (!Number.isInteger(pe) || pe < 0 || pe >= this.nPes()) throw new ShmemError(`${call}: ${arg}=${pe} is not a PE (0..${this.nPes() - 1})`);
  }

  private checkSym(call: string, arg: string, s: Symmetric): void {
    if (!(s instanceof Symmetric) || s.owner !== this) {
      throw new ShmemError(`${call}: ${arg} is not a symmetric address of PE ${this.myPe()} (allocate it with shmem.malloc; private memory cannot be named remotely)`);
    }
    if (!this.live.has(s.segment.id)) throw new ShmemError(`${call}: ${arg} (symmetric segment ${s.segment.id}) has been freed`);
  }

  private checkRange(call: string, arg: string, s: Symmetric, bytes: number): void {
    if (bytes > s.bytes) throw new ShmemError(`${call}: ${bytes} bytes at ${arg} run past the end of its symmetric object (${s.bytes} bytes from byte offset ${s.offset})`);
  }

  private checkCount(call: string, arg: string, n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new ShmemError(`${call}: ${arg}=${n} must be a non-negative integer`);
  }

  private checkStride(call: string, dst: number, sst: number, nelems: number): void {
    this.checkCount(call, 'nelems', nelems);
    for (const [k, v] of [['dst', dst], ['sst', sst]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new ShmemError(`${call}: ${k}=${v} must be a positive integer`);
    }
  }

  /** Whether bytes really move between `a` and `b`: neither is a skeleton buffer. */
  private moves(a: Uint8Array, b: Uint8Array): boolean {
    return !this.proc.isSkeleton(a) && !this.proc.isSkeleton(b);
  }

  /** A private copy of `bytes` (a bounce buffer); a skeleton buffer is its own copy, as sizes only. */
  private copyOf(bytes: Uint8Array): Uint8Array {
    return this.proc.isSkeleton(bytes) ? bytes : bytes.slice();
  }

  /** The bounce copy of a typed put's source as `type`; a skeleton typed array is sent as it is, uncopied. */
  private bounce(call: string, type: ReduceType, source: ArrayLike<number> | ArrayLike<bigint>, count: number): Uint8Array {
    if (ArrayBuffer.isView(source) && this.proc.isSkeleton(source)) {
      const kind = type === 'float64' ? Float64Array : type === 'int32' ? Int32Array : BigInt64Array;
      return typedDest(call, kind, source as Float64Array | Int32Array | BigInt64Array, count, TYPES[type].bytes);
    }
    return typedCopy(call, type, source, count);
  }

  /** The first `nbytes` bytes of a private buffer, or a ShmemError naming it. */
  private bytesArg(call: string, arg: string, buf: ArrayBufferView, nbytes: number): Uint8Array {
    if (!ArrayBuffer.isView(buf)) throw new ShmemError(`${call}: ${arg} must be a typed array`);
    this.checkCount(call, 'nbytes', nbytes);
    if (nbytes > buf.byteLength) throw new ShmemError(`${call}: nbytes=${nbytes} exceeds the ${buf.byteLength} bytes of ${arg}`);
    return new Uint8Array(buf.buffer, buf.byteOffset, nbytes);
  }
}

function typeInfo(call: string, type: ShmemType): { bytes: 4 | 8; dmapp: DmappType } {
  const t = TYPES[type];
  if (t === undefined) throw new ShmemError(`${call}: type=${String(type)}; valid: ${Object.keys(TYPES).join(', ')}`);
  return t;
}

/** A fresh byte copy of the first `count` elements of `source` as `type`. */
function typedCopy(call: string, type: ReduceType, source: ArrayLike<number> | ArrayLike<bigint>, count: number): Uint8Array {
  if (!Number.isInteger(count) || count < 0) throw new ShmemError(`${call}: nelems=${count} must be a non-negative integer`);
  if (source === null || typeof source !== 'object' || typeof source.length !== 'number') throw new ShmemError(`${call}: source must be an array or typed array of ${type}`);
  if (source.length < count) throw new ShmemError(`${call}: source has ${source.length} elements, fewer than the ${count} needed`);
  if (type === 'int64') {
    const out = new BigInt64Array(count);
    for (let i = 0; i < count; i++) {
      const v = source[i];
      if (typeof v !== 'bigint') throw new ShmemError(`${call}: source[${i}]=${String(v)} is not a bigint`);
      out[i] = v;
    }
    return new Uint8Array(out.buffer);
  }
  const out = type === 'float64' ? new Float64Array(count) : new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const v = source[i];
    if (typeof v !== 'number') throw new ShmemError(`${call}: source[${i}]=${String(v)} is not a number`);
    out[i] = v;
  }
  return new Uint8Array(out.buffer);
}

/** The bytes of the first `count` elements of a typed array of the expected kind. */
function typedDest(call: string, kind: Float64ArrayConstructor | Int32ArrayConstructor | BigInt64ArrayConstructor, buf: Float64Array | Int32Array | BigInt64Array, count: number, e: number): Uint8Array {
  if (!(buf instanceof kind)) throw new ShmemError(`${call}: the private buffer must be a ${kind.name}`);
  if (!Number.isInteger(count) || count < 0) throw new ShmemError(`${call}: nelems=${count} must be a non-negative integer`);
  if (count > buf.length) throw new ShmemError(`${call}: nelems=${count} exceeds the ${buf.length} elements of the private buffer`);
  return new Uint8Array(buf.buffer, buf.byteOffset, count * e);
}

const FETCH_KINDS: Readonly<Record<AtomicType, { name: string; is: (a: unknown) => boolean }>> = {
  int32: { name: 'Int32Array', is: (a) => a instanceof Int32Array },
  uint32: { name: 'Uint32Array', is: (a) => a instanceof Uint32Array },
  int64: { name: 'BigInt64Array', is: (a) => a instanceof BigInt64Array },
  uint64: { name: 'BigUint64Array', is: (a) => a instanceof BigUint64Array },
};

/** The bytes of `fetch[index]`, which must be an element of a typed array of `type`. */
function fetchElement(call: string, fetch: FetchArray, index: number, type: AtomicType): Uint8Array {
  const kind = FETCH_KINDS[type];
  if (!kind.is(fetch)) {
    const got = ArrayBuffer.isView(fetch) ? fetch.constructor.name : typeof fetch;
    throw new ShmemError(`${call}: fetch must be a ${kind.name} (the atomic's type is ${type}), got ${got}`);
  }
  if (!Number.isInteger(index) || index < 0 || index >= fetch.length) throw new ShmemError(`${call}: index=${index} is not an element of fetch (0..${fetch.length - 1})`);
  const e = fetch.BYTES_PER_ELEMENT;
  return new Uint8Array(fetch.buffer, fetch.byteOffset + index * e, e);
}

function readVar(view: DataView, off: number, type: AtomicType): bigint {
  switch (type) {
    case 'int32':
      return BigInt(view.getInt32(off, true));
    case 'uint32':
      return BigInt(view.getUint32(off, true));
    case 'int64':
      return view.getBigInt64(off, true);
    case 'uint64':
      return view.getBigUint64(off, true);
  }
}

function compare(v: bigint, cmp: ShmemCmp, w: bigint): boolean {
  switch (cmp) {
    case 'eq':
      return v === w;
    case 'ne':
      return v !== w;
    case 'gt':
      return v > w;
    case 'ge':
      return v >= w;
    case 'lt':
      return v < w;
    case 'le':
      return v <= w;
  }
}
