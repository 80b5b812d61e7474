/**
 * Moving the data of a datatype: packing `count` elements of a type map into a contiguous stream
 * and unpacking it, MPI_Pack/MPI_Unpack with MPI's position semantics, and the buffers the
 * point-to-point and collective calls' long forms (buffer, count, datatype) send from and
 * receive into. A non-contiguous type costs the library's CPU time: its bytes at
 * `mpi.copyBandwidth` plus `mpi.packBlock` per contiguous block; a contiguous one costs nothing.
 */
import type { MpiParams } from '../../fabric/machine.ts';
import type { Proc } from '../proc.ts';
import { describe } from './constants.ts';
import { checkCount, checkType, type Datatype } from './datatype.ts';
import { MpiError } from './request.ts';

/** What packing needs of a rank: its process (charged the CPU time) and the library's parameters. */
export interface Packer {
  readonly proc: Proc;
  readonly params: MpiParams;
}

/** Blocks shorter than this are copied byte by byte (cheaper than a subarray per block). */
const SHORT_BLOCK = 64;

/**
 * Copies between `count` elements of `t` in `user` (element 0 at byte `base`) and a packed stream
 * in `packed` from byte `pos`, `bytes` bytes at most (the last element may be cut short); `pack`
 * says the direction. The caller has checked that every byte touched lies inside both.
 */
function walk(user: Uint8Array, base: number, t: Datatype, packed: Uint8Array, pos: number, bytes: number, pack: boolean): void {
  if (bytes % 4 === 0 && (user.byteOffset + base) % 4 === 0 && (packed.byteOffset + pos) % 4 === 0 && wordAligned(t)) {
    walkWords(user, base, t, packed, pos, bytes, pack);
    return;
  }
  const { offsets, lengths, extent } = t;
  const nb = offsets.length;
  let left = bytes;
  let p = pos;
  for (let e = 0; left > 0; e++) {
    const at = base + e * extent;
    for (let j = 0; j < nb && left > 0; j++) {
      const len = Math.min(lengths[j]!, left);
      const u = at + offsets[j]!;
      if (len < SHORT_BLOCK) {
        if (pack) for (let k = 0; k < len; k++) packed[p + k] = user[u + k]!;
        else for (let k = 0; k < len; k++) user[u + k] = packed[p + k]!;
      } else if (pack) packed.set(user.subarray(u, u + len), p);
      else user.set(packed.subarray(p, p + len), u);
      p += len;
      left -= len;
    }
  }
}

/** Whether every block of `t` and its extent are whole 4-byte words (memoised per type). */
function wordAligned(t: Datatype): boolean {
  let w = wordsOf.get(t);
  if (w === undefined) {
    w = t.extent % 4 === 0 && t.offsets.every((o) => o % 4 === 0) && t.lengths.every((l) => l % 4 === 0);
    wordsOf.set(t, w);
  }
  return w;
}
const wordsOf = new WeakMap<Datatype, boolean>();

/** walk, a 32-bit word at a time (every block, offset and the extent in whole words; bit-exact, unlike a float copy). */
function walkWords(user: Uint8Array, base: number, t: Datatype, packed: Uint8Array, pos: number, bytes: number, pack: boolean): void {
  // words of the whole user buffer in the alignment of `base` (data may lie below base: negative offsets or extent)
  const from = ((base % 4) + 4) % 4;
  const uu = new Uint32Array(user.buffer, user.byteOffset + from, (user.length - from) >> 2);
  const shift = (base - from) >> 2;
  const p = new Uint32Array(packed.buffer, packed.byteOffset + pos, (packed.length - pos) >> 2);
  const offs = t.offsets;
  const lens = t.lengths;
  const nb = offs.length;
  const ext = t.extent >> 2;
  let left = bytes >> 2;
  let q = 0;
  for (let e = 0; left > 0; e++) {
    const at = e * ext + shift;
    for (let j = 0; j < nb && left > 0; j++) {
      const len = Math.min(lens[j]! >> 2, left);
      const w = at + (offs[j]! >> 2);
      if (pack) for (let k = 0; k < len; k++) p[q + k] = uu[w + k]!;
      else for (let k = 0; k < len; k++) uu[w + k] = p[q + k]!;
      q += len;
      left -= len;
    }
  }
}

/** CPU time (ps) the library spends packing or unpacking `bytes` bytes of `t` (0 for a contiguous layout). */
export function packCostPs(params: MpiParams, t: Datatype, count: number, bytes: number): number {
  if (bytes === 0 || t.contiguous(count)) return 0;
  return Math.ceil(bytes / params.copyBytesPerPs + t.blocksIn(bytes) * params.packBlockPs);
}

/** Bytes of `buf` (any ArrayBufferView; null when no data moves), checked to hold `count` elements of `t` from its start. */
export function userBytes(call: string, name: string, buf: unknown, count: number, t: Datatype, base = 0): Uint8Array {
  // C's NULL with no data to move (a zero count or size) is legal
  if (buf === null && (count === 0 || t.size === 0)) return new Uint8Array(0);
  if (!ArrayBuffer.isView(buf)) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} must be a typed array or DataView, got ${describe(buf)}`);
  const { lo, hi } = t.span(count);
  if (hi > lo && (base + lo < 0 || base + hi > buf.byteLength)) {
    const where = base === 0 ? '' : ` from byte ${base}`;
    throw new MpiError('MPI_ERR_BUFFER', `${call}: ${count} x ${t.name}${where} touch bytes ${base + lo}..${base + hi} of ${name}, which has ${buf.byteLength}`);
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** A new buffer of `n` bytes: a skeleton one when `like` is (its bytes never move). */
export function scratch(pk: Packer, like: Uint8Array, n: number): Uint8Array {
  return pk.proc.isSkeleton(like) ? pk.proc.skeleton!.alloc(Uint8Array, n) : new Uint8Array(n);
}

/**
 * The bytes of `count` elements of `t` at byte `base` of `user` as one contiguous run: a view of
 * them when the layout is contiguous, else a packed copy, its cost charged to the rank.
 */
export function sendBytes(pk: Packer, user: Uint8Array, base: number, count: number, t: Datatype): Uint8Array {
  const n = count * t.size;
  if (t.contiguous(count)) return user.subarray(base + t.trueLb, base + t.trueLb + n);
  const out = scratch(pk, user, n);
  if (!pk.proc.isSkeleton(user)) walk(user, base, t, out, 0, n, true);
  pk.proc.charge(packCostPs(pk.params, t, count, n));
  return out;
}

/** Packs `count` elements of `t` at byte `base` of `user` into `out` from byte `pos`, charging the rank for it. */
export function packTo(pk: Packer, user: Uint8Array, base: number, count: number, t: Datatype, out: Uint8Array, pos: number): void {
  const n = count * t.size;
  if (!pk.proc.isSkeleton(user) && !pk.proc.isSkeleton(out)) walk(user, base, t, out, pos, n, true);
  pk.proc.charge(packCostPs(pk.params, t, count, n));
}

/** Unpacks `count` elements of `t` from `inp` at byte `pos` to byte `base` of `user`; returns the CPU time (ps) it takes. */
export function unpackFrom(pk: Packer, inp: Uint8Array, pos: number, user: Uint8Array, base: number, count: number, t: Datatype): number {
  const n = count * t.size;
  if (!pk.proc.isSkeleton(user) && !pk.proc.isSkeleton(inp)) walk(user, base, t, inp, pos, n, false);
  return packCostPs(pk.params, t, count, n);
}

/** Where a receive of `count` elements of `t` lands, and how its bytes reach the user's layout. */
export interface Landing {
  /** The contiguous bytes the message is received into. */
  readonly bytes: Uint8Array;
  /**
   * Unpacks the first `n` received bytes into the user's buffer and returns the CPU time (ps) that
   * took; null when the bytes land in place (a contiguous layout).
   */
  readonly unpack: ((n: number) => number) | null;
}

/**
 * The landing of `count` elements of `t` at byte `base` of `user`. With `keep`, the scratch
 * buffer of a non-contiguous layout starts with the user's data (an in-place operation reads it).
 */
export function landing(pk: Packer, user: Uint8Array, base: number, count: number, t: Datatype, keep = false): Landing {
  const n = count * t.size;
  if (t.contiguous(count)) return { bytes: user.subarray(base + t.trueLb, base + t.trueLb + n), unpack: null };
  const bytes = keep ? sendBytes(pk, user, base, count, t) : scratch(pk, user, n);
  const skeleton = pk.proc.isSkeleton(user);
  return {
    bytes,
    unpack: (got) => {
      if (!skeleton) walk(user, base, t, bytes, 0, Math.min(got, n), false);
      return packCostPs(pk.params, t, count, got);
    },
  };
}

/** MPI_Pack: `incount` elements of `t` from `inbuf` into `outbuf` at byte `position`; returns the position after them. */
export function pack(pk: Packer, inbuf: ArrayBufferView, incount: number, t: Datatype, outbuf: ArrayBufferView, position: number): number {
  const call = 'pack';
  const dt = checkType(call, 'datatype', t);
  checkCount(call, 'incount', incount);
  const src = userBytes(call, 'inbuf', inbuf, incount, dt);
  const out = positioned(call, 'outbuf', outbuf, position);
  const n = incount * dt.size;
  if (position + n > out.length) throw new MpiError('MPI_ERR_TRUNCATE', `${call}: ${incount} x ${dt.name} (${n} bytes) at position ${position} overflow outbuf's ${out.length} bytes`);
  if (!pk.proc.isSkeleton(src) && !pk.proc.isSkeleton(out)) walk(src, 0, dt, out, position, n, true);
  pk.proc.charge(packCostPs(pk.params, dt, incount, n));
  return position + n;
}

/** MPI_Unpack: `outcount` elements of `t` from `inbuf` at byte `position` into `outbuf`; returns the position after them. */
export function unpack(pk: Packer, inbuf: ArrayBufferView, position: number, outbuf: ArrayBufferView, outcount: number, t: Datatype): number {
  const call = 'unpack';
  const dt = checkType(call, 'datatype', t);
  checkCount(call, 'outcount', outcount);
  const inp = positioned(call, 'inbuf', inbuf, position);
  const dst = userBytes(call, 'outbuf', outbuf, outcount, dt);
  const n = outcount * dt.size;
  if (position + n > inp.length) throw new MpiError('MPI_ERR_TRUNCATE', `${call}: ${outcount} x ${dt.name} (${n} bytes) at position ${position} run past inbuf's ${inp.length} bytes`);
  if (!pk.proc.isSkeleton(inp) && !pk.proc.isSkeleton(dst)) walk(dst, 0, dt, inp, position, n, false);
  pk.proc.charge(packCostPs(pk.params, dt, outcount, n));
  return position + n;
}

/** MPI_Pack_size: bytes `incount` elements of `t` take packed (an upper bound in MPI; exact here). */
export function packSize(incount: number, t: Datatype): number {
  const dt = checkType('packSize', 'datatype', t);
  return checkCount('packSize', 'incount', incount) * dt.size;
}

/** The bytes of `buf`, with `position` checked to lie in it (MPI_Pack's and MPI_Unpack's position argument). */
export function positioned(call: string, name: string, buf: unknown, position: number): Uint8Array {
  if (!ArrayBuffer.isView(buf)) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} must be a typed array or DataView, got ${describe(buf)}`);
  if (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position > buf.byteLength) {
    throw new MpiError('MPI_ERR_ARG', `${call}: position=${String(position)} must be an integer from 0 to ${name}'s ${buf.byteLength} bytes`);
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
