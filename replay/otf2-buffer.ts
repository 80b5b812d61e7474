/**
 * OTF2's binary encoding, read a window at a time (otf2_buffer.c of the OTF2 library). A file
 * starts with a chunk header: the byte 3, the writer's endianness (0x23 big, 0x42 little) and,
 * in event and definition files, two 64-bit event numbers. Such files are cut into chunks of a
 * fixed size (the anchor file gives it); a chunk's records end with the byte 0 (end of chunk),
 * its remaining bytes are padding, and the next chunk starts with its own header. The byte 1 or
 * 2 ends the data. Integers of 32 and 64 bits are compressed: a length byte (0: the value 0,
 * 0xff: all ones, "undefined"), then that many low-order bytes in the writer's byte order;
 * timestamps and a few sizes are full 8-byte values; strings end with a NUL byte.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { TraceFormatError } from './calls.ts';

/** Bytes read from a file at a time. */
const WINDOW = 1 << 16;
/** Record types shared by every file (OTF2_InternalBufferEvents). */
export const END_OF_CHUNK = 0;
export const END_OF_BUFFER = 1;
export const END_OF_FILE = 2;
const CHUNK_HEADER = 3;
const BIG_ENDIAN = 0x23;
const LITTLE_ENDIAN = 0x42;
/** An undefined reference or value (all ones) as the reader returns it. */
export const UNDEFINED = -1;

/** One OTF2 file read from its start; `chunkSize` null for a file that is not chunked (the anchor file). */
export class Otf2File {
  private readonly buf = new Uint8Array(WINDOW);
  private readonly view = new DataView(this.buf.buffer);
  /** File offset of `buf[0]`. */
  private base = 0;
  private len = 0;
  private pos = 0;
  private little = true;
  /** Where the chunk being read starts. */
  private chunkStart = 0;

  constructor(
    readonly path: string,
    private readonly chunkSize: number | null,
  ) {
    this.header();
  }

  /** File offset of the next byte. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** The error for a bad value at `at`: the file, the offset and what was expected. */
  bad(at: number, what: string): TraceFormatError {
    return new TraceFormatError(`${this.path}: byte ${at}: ${what}`);
  }

  private fill(at: number): void {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (e) {
      throw new TraceFormatError(`${this.path}: cannot read it (${e instanceof Error ? e.message : String(e)})`);
    }
    try {
      this.base = at;
      this.len = readSync(fd, this.buf, 0, WINDOW, at);
      this.pos = 0;
    } finally {
      closeSync(fd);
    }
  }

  /** Makes `n` bytes readable; throws naming `what` when the file ends first. */
  private need(n: number, what: string): void {
    if (this.pos + n <= this.len) return;
    this.fill(this.offset);
    if (this.len < n) throw new TraceFormatError(`${this.path}: truncated at byte ${this.offset}: expected ${what}`);
  }

  private header(): void {
    const at = this.offset;
    if (this.u8('a chunk header') !== CHUNK_HEADER) throw this.bad(at, `expected an OTF2 chunk header (the byte ${CHUNK_HEADER}); not an OTF2 file, or cut`);
    const e = this.u8('the byte order');
    if (e !== LITTLE_ENDIAN && e !== BIG_ENDIAN) throw this.bad(at + 1, `expected the byte order (0x42 little-endian or 0x23 big-endian), got 0x${e.toString(16)}`);
    this.little = e === LITTLE_ENDIAN;
    if (this.chunkSize !== null) this.skip(16, 'the chunk header\'s event numbers');
  }

  u8(what: string): number {
    this.need(1, what);
    return this.buf[this.pos++]!;
  }

  /** A full (uncompressed) 32-bit unsigned value. */
  u32full(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, this.little);
    this.pos += 4;
    return v;
  }

  /** A full 64-bit unsigned value, exact to 2^53. */
  u64full(what: string): number {
    this.need(8, what);
    const lo = this.view.getUint32(this.pos + (this.little ? 0 : 4), this.little);
    const hi = this.view.getUint32(this.pos + (this.little ? 4 : 0), this.little);
    this.pos += 8;
    return hi * 2 ** 32 + lo;
  }

  /** A compressed unsigned integer of at most `max` bytes; UNDEFINED for all ones. */
  private compressed(max: number, what: string): number {
    const at = this.offset;
    const n = this.u8(what);
    if (n === 0) return 0;
    if (n === 0xff) return UNDEFINED;
    if (n > max) throw this.bad(at, `expected ${what} (a compressed integer of at most ${max} bytes), its length byte says ${n}`);
    this.need(n, what);
    let v = 0;
    for (let i = 0; i < n; i++) {
      const b = this.buf[this.pos + (this.little ? i : n - 1 - i)]!;
      v += b * 2 ** (8 * i);
    }
    this.pos += n;
    return v;
  }

  /** A compressed 32-bit unsigned integer (references, ranks, tags). */
  u32(what: string): number {
    return this.compressed(4, what);
  }

  /** A compressed 64-bit unsigned integer (sizes, request ids), exact to 2^53. */
  u64(what: string): number {
    return this.compressed(8, what);
  }

  /** A NUL-terminated string. */
  string(what: string): string {
    const bytes: number[] = [];
    for (;;) {
      const b = this.u8(what);
      if (b === 0) break;
      bytes.push(b);
    }
    return Buffer.from(bytes).toString('utf8');
  }

  /** Passes over `n` bytes. */
  skip(n: number, what: string): void {
    if (this.pos + n <= this.len) {
      this.pos += n;
      return;
    }
    const to = this.offset + n;
    this.fill(to);
    if (this.len === 0 && n > 0) throw new TraceFormatError(`${this.path}: truncated at byte ${to - n}: expected ${what} (${n} bytes)`);
  }

  /** A record's length (a byte, or 0xff then a full 64-bit length); returns where the record ends. */
  recordEnd(what: string): number {
    let n = this.u8(`the length of ${what}`);
    if (n === 0xff) n = this.u64full(`the length of ${what}`);
    return this.offset + n;
  }

  /** Moves to `end` (the end of a record whose remaining fields the reader does not need). */
  seek(end: number, what: string): void {
    const at = this.offset;
    if (end < at) throw this.bad(at, `${what} is longer than its record length says`);
    this.skip(end - at, what);
  }

  /**
   * The type byte of the next record, past chunk ends (at an end of chunk the next chunk's
   * header is read); END_OF_FILE at the end of the data or of the file.
   */
  nextType(): number {
    for (;;) {
      if (this.pos >= this.len) {
        this.fill(this.offset);
        if (this.len === 0) return END_OF_FILE;
      }
      const t = this.buf[this.pos++]!;
      if (t === END_OF_BUFFER || t === END_OF_FILE) return END_OF_FILE;
      if (t !== END_OF_CHUNK) return t;
      if (this.chunkSize === null) return END_OF_FILE;
      // the rest of the chunk is padding: the next chunk starts one chunk size after this one
      this.chunkStart += this.chunkSize;
      this.fill(this.chunkStart);
      if (this.len === 0) return END_OF_FILE;
      this.header();
    }
  }
}
