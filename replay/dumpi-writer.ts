/**
 * A run's MPI calls written as a DUMPI trace, laid out as sst-dumpi's libdumpi writes one
 * (dumpi/common/io.c): `<name>.meta` and one `<name>-NNNN.bin` per rank. A `.bin` file is the
 * magic, the call stream (two clock offsets, one record per call, the end-of-stream label), the
 * header (version, start time, host and user, no mesh), the footer (its magic and per-function
 * counts), an empty key-value record, the counter labels (none), the datatype sizes, the function
 * addresses (none) and the index of their offsets; all big-endian. Each record carries the
 * thread (0) and the CPU and wall clocks at entry and exit, both the simulated time, and no
 * statuses. Every rank's stream opens with MPI_Init at time 0 and closes with MPI_Finalize
 * when its program returned, so the computation before the first and after the last call stays
 * in the trace. Datatypes are DUMPI's predefined handles where phit's type has their size, else
 * a user handle per size (the size record gives it).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, type TraceCall, type TraceOp } from './calls.ts';
import type { CallLog, LoggedCall, RankLog } from './call-log.ts';
import { ByteWriter } from './byte-writer.ts';
import { callsFor } from './trace-filter.ts';
import { DUMPI_FUNCTIONS, DUMPI_LAYOUTS, END_OF_STREAM } from './dumpi-layouts.ts';

/** What a writer wrote. */
export interface WrittenTrace {
  /** The file to give `phit replay` (the .meta file, the .otf2 anchor, the SimGrid list). */
  readonly path: string;
  readonly files: number;
  readonly bytes: number;
  /** Records written, over all ranks (DUMPI: calls; OTF2: events; SimGrid: actions). */
  readonly records: number;
  /** Calls the format cannot hold, left out, by MPI name (over all ranks). */
  readonly omitted?: Readonly<Record<string, number>>;
}

const MAGIC_HI = 0xffaadd44;
const MAGIC_LO = 0x554d5049;
const FOOT_MAGIC = 0xf007fee7;
/** DUMPI version the files say they are (sst-dumpi's current one). */
const VERSION = [13, 0, 0] as const;
/** Record mask: the thread, the wall clock and the CPU clock (no statuses, no counters). */
const MASK = 0x40 | 0x08 | 0x04;
/** DUMPI's MPI_COMM_NULL and the source written for MPI_PROC_NULL (negative, not MPI_ANY_SOURCE). */
const COMM_NULL = 1;
const DUMPI_PROC_NULL = -3;
/** DUMPI's predefined datatypes (dumpi/common/constants.h) and their sizes on LP64 (MPICH's, as libdumpi records them). */
const TYPES = [
  'error', 'null', 'MPI_CHAR', 'MPI_SIGNED_CHAR', 'MPI_UNSIGNED_CHAR', 'MPI_BYTE', 'MPI_WCHAR', 'MPI_SHORT', 'MPI_UNSIGNED_SHORT', 'MPI_INT',
  'MPI_UNSIGNED', 'MPI_LONG', 'MPI_UNSIGNED_LONG', 'MPI_FLOAT', 'MPI_DOUBLE', 'MPI_LONG_DOUBLE', 'MPI_LONG_LONG_INT', 'MPI_UNSIGNED_LONG_LONG',
  'MPI_LONG_LONG', 'MPI_PACKED', 'MPI_LB', 'MPI_UB', 'MPI_FLOAT_INT', 'MPI_DOUBLE_INT', 'MPI_LONG_INT', 'MPI_SHORT_INT', 'MPI_2INT', 'MPI_LONG_DOUBLE_INT',
];
const TYPE_SIZES = [0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20];
/** DUMPI's op codes (dumpi/common/constants.h). */
const OPS: readonly (TraceOp | null)[] = [null, 'max', 'min', 'sum', 'prod', 'land', 'band', 'lor', 'bor', 'lxor', 'bxor', 'minloc', 'maxloc', 'replace'];

/** Writes `log` as `<dir>/<name>.meta` and `<dir>/<name>-NNNN.bin`. */
export function writeDumpi(dir: string, name: string, log: CallLog): WrittenTrace {
  const width = Math.max(4, String(log.ranks.length - 1).length);
  let bytes = 0;
  let calls = 0;
  const omitted: Record<string, number> = {};
  log.ranks.forEach((rank, r) => {
    const out = rankFile(rank, callsFor(rank, dumpiHolds, omitted));
    writeFileSync(join(dir, `${name}-${String(r).padStart(width, '0')}.bin`), out.bytes);
    bytes += out.bytes.length;
    calls += out.calls;
  });
  const meta = `hostname=phit\nnumprocs=${log.ranks.length}\nusername=phit\nstartime=0\nfileprefix=${name}\nversion=${VERSION[0]}\nsubversion=${VERSION[1]}\nsubsubversion=${VERSION[2]}\n`;
  const path = join(dir, `${name}.meta`);
  writeFileSync(path, meta);
  return { path, files: log.ranks.length + 1, bytes: bytes + meta.length, records: calls, omitted };
}

/** Whether DUMPI has a record for a call: every logged call but the nonblocking collectives (DUMPI's functions are MPI-2's). */
function dumpiHolds(c: TraceCall): boolean {
  return !('req' in c && c.req !== undefined && (c.call !== 'send' && c.call !== 'recv' && c.call !== 'init' && c.call !== 'requestFree' && c.call !== 'cancel'));
}

/** Field values of one record, by the layout's names. */
type Fields = Record<string, number | readonly number[]>;

/** One rank's `.bin` file. */
function rankFile(rank: RankLog, calls: readonly LoggedCall[]): { bytes: Uint8Array; calls: number } {
  const w = new ByteWriter(false);
  const counts = new Array<number>(DUMPI_FUNCTIONS.length + 1).fill(0);
  const types = new TypeTable();
  w.u32(MAGIC_HI);
  w.u32(MAGIC_LO);
  const body = w.offset;
  w.u32(0); // CPU clock offset (s)
  w.u32(0); // wall clock offset (s)
  const put = (fn: string, fields: Fields, fromPs: number, toPs: number): void => {
    record(w, fn, fields, fromPs, toPs);
    counts[DUMPI_FUNCTIONS.indexOf(fn)]!++;
  };
  put('MPI_Init', {}, 0, 0);
  const groups = new GroupTable();
  for (const c of calls) {
    const r = fieldsOf(c, types, rank, groups);
    if (!r) continue;
    // the records that make a group the call names, at its entry
    for (const g of r.before ?? []) put(g.fn, g.fields, c.fromPs, c.fromPs);
    put(r.fn, r.fields, c.fromPs, c.toPs);
  }
  put('MPI_Finalize', {}, rank.endPs, rank.endPs);
  w.u16(END_OF_STREAM);
  const header = w.offset;
  for (const v of VERSION) w.u8(v);
  w.u64(0); // start time
  str(w, 'phit');
  str(w, 'phit');
  w.u32(0); // mesh dimensions and coordinates
  w.u32(0); // mesh sizes
  const footer = w.offset;
  w.u32(0);
  w.u32(FOOT_MAGIC);
  for (const n of counts) w.u32(n);
  for (let i = 0; i < counts.length; i++) w.u32(0); // ignored calls
  w.u32(0); // key-value pairs (the index gives none)
  const perfLabels = w.offset;
  w.u32(0);
  const sizes = w.offset;
  const all = types.sizes();
  w.u32(all.length);
  for (const s of all) w.u32(s);
  const addresses = w.offset;
  w.u32(0);
  for (const v of [-1, sizes, addresses, perfLabels, header, body, footer, 0]) {
    if (v < 0) {
      w.u32(MAGIC_HI);
      w.u32(MAGIC_LO);
    } else w.u64(v);
  }
  return { bytes: w.result(), calls: counts.reduce((a, b) => a + b, 0) };
}

function str(w: ByteWriter, s: string): void {
  const b = new TextEncoder().encode(s);
  w.u16(b.length);
  w.bytes(b);
}

/** Seconds (16 bits past the offset 0) and nanoseconds of a simulated time. */
function clock(w: ByteWriter, ps: number): void {
  const ns = Math.floor(ps / 1000);
  const s = Math.floor(ns / 1e9);
  if (s > 0xffff) throw new RangeError(`DUMPI: a call at ${s} s of simulated time; DUMPI's 16-bit seconds reach ${0xffff} s`);
  w.u16(s);
  w.u32(ns - s * 1e9);
}

/** One record: label, mask, thread, both clocks, then the fields of the function's layout. */
function record(w: ByteWriter, fn: string, fields: Fields, fromPs: number, toPs: number): void {
  w.u16(DUMPI_FUNCTIONS.indexOf(fn));
  w.u8(MASK);
  w.u16(0);
  for (let i = 0; i < 2; i++) {
    clock(w, fromPs);
    clock(w, toPs);
  }
  for (const f of DUMPI_LAYOUTS[fn]!.split(' ').filter((x) => x !== '')) {
    const [field, kind] = f.split(':') as [string, string];
    if (kind.endsWith('@root') && fields.commrank !== fields.root) continue;
    const v = fields[field];
    switch (kind.replace('@root', '')) {
      case 'i':
        w.u32(typeof v === 'number' ? v : 0);
        break;
      case 'h':
        w.u16(typeof v === 'number' ? v : 0);
        break;
      case 'b':
        w.u8(typeof v === 'number' ? v : 0);
        break;
      case 'I': {
        const xs = Array.isArray(v) ? (v as readonly number[]) : [];
        w.u32(xs.length);
        for (const x of xs) w.u32(x);
        break;
      }
      case 'V':
        w.u32(0); // argc
        break;
      // statuses (S, A): the mask says none were recorded
    }
  }
}

/** Datatype handles of one file: DUMPI's predefined ones, then one user type per other size. */
class TypeTable {
  private readonly user: number[] = [];

  handle(name: string, bytes: number): number {
    const t = TYPES.indexOf(name);
    if (t >= 0 && TYPE_SIZES[t] === bytes) return t;
    const byte = TYPES.indexOf('MPI_BYTE');
    if (bytes === 1) return byte;
    let u = this.user.indexOf(bytes);
    if (u < 0) u = this.user.push(bytes) - 1;
    return TYPES.length + u;
  }

  sizes(): number[] {
    return [...TYPE_SIZES, ...this.user];
  }
}

/** DUMPI's first group handle a program makes (DUMPI_FIRST_USER_GROUP), and its lock types. */
const FIRST_GROUP = 3;
const LOCK_SHARED = 1;
const LOCK_EXCLUSIVE = 2;

/** A rank's windows (their communicator) and the group handles given out so far. */
class GroupTable {
  next = FIRST_GROUP;
  readonly winComm = new Map<number, number>();
}

/** A peer as DUMPI writes it. */
function dest(p: number): number {
  return p === PROC_NULL ? DUMPI_PROC_NULL : p;
}
function source(p: number): number {
  return p === ANY_SOURCE ? -1 : p === PROC_NULL ? DUMPI_PROC_NULL : p;
}
function tagOf(t: number): number {
  return t === ANY_TAG ? -1 : t;
}

/** One record's function and fields. */
interface Rec {
  readonly fn: string;
  readonly fields: Fields;
  /** Records written just before it (the group of a window epoch). */
  readonly before?: readonly Rec[];
}

/** The function and fields of a logged call; null for one DUMPI's writer here has no record for. */
function fieldsOf(l: LoggedCall, types: TypeTable, rank: RankLog, groups: GroupTable): Rec | null {
  const c = l.call;
  const type = types.handle(l.type, l.typeBytes);
  const n = (bytes: number): number => Math.round(bytes / l.typeBytes);
  const op = (o: TraceOp): number => Math.max(1, OPS.indexOf(o));
  const size = (comm: number): number => rank.comms.get(comm)?.members.length ?? 0;
  const me = (comm: number): number => {
    const cm = rank.comms.get(comm);
    return cm ? cm.members.indexOf(rank.worldRank) : 0;
  };
  switch (c.call) {
    case 'send':
      return { fn: c.name, fields: { count: n(c.bytes), type, dest: dest(c.peer), tag: c.tag, comm: c.comm, request: c.req ?? 0 } };
    case 'recv':
      return { fn: c.name, fields: { count: n(c.bytes), type, source: source(c.peer), tag: tagOf(c.tag), comm: c.comm, request: c.req ?? 0 } };
    case 'init': {
      const o = c.op;
      const peer: Fields = o.call === 'send' ? { dest: dest(o.peer), tag: o.tag } : { source: source(o.peer), tag: tagOf(o.tag) };
      return { fn: c.name, fields: { count: n(o.bytes), type, ...peer, comm: o.comm, request: c.req } };
    }
    case 'start':
      return c.name === 'MPI_Start' && c.reqs.length === 1 ? { fn: 'MPI_Start', fields: { request: c.reqs[0]! } } : { fn: 'MPI_Startall', fields: { count: c.reqs.length, requests: c.reqs } };
    case 'requestFree':
    case 'cancel':
      return { fn: c.name, fields: { request: c.req } };
    case 'probe':
    case 'iprobe':
      return { fn: c.name, fields: { source: source(c.peer), tag: tagOf(c.tag), comm: c.comm, flag: 0 } };
    case 'winCreate':
      groups.winComm.set(c.win, c.comm);
      // MPI_Win_allocate (MPI-3) is written as the MPI_Win_create of the same size and unit
      return { fn: 'MPI_Win_create', fields: { size: c.bytes, dispunit: c.dispUnit, info: 0, comm: c.comm, win: c.win } };
    case 'put':
    case 'get':
    case 'accumulate':
      return { fn: c.name, fields: { origincount: c.count, origintype: type, targetrank: c.target, targetdisp: c.disp, targetcount: c.count, targettype: type, op: op(c.op), win: c.win } };
    case 'winFree':
    case 'winComplete':
    case 'winWait':
      return { fn: c.name, fields: { win: c.win } };
    case 'fence':
      return { fn: c.name, fields: { assertion: c.assert, win: c.win } };
    case 'winTest':
      return { fn: c.name, fields: { win: c.win, flag: c.flag === true ? 1 : 0 } };
    case 'lock':
      return { fn: c.name, fields: { locktype: c.exclusive ? LOCK_EXCLUSIVE : LOCK_SHARED, winrank: c.target, assertion: c.assert, win: c.win } };
    case 'unlock':
      return { fn: c.name, fields: { winrank: c.target, win: c.win } };
    case 'winStart':
    case 'winPost': {
      // the group: MPI_Comm_group of the window's communicator, then MPI_Group_incl of the epoch's ranks
      const whole = groups.next++;
      const g = groups.next++;
      const ranks = c.group ?? [];
      const before: Rec[] = [
        { fn: 'MPI_Comm_group', fields: { comm: groups.winComm.get(c.win) ?? 2, group: whole } },
        { fn: 'MPI_Group_incl', fields: { group: whole, count: ranks.length, ranks, newgroup: g } },
      ];
      return { fn: c.name, fields: { group: g, assertion: c.assert, win: c.win }, before };
    }
    case 'sendrecv': {
      if (c.name === 'MPI_Sendrecv_replace') {
        return { fn: c.name, fields: { count: n(c.sendBytes), type, dest: dest(c.dest), sendtag: c.sendTag, source: source(c.source), recvtag: tagOf(c.recvTag), comm: c.comm } };
      }
      // the send's datatype for both sides, or bytes when the receive is no whole number of its elements
      const whole = c.sendBytes % l.typeBytes === 0 && c.recvBytes % l.typeBytes === 0;
      const t = whole ? type : types.handle('MPI_BYTE', 1);
      const k = whole ? l.typeBytes : 1;
      return { fn: 'MPI_Sendrecv', fields: { sendcount: c.sendBytes / k, sendtype: t, dest: dest(c.dest), sendtag: c.sendTag, recvcount: c.recvBytes / k, recvtype: t, source: source(c.source), recvtag: tagOf(c.recvTag), comm: c.comm } };
    }
    case 'wait':
    case 'test': {
      const done = (l.completed ?? []).length > 0 ? 1 : 0;
      return { fn: c.name, fields: { request: c.reqs?.[0] ?? 0, flag: done } };
    }
    case 'waitall':
    case 'testall':
    case 'waitany':
    case 'testany':
    case 'waitsome':
    case 'testsome': {
      const reqs = c.reqs ?? [];
      const done = l.completed ?? [];
      const indices = done.map((r) => reqs.indexOf(r));
      return { fn: c.name, fields: { count: reqs.length, requests: reqs, flag: done.length > 0 ? 1 : 0, index: indices[0] ?? -1, outcount: done.length, indices } };
    }
    case 'barrier':
      return { fn: 'MPI_Barrier', fields: { comm: c.comm } };
    case 'bcast':
      return { fn: 'MPI_Bcast', fields: { count: c.count, type, root: c.root, comm: c.comm } };
    case 'reduce':
      return { fn: 'MPI_Reduce', fields: { count: c.count, type, op: op(c.op), root: c.root, comm: c.comm } };
    case 'allreduce':
    case 'scan':
    case 'exscan':
      return { fn: c.name, fields: { count: c.count, type, op: op(c.op), comm: c.comm } };
    case 'alltoall':
    case 'allgather':
      return { fn: c.name, fields: { sendcount: c.count, sendtype: type, recvcount: c.count, recvtype: type, comm: c.comm } };
    case 'gather':
    case 'scatter':
      return {
        fn: c.name,
        fields: { commrank: me(c.comm), root: c.root, comm: c.comm, sendcount: c.count, sendtype: type, recvcount: c.count, recvtype: type },
      };
    case 'alltoallv':
    case 'allgatherv':
    case 'gatherv':
    case 'scatterv':
    case 'reduceScatter': {
      const send = c.sendCounts ?? [];
      const recv = c.recvCounts ?? [];
      const displs = (xs: readonly number[]): number[] => xs.map((_, i) => xs.slice(0, i).reduce((a, b) => a + b, 0));
      const common = { commrank: me(c.comm), commsize: size(c.comm), root: c.root, comm: c.comm, type, sendtype: type, recvtype: type, op: op(c.op) };
      if (c.call === 'alltoallv') return { fn: c.name, fields: { ...common, sendcounts: send, senddispls: displs(send), recvcounts: recv, recvdispls: displs(recv) } };
      if (c.call === 'allgatherv' || c.call === 'gatherv') return { fn: c.name, fields: { ...common, sendcount: send[0] ?? 0, recvcounts: recv, displs: displs(recv) } };
      if (c.call === 'scatterv') return { fn: c.name, fields: { ...common, sendcounts: send, displs: displs(send), recvcount: recv[0] ?? 0 } };
      return { fn: 'MPI_Reduce_scatter', fields: { ...common, recvcounts: recv } };
    }
    case 'split':
      return { fn: 'MPI_Comm_split', fields: { oldcomm: c.comm, color: c.color, key: c.key, newcomm: c.newComm ?? COMM_NULL } };
    case 'dup':
      return { fn: 'MPI_Comm_dup', fields: { oldcomm: c.comm, newcomm: c.newComm ?? COMM_NULL } };
    case 'free':
      return { fn: 'MPI_Comm_free', fields: { comm: c.comm } };
    default:
      return null;
  }
}
