/**
 * DUMPI traces (SST's binary format): a `.meta` text file (`numprocs=`, `fileprefix=`) and one
 * `<fileprefix>-<rank>.bin` per rank, the rank zero-padded to 4 or more digits. A `.bin` file
 * starts with a 64-bit magic, then the call stream (two 32-bit clock offsets, then one record
 * per call until an end-of-stream label), then the header, footer and label records, and ends
 * with an index of their offsets. Every number is big-endian. A record is a 16-bit function
 * label, an 8-bit mask (which clocks, statuses, thread and counters were recorded), the thread,
 * the CPU and wall clocks at entry and exit (16-bit seconds past the offset, 32-bit ns), the
 * counters, then the function's fields (`dumpi-layouts.ts`). Datatype sizes come from the
 * trace's own size record, so user-defined types have their real sizes.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TraceFormatError, type RankTrace, type TraceCall, type TraceSource } from './calls.ts';
import { callOf, type DumpiRecord, type DumpiState } from './dumpi-calls.ts';
import { DUMPI_FUNCTIONS, DUMPI_LAYOUTS, END_OF_STREAM, FUNCTION_ENTER, FUNCTION_EXIT } from './dumpi-layouts.ts';
import { ByteReader, LineReader } from './file-reader.ts';

/** The magic at the start of a `.bin` file and of its index. */
const MAGIC_HI = 0xffaadd44;
const MAGIC_LO = 0x554d5049;
/** Mask bits of a record (dumpi/common/settings.h). */
const STATUS_BITS = 0x03;
const CPU_TIME = 0x04;
const WALL_TIME = 0x08;
const THREAD_ID = 0x40;
const PERF_INFO = 0x80;

/** One field of a layout. */
interface Field {
  readonly name: string;
  readonly kind: string;
  /** Present only at the root of a rooted collective. */
  readonly atRoot: boolean;
}

/** The parsed layouts, by label. */
const FIELDS: readonly (readonly Field[] | null)[] = DUMPI_FUNCTIONS.map((name) => {
  const layout = DUMPI_LAYOUTS[name];
  if (layout === undefined) return null;
  return layout
    .split(' ')
    .filter((f) => f !== '')
    .map((f) => {
      const [field, kind] = f.split(':') as [string, string];
      return { name: field, kind: kind.replace('@root', ''), atRoot: kind.endsWith('@root') };
    });
});

/** Opens a DUMPI trace from its `.meta` file. */
export function openDumpi(metaPath: string): TraceSource {
  let ranks = 0;
  let prefix: string | null = null;
  const lines = new LineReader(metaPath);
  for (let l = lines.next(); l !== null; l = lines.next()) {
    const eq = l.indexOf('=');
    if (eq < 0) continue;
    const key = l.slice(0, eq).trim();
    const val = l.slice(eq + 1).trim();
    if (key === 'numprocs') {
      ranks = Number(val);
      if (!Number.isSafeInteger(ranks) || ranks < 1) throw new TraceFormatError(`${metaPath}:${lines.line}: expected numprocs=<a positive integer>, got "${val}"`);
    } else if (key === 'fileprefix') prefix = val;
  }
  if (ranks === 0 || prefix === null || prefix === '') throw new TraceFormatError(`${metaPath}: expected the keys numprocs and fileprefix of a DUMPI .meta file`);
  // the prefix is relative to the meta file's folder; dumpi writes it as given, so keep only its name
  const base = join(dirname(metaPath), basename(prefix));
  const files = binFiles(base, ranks);
  if (!files) throw new TraceFormatError(`${metaPath}: expected ${ranks} files ${basename(base)}-0000.bin ... (rank zero-padded to 4 or more digits) beside it; they are missing`);
  return { format: 'dumpi', path: metaPath, ranks, open: (rank) => new DumpiRank(files[rank]!) };
}

/** The `.bin` file names of ranks 0..ranks-1 with the narrowest zero-padding for which all exist. */
function binFiles(base: string, ranks: number): string[] | null {
  for (let width = 4; width <= 10; width++) {
    const names = Array.from({ length: ranks }, (_, r) => `${base}-${String(r).padStart(width, '0')}.bin`);
    if (names.every((n) => existsSync(n))) return names;
  }
  return null;
}

/** The offsets of a `.bin` file's parts, from its index. */
interface Index {
  readonly sizes: number;
  readonly perfLabels: number;
  readonly header: number;
  readonly body: number;
}

/** Reads the index at the end of `path` (64 bytes: magic, sizes, addresses, counters, header, body, footer, keyvals; older files lack the first ones). */
function readIndex(path: string, size: number): Index {
  if (size < 8 + 64) throw new TraceFormatError(`${path}: ${size} bytes, too short for a DUMPI file (magic, call stream, index)`);
  const head = new ByteReader(path, 0, size);
  if (head.u32('the magic') !== MAGIC_HI || head.u32('the magic') !== MAGIC_LO) throw new TraceFormatError(`${path}: byte 0: expected DUMPI's magic 0xffaadd44554d5049; not a DUMPI .bin file`);
  const at = size - 64;
  const r = new ByteReader(path, at, size);
  const v: number[] = [];
  const magic: boolean[] = [];
  for (let i = 0; i < 8; i++) {
    const hi = r.u32('the index');
    const lo = r.u32('the index');
    magic.push(hi === MAGIC_HI && lo === MAGIC_LO);
    v.push(hi * 2 ** 32 + lo);
  }
  const k = magic.slice(0, 4).indexOf(true);
  if (k < 0) throw new TraceFormatError(`${path}: byte ${at}: expected the index record (DUMPI's magic, then offsets); the file may be truncated`);
  const idx = { sizes: k === 0 ? v[1]! : 0, perfLabels: k <= 2 ? v[3]! : 0, header: v[4]!, body: v[5]! };
  for (const [what, off] of Object.entries(idx)) {
    if (off < 0 || off >= at) throw new TraceFormatError(`${path}: byte ${at}: the index gives ${what} at byte ${off}, outside the file's ${at} bytes before the index`);
  }
  if (idx.body < 8) throw new TraceFormatError(`${path}: byte ${at}: the index gives no call stream (body at byte ${idx.body})`);
  return idx;
}

/** One rank's calls. */
class DumpiRank implements RankTrace {
  private readonly r: ByteReader;
  /** DUMPI version of the file (major, minor, patch). */
  private readonly version: readonly number[];
  /** Bytes of each datatype handle. */
  private readonly typeSizes: readonly number[];
  private readonly perfCount: number;
  private readonly cpuOffset: number;
  private readonly wallOffset: number;
  /** When the previous call returned (ps, on the clock the trace recorded), or null before the first. */
  private lastStop: number | null = null;
  /** A call read behind the computation that precedes it. */
  private queued: TraceCall | null = null;
  private readonly state: DumpiState = { groups: new Map() };
  private ended = false;

  constructor(private readonly path: string) {
    const size = statSync(path).size;
    const idx = readIndex(path, size);
    const h = new ByteReader(path, idx.header, size);
    this.version = [h.u8('the version'), h.u8('the version'), h.u8('the version')];
    this.typeSizes = idx.sizes > 0 ? new ByteReader(path, idx.sizes, size).i32arr('the datatype sizes') : [];
    if (idx.perfLabels > 0) {
      const p = new ByteReader(path, idx.perfLabels, size);
      this.perfCount = p.i32('the number of counter labels');
    } else this.perfCount = 0;
    this.r = new ByteReader(path, idx.body, idx.header);
    this.cpuOffset = this.r.i32('the CPU clock offset');
    this.wallOffset = this.r.i32('the wall clock offset');
  }

  /** Whether the file's DUMPI version is at least a.b.c. */
  private atLeast(a: number, b: number, c: number): boolean {
    const [x, y, z] = this.version as [number, number, number];
    return x !== a ? x > a : y !== b ? y > b : z >= c;
  }

  next(): TraceCall | null {
    if (this.queued) {
      const q = this.queued;
      this.queued = null;
      return q;
    }
    for (;;) {
      if (this.ended) return null;
      const c = this.record();
      if (c === null) continue;
      if (c.gapPs > 0) {
        this.queued = c.call;
        return { call: 'compute', name: 'compute', ps: c.gapPs, flops: 0 };
      }
      return c.call;
    }
  }

  /** The next record as a call and the time before it; null for a record that is no call (profiled function entries). */
  private record(): { call: TraceCall; gapPs: number } | null {
    const r = this.r;
    const at = r.offset;
    if (r.atEnd()) throw new TraceFormatError(`${this.path}: truncated at byte ${at}: expected a function label or the end-of-stream label`);
    const label = r.u16('a function label');
    if (label === END_OF_STREAM) {
      this.ended = true;
      return null;
    }
    const name = DUMPI_FUNCTIONS[label];
    if (name === undefined && label !== FUNCTION_ENTER && label !== FUNCTION_EXIT) {
      throw new TraceFormatError(`${this.path}: byte ${at}: expected a function label (0..${END_OF_STREAM}), got ${label}`);
    }
    const mask = r.u8('the record mask');
    if (mask & THREAD_ID) r.u16('the thread');
    let start = -1;
    let stop = -1;
    if (mask & CPU_TIME) [start, stop] = this.times(this.cpuOffset);
    if (mask & WALL_TIME) [start, stop] = this.times(this.wallOffset);
    if (mask & PERF_INFO) {
      r.u8('the counter count');
      r.skip(16 * this.perfCount, 'the performance counters');
    }
    if (name === undefined) {
      r.skip(8, 'a profiled function address');
      return null;
    }
    const fields = FIELDS[label];
    if (!fields) throw new TraceFormatError(`${this.path}: byte ${at}: a record of ${name}, whose fields phit does not know; it cannot step over it`);
    const rec = this.fields(name, fields, mask, at);
    let gapPs = 0;
    if (start >= 0) {
      if (this.lastStop !== null && start > this.lastStop) gapPs = start - this.lastStop;
      this.lastStop = stop;
    }
    return { call: callOf(name, rec, this.typeSize, this.state), gapPs };
  }

  /** Entry and exit on one clock, in ps. */
  private times(offset: number): [number, number] {
    const r = this.r;
    const s0 = r.u16('a clock') + offset;
    const n0 = r.u32('a clock');
    const s1 = r.u16('a clock') + offset;
    const n1 = r.u32('a clock');
    return [(s0 * 1e9 + n0) * 1e3, (s1 * 1e9 + n1) * 1e3];
  }

  /** Bytes of datatype handle `t`. */
  private readonly typeSize = (t: number, what: string): number => {
    const s = this.typeSizes[t];
    if (s === undefined || s < 0) throw new TraceFormatError(`${this.path}: ${what} has datatype ${t}, which the trace's size record (${this.typeSizes.length} types) does not give`);
    return s;
  };

  private fields(name: string, fields: readonly Field[], mask: number, at: number): DumpiRecord {
    const r = this.r;
    const rec: DumpiRecord = { name, offset: at };
    for (const f of fields) {
      if (f.atRoot && rec.commrank !== rec.root) continue;
      const what = `${name}'s ${f.name}`;
      switch (f.kind) {
        case 'i':
          rec[f.name] = r.i32(what);
          break;
        case 'h':
          rec[f.name] = r.u16(what);
          break;
        case 'b':
          rec[f.name] = r.u8(what);
          break;
        case 'Q':
          r.skip(8, what);
          break;
        case 'I':
          rec[f.name] = r.i32arr(what);
          break;
        case 'H': {
          const n = r.i32(`the length of ${what}`);
          if (n < 0 || r.offset + 2 * n > r.end) throw new TraceFormatError(`${this.path}: byte ${r.offset - 4}: ${what} claims ${n} entries, more than the file holds`);
          const out: number[] = [];
          for (let i = 0; i < n; i++) out.push(r.u16(what));
          rec[f.name] = out;
          break;
        }
        case 'C':
          this.chars(what);
          break;
        case 'V':
        case 'W': {
          const argc = r.i32(`${name}'s argc`);
          if (f.kind === 'V' && !this.atLeast(0, 6, 2)) r.i32(`${name}'s argc (written twice before DUMPI 0.6.2)`);
          for (let i = 0; i < argc; i++) this.chars(`${name}'s argv[${i}]`);
          break;
        }
        case 'S':
          if (mask & STATUS_BITS) this.statuses(what);
          break;
        case 'A':
          if (mask & STATUS_BITS) this.statuses(what);
          break;
      }
    }
    if ((name === 'MPI_Type_struct' && !this.atLeast(0, 6, 9)) || (name === 'MPI_Cart_get' && !this.atLeast(0, 6, 8))) {
      throw new TraceFormatError(`${this.path}: byte ${at}: ${name} records of DUMPI ${this.version.join('.')} have an older layout phit does not read`);
    }
    return rec;
  }

  private chars(what: string): void {
    const n = this.r.i32(`the length of ${what}`);
    if (n < 0) throw new TraceFormatError(`${this.path}: byte ${this.r.offset - 4}: ${what} has length ${n}`);
    this.r.skip(n, what);
  }

  /** A count, then each status: bytes, source, cancelled, error, and (since DUMPI 0.6.3) the tag. */
  private statuses(what: string): void {
    const n = this.r.i32(`the number of statuses of ${what}`);
    if (n < 0) throw new TraceFormatError(`${this.path}: byte ${this.r.offset - 4}: ${what} has ${n} statuses`);
    this.r.skip(n * (this.atLeast(0, 6, 3) ? 14 : 10), what);
  }
}
