/**
 * Packing in MPI's portable representation, "external32" (MPI-3.1 §13.5.2, MPI_Pack_external,
 * MPI_Unpack_external, MPI_Pack_external_size): every value big-endian, in the sizes of Table
 * 13.2, whatever the native sizes are. On x86-64 most basic types only change byte order; `long`
 * and `unsigned long` (8 bytes here) are 4 bytes in external32, wchar_t (4) is 2, so their
 * values are cut to the low bytes when packed (values out of range are erroneous in MPI) and
 * sign- or zero-extended when unpacked; long double is an IEEE 754 binary128 (quadruple), made
 * from and read back into phit's long double, which holds a double (see Parts). The data is
 * packed natively first (the cost of mpi.pack) and then converted, a pass over its bytes at
 * `mpi.copyBandwidth`.
 */
import { describe } from './constants.ts';
import { checkCount, checkType, type Basic, type Datatype } from './datatype.ts';
import { packTo, positioned, scratch, unpackFrom, userBytes, type Packer } from './datatype-pack.ts';
import { MpiError } from './request.ts';

/** The one data representation phit packs portably (MPI names three; "native" and "internal" are mpi.pack's). */
export const EXTERNAL32 = 'external32';

/** How one value (or one part of a complex value) converts: its native and external sizes and its kind. */
interface Part {
  readonly native: number;
  readonly ext: number;
  /** int/uint: an integer (cut or extended when the sizes differ); float: IEEE, byte order only; quad: long double to binary128; byte: as is. */
  readonly kind: 'int' | 'uint' | 'float' | 'quad' | 'byte';
}

const part = (native: number, ext: number, kind: Part['kind']): readonly Part[] => [{ native, ext, kind }];
const BYTE1 = part(1, 1, 'byte');

/** The parts of each basic type in external32 (MPI-3.1 Table 13.2), by MPI name. */
const EXTERNAL: Readonly<Record<string, readonly Part[]>> = {
  MPI_PACKED: BYTE1,
  MPI_BYTE: BYTE1,
  MPI_CHAR: BYTE1,
  MPI_UNSIGNED_CHAR: BYTE1,
  MPI_SIGNED_CHAR: BYTE1,
  MPI_INT8_T: BYTE1,
  MPI_UINT8_T: BYTE1,
  MPI_C_BOOL: BYTE1,
  MPI_WCHAR: part(4, 2, 'int'),
  MPI_SHORT: part(2, 2, 'int'),
  MPI_UNSIGNED_SHORT: part(2, 2, 'uint'),
  MPI_INT16_T: part(2, 2, 'int'),
  MPI_UINT16_T: part(2, 2, 'uint'),
  MPI_INT: part(4, 4, 'int'),
  MPI_UNSIGNED: part(4, 4, 'uint'),
  MPI_INT32_T: part(4, 4, 'int'),
  MPI_UINT32_T: part(4, 4, 'uint'),
  MPI_LONG: part(8, 4, 'int'),
  MPI_UNSIGNED_LONG: part(8, 4, 'uint'),
  MPI_LONG_LONG: part(8, 8, 'int'),
  MPI_UNSIGNED_LONG_LONG: part(8, 8, 'uint'),
  MPI_INT64_T: part(8, 8, 'int'),
  MPI_UINT64_T: part(8, 8, 'uint'),
  MPI_AINT: part(8, 8, 'int'),
  MPI_OFFSET: part(8, 8, 'int'),
  MPI_COUNT: part(8, 8, 'int'),
  MPI_FLOAT: part(4, 4, 'float'),
  MPI_DOUBLE: part(8, 8, 'float'),
  MPI_LONG_DOUBLE: part(16, 16, 'quad'),
  MPI_C_FLOAT_COMPLEX: [...part(4, 4, 'float'), ...part(4, 4, 'float')],
  MPI_C_DOUBLE_COMPLEX: [...part(8, 8, 'float'), ...part(8, 8, 'float')],
  MPI_C_LONG_DOUBLE_COMPLEX: [...part(16, 16, 'quad'), ...part(16, 16, 'quad')],
};

function partsOf(call: string, b: Basic): readonly Part[] {
  const p = EXTERNAL[b.name];
  if (!p) throw new MpiError('MPI_ERR_TYPE', `${call}: ${b.name} has no external32 representation in phit`);
  return p;
}

/** Bytes one element of `t` takes in external32. */
function externalSize(call: string, t: Datatype): number {
  let n = 0;
  for (const r of t.signature) n += r.n * partsOf(call, r.basic).reduce((s, p) => s + p.ext, 0);
  return n;
}

function checkDatarep(call: string, datarep: unknown): void {
  if (datarep !== EXTERNAL32) throw new MpiError('MPI_ERR_ARG', `${call}: datarep=${typeof datarep === 'string' ? JSON.stringify(datarep) : describe(datarep)} must be "external32"`);
}

/** MPI_Pack_external_size: bytes `incount` elements of `t` take in `datarep` (external32). */
export function packExternalSize(datarep: string, incount: number, t: Datatype): number {
  const call = 'packExternalSize';
  checkDatarep(call, datarep);
  const dt = checkType(call, 'datatype', t);
  return checkCount(call, 'incount', incount) * externalSize(call, dt);
}

/**
 * MPI_Pack_external: `incount` elements of `t` from `inbuf` into `outbuf` at byte `position`, in
 * external32; returns the position after them.
 */
export function packExternal(pk: Packer, datarep: string, inbuf: ArrayBufferView, incount: number, t: Datatype, outbuf: ArrayBufferView, position: number): number {
  const call = 'packExternal';
  checkDatarep(call, datarep);
  const dt = checkType(call, 'datatype', t);
  checkCount(call, 'incount', incount);
  const src = userBytes(call, 'inbuf', inbuf, incount, dt);
  const out = positioned(call, 'outbuf', outbuf, position);
  const n = incount * externalSize(call, dt);
  if (position + n > out.length) throw new MpiError('MPI_ERR_TRUNCATE', `${call}: ${incount} x ${dt.name} (${n} bytes in external32) at position ${position} overflow outbuf's ${out.length} bytes`);
  const native = scratch(pk, src, incount * dt.size);
  packTo(pk, src, 0, incount, dt, native, 0);
  if (!pk.proc.isSkeleton(native) && !pk.proc.isSkeleton(out)) convert(call, dt, incount, native, out, position, true);
  pk.proc.charge(Math.ceil(n / pk.params.copyBytesPerPs));
  return position + n;
}

/**
 * MPI_Unpack_external: `outcount` elements of `t` from external32 bytes of `inbuf` at byte
 * `position` into `outbuf`; returns the position after them.
 */
export function unpackExternal(pk: Packer, datarep: string, inbuf: ArrayBufferView, position: number, outbuf: ArrayBufferView, outcount: number, t: Datatype): number {
  const call = 'unpackExternal';
  checkDatarep(call, datarep);
  const dt = checkType(call, 'datatype', t);
  checkCount(call, 'outcount', outcount);
  const inp = positioned(call, 'inbuf', inbuf, position);
  const dst = userBytes(call, 'outbuf', outbuf, outcount, dt);
  const n = outcount * externalSize(call, dt);
  if (position + n > inp.length) throw new MpiError('MPI_ERR_TRUNCATE', `${call}: ${outcount} x ${dt.name} (${n} bytes in external32) at position ${position} run past inbuf's ${inp.length} bytes`);
  const native = scratch(pk, dst, outcount * dt.size);
  if (!pk.proc.isSkeleton(native) && !pk.proc.isSkeleton(inp)) convert(call, dt, outcount, native, inp, position, false);
  pk.proc.charge(Math.ceil(n / pk.params.copyBytesPerPs) + unpackFrom(pk, native, 0, dst, 0, outcount, dt));
  return position + n;
}

/**
 * Converts `count` elements of `t` between the native packed stream `native` (from byte 0) and
 * external32 bytes of `ext` from byte `pos`: to external32 when `pack`, else back.
 */
function convert(call: string, t: Datatype, count: number, native: Uint8Array, ext: Uint8Array, pos: number, pack: boolean): void {
  let a = 0;
  let e = pos;
  for (let k = 0; k < count; k++) {
    for (const r of t.signature) {
      const parts = partsOf(call, r.basic);
      for (let i = 0; i < r.n; i++) {
        for (const p of parts) {
          if (pack) toExternal(p, native, a, ext, e);
          else fromExternal(p, ext, e, native, a);
          a += p.native;
          e += p.ext;
        }
      }
    }
  }
}

/** Writes the native value at byte `a` of `n` as external32 at byte `e` of `x`. */
function toExternal(p: Part, n: Uint8Array, a: number, x: Uint8Array, e: number): void {
  if (p.kind === 'quad') return writeQuad(new DataView(n.buffer, n.byteOffset + a, 8).getFloat64(0, true), x, e);
  // little-endian native: its low `ext` bytes, most significant first
  for (let i = 0; i < p.ext; i++) x[e + i] = n[a + p.ext - 1 - i]!;
}

/** Writes the external32 value at byte `e` of `x` as native at byte `a` of `n`. */
function fromExternal(p: Part, x: Uint8Array, e: number, n: Uint8Array, a: number): void {
  if (p.kind === 'quad') {
    const v = new DataView(n.buffer, n.byteOffset + a, 16);
    v.setFloat64(0, readQuad(x, e), true);
    v.setFloat64(8, 0, true);
    return;
  }
  for (let i = 0; i < p.ext; i++) n[a + i] = x[e + p.ext - 1 - i]!;
  // a wider native integer: sign-extended (signed) or zero-extended
  const fill = p.kind === 'int' && (x[e]! & 0x80) !== 0 ? 0xff : 0;
  for (let i = p.ext; i < p.native; i++) n[a + i] = fill;
}

const MASK52 = (1n << 52n) - 1n;
const MASK64 = (1n << 64n) - 1n;
const MASK112 = (1n << 112n) - 1n;

/** Writes `x` as an IEEE 754 binary128, big-endian, at byte `at` of `out` (exactly: every double is a binary128). */
function writeQuad(x: number, out: Uint8Array, at: number): void {
  const d = new DataView(new ArrayBuffer(8));
  d.setFloat64(0, x);
  const bits = d.getBigUint64(0);
  const sign = bits >> 63n;
  const e = (bits >> 52n) & 0x7ffn;
  const f = bits & MASK52;
  let E = 0n;
  let F = 0n;
  if (e === 0x7ffn) {
    E = 0x7fffn;
    F = f << 60n;
  } else if (e !== 0n) {
    E = e - 1023n + 16383n;
    F = f << 60n;
  } else if (f !== 0n) {
    // a subnormal double is a normal binary128: its leading bit becomes the hidden one
    const p = f.toString(2).length - 1;
    E = BigInt(p - 1074 + 16383);
    F = (f - (1n << BigInt(p))) << BigInt(112 - p);
  }
  const q = (sign << 127n) | (E << 112n) | F;
  const v = new DataView(out.buffer, out.byteOffset + at, 16);
  v.setBigUint64(0, q >> 64n);
  v.setBigUint64(8, q & MASK64);
}

/** The IEEE 754 binary128 at byte `at` of `inp` (big-endian) as the nearest double (ties to even). */
function readQuad(inp: Uint8Array, at: number): number {
  const v = new DataView(inp.buffer, inp.byteOffset + at, 16);
  const q = (v.getBigUint64(0) << 64n) | v.getBigUint64(8);
  const negative = q >> 127n === 1n;
  const E = Number((q >> 112n) & 0x7fffn);
  const F = q & MASK112;
  const s = negative ? -1 : 1;
  if (E === 0x7fff) return F === 0n ? s * Infinity : NaN;
  // binary128 subnormals lie far below the doubles' range
  if (E === 0) return s * 0;
  let exp = E - 16383;
  if (exp > 1023) return s * Infinity;
  if (exp < -1022) {
    // a double subnormal (or zero): scale the 53 leading bits down in two steps, one rounding
    const m = Number((1n << 52n) | (F >> 60n));
    return s * m * 2 ** (exp - 52 + 600) * 2 ** -600;
  }
  let mant = F >> 60n;
  const rest = F & ((1n << 60n) - 1n);
  const half = 1n << 59n;
  if (rest > half || (rest === half && (mant & 1n) === 1n)) mant++;
  if (mant > MASK52) {
    mant = 0n;
    exp++;
    if (exp > 1023) return s * Infinity;
  }
  const d = new DataView(new ArrayBuffer(8));
  d.setBigUint64(0, ((negative ? 1n : 0n) << 63n) | (BigInt(exp + 1023) << 52n) | mant);
  return d.getFloat64(0);
}
