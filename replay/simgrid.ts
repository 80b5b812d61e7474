/**
 * SimGrid's time-independent traces (`smpirun -trace-ti`, and the hand-written action files of
 * SimGrid's replay examples): text, one action per line, `<rank> <action> <arguments>`. A trace
 * is either a list file naming one file per rank (what `-trace-ti` writes: `<name>` lists
 * `<name>_files/..._rank-<n>.txt`, relative to the list) or one file holding every rank's lines.
 *
 * The grammar follows SimGrid's replay (smpi_replay.cpp, 3.2x-3.3x):
 *   send|isend|ssend|issend|recv|irecv <peer> <tag> <count> [<datatype>]   (older: <peer> <count>, tag 0)
 *   wait [<src> <dst> <tag>]   test <src> <dst> <tag>   waitall [<n>]
 *   sendRecv <sendcount> <dst> <recvcount> <src> [<dt> <dt>]
 *   barrier | bcast <count> [<root> [<dt>]] | reduce <count> <flops> [<root> [<dt>]]
 *   allreduce|scan|exscan <count> <flops> [<dt>] | alltoall <send> <recv> [<dt> <dt>]
 *   alltoallv <sendbuf> <sendcounts x P> <recvbuf> <recvcounts x P> [<dt> <dt>]
 *   gather <send> <recv> [<root> [<dt> [<dt>]]] | allgather <send> <recv> [<dt> [<dt>]]
 *   gatherv <send> <recvcounts x P> [<root> [<dt> [<dt>]]] | allgatherv <send> <recvcounts x P> [<dt> <dt>]
 *   scatter <send> <recv> [<root> [<dt> [<dt>]]] | scatterv <sendcounts x P> <recv> [<root> [<dt> [<dt>]]]
 *   reducescatter <recvcounts x P> <flops> [<dt>] | compute <flops> | sleep <seconds>
 *   init [<x>] | finalize | comm_size | comm_split | comm_dup | location <file> <line>
 * Counts are elements of the datatype, given by SMPI's datatype number (0 double, 1 int, 2 char,
 * ...); without one, bytes, or doubles when `init` has an argument (SimGrid's MPE convention).
 * SimGrid traces every call on MPI_COMM_WORLD with world ranks, and records no reduction op:
 * the replay runs collectives on the world and reduces with sum. Action names are matched
 * without regard to case (`Isend` in older traces).
 */
import { dirname, resolve } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, TraceFormatError, WORLD, type RankTrace, type TraceCall, type TraceSource } from './calls.ts';
import { LineReader } from './file-reader.ts';

/** Bytes of SMPI's predefined datatypes by number (smpi_datatype.cpp, on LP64). */
const TYPE_BYTES: readonly number[] = [
  8, 4, 1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8, 8, 16, 4, 1, 1, 2, 4, 8, 1, 2, 4, 8, 8, 16, 32, 8, 8,
  // 30: float_int, long_int, double_int, short_int, 2int, 2float, 2double, 2long
  8, 16, 16, 8, 8, 8, 16, 16,
  // 38: real, real4, real8, real16, complex8, complex16, complex32, integer1, integer2, integer4, integer8, integer16
  4, 4, 8, 16, 8, 16, 16, 4, 2, 4, 8, 16,
  // 50: long_double_int, cxx bool, cxx complexes, ub, lb, packed, ptr, count
  32, 1, 8, 16, 32, 0, 0, 1, 8, 8,
];

/** SMPI's MPI_PROC_NULL. */
const SMPI_PROC_NULL = -666;

/** Opens a SimGrid time-independent trace: a list of per-rank files, or one file of every rank's actions. */
export function openSimgrid(path: string): TraceSource {
  const first = new LineReader(path);
  let line: string | null;
  do line = first.next();
  while (line !== null && (line.trim() === '' || line.trimStart().startsWith('#')));
  if (line === null) throw new TraceFormatError(`${path}: empty; expected SimGrid actions ("0 init") or a list of per-rank trace files`);
  const tokens = line.trim().split(/\s+/);
  if (tokens.length >= 2 && /^\d+$/.test(tokens[0]!) && /^[A-Za-z_]+$/.test(tokens[1]!)) return sharedFile(path);
  return listFile(path);
}

/** A list file: one path per line, rank i's file on the i-th line. */
function listFile(path: string): TraceSource {
  const files: string[] = [];
  const lines = new LineReader(path);
  for (let l = lines.next(); l !== null; l = lines.next()) {
    const name = l.trim();
    if (name === '' || name.startsWith('#')) continue;
    const file = resolve(dirname(path), name);
    if (!existsSync(file) || !statSync(file).isFile()) {
      throw new TraceFormatError(`${path}:${lines.line}: expected the trace file of rank ${files.length}, but ${name} is not a file`);
    }
    files.push(file);
  }
  if (files.length === 0) throw new TraceFormatError(`${path}: lists no trace files`);
  return { format: 'simgrid', path, ranks: files.length, open: (rank) => new SimgridRank(files[rank]!, rank, files.length, false) };
}

/** One file holding the actions of every rank: each rank reads it whole, keeping its own lines. */
function sharedFile(path: string): TraceSource {
  let ranks = 0;
  const lines = new LineReader(path);
  for (let l = lines.next(); l !== null; l = lines.next()) {
    const m = /^\s*(\d+)\s/.exec(l);
    if (m) ranks = Math.max(ranks, Number(m[1]) + 1);
  }
  return { format: 'simgrid', path, ranks, open: (rank) => new SimgridRank(path, rank, ranks, true) };
}

/** The requests one rank has pending, by SimGrid's key (source, destination, tag). */
class PendingRequests {
  private nextId = 1;
  private readonly byKey = new Map<string, number[]>();
  /** Pending request ids in the order they were made. */
  private readonly order: number[] = [];

  add(src: number, dst: number, tag: number): number {
    const id = this.nextId++;
    const key = `${src} ${dst} ${tag}`;
    const list = this.byKey.get(key);
    if (list) list.push(id);
    else this.byKey.set(key, [id]);
    this.order.push(id);
    return id;
  }

  /** The oldest pending request with this key (`remove`: no longer pending), or null. */
  find(src: number, dst: number, tag: number, remove: boolean): number | null {
    const key = `${src} ${dst} ${tag}`;
    const list = this.byKey.get(key);
    if (!list || list.length === 0) return null;
    const id = list[0]!;
    if (remove) {
      list.shift();
      if (list.length === 0) this.byKey.delete(key);
      this.order.splice(this.order.indexOf(id), 1);
    }
    return id;
  }

  /** The request made last (an old-style `wait` without arguments), or null. */
  takeLast(): number | null {
    const id = this.order.pop();
    if (id === undefined) return null;
    for (const [key, list] of this.byKey) {
      const at = list.indexOf(id);
      if (at >= 0) {
        list.splice(at, 1);
        if (list.length === 0) this.byKey.delete(key);
        break;
      }
    }
    return id;
  }

  /** Every pending request, which are then no longer pending (waitall). */
  takeAll(): number[] {
    const all = this.order.splice(0);
    this.byKey.clear();
    return all;
  }
}

/** One rank's actions. */
class SimgridRank implements RankTrace {
  private readonly lines: LineReader;
  private readonly pending = new PendingRequests();
  /** Bytes of an element when an action names no datatype: MPI_BYTE, or MPI_DOUBLE after `init <x>`. */
  private defaultBytes = 1;

  constructor(
    private readonly path: string,
    private readonly rank: number,
    private readonly size: number,
    /** Whether the file holds other ranks' lines too. */
    private readonly shared: boolean,
  ) {
    this.lines = new LineReader(path);
  }

  next(): TraceCall | null {
    for (let l = this.lines.next(); l !== null; l = this.lines.next()) {
      const t = l.trim();
      if (t === '' || t.startsWith('#')) continue;
      const tok = t.split(/\s+/);
      const who = Number(tok[0]);
      if (!Number.isInteger(who) || who < 0) throw this.bad(`expected "<rank> <action> ...", got "${t.slice(0, 60)}"`);
      if (who !== this.rank) {
        if (this.shared) continue;
        throw this.bad(`expected an action of rank ${this.rank}, got one of rank ${who}`);
      }
      if (tok.length < 2) throw this.bad('expected an action after the rank');
      return this.action(tok[1]!, tok.slice(2));
    }
    return null;
  }

  private bad(what: string): TraceFormatError {
    return new TraceFormatError(`${this.path}:${this.lines.line}: ${what}`);
  }

  /** Argument `i` as a number; `kind` says which numbers are valid. */
  private num(args: readonly string[], i: number, what: string, kind: 'count' | 'rank' | 'int' | 'real'): number {
    const s = args[i];
    if (s === undefined) throw this.bad(`expected ${what} as argument ${i + 1}`);
    const v = Number(s);
    const ok = kind === 'real' ? Number.isFinite(v) && v >= 0 : Number.isSafeInteger(v) && (kind === 'int' || v >= 0 || (kind === 'rank' && v < 0));
    if (!ok) throw this.bad(`expected ${what} (${kind === 'real' ? 'a non-negative number' : kind === 'count' ? 'a whole number of elements' : 'an integer'}), got "${s}"`);
    return v;
  }

  private typeBytes(args: readonly string[], i: number): number {
    if (args[i] === undefined || args[i] === '') return this.defaultBytes;
    const id = Number(args[i]);
    const bytes = Number.isInteger(id) ? TYPE_BYTES[id] : undefined;
    if (bytes === undefined) throw this.bad(`expected an SMPI datatype number (0..${TYPE_BYTES.length - 1}) as argument ${i + 1}, got "${args[i]}"`);
    return bytes;
  }

  private peer(v: number, recv: boolean): number {
    if (v === SMPI_PROC_NULL) return PROC_NULL;
    if (v < 0) {
      if (recv) return ANY_SOURCE;
      throw this.bad(`expected a destination rank, got ${v}`);
    }
    if (v >= this.size) throw this.bad(`rank ${v} is not in the trace's ${this.size} ranks`);
    return v;
  }

  private counts(args: readonly string[], from: number, what: string): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.num(args, from + i, `${what} ${i + 1} of ${this.size}`, 'count'));
    return out;
  }

  private action(raw: string, a: readonly string[]): TraceCall {
    const name = raw.toLowerCase();
    const me = this.rank;
    switch (name) {
      case 'init':
        this.defaultBytes = a.length > 0 ? 8 : 1;
        return { call: 'local', name };
      case 'finalize':
      case 'comm_size':
      case 'comm_split':
      case 'comm_dup':
      case 'location':
        return { call: 'local', name };
      case 'compute':
        return { call: 'compute', name, ps: 0, flops: this.num(a, 0, 'flops', 'real') };
      case 'sleep':
        return { call: 'compute', name, ps: this.num(a, 0, 'seconds', 'real') * 1e12, flops: 0 };
      case 'send':
      case 'isend':
      case 'ssend':
      case 'issend':
      case 'recv':
      case 'irecv': {
        const recv = name.endsWith('recv');
        const old = a.length === 2;
        const peer = this.peer(this.num(a, 0, recv ? 'the source rank' : 'the destination rank', 'rank'), recv);
        const rawTag = old ? 0 : this.num(a, 1, 'the tag', 'int');
        const tag = rawTag < 0 ? ANY_TAG : rawTag;
        const count = this.num(a, old ? 1 : 2, 'the count', 'real');
        const bytes = recv && count <= 0 ? -1 : Math.round(count) * this.typeBytes(a, old ? 2 : 3);
        const rawPeer = this.num(a, 0, 'the peer', 'rank');
        const req = name[0] === 'i' ? (recv ? this.pending.add(rawPeer, me, rawTag) : this.pending.add(me, rawPeer, rawTag)) : undefined;
        if (recv) return { call: 'recv', name, comm: WORLD, peer, tag, bytes, ...(req !== undefined ? { req } : {}) };
        return { call: 'send', name, mode: name.includes('ssend') ? 'sync' : 'standard', comm: WORLD, peer, tag, bytes, ...(req !== undefined ? { req } : {}) };
      }
      case 'wait': {
        if (a.length === 0) {
          const id = this.pending.takeLast();
          return { call: 'wait', name, reqs: id === null ? [] : [id] };
        }
        const id = this.pending.find(this.num(a, 0, 'the source', 'rank'), this.num(a, 1, 'the destination', 'rank'), this.num(a, 2, 'the tag', 'int'), true);
        return { call: 'wait', name, reqs: id === null ? [] : [id] };
      }
      case 'test': {
        const id = this.pending.find(this.num(a, 0, 'the source', 'rank'), this.num(a, 1, 'the destination', 'rank'), this.num(a, 2, 'the tag', 'int'), false);
        return { call: 'test', name, reqs: id === null ? [] : [id] };
      }
      case 'waitall':
        return { call: 'waitall', name, reqs: this.pending.takeAll() };
      case 'sendrecv': {
        const dt1 = this.typeBytes(a, 4);
        const dt2 = this.typeBytes(a, 5);
        return {
          call: 'sendrecv',
          name,
          comm: WORLD,
          sendBytes: this.num(a, 0, 'the send count', 'count') * dt1,
          dest: this.peer(this.num(a, 1, 'the destination', 'rank'), false),
          sendTag: 0,
          recvBytes: this.num(a, 2, 'the receive count', 'count') * dt2,
          source: this.peer(this.num(a, 3, 'the source', 'rank'), true),
          recvTag: 0,
        };
      }
      case 'barrier':
        return this.coll('barrier', name, 0, 1, 0, 0);
      case 'bcast':
        return this.coll('bcast', name, this.num(a, 0, 'the count', 'count'), this.typeBytes(a, 2), this.root(a, 1), 0);
      case 'reduce':
        return this.coll('reduce', name, this.num(a, 0, 'the count', 'count'), this.typeBytes(a, 3), this.root(a, 2), this.num(a, 1, 'the flops', 'real'));
      case 'allreduce':
      case 'scan':
      case 'exscan':
        return this.coll(name, name, this.num(a, 0, 'the count', 'count'), this.typeBytes(a, 2), 0, this.num(a, 1, 'the flops', 'real'));
      case 'alltoall':
      case 'allgather':
        return this.coll(name, name, this.num(a, 0, 'the send count', 'count'), this.typeBytes(a, 2), 0, 0);
      case 'gather':
        return this.coll('gather', name, this.num(a, 0, 'the send count', 'count'), this.typeBytes(a, 3), this.root(a, 2), 0);
      case 'scatter':
        return this.coll('scatter', name, this.num(a, 1, 'the receive count', 'count'), this.typeBytes(a, 4), this.root(a, 2), 0);
      case 'alltoallv': {
        const P = this.size;
        const send = this.counts(a, 1, 'send count');
        const recv = this.counts(a, P + 2, 'receive count');
        return this.vcoll('alltoallv', name, this.typeBytes(a, 2 * P + 2), send, recv, 0);
      }
      case 'allgatherv':
        return this.vcoll('allgatherv', name, this.typeBytes(a, this.size + 1), [this.num(a, 0, 'the send count', 'count')], this.counts(a, 1, 'receive count'), 0);
      case 'gatherv':
        return this.vcoll('gatherv', name, this.typeBytes(a, this.size + 2), [this.num(a, 0, 'the send count', 'count')], this.counts(a, 1, 'receive count'), this.root(a, this.size + 1));
      case 'scatterv':
        return this.vcoll('scatterv', name, this.typeBytes(a, this.size + 2), this.counts(a, 0, 'send count'), [this.num(a, this.size, 'the receive count', 'count')], this.root(a, this.size + 1));
      case 'reducescatter': {
        const v = this.vcoll('reduceScatter', name, this.typeBytes(a, this.size + 1), null, this.counts(a, 0, 'receive count'), 0);
        return { ...v, flops: this.num(a, this.size, 'the flops', 'real') };
      }
      default:
        return { call: 'unsupported', name, nearest: null };
    }
  }

  private root(a: readonly string[], i: number): number {
    if (a[i] === undefined) return 0;
    const r = this.num(a, i, 'the root', 'count');
    if (r >= this.size) throw this.bad(`root ${r} is not in the trace's ${this.size} ranks`);
    return r;
  }

  private coll(call: string, name: string, count: number, typeBytes: number, root: number, flops: number): TraceCall {
    return { call: call as 'bcast', name, comm: WORLD, count, typeBytes, root, op: 'sum', flops };
  }

  private vcoll(call: 'alltoallv' | 'allgatherv' | 'gatherv' | 'scatterv' | 'reduceScatter', name: string, typeBytes: number, sendCounts: number[] | null, recvCounts: number[] | null, root: number): TraceCall & { call: typeof call } {
    return { call, name, comm: WORLD, typeBytes, sendCounts, recvCounts, root, op: 'sum', flops: 0 };
  }
}
