/**
 * Reading a trace file a piece at a time: a window of at most CHUNK bytes is held, refilled by
 * opening the file, reading at the current offset and closing it again, so a trace of any size
 * and any number of ranks replays without holding files open or in memory.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { TraceFormatError } from './calls.ts';

/** Bytes read from a file at a time. */
const CHUNK = 1 << 16;

/** Reads `path` into `buf` at file offset `at`; returns the bytes read (0 at the end). */
function readAt(path: string, buf: Uint8Array, at: number): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new TraceFormatError(`${path}: cannot read it (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    return readSync(fd, buf, 0, buf.length, at);
  } finally {
    closeSync(fd);
  }
}

/** A text file line by line. */
export class LineReader {
  private readonly buf = new Uint8Array(CHUNK);
  private readonly decoder = new TextDecoder();
  /** File offset of `buf[0]`. */
  private base = 0;
  private len = 0;
  private pos = 0;
  private eof = false;
  /** The number of the line `next` returned last (1-based). */
  line = 0;

  constructor(readonly path: string) {}

  /** The next line without its end of line, or null at the end of the file. */
  next(): string | null {
    let parts: string[] | null = null;
    for (;;) {
      if (this.pos >= this.len) {
        if (this.eof || !this.fill()) {
          if (parts === null) return null;
          this.line++;
          return parts.join('');
        }
      }
      const nl = this.buf.indexOf(10, this.pos);
      if (nl >= 0 && nl < this.len) {
        let end = nl;
        if (end > this.pos && this.buf[end - 1] === 13) end--;
        const text = this.decoder.decode(this.buf.subarray(this.pos, end));
        this.pos = nl + 1;
        this.line++;
        return parts === null ? text : (parts.push(text), parts.join(''));
      }
      // a line longer than the window: keep its start and read on
      (parts ??= []).push(this.decoder.decode(this.buf.subarray(this.pos, this.len)));
      this.pos = this.len;
    }
  }

  private fill(): boolean {
    this.base += this.len;
    this.len = readAt(this.path, this.buf, this.base);
    this.pos = 0;
    if (this.len === 0) this.eof = true;
    return this.len > 0;
  }
}

/** A big-endian binary file read field by field from an offset. */
export class ByteReader {
  private readonly buf = new Uint8Array(CHUNK);
  private readonly view = new DataView(this.buf.buffer);
  private base: number;
  private len = 0;
  private pos = 0;

  constructor(
    readonly path: string,
    /** Where reading starts. */
    start: number,
    /** Where the readable part ends (the file's size, or the start of its index). */
    readonly end: number,
  ) {
    this.base = start;
  }

  /** File offset of the next byte. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** Whether every byte before `end` has been read. */
  atEnd(): boolean {
    return this.offset >= this.end;
  }

  /** Makes `n` bytes readable at `pos`; throws naming `what` when the file ends first. */
  private need(n: number, what: string): void {
    if (this.offset + n > this.end) throw new TraceFormatError(`${this.path}: truncated at byte ${this.offset}: expected ${what} (${n} bytes), the file has ${Math.max(0, this.end - this.offset)} left`);
    if (this.pos + n <= this.len) return;
    this.base += this.pos;
    this.len = readAt(this.path, this.buf, this.base);
    this.pos = 0;
    if (this.len < n) throw new TraceFormatError(`${this.path}: truncated at byte ${this.offset}: expected ${what} (${n} bytes)`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.buf[this.pos++]!;
  }

  u16(what: string): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  i32(what: string): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  /** A 64-bit value as two 32-bit halves, high first; exact up to 2^53. */
  u64(what: string): number {
    const hi = this.u32(what);
    const lo = this.u32(what);
    return hi * 2 ** 32 + lo;
  }

  /** Passes over `n` bytes. */
  skip(n: number, what: string): void {
    if (this.offset + n > this.end) throw new TraceFormatError(`${this.path}: truncated at byte ${this.offset}: expected ${what} (${n} bytes), the file has ${Math.max(0, this.end - this.offset)} left`);
    const left = this.len - this.pos;
    if (n <= left) this.pos += n;
    else {
      this.base += this.pos + n;
      this.pos = 0;
      this.len = 0;
    }
  }

  /** A string: 16-bit length, then its bytes. */
  str(what: string): string {
    const n = this.u16(`the length of ${what}`);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(this.u8(what));
    return s;
  }

  /** An array of 32-bit integers: 32-bit count, then the values. */
  i32arr(what: string): number[] {
    const n = this.i32(`the length of ${what}`);
    if (n < 0 || this.offset + 4 * n > this.end) throw new TraceFormatError(`${this.path}: at byte ${this.offset - 4}: ${what} claims ${n} entries, more than the file holds`);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.i32(what);
    return out;
  }
}
