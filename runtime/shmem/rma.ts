import { ShmemBase, typedDest, typedCopy } from './base.ts';
import { ShmemError, TYPES, type ReduceType, type Symmetric } from './symmetric.ts';

/**
 * Remote memory access (OpenSHMEM 1.5 §9.6) and its completion (§9.10): contiguous, typed,
 * single-element and strided puts and gets, their non-blocking forms, `quiet` and `fence`.
 */
export class ShmemRma extends ShmemBase {
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

  protected async iput(call: string, type: ReduceType, dest: Symmetric, source: ArrayLike<number> | ArrayLike<bigint>, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    const to = this.target(call, 'pe', pe);
    this.checkStride(call, dst, sst, nelems);
    if (nelems === 0) return;
    this.checkSym(call, 'dest', dest);
    const e = TYPES[type].bytes;
    this.checkRange(call, 'dest', dest, ((nelems - 1) * dst + 1) * e);
    const src = this.bounce(call, type, source, (nelems - 1) * sst + 1);
    await this.proc.cpu(Math.ceil(src.length / this.proc.machine.config.cpu.memBytesPerPs), `shmem.${call}(copy)`);
    await this.nic(call, this.dmapp.iputNbi(to, dest.segment, dest.offset, src, TYPES[type].dmapp, dst, sst, nelems));
  }

  protected async iget(call: string, type: ReduceType, dest: Float64Array | Int32Array | BigInt64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    const from = this.target(call, 'pe', pe);
    this.checkStride(call, dst, sst, nelems);
    if (nelems === 0) return;
    this.checkSym(call, 'source', source);
    const e = TYPES[type].bytes;
    this.checkRange(call, 'source', source, ((nelems - 1) * sst + 1) * e);
    const need = (nelems - 1) * dst + 1;
    if (!ArrayBuffer.isView(dest) || dest.BYTES_PER_ELEMENT !== e || dest.length < need) {
      throw new ShmemError(`${call}: dest must be a ${type} typed array of at least ${need} elements (nelems=${nelems}, dst=${dst})`);
    }
    const bytes = new Uint8Array(dest.buffer, dest.byteOffset, dest.byteLength);
    await this.nic(call, this.dmapp.igetNbi(from, source.segment, source.offset, bytes, TYPES[type].dmapp, dst, sst, nelems));
    await this.nic(call, this.dmapp.gsyncWait());
  }
}
