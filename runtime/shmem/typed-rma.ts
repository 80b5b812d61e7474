import { elemValue } from './elements.ts';
import { ShmemRma } from './rma.ts';
import type { Symmetric } from './symmetric.ts';

/**
 * The typed and sized RMA calls of OpenSHMEM 1.5 §9.6: for each element kind (see ElemKind: one
 * per JS typed array, standing for every C type of its size) `put`, `get`, their `...Nbi` forms,
 * `p`, `g`, `iput` and `iget`, named `putInt16`, `gFloat32`, ...; and `put8/16/32/64/128`,
 * `get...`, their `...Nbi` forms, `iput...` and `iget...` on the bytes of any private buffer.
 * Blocking puts copy their source (a typed array of the kind, or plain values) into a bounce
 * buffer and complete at `quiet`; `...Nbi` puts send the typed array itself, which must stay
 * unchanged until `quiet`. Strided calls of 1-, 4-, 8- and 16-byte elements are one DMAPP strided
 * transfer; of 2-byte ones, one DMAPP transfer per element (DMAPP has no 2-byte element type).
 */
export class ShmemTypedRma extends ShmemRma {

  // --- Int8 (shmem_schar_...)
  /** Puts `nelems` Int8 elements of `source` to `dest` on `pe` (shmem_schar_put); completes at `quiet`. */
  async putInt8(dest: Symmetric, source: Int8Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt8', 'Int8', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Int8 elements from `source` on `pe` into `dest` (shmem_schar_get). */
  async getInt8(dest: Int8Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt8', 'Int8', dest, source, nelems, pe, false);
  }
  /** Non-blocking Int8 put (shmem_schar_put_nbi): `source` must stay unchanged until `quiet`. */
  async putInt8Nbi(dest: Symmetric, source: Int8Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt8Nbi', 'Int8', dest, source, nelems, pe, true);
  }
  /** Non-blocking Int8 get (shmem_schar_get_nbi): `dest` holds the data after `quiet`. */
  async getInt8Nbi(dest: Int8Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt8Nbi', 'Int8', dest, source, nelems, pe, true);
  }
  /** Puts one Int8 (shmem_schar_p). */
  async pInt8(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pInt8', 'Int8', dest, [elemValue('pInt8', 'Int8', 'value', value)], 1, pe, false);
  }
  /** Gets one Int8 (shmem_schar_g). */
  async gInt8(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gInt8', 'Int8', source, pe) as Promise<number>;
  }
  /** Strided Int8 put (shmem_schar_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputInt8(dest: Symmetric, source: Int8Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputInt8', 'Int8', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Int8 get (shmem_schar_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetInt8(dest: Int8Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetInt8', 'Int8', dest, source, dst, sst, nelems, pe);
  }
  // --- Uint8 (shmem_uchar_...)
  /** Puts `nelems` Uint8 elements of `source` to `dest` on `pe` (shmem_uchar_put); completes at `quiet`. */
  async putUint8(dest: Symmetric, source: Uint8Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint8', 'Uint8', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Uint8 elements from `source` on `pe` into `dest` (shmem_uchar_get). */
  async getUint8(dest: Uint8Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint8', 'Uint8', dest, source, nelems, pe, false);
  }
  /** Non-blocking Uint8 put (shmem_uchar_put_nbi): `source` must stay unchanged until `quiet`. */
  async putUint8Nbi(dest: Symmetric, source: Uint8Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint8Nbi', 'Uint8', dest, source, nelems, pe, true);
  }
  /** Non-blocking Uint8 get (shmem_uchar_get_nbi): `dest` holds the data after `quiet`. */
  async getUint8Nbi(dest: Uint8Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint8Nbi', 'Uint8', dest, source, nelems, pe, true);
  }
  /** Puts one Uint8 (shmem_uchar_p). */
  async pUint8(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pUint8', 'Uint8', dest, [elemValue('pUint8', 'Uint8', 'value', value)], 1, pe, false);
  }
  /** Gets one Uint8 (shmem_uchar_g). */
  async gUint8(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gUint8', 'Uint8', source, pe) as Promise<number>;
  }
  /** Strided Uint8 put (shmem_uchar_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputUint8(dest: Symmetric, source: Uint8Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputUint8', 'Uint8', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Uint8 get (shmem_uchar_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetUint8(dest: Uint8Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetUint8', 'Uint8', dest, source, dst, sst, nelems, pe);
  }
  // --- Int16 (shmem_short_...)
  /** Puts `nelems` Int16 elements of `source` to `dest` on `pe` (shmem_short_put); completes at `quiet`. */
  async putInt16(dest: Symmetric, source: Int16Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt16', 'Int16', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Int16 elements from `source` on `pe` into `dest` (shmem_short_get). */
  async getInt16(dest: Int16Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt16', 'Int16', dest, source, nelems, pe, false);
  }
  /** Non-blocking Int16 put (shmem_short_put_nbi): `source` must stay unchanged until `quiet`. */
  async putInt16Nbi(dest: Symmetric, source: Int16Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt16Nbi', 'Int16', dest, source, nelems, pe, true);
  }
  /** Non-blocking Int16 get (shmem_short_get_nbi): `dest` holds the data after `quiet`. */
  async getInt16Nbi(dest: Int16Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt16Nbi', 'Int16', dest, source, nelems, pe, true);
  }
  /** Puts one Int16 (shmem_short_p). */
  async pInt16(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pInt16', 'Int16', dest, [elemValue('pInt16', 'Int16', 'value', value)], 1, pe, false);
  }
  /** Gets one Int16 (shmem_short_g). */
  async gInt16(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gInt16', 'Int16', source, pe) as Promise<number>;
  }
  /** Strided Int16 put (shmem_short_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputInt16(dest: Symmetric, source: Int16Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputInt16', 'Int16', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Int16 get (shmem_short_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetInt16(dest: Int16Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetInt16', 'Int16', dest, source, dst, sst, nelems, pe);
  }
  // --- Uint16 (shmem_ushort_...)
  /** Puts `nelems` Uint16 elements of `source` to `dest` on `pe` (shmem_ushort_put); completes at `quiet`. */
  async putUint16(dest: Symmetric, source: Uint16Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint16', 'Uint16', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Uint16 elements from `source` on `pe` into `dest` (shmem_ushort_get). */
  async getUint16(dest: Uint16Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint16', 'Uint16', dest, source, nelems, pe, false);
  }
  /** Non-blocking Uint16 put (shmem_ushort_put_nbi): `source` must stay unchanged until `quiet`. */
  async putUint16Nbi(dest: Symmetric, source: Uint16Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint16Nbi', 'Uint16', dest, source, nelems, pe, true);
  }
  /** Non-blocking Uint16 get (shmem_ushort_get_nbi): `dest` holds the data after `quiet`. */
  async getUint16Nbi(dest: Uint16Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint16Nbi', 'Uint16', dest, source, nelems, pe, true);
  }
  /** Puts one Uint16 (shmem_ushort_p). */
  async pUint16(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pUint16', 'Uint16', dest, [elemValue('pUint16', 'Uint16', 'value', value)], 1, pe, false);
  }
  /** Gets one Uint16 (shmem_ushort_g). */
  async gUint16(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gUint16', 'Uint16', source, pe) as Promise<number>;
  }
  /** Strided Uint16 put (shmem_ushort_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputUint16(dest: Symmetric, source: Uint16Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputUint16', 'Uint16', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Uint16 get (shmem_ushort_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetUint16(dest: Uint16Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetUint16', 'Uint16', dest, source, dst, sst, nelems, pe);
  }
  // --- Int32 (shmem_int_...)
  /** Puts `nelems` Int32 elements of `source` to `dest` on `pe` (shmem_int_put); completes at `quiet`. */
  async putInt32(dest: Symmetric, source: Int32Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt32', 'Int32', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Int32 elements from `source` on `pe` into `dest` (shmem_int_get). */
  async getInt32(dest: Int32Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt32', 'Int32', dest, source, nelems, pe, false);
  }
  /** Non-blocking Int32 put (shmem_int_put_nbi): `source` must stay unchanged until `quiet`. */
  async putInt32Nbi(dest: Symmetric, source: Int32Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt32Nbi', 'Int32', dest, source, nelems, pe, true);
  }
  /** Non-blocking Int32 get (shmem_int_get_nbi): `dest` holds the data after `quiet`. */
  async getInt32Nbi(dest: Int32Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt32Nbi', 'Int32', dest, source, nelems, pe, true);
  }
  /** Puts one Int32 (shmem_int_p). */
  async pInt32(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pInt32', 'Int32', dest, [elemValue('pInt32', 'Int32', 'value', value)], 1, pe, false);
  }
  /** Gets one Int32 (shmem_int_g). */
  async gInt32(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gInt32', 'Int32', source, pe) as Promise<number>;
  }
  /** Strided Int32 put (shmem_int_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputInt32(dest: Symmetric, source: Int32Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputInt32', 'Int32', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Int32 get (shmem_int_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetInt32(dest: Int32Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetInt32', 'Int32', dest, source, dst, sst, nelems, pe);
  }
  // --- Uint32 (shmem_uint_...)
  /** Puts `nelems` Uint32 elements of `source` to `dest` on `pe` (shmem_uint_put); completes at `quiet`. */
  async putUint32(dest: Symmetric, source: Uint32Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint32', 'Uint32', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Uint32 elements from `source` on `pe` into `dest` (shmem_uint_get). */
  async getUint32(dest: Uint32Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint32', 'Uint32', dest, source, nelems, pe, false);
  }
  /** Non-blocking Uint32 put (shmem_uint_put_nbi): `source` must stay unchanged until `quiet`. */
  async putUint32Nbi(dest: Symmetric, source: Uint32Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint32Nbi', 'Uint32', dest, source, nelems, pe, true);
  }
  /** Non-blocking Uint32 get (shmem_uint_get_nbi): `dest` holds the data after `quiet`. */
  async getUint32Nbi(dest: Uint32Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint32Nbi', 'Uint32', dest, source, nelems, pe, true);
  }
  /** Puts one Uint32 (shmem_uint_p). */
  async pUint32(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pUint32', 'Uint32', dest, [elemValue('pUint32', 'Uint32', 'value', value)], 1, pe, false);
  }
  /** Gets one Uint32 (shmem_uint_g). */
  async gUint32(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gUint32', 'Uint32', source, pe) as Promise<number>;
  }
  /** Strided Uint32 put (shmem_uint_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputUint32(dest: Symmetric, source: Uint32Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputUint32', 'Uint32', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Uint32 get (shmem_uint_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetUint32(dest: Uint32Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetUint32', 'Uint32', dest, source, dst, sst, nelems, pe);
  }
  // --- Int64 (shmem_long_...)
  /** Puts `nelems` Int64 elements of `source` to `dest` on `pe` (shmem_long_put); completes at `quiet`. */
  async putInt64(dest: Symmetric, source: BigInt64Array | readonly bigint[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt64', 'Int64', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Int64 elements from `source` on `pe` into `dest` (shmem_long_get). */
  async getInt64(dest: BigInt64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt64', 'Int64', dest, source, nelems, pe, false);
  }
  /** Non-blocking Int64 put (shmem_long_put_nbi): `source` must stay unchanged until `quiet`. */
  async putInt64Nbi(dest: Symmetric, source: BigInt64Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putInt64Nbi', 'Int64', dest, source, nelems, pe, true);
  }
  /** Non-blocking Int64 get (shmem_long_get_nbi): `dest` holds the data after `quiet`. */
  async getInt64Nbi(dest: BigInt64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getInt64Nbi', 'Int64', dest, source, nelems, pe, true);
  }
  /** Puts one Int64 (shmem_long_p). */
  async pInt64(dest: Symmetric, value: bigint, pe: number): Promise<void> {
    return this.putElems('pInt64', 'Int64', dest, [elemValue('pInt64', 'Int64', 'value', value)], 1, pe, false);
  }
  /** Gets one Int64 (shmem_long_g). */
  async gInt64(source: Symmetric, pe: number): Promise<bigint> {
    return this.gElem('gInt64', 'Int64', source, pe) as Promise<bigint>;
  }
  /** Strided Int64 put (shmem_long_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputInt64(dest: Symmetric, source: BigInt64Array | readonly bigint[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputInt64', 'Int64', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Int64 get (shmem_long_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetInt64(dest: BigInt64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetInt64', 'Int64', dest, source, dst, sst, nelems, pe);
  }
  // --- Uint64 (shmem_ulong_...)
  /** Puts `nelems` Uint64 elements of `source` to `dest` on `pe` (shmem_ulong_put); completes at `quiet`. */
  async putUint64(dest: Symmetric, source: BigUint64Array | readonly bigint[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint64', 'Uint64', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Uint64 elements from `source` on `pe` into `dest` (shmem_ulong_get). */
  async getUint64(dest: BigUint64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint64', 'Uint64', dest, source, nelems, pe, false);
  }
  /** Non-blocking Uint64 put (shmem_ulong_put_nbi): `source` must stay unchanged until `quiet`. */
  async putUint64Nbi(dest: Symmetric, source: BigUint64Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putUint64Nbi', 'Uint64', dest, source, nelems, pe, true);
  }
  /** Non-blocking Uint64 get (shmem_ulong_get_nbi): `dest` holds the data after `quiet`. */
  async getUint64Nbi(dest: BigUint64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getUint64Nbi', 'Uint64', dest, source, nelems, pe, true);
  }
  /** Puts one Uint64 (shmem_ulong_p). */
  async pUint64(dest: Symmetric, value: bigint, pe: number): Promise<void> {
    return this.putElems('pUint64', 'Uint64', dest, [elemValue('pUint64', 'Uint64', 'value', value)], 1, pe, false);
  }
  /** Gets one Uint64 (shmem_ulong_g). */
  async gUint64(source: Symmetric, pe: number): Promise<bigint> {
    return this.gElem('gUint64', 'Uint64', source, pe) as Promise<bigint>;
  }
  /** Strided Uint64 put (shmem_ulong_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputUint64(dest: Symmetric, source: BigUint64Array | readonly bigint[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputUint64', 'Uint64', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Uint64 get (shmem_ulong_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetUint64(dest: BigUint64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetUint64', 'Uint64', dest, source, dst, sst, nelems, pe);
  }
  // --- Float32 (shmem_float_...)
  /** Puts `nelems` Float32 elements of `source` to `dest` on `pe` (shmem_float_put); completes at `quiet`. */
  async putFloat32(dest: Symmetric, source: Float32Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putFloat32', 'Float32', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Float32 elements from `source` on `pe` into `dest` (shmem_float_get). */
  async getFloat32(dest: Float32Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getFloat32', 'Float32', dest, source, nelems, pe, false);
  }
  /** Non-blocking Float32 put (shmem_float_put_nbi): `source` must stay unchanged until `quiet`. */
  async putFloat32Nbi(dest: Symmetric, source: Float32Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putFloat32Nbi', 'Float32', dest, source, nelems, pe, true);
  }
  /** Non-blocking Float32 get (shmem_float_get_nbi): `dest` holds the data after `quiet`. */
  async getFloat32Nbi(dest: Float32Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getFloat32Nbi', 'Float32', dest, source, nelems, pe, true);
  }
  /** Puts one Float32 (shmem_float_p). */
  async pFloat32(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pFloat32', 'Float32', dest, [elemValue('pFloat32', 'Float32', 'value', value)], 1, pe, false);
  }
  /** Gets one Float32 (shmem_float_g). */
  async gFloat32(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gFloat32', 'Float32', source, pe) as Promise<number>;
  }
  /** Strided Float32 put (shmem_float_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputFloat32(dest: Symmetric, source: Float32Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputFloat32', 'Float32', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Float32 get (shmem_float_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetFloat32(dest: Float32Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetFloat32', 'Float32', dest, source, dst, sst, nelems, pe);
  }
  // --- Float64 (shmem_double_...)
  /** Puts `nelems` Float64 elements of `source` to `dest` on `pe` (shmem_double_put); completes at `quiet`. */
  async putFloat64(dest: Symmetric, source: Float64Array | readonly number[], nelems: number, pe: number): Promise<void> {
    return this.putElems('putFloat64', 'Float64', dest, source, nelems, pe, false);
  }
  /** Gets `nelems` Float64 elements from `source` on `pe` into `dest` (shmem_double_get). */
  async getFloat64(dest: Float64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getFloat64', 'Float64', dest, source, nelems, pe, false);
  }
  /** Non-blocking Float64 put (shmem_double_put_nbi): `source` must stay unchanged until `quiet`. */
  async putFloat64Nbi(dest: Symmetric, source: Float64Array, nelems: number, pe: number): Promise<void> {
    return this.putElems('putFloat64Nbi', 'Float64', dest, source, nelems, pe, true);
  }
  /** Non-blocking Float64 get (shmem_double_get_nbi): `dest` holds the data after `quiet`. */
  async getFloat64Nbi(dest: Float64Array, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getElems('getFloat64Nbi', 'Float64', dest, source, nelems, pe, true);
  }
  /** Puts one Float64 (shmem_double_p). */
  async pFloat64(dest: Symmetric, value: number, pe: number): Promise<void> {
    return this.putElems('pFloat64', 'Float64', dest, [elemValue('pFloat64', 'Float64', 'value', value)], 1, pe, false);
  }
  /** Gets one Float64 (shmem_double_g). */
  async gFloat64(source: Symmetric, pe: number): Promise<number> {
    return this.gElem('gFloat64', 'Float64', source, pe) as Promise<number>;
  }
  /** Strided Float64 put (shmem_double_iput): element i*`sst` of `source` to element i*`dst` of `dest` on `pe`. */
  async iputFloat64(dest: Symmetric, source: Float64Array | readonly number[], dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputElems('iputFloat64', 'Float64', dest, source, dst, sst, nelems, pe);
  }
  /** Strided Float64 get (shmem_double_iget): element i*`sst` of `source` on `pe` to element i*`dst` of `dest`; returns with the data. */
  async igetFloat64(dest: Float64Array, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetElems('igetFloat64', 'Float64', dest, source, dst, sst, nelems, pe);
  }
  // 8-bit elements of any private buffer (shmem_put8, ...): counts are 1-byte elements
  /** Puts `nelems` 1-byte elements of `source` to `dest` on `pe` (shmem_put8); completes at `quiet`. */
  async put8(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put8', 1, dest, source, nelems, pe, false);
  }
  /** Gets `nelems` 1-byte elements (shmem_get8). */
  async get8(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get8', 1, dest, source, nelems, pe, false);
  }
  /** Non-blocking put of 1-byte elements (shmem_put8_nbi). */
  async put8Nbi(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put8Nbi', 1, dest, source, nelems, pe, true);
  }
  /** Non-blocking get of 1-byte elements (shmem_get8_nbi). */
  async get8Nbi(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get8Nbi', 1, dest, source, nelems, pe, true);
  }
  /** Strided put of 1-byte elements (shmem_iput8). */
  async iput8(dest: Symmetric, source: ArrayBufferView, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputSized('iput8', 1, dest, source, dst, sst, nelems, pe);
  }
  /** Strided get of 1-byte elements (shmem_iget8). */
  async iget8(dest: ArrayBufferView, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetSized('iget8', 1, dest, source, dst, sst, nelems, pe);
  }
  // 16-bit elements of any private buffer (shmem_put16, ...): counts are 2-byte elements
  /** Puts `nelems` 2-byte elements of `source` to `dest` on `pe` (shmem_put16); completes at `quiet`. */
  async put16(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put16', 2, dest, source, nelems, pe, false);
  }
  /** Gets `nelems` 2-byte elements (shmem_get16). */
  async get16(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get16', 2, dest, source, nelems, pe, false);
  }
  /** Non-blocking put of 2-byte elements (shmem_put16_nbi). */
  async put16Nbi(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put16Nbi', 2, dest, source, nelems, pe, true);
  }
  /** Non-blocking get of 2-byte elements (shmem_get16_nbi). */
  async get16Nbi(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get16Nbi', 2, dest, source, nelems, pe, true);
  }
  /** Strided put of 2-byte elements (shmem_iput16). */
  async iput16(dest: Symmetric, source: ArrayBufferView, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputSized('iput16', 2, dest, source, dst, sst, nelems, pe);
  }
  /** Strided get of 2-byte elements (shmem_iget16). */
  async iget16(dest: ArrayBufferView, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetSized('iget16', 2, dest, source, dst, sst, nelems, pe);
  }
  // 32-bit elements of any private buffer (shmem_put32, ...): counts are 4-byte elements
  /** Puts `nelems` 4-byte elements of `source` to `dest` on `pe` (shmem_put32); completes at `quiet`. */
  async put32(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put32', 4, dest, source, nelems, pe, false);
  }
  /** Gets `nelems` 4-byte elements (shmem_get32). */
  async get32(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get32', 4, dest, source, nelems, pe, false);
  }
  /** Non-blocking put of 4-byte elements (shmem_put32_nbi). */
  async put32Nbi(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put32Nbi', 4, dest, source, nelems, pe, true);
  }
  /** Non-blocking get of 4-byte elements (shmem_get32_nbi). */
  async get32Nbi(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get32Nbi', 4, dest, source, nelems, pe, true);
  }
  /** Strided put of 4-byte elements (shmem_iput32). */
  async iput32(dest: Symmetric, source: ArrayBufferView, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputSized('iput32', 4, dest, source, dst, sst, nelems, pe);
  }
  /** Strided get of 4-byte elements (shmem_iget32). */
  async iget32(dest: ArrayBufferView, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetSized('iget32', 4, dest, source, dst, sst, nelems, pe);
  }
  // 64-bit elements of any private buffer (shmem_put64, ...): counts are 8-byte elements
  /** Puts `nelems` 8-byte elements of `source` to `dest` on `pe` (shmem_put64); completes at `quiet`. */
  async put64(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put64', 8, dest, source, nelems, pe, false);
  }
  /** Gets `nelems` 8-byte elements (shmem_get64). */
  async get64(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get64', 8, dest, source, nelems, pe, false);
  }
  /** Non-blocking put of 8-byte elements (shmem_put64_nbi). */
  async put64Nbi(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put64Nbi', 8, dest, source, nelems, pe, true);
  }
  /** Non-blocking get of 8-byte elements (shmem_get64_nbi). */
  async get64Nbi(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get64Nbi', 8, dest, source, nelems, pe, true);
  }
  /** Strided put of 8-byte elements (shmem_iput64). */
  async iput64(dest: Symmetric, source: ArrayBufferView, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputSized('iput64', 8, dest, source, dst, sst, nelems, pe);
  }
  /** Strided get of 8-byte elements (shmem_iget64). */
  async iget64(dest: ArrayBufferView, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetSized('iget64', 8, dest, source, dst, sst, nelems, pe);
  }
  // 128-bit elements of any private buffer (shmem_put128, ...): counts are 16-byte elements
  /** Puts `nelems` 16-byte elements of `source` to `dest` on `pe` (shmem_put128); completes at `quiet`. */
  async put128(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put128', 16, dest, source, nelems, pe, false);
  }
  /** Gets `nelems` 16-byte elements (shmem_get128). */
  async get128(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get128', 16, dest, source, nelems, pe, false);
  }
  /** Non-blocking put of 16-byte elements (shmem_put128_nbi). */
  async put128Nbi(dest: Symmetric, source: ArrayBufferView, nelems: number, pe: number): Promise<void> {
    return this.putSized('put128Nbi', 16, dest, source, nelems, pe, true);
  }
  /** Non-blocking get of 16-byte elements (shmem_get128_nbi). */
  async get128Nbi(dest: ArrayBufferView, source: Symmetric, nelems: number, pe: number): Promise<void> {
    return this.getSized('get128Nbi', 16, dest, source, nelems, pe, true);
  }
  /** Strided put of 16-byte elements (shmem_iput128). */
  async iput128(dest: Symmetric, source: ArrayBufferView, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.iputSized('iput128', 16, dest, source, dst, sst, nelems, pe);
  }
  /** Strided get of 16-byte elements (shmem_iget128). */
  async iget128(dest: ArrayBufferView, source: Symmetric, dst: number, sst: number, nelems: number, pe: number): Promise<void> {
    return this.igetSized('iget128', 16, dest, source, dst, sst, nelems, pe);
  }}
