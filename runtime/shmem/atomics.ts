import type { AmoOp } from '../../fabric/nic/nic.ts';
import { ShmemLongdoubleRma } from './longdouble-rma.ts';
import { ShmemError, TYPES, type AtomicType, type AtomicValue, type FetchArray, type FloatAtomicType, type Symmetric } from './symmetric.ts';

const ATOMIC_TYPES: readonly AtomicType[] = ['int32', 'uint32', 'int64', 'uint64'];
/** The types of the atomics OpenSHMEM 1.5 also defines on float and double (fetch, set, swap and their nbi forms). */
const FETCH_SET_SWAP_TYPES: readonly (AtomicType | FloatAtomicType)[] = [...ATOMIC_TYPES, 'float32', 'float64'];

/**
 * Atomic memory operations (OpenSHMEM 1.5 §9.8), run by the target NIC's AMO unit. Integer
 * values and results are bigints. `atomicFetch`, `atomicSet`, `atomicSwap` and their nbi forms
 * also take 'float32' and 'float64' (numbers), as the spec allows; compare-swap and the
 * arithmetic and bitwise atomics stay integer-only. As Cray SHMEM maps them: the bits of the
 * float are the AMO's operand, a float64 fetch is an AMO add of 0 and a set or swap an AMO swap
 * on the 8-byte word; a float32 one the same AMO in the NIC's 4-byte (masked) form, as for int32,
 * so no read-modify-write in software is needed.
 */
export class ShmemAtomics extends ShmemLongdoubleRma {
  // --- atomics (values and results are bigints of `type`, default int64; the non-fetching ones complete at `quiet`)

  /** Atomically reads `source` on `pe` (shmem_atomic_fetch). */
  async atomicFetch<T extends AtomicType | FloatAtomicType = 'int64'>(source: Symmetric, pe: number, type: T = 'int64' as T): Promise<AtomicValue<T>> {
    return this.atomic('atomicFetch', 'source', 'add', 'blocking', source, 0, pe, type, undefined, undefined, FETCH_SET_SWAP_TYPES) as Promise<AtomicValue<T>>;
  }
  /** Atomically writes `value` to `dest` on `pe` (shmem_atomic_set); returns once issued, completes at `quiet`. */
  async atomicSet<T extends AtomicType | FloatAtomicType = 'int64'>(dest: Symmetric, value: AtomicValue<T> | number, pe: number, type: T = 'int64' as T): Promise<void> {
    await this.atomic('atomicSet', 'dest', 'swap', 'nbi', dest, value, pe, type, undefined, undefined, FETCH_SET_SWAP_TYPES);
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
  async atomicSwap<T extends AtomicType | FloatAtomicType = 'int64'>(dest: Symmetric, value: AtomicValue<T> | number, pe: number, type: T = 'int64' as T): Promise<AtomicValue<T>> {
    return this.atomic('atomicSwap', 'dest', 'swap', 'blocking', dest, value, pe, type, undefined, undefined, FETCH_SET_SWAP_TYPES) as Promise<AtomicValue<T>>;
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
  async atomicFetchNbi(fetch: FetchArray, index: number, source: Symmetric, pe: number, type: AtomicType | FloatAtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicFetchNbi', 'source', 'add', 'nbi', source, 0, pe, type, undefined, { fetch, index }, FETCH_SET_SWAP_TYPES);
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
  async atomicSwapNbi(fetch: FetchArray, index: number, dest: Symmetric, value: bigint | number, pe: number, type: AtomicType | FloatAtomicType = 'int64'): Promise<void> {
    await this.atomic('atomicSwapNbi', 'dest', 'swap', 'nbi', dest, value, pe, type, undefined, { fetch, index }, FETCH_SET_SWAP_TYPES);
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

  /**
   * One AMO on `dest` at `pe`. 'blocking' fetches and resolves to the old value; 'nbi' returns
   * once issued and completes at `quiet`: without `into` it fetches nothing, with it the NIC
   * writes the old value into `into.fetch[into.index]` when the answer arrives.
   */
  protected async atomic(
    call: string,
    arg: string,
    op: AmoOp,
    completion: 'blocking' | 'nbi',
    dest: Symmetric,
    value: bigint | number,
    pe: number,
    type: AtomicType | FloatAtomicType,
    cond?: bigint | number,
    into?: { fetch: FetchArray; index: number },
    types: readonly (AtomicType | FloatAtomicType)[] = ATOMIC_TYPES,
  ): Promise<bigint | number | undefined> {
    this.checkSym(call, arg, dest);
    const to = this.target(call, 'pe', pe);
    const width = this.atomicType(call, type, types);
    if (dest.offset % width !== 0) throw new ShmemError(`${call}: ${arg} is at byte offset ${dest.offset}, not aligned to the ${width}-byte ${type}`);
    this.checkRange(call, arg, dest, width);
    const float = type === 'float32' || type === 'float64';
    const operand = float ? floatBits(call, 'value', value, type) : this.operand(call, 'value', value, type);
    const compareWith = cond === undefined || float ? undefined : this.operand(call, 'cond', cond, type);
    const result = into === undefined ? undefined : fetchElement(call, into.fetch, into.index, type);
    const fetch = completion === 'blocking' || result !== undefined;
    const bits = width * 8;
    const r = await this.nic(call, this.dmapp.amo(call, op, fetch, completion, to, dest.segment, dest.offset, BigInt.asUintN(bits, operand), compareWith === undefined ? undefined : BigInt.asUintN(bits, compareWith), width, result));
    if (completion !== 'blocking') return undefined;
    const old = BigInt.asUintN(bits, r as bigint);
    if (float) return floatOf(old, type);
    return type.startsWith('u') ? old : BigInt.asIntN(bits, old);
  }

  /** The width of an atomic of `type`, which must be one of `types` (the integer ones unless the call also takes floats). */
  protected atomicType(call: string, type: AtomicType | FloatAtomicType, types: readonly (AtomicType | FloatAtomicType)[] = ATOMIC_TYPES): 4 | 8 {
    if (!types.includes(type)) {
      const floatOnly = (type === 'float32' || type === 'float64') && types === ATOMIC_TYPES;
      throw new ShmemError(`${call}: type=${String(type)}; valid: ${types.join(', ')}${floatOnly ? ` (OpenSHMEM defines ${call} on integer types only)` : ''}`);
    }
    return type === 'float32' ? 4 : TYPES[type].bytes;
  }

  /** A bigint operand of `type` (numbers must be safe integers); out-of-range values are an error. */
  protected operand(call: string, arg: string, v: bigint | number, type: AtomicType): bigint {
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
}

/** The bits of the float `v` of `type` as an unsigned AMO operand. */
function floatBits(call: string, arg: string, v: unknown, type: FloatAtomicType): bigint {
  if (typeof v !== 'number') throw new ShmemError(`${call}: ${arg}=${String(v)} must be a number (the atomic's type is ${type})`);
  const d = new DataView(new ArrayBuffer(8));
  if (type === 'float32') {
    d.setFloat32(0, v, true);
    return BigInt(d.getUint32(0, true));
  }
  d.setFloat64(0, v, true);
  return d.getBigUint64(0, true);
}

/** The float of `type` whose bits are `bits`. */
function floatOf(bits: bigint, type: FloatAtomicType): number {
  const d = new DataView(new ArrayBuffer(8));
  if (type === 'float32') {
    d.setUint32(0, Number(bits), true);
    return d.getFloat32(0, true);
  }
  d.setBigUint64(0, bits, true);
  return d.getFloat64(0, true);
}

const FETCH_KINDS: Readonly<Record<AtomicType | FloatAtomicType, { name: string; is: (a: unknown) => boolean }>> = {
  int32: { name: 'Int32Array', is: (a) => a instanceof Int32Array },
  uint32: { name: 'Uint32Array', is: (a) => a instanceof Uint32Array },
  int64: { name: 'BigInt64Array', is: (a) => a instanceof BigInt64Array },
  uint64: { name: 'BigUint64Array', is: (a) => a instanceof BigUint64Array },
  float32: { name: 'Float32Array', is: (a) => a instanceof Float32Array },
  float64: { name: 'Float64Array', is: (a) => a instanceof Float64Array },
};

/** The bytes of `fetch[index]`, which must be an element of a typed array of `type`. */
function fetchElement(call: string, fetch: FetchArray, index: number, type: AtomicType | FloatAtomicType): Uint8Array {
  const kind = FETCH_KINDS[type];
  if (!kind.is(fetch)) {
    const got = ArrayBuffer.isView(fetch) ? fetch.constructor.name : typeof fetch;
    throw new ShmemError(`${call}: fetch must be a ${kind.name} (the atomic's type is ${type}), got ${got}`);
  }
  if (!Number.isInteger(index) || index < 0 || index >= fetch.length) throw new ShmemError(`${call}: index=${index} is not an element of fetch (0..${fetch.length - 1})`);
  const e = fetch.BYTES_PER_ELEMENT;
  return new Uint8Array(fetch.buffer, fetch.byteOffset + index * e, e);
}
