import type { DmappType } from '../dmapp/dmapp.ts';
import { ShmemError } from './symmetric.ts';

/**
 * The element kinds of the typed RMA calls (`putInt16`, `gUint8`, ...), one per JS typed array.
 * Each stands for every C type of the OpenSHMEM 1.5 standard RMA types table (§9.6, Table 5) of
 * that size and kind on LP64, as Cray SHMEM lays them out: `Int8` for char, schar and int8;
 * `Uint8` for uchar and uint8; `Int16` for short and int16; `Uint16` for ushort and uint16;
 * `Int32` for int and int32; `Uint32` for uint and uint32; `Int64` for long, longlong, int64 and
 * ptrdiff; `Uint64` for ulong, ulonglong, uint64 and size; `Float32` for float; `Float64` for
 * double. long double, which has no typed array, has calls of its own (ShmemLongdoubleRma).
 */
export type ElemKind = 'Int8' | 'Uint8' | 'Int16' | 'Uint16' | 'Int32' | 'Uint32' | 'Int64' | 'Uint64' | 'Float32' | 'Float64';

/** A typed array of any element kind. */
export type ElemArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array;

type ElemCtor = { new (n: number): ElemArray; new (buffer: ArrayBufferLike, byteOffset: number, length: number): ElemArray; readonly name: string };

/** Per kind: its typed array, bytes per element, whether its values are bigints, and its C types. */
export const ELEMS: Readonly<Record<ElemKind, { array: ElemCtor; bytes: 1 | 2 | 4 | 8; big: boolean; c: readonly string[] }>> = {
  Int8: { array: Int8Array, bytes: 1, big: false, c: ['char', 'schar', 'int8'] },
  Uint8: { array: Uint8Array, bytes: 1, big: false, c: ['uchar', 'uint8'] },
  Int16: { array: Int16Array, bytes: 2, big: false, c: ['short', 'int16'] },
  Uint16: { array: Uint16Array, bytes: 2, big: false, c: ['ushort', 'uint16'] },
  Int32: { array: Int32Array, bytes: 4, big: false, c: ['int', 'int32'] },
  Uint32: { array: Uint32Array, bytes: 4, big: false, c: ['uint', 'uint32'] },
  Int64: { array: BigInt64Array, bytes: 8, big: true, c: ['long', 'longlong', 'int64', 'ptrdiff'] },
  Uint64: { array: BigUint64Array, bytes: 8, big: true, c: ['ulong', 'ulonglong', 'uint64', 'size'] },
  Float32: { array: Float32Array, bytes: 4, big: false, c: ['float'] },
  Float64: { array: Float64Array, bytes: 8, big: false, c: ['double'] },
};

/** The DMAPP element type of a strided transfer of `bytes`-byte elements; 2-byte ones have none (DMAPP has byte, dw, qw, dqw). */
export const DMAPP_OF_SIZE: Readonly<Record<number, DmappType | undefined>> = { 1: 'byte', 4: 'dw', 8: 'qw', 16: 'dqw' };

/** The bytes of the first `count` elements of `buf`, which must be a typed array of `kind`; `arg` names it in errors. */
export function elemView(call: string, kind: ElemKind, arg: string, buf: unknown, count: number): Uint8Array {
  if (!Number.isInteger(count) || count < 0) throw new ShmemError(`${call}: nelems=${count} must be a non-negative integer`);
  if (count === 0) return new Uint8Array(0);
  const e = ELEMS[kind];
  if (!(buf instanceof e.array)) throw new ShmemError(`${call}: ${arg} must be a ${e.array.name}, got ${ArrayBuffer.isView(buf) ? buf.constructor.name : typeof buf}`);
  if (count > buf.length) throw new ShmemError(`${call}: nelems=${count} exceeds the ${buf.length} elements of ${arg}`);
  return new Uint8Array(buf.buffer, buf.byteOffset, count * e.bytes);
}

/** A fresh byte copy of the first `count` elements of `source` (a typed array of `kind` or a plain array of its values). */
export function elemCopy(call: string, kind: ElemKind, source: unknown, count: number): Uint8Array {
  if (!Number.isInteger(count) || count < 0) throw new ShmemError(`${call}: nelems=${count} must be a non-negative integer`);
  if (count === 0) return new Uint8Array(0);
  const e = ELEMS[kind];
  if (source instanceof e.array) return elemView(call, kind, 'source', source, count).slice();
  if (!Array.isArray(source)) throw new ShmemError(`${call}: source must be a ${e.array.name} or an array of ${e.big ? 'bigints' : 'numbers'}`);
  if (source.length < count) throw new ShmemError(`${call}: source has ${source.length} elements, fewer than the ${count} needed`);
  const out = new e.array(count);
  for (let i = 0; i < count; i++) out[i] = elemValue(call, kind, `source[${i}]`, source[i]);
  return new Uint8Array(out.buffer);
}

/** `v` as a value of `kind` (a bigint for the 64-bit integers, a number otherwise), or a ShmemError naming `arg`. */
export function elemValue(call: string, kind: ElemKind, arg: string, v: unknown): never {
  const e = ELEMS[kind];
  if (e.big ? typeof v !== 'bigint' : typeof v !== 'number') throw new ShmemError(`${call}: ${arg}=${String(v)} is not a ${e.big ? 'bigint' : 'number'}`);
  return v as never;
}
