/**
 * OTF2's binary encoding written (the writing side of `otf2-buffer.ts`, as otf2_buffer.c of the
 * OTF2 library writes it, little-endian): a file opens with a chunk header (the byte 3, the byte
 * order 0x42 and, in chunked files, the numbers of the chunk's first and last event); records
 * are a type byte, then (but for the singleton events) their length, then their fields, with
 * 32- and 64-bit integers compressed (a length byte, 0 for the value 0 and 0xff for undefined,
 * then that many low-order bytes). A chunk that is full ends with the byte 0 and is padded to
 * the chunk size; the data end with the bytes 2 and 1 (end of file), and the anchor file (not
 * chunked) with a further 0, as the library leaves them.
 */
import { ByteWriter } from './byte-writer.ts';

const CHUNK_HEADER = 3;
const LITTLE_ENDIAN = 0x42;
const END_OF_CHUNK = 0;
const END_OF_FILE = [2, 1] as const;
/** An undefined value (all ones), written as the single byte 0xff. */
export const OTF2_UNDEFINED = -1;

/** The fields of one record, before its type and length. */
export class Otf2Fields {
  readonly w = new ByteWriter(true);

  u8(v: number): this {
    this.w.u8(v);
    return this;
  }

  /** A compressed integer (32 or 64 bits); OTF2_UNDEFINED (or any negative value) as undefined. */
  int(v: number): this {
    if (v < 0) {
      this.w.u8(0xff);
      return this;
    }
    if (v === 0) {
      this.w.u8(0);
      return this;
    }
    const bytes: number[] = [];
    for (let x = v; x > 0; x = Math.floor(x / 256)) bytes.push(x % 256);
    this.w.u8(bytes.length);
    for (const b of bytes) this.w.u8(b);
    return this;
  }

  /** A full 64-bit value (timestamps). */
  u64full(v: number): this {
    this.w.u64(v);
    return this;
  }

  /** A NUL-terminated string. */
  string(s: string): this {
    this.w.bytes(new TextEncoder().encode(s));
    this.w.u8(0);
    return this;
  }
}

/** One chunked OTF2 file (an event or definition file) built in memory. */
export class Otf2ChunkedFile {
  private readonly out = new ByteWriter(true);
  /** Where the current chunk starts, and where its header's event numbers are. */
  private chunkStart = 0;
  private readonly headers: { at: number; first: number; last: number }[] = [];
  /** Events written (numbered from 1). */
  events = 0;

  constructor(private readonly chunkSize: number) {
    this.header();
  }

  private header(): void {
    this.chunkStart = this.out.offset;
    this.out.u8(CHUNK_HEADER);
    this.out.u8(LITTLE_ENDIAN);
    this.headers.push({ at: this.out.offset, first: this.events + 1, last: this.events });
    this.out.u64(0);
    this.out.u64(0);
  }

  /** Whether `n` more bytes fit in the current chunk (keeping room for its end and the file's). */
  fits(n: number): boolean {
    return this.out.offset - this.chunkStart + n + 3 <= this.chunkSize;
  }

  /** Ends the current chunk and starts the next. */
  nextChunk(): void {
    this.out.u8(END_OF_CHUNK);
    while (this.out.offset - this.chunkStart < this.chunkSize) this.out.u8(0);
    this.header();
  }

  /** A record: its type, its length (but for a singleton event) and its fields; `event` counts it as an event. */
  record(type: number, fields: Otf2Fields, opts: { singleton?: boolean; event?: boolean } = {}): void {
    const body = fields.w.result();
    const size = 1 + (opts.singleton ? 0 : body.length < 0xff ? 1 : 9) + body.length;
    if (size + 19 > this.chunkSize) throw new RangeError(`OTF2: a record of ${size} bytes does not fit a chunk of ${this.chunkSize}`);
    if (!this.fits(size)) this.nextChunk();
    this.out.u8(type);
    if (!opts.singleton) {
      if (body.length < 0xff) this.out.u8(body.length);
      else {
        this.out.u8(0xff);
        this.out.u64(body.length);
      }
    }
    this.out.bytes(body);
    if (opts.event) {
      this.events++;
      this.headers[this.headers.length - 1]!.last = this.events;
    }
  }

  /** Whether the current chunk holds nothing yet. */
  get chunkEmpty(): boolean {
    return this.out.offset - this.chunkStart === 18;
  }

  /** The file's bytes, its chunk headers filled in. */
  result(): Uint8Array {
    for (const b of END_OF_FILE) this.out.u8(b);
    const bytes = this.out.result();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const h of this.headers) {
      view.setBigUint64(h.at, BigInt(h.first), true);
      view.setBigUint64(h.at + 8, BigInt(h.last), true);
    }
    return bytes;
  }
}

/** What the anchor file says. */
export interface Otf2AnchorFields {
  readonly chunkSizeEvents: number;
  readonly chunkSizeDefs: number;
  readonly locations: number;
  readonly globalDefs: number;
  readonly creator: string;
  readonly traceId: number;
}

/** The anchor file `<name>.otf2` (anchor format 3, trace format 2, OTF2 3.0.2, POSIX files, no compression). */
export function anchorFile(a: Otf2AnchorFields): Uint8Array {
  const f = new Otf2Fields();
  f.u8(CHUNK_HEADER).u8(LITTLE_ENDIAN).string('OTF2').u8(3).u8(2).u8(3).u8(0).u8(2);
  f.u64full(a.chunkSizeEvents).u64full(a.chunkSizeDefs).u8(1).u8(1).u64full(a.locations).u64full(a.globalDefs);
  f.string('').string(a.creator).string('');
  f.w.u32(0); // properties
  f.u64full(a.traceId);
  f.w.u32(0); // snapshots
  f.w.u32(0); // thumbnails
  for (const b of [...END_OF_FILE, 0]) f.u8(b);
  return f.w.result();
}
