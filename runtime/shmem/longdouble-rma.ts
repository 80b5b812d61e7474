import { unwrapView } from './ptr-view.ts';
import { ShmemError, type Symmetric } from './symmetric.ts';
import { ShmemTypedRma } from './typed-rma.ts';

/** Bytes of one long double: x86-64's 80-bit extended type in a 16-byte, 16-byte aligned slot (System V AMD64 ABI, §3.1.2). */
export const LONGDOUBLE_BYTES = 16;

/**
 * The bytes of the first `count` long doubles of `buf`, which must be a Float64Array of
 * (value, padding) pairs, two float64 per long double; `arg` names it in errors.
 */
export function longdoubleView(call: string, arg: string, buf: unknown, count: number): Uint8Array {
  if (!Number.isInteger(count) || count < 0) throw new ShmemError(`${call}: nelems=${count} must be a non-negative integer`);
  if (count === 0) return new Uint8Array(0);
  const b = unwrapView(buf);
  if (!(b instanceof Float64Array)) throw new ShmemError(`${call}: ${arg} must be a Float64Array of (value, padding) pairs, 2 per long double, got ${ArrayBuffer.isView(b) ? b.constructor.name : typeof b}`);
  if (2 * count > b.length) throw new ShmemError(`${call}: nelems=${count} long doubles need ${2 * count} float64s, more than the ${b.length} of ${arg}`);
  return new Uint8Array(b.buffer, b.byteOffset, count * LONGDOUBLE_BYTES);
}

/**
 * A fresh byte copy of the first `count` long doubles of `source`: a Float64Array of (value,
 * padding) pairs, copied as it is, or a plain array of `count` numbers, each laid out as its
 * value and zero padding (as the long double reductions write their results).
 */
export function longdoubleCopy(call: string, source: unknown, count: number): Uint8Array {
  if (!Array.isArray(source)) return longdoubleView(call, 'source', source, count).slice();
  if (!Number.isInteger(count) || count < 0) throw new ShmemError(`${call}: nelems=${count} must be a non-negative integer`);
  if (source.length < count) throw new ShmemError(`${call}: source has ${source.length} elements, fewer than the ${count} needed`);
  const out = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) {
    const v: unknown = source[i];
    if (typeof v !== 'number') throw new ShmemError(`${call}: source[${i}]=${String(v)} is not a number`);
    out[2 * i] = v;
  }
  return new Uint8Array(out.buffer);
}

/**
 * The long double RMA calls of OpenSHMEM 1.5 §9.6 (shmem_longdouble_put, ...): `putLongdouble`,
 * `getLongdouble`, their `...Nbi` forms, `pLongdouble`, `gLongdouble`, `iputLongdouble` and
 * `igetLongdouble`. JavaScript has no 80-bit type, so a long double is laid out as phit's long
 * double reductions lay it out (see ReduceElemType): 16 bytes an element, the value a double in
 * the first 8 bytes, 8 bytes of padding after it. A private buffer of long doubles is a
 * Float64Array of (value, padding) pairs, 2 * nelems float64s; a blocking put also takes a plain
 * array of values (padding zero). The 16 bytes of each element move as the 128-bit calls move
 * them (`put128`, ...): the same DMAPP transfers, so the same time.
 */
export class ShmemLongdoubleRma extends ShmemTypedRma {
  /** Puts `nelems` long doubles of `source` to `dest` on `pe` (shmem_longdouble_put); completes at `quiet`. */
  async putLongdouble(dest: Symmetric, source: Float64Array | readonly number[], nelems: number, pe: number): Promise<void> {
    await this.putBytes('putLongdouble', dest, this.longdoubleSource('putLongdouble', source, nelems), pe, true);
  }
  /** Gets `nelems` long doubles from `source` on `pe` into `dest`, 2 * nelems float64s (shmem_longdouble_get). */
  async getLongdouble(dest: Float64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    await this.getBytes('getLongdouble', longdoubleView('getLongdouble', 'dest', dest, nelems), source, pe, true);
  }
  /** Non-blocking long double put (shmem_longdouble_put_nbi): `source` must stay unchanged until `quiet`. */
  async putLongdoubleNbi(dest: Symmetric, source: Float64Array, nelems: number, pe: number): Promise<void> {
    await this.putBytes('putLongdoubleNbi', dest, longdoubleView('putLongdoubleNbi', 'source', source, nelems), pe, false);
  }
  /** Non-blocking long double get (shmem_longdouble_get_nbi): `dest` holds the data after `quiet`. */
  async getLongdoubleNbi(dest: Float64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    await this.getBytes('getLongdoubleNbi', longdoubleView('getLongdoubleNbi', 'dest', dest, nelems), source, pe, false);
  }
  /** Puts one long double, `value` and zero padding (shmem_longdouble_p). */
  async pLongdouble(dest: Symmetric, value: number, pe: number): Promise<void> {
    if (typeof value !== 'number') throw new ShmemError(`pLongdouble: value=${String(value)} is not a number`);
    await this.putBytes('pLongdouble', dest, longdoubleCopy('pLongdouble', [value], 1), pe, true);
  }
  /** Gets one long double: the double of its first 8 bytes (shmem_longdouble_g). */
  async gLongdouble(source: Symmetric, pe: number): Promise<number> {
    const v = new Float64Array(2);
    await this.getBytes('gLongdouble', new Uint8Array(v.buffer), source, pe, true);
    return v[0]!;
  }
  /** Strided long double put (shmem_longdouble_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputLongdouble(dest: Symmetric, source: Float64Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    await this.stridedPut('iputLongdouble', LONGDOUBLE_BYTES, dest, (n) => this.longdoubleSource('iputLongdouble', source, n), dst, sst, nelems, pe);
  }
  /** Strided long double get (shmem_longdouble_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetLongdouble(dest: Float64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    await this.stridedGet('igetLongdouble', LONGDOUBLE_BYTES, (n) => longdoubleView('igetLongdouble', 'dest', dest, n), source, dst, sst, nelems, pe);
  }

  /** The first `count` long doubles of a put's `source` as a private copy (a skeleton buffer is its own copy, as sizes only). */
  protected longdoubleSource(call: string, source: unknown, count: number): Uint8Array {
    const b = unwrapView(source);
    return ArrayBuffer.isView(b) && this.proc.isSkeleton(b) ? longdoubleView(call, 'source', b, count) : longdoubleCopy(call, source, count);
  }
}
