import { RankError } from '../../fabric/engine/engine.ts';
import type { DmappType, SymmetricSegment } from '../dmapp/dmapp.ts';

/** Error from an OpenSHMEM call: names the call and the bad argument (or wraps a NIC failure as `cause`). */
export class ShmemError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ShmemError';
  }
}

/**
 * The end of a run by `shmem.globalExit(status)` (shmem_global_exit): the run stops there, every
 * PE with it, and `simulate` rejects with this error, carrying the status, the PE that called it
 * and the simulated time.
 */
export class ShmemGlobalExit extends Error {
  constructor(
    readonly status: number,
    readonly pe: number,
    readonly timePs: number,
  ) {
    super(`shmem_global_exit(${status}) called by PE ${pe} at ${(timePs / 1e6).toFixed(3)} us: the run ended with status ${status}`);
    this.name = 'ShmemGlobalExit';
  }
}

/** The ShmemGlobalExit that ended a run, from the error the engine ended it with (null for any other end). */
export function globalExitOf(e: unknown): ShmemGlobalExit | null {
  return e instanceof RankError && e.error instanceof ShmemGlobalExit ? e.error : null;
}

/** Element types of the typed calls (the `TYPE` of `shmem_TYPE_put`, in TypeScript words). */
export type ShmemType = 'int32' | 'uint32' | 'int64' | 'uint64' | 'float64';
/**
 * Every standard RMA type of OpenSHMEM 1.5 (Table 5) by size and kind, as the element kinds of
 * the typed RMA calls stand for them: `int8` for char, schar and int8, `uint8` for uchar and
 * uint8, `int16` for short and int16, `uint16` for ushort and uint16, `int32` for int and int32,
 * `uint32` for uint and uint32, `int64` for long, longlong, int64 and ptrdiff, `uint64` for
 * ulong, ulonglong, uint64 and size, `float32` for float, `float64` for double. The types of the
 * team collectives (`broadcast`, `collect`, `fcollect`, `alltoall`, `alltoalls`), of
 * `Symmetric.element` and of `ptr`'s typed views.
 */
export type ElemType = ShmemType | 'int8' | 'uint8' | 'int16' | 'uint16' | 'float32';
/** Bytes per element of each ElemType. */
export const ELEM_BYTES: Readonly<Record<ElemType, 1 | 2 | 4 | 8>> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8 };
/** Types of the atomics (`shmem_TYPE_atomic_*`): values and results are bigints, signed or not as named. */
export type AtomicType = 'int32' | 'uint32' | 'int64' | 'uint64';
/** The floating-point types of `atomicFetch`, `atomicSet` and `atomicSwap` (and their nbi forms), the only atomics OpenSHMEM 1.5 defines on float and double; their values are numbers. */
export type FloatAtomicType = 'float32' | 'float64';
/** The value of an atomic of `T`: a number for the floating-point types, a bigint otherwise. */
export type AtomicValue<T extends AtomicType | FloatAtomicType> = T extends FloatAtomicType ? number : bigint;
/** Types of the reductions (`shmem_TYPE_OP_to_all`). */
export type ReduceType = 'float64' | 'int32' | 'int64';
/**
 * Where a fetching non-blocking atomic (`atomicFetchAddNbi`, ...) puts the old value, with an
 * `index`: the C calls' `TYPE *fetch`. A private typed array of the atomic's type (BigInt64Array
 * for int64, BigUint64Array for uint64, Int32Array for int32, Uint32Array for uint32, Float32Array
 * and Float64Array for float32 and float64). The call
 * returns once the AMO is issued; the NIC writes `fetch[index]` when the answer arrives, at some
 * point before the next `quiet` (or `barrierAll`) returns, so read it only after that.
 */
export type FetchArray = BigInt64Array | BigUint64Array | Int32Array | Uint32Array | Float32Array | Float64Array;
/** Comparison of `waitUntil` (SHMEM_CMP_EQ, ... in lower case). */
export type ShmemCmp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

/** Bytes and DMAPP element type of each element type. */
export const TYPES: Readonly<Record<ShmemType, { bytes: 4 | 8; dmapp: DmappType }>> = {
  int32: { bytes: 4, dmapp: 'dw' },
  uint32: { bytes: 4, dmapp: 'dw' },
  int64: { bytes: 8, dmapp: 'qw' },
  uint64: { bytes: 8, dmapp: 'qw' },
  float64: { bytes: 8, dmapp: 'qw' },
};

/** What one PE's faces share about its symmetric heap: the allocations still live, by segment id, and their bytes. */
export class PeHeap {
  readonly live = new Set<number>();
  /** Bytes of each live allocation, by segment id. */
  readonly sizes = new Map<number, number>();
  /** Bytes of the live allocations together (what SHMEM_SYMMETRIC_SIZE bounds). */
  used = 0;
}

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
    /** @internal the heap of the allocating PE (a PE may only name its own symmetric objects) */
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
  element(type: ElemType, index: number): Symmetric {
    return this.at(elemBytes('element', type) * index);
  }

  /** This PE's copy as float64 elements (the address must be 8-byte aligned). */
  float64(): Float64Array {
    return new Float64Array(this.segment.local.buffer, this.viewStart('float64', 8), Math.floor(this.bytes / 8));
  }
  /** This PE's copy as float32 elements (4-byte aligned). */
  float32(): Float32Array {
    return new Float32Array(this.segment.local.buffer, this.viewStart('float32', 4), Math.floor(this.bytes / 4));
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

/** Bytes per element of `type` (any ElemType), or a ShmemError naming `call` and the valid types. */
export function elemBytes(call: string, type: ElemType): 1 | 2 | 4 | 8 {
  if (typeof type !== 'string' || !Object.hasOwn(ELEM_BYTES, type)) throw new ShmemError(`${call}: type=${String(type)}; valid: ${Object.keys(ELEM_BYTES).join(', ')}`);
  return ELEM_BYTES[type];
}

/** The size and DMAPP type of `type`, or a ShmemError naming `call`. */
export function typeInfo(call: string, type: ShmemType): { bytes: 4 | 8; dmapp: DmappType } {
  const t = typeof type === 'string' && Object.hasOwn(TYPES, type) ? TYPES[type] : undefined;
  if (t === undefined) throw new ShmemError(`${call}: type=${String(type)}; valid: ${Object.keys(TYPES).join(', ')}`);
  return t;
}

