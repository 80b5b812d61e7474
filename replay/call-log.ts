/**
 * The MPI calls of a run, rank by rank, as the trace writers need them: each user-level call a
 * program makes through phit's MPI (seen through `simulate({ calls })`) becomes the replay call
 * a trace reader would give for it (`calls.ts`), with its simulated entry and exit times, the
 * MPI datatype of its elements, and for a completion call the requests it completed.
 * Communicators are numbered per rank as DUMPI numbers them (MPI_COMM_WORLD 2, MPI_COMM_SELF 3,
 * then 4, 5, ... in the order the rank got them), requests per rank from 2; each communicator
 * keeps its members (world ranks in its rank order) and a key that is the same on every member.
 *
 * A communicator made by another constructor than dup and split (MPI_Cart_create, MPI_Cart_sub,
 * MPI_Comm_create, ...) is logged as the split that makes the same communicator (colour: the
 * world rank of its rank 0, key: the rank in it). Calls no trace format here can express
 * (nonblocking and neighbourhood collectives, probes, one-sided calls, persistent requests) are
 * counted in `skipped` and left out, as are the requests they made and the calls on
 * intercommunicators and on communicators such calls made.
 */
import { IN_PLACE, UNDEFINED } from '../runtime/mpi/constants.ts';
import { Datatype } from '../runtime/mpi/datatype.ts';
import { Request } from '../runtime/mpi/request.ts';
import type { CallListener } from '../runtime/instrument.ts';
import { PROC_NULL as MPI_PROC_NULL } from '../runtime/mpi/core.ts';
import { InterComm, Mpi } from '../runtime/mpi/mpi.ts';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, WORLD, type CollCall, type SendMode, type TraceCall, type TraceOp, type VCollCall } from './calls.ts';

/** One logged call. */
export interface LoggedCall {
  readonly call: TraceCall;
  /** Simulated entry and exit (ps). */
  readonly fromPs: number;
  readonly toPs: number;
  /** The MPI datatype of the call's elements (`MPI_DOUBLE`; `MPI_BYTE` for plain bytes) and its size. */
  readonly type: string;
  readonly typeBytes: number;
  /** A completion call: the requests it completed (of those `call.reqs` names). */
  readonly completed?: readonly number[];
}

/** A communicator a rank used. */
export interface LoggedComm {
  readonly handle: number;
  /** The same on every member: where it was made, the how-manieth, and its members. */
  readonly key: string;
  /** World ranks in its rank order (MPI_COMM_SELF: this rank). */
  readonly members: readonly number[];
  /** The handle of the communicator it was made from (null: world and self). */
  readonly parent: number | null;
}

/** What one rank did. */
export interface RankLog {
  readonly worldRank: number;
  readonly calls: LoggedCall[];
  readonly comms: Map<number, LoggedComm>;
  /** When the rank's program returned (ps). */
  endPs: number;
}

/** The first request handle (DUMPI's: 0 is an error, 1 MPI_REQUEST_NULL). */
const FIRST_REQUEST = 2;
/** The first communicator handle after MPI_COMM_SELF. */
const FIRST_COMM = 4;

/** What `begin` keeps for `end`. */
interface Begun {
  readonly method: string;
  readonly target: object;
  readonly args: readonly unknown[];
  readonly fromPs: number;
  /** Request handles named at the start (a completion call may replace them in its list). */
  readonly reqs: readonly (number | null)[];
}

/** Per-rank numbering state. */
interface RankState {
  readonly comms: Map<object, number>;
  readonly requests: Map<object, number>;
  nextComm: number;
  nextRequest: number;
  /** Communicators made so far from each handle. */
  readonly made: Map<number, number>;
}

/** An object with a communicator's face: rank, size and world ranks. */
interface CommLike {
  readonly rank: number;
  readonly size: number;
  worldRank(r: number): number;
}

function isComm(x: unknown): x is CommLike {
  return typeof x === 'object' && x !== null && typeof (x as CommLike).worldRank === 'function' && typeof (x as CommLike).size === 'number';
}

/** MPI names of the element types of typed arrays. */
const ARRAY_TYPES: Readonly<Record<string, string>> = {
  Float64Array: 'MPI_DOUBLE',
  Float32Array: 'MPI_FLOAT',
  Int32Array: 'MPI_INT',
  Uint32Array: 'MPI_UNSIGNED',
  Int16Array: 'MPI_SHORT',
  Uint16Array: 'MPI_UNSIGNED_SHORT',
  Int8Array: 'MPI_SIGNED_CHAR',
  Uint8Array: 'MPI_BYTE',
  Uint8ClampedArray: 'MPI_BYTE',
  BigInt64Array: 'MPI_LONG_LONG',
  BigUint64Array: 'MPI_UNSIGNED_LONG_LONG',
};

/** Elements of a buffer: its datatype name, element bytes and count. */
interface Elements {
  readonly type: string;
  readonly typeBytes: number;
  readonly count: number;
}

const NO_ELEMENTS: Elements = { type: 'MPI_BYTE', typeBytes: 1, count: 0 };

/** The elements of a typed array (a DataView or other view: bytes). */
function elementsOf(buf: unknown): Elements {
  if (!ArrayBuffer.isView(buf)) return NO_ELEMENTS;
  const per = (buf as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT;
  if (typeof per !== 'number') return { type: 'MPI_BYTE', typeBytes: 1, count: buf.byteLength };
  return { type: ARRAY_TYPES[buf.constructor.name] ?? 'MPI_BYTE', typeBytes: per, count: buf.byteLength / per };
}

/** `count` elements of `datatype` (the long form of a call). */
function typedElements(count: unknown, datatype: unknown): Elements {
  if (!(datatype instanceof Datatype)) return NO_ELEMENTS;
  return { type: datatype.name, typeBytes: Math.max(1, datatype.size), count: datatype.size === 0 ? 0 : num(count) };
}

function num(x: unknown): number {
  return typeof x === 'number' ? x : 0;
}

function counts(x: unknown): number[] {
  if (x === null || typeof x !== 'object' || !('length' in x)) return [];
  return Array.from(x as ArrayLike<number>);
}

/** phit's ops by name, as a trace names them. */
function opOf(x: unknown): TraceOp {
  const name = typeof x === 'object' && x !== null ? String((x as { name?: unknown }).name) : '';
  const op = name.replace(/^MPI_/, '').toLowerCase();
  const known: readonly TraceOp[] = ['sum', 'max', 'min', 'prod', 'land', 'band', 'lor', 'bor', 'lxor', 'bxor', 'minloc', 'maxloc', 'replace'];
  return (known as readonly string[]).includes(op) ? (op as TraceOp) : 'sum';
}

/** Send methods and their modes; an `i` before the name makes the nonblocking form. */
const SENDS: Readonly<Record<string, [string, SendMode]>> = {
  send: ['MPI_Send', 'standard'],
  isend: ['MPI_Isend', 'standard'],
  ssend: ['MPI_Ssend', 'sync'],
  issend: ['MPI_Issend', 'sync'],
  rsend: ['MPI_Rsend', 'ready'],
  irsend: ['MPI_Irsend', 'ready'],
  bsend: ['MPI_Bsend', 'buffered'],
  ibsend: ['MPI_Ibsend', 'buffered'],
};

/** Completion methods of a communicator, by trace call. */
const COMPLETIONS: Readonly<Record<string, ['wait' | 'waitall' | 'waitany' | 'waitsome' | 'test' | 'testall' | 'testany' | 'testsome', string]>> = {
  wait: ['wait', 'MPI_Wait'],
  waitAll: ['waitall', 'MPI_Waitall'],
  waitAny: ['waitany', 'MPI_Waitany'],
  waitSome: ['waitsome', 'MPI_Waitsome'],
  test: ['test', 'MPI_Test'],
  testAll: ['testall', 'MPI_Testall'],
  testAny: ['testany', 'MPI_Testany'],
  testSome: ['testsome', 'MPI_Testsome'],
};

/** Communicator constructors logged as a split. */
const MAKERS = new Set(['create', 'cartCreate', 'cartSub', 'splitType', 'createGroup', 'graphCreate', 'distGraphCreate', 'distGraphCreateAdjacent']);

/** Records the MPI calls of every rank of a run; pass it as `simulate({ calls })`. */
export class CallLog implements CallListener {
  readonly ranks: RankLog[];
  /** Calls left out, by MPI name, over all ranks. */
  readonly skipped: Record<string, number> = {};
  private readonly state: RankState[];

  constructor(size: number) {
    this.ranks = Array.from({ length: size }, (_, worldRank) => ({ worldRank, calls: [], comms: new Map(), endPs: 0 }));
    this.state = Array.from({ length: size }, () => ({ comms: new Map(), requests: new Map(), nextComm: FIRST_COMM, nextRequest: FIRST_REQUEST, made: new Map() }));
  }

  begin(rank: number, method: string, target: object, args: readonly unknown[], fromPs: number): Begun | null {
    // only MPI: a communicator's methods and a request's wait and test
    if (!isComm(target) && !(target instanceof Request)) return null;
    const list = target instanceof Request ? [target] : Array.isArray(args[0]) ? (args[0] as unknown[]) : args[0] instanceof Request ? [args[0]] : [];
    const st = this.state[rank]!;
    const reqs = list.map((r) => (r instanceof Request ? (st.requests.get(r) ?? null) : null));
    return { method, target, args: [...args], fromPs, reqs };
  }

  end(rank: number, token: unknown, toPs: number, result: unknown): void {
    if (token === null || typeof token !== 'object') return;
    const b = token as Begun;
    const log = this.ranks[rank]!;
    const st = this.state[rank]!;
    if (b.target instanceof Request) {
      // req.wait(), req.test()
      const done = b.method === 'wait' || result === true;
      this.completion(rank, b, toPs, b.method === 'wait' ? 'wait' : 'test', b.method === 'wait' ? 'MPI_Wait' : 'MPI_Test', done ? [0] : []);
      return;
    }
    // an intercommunicator, or a communicator no logged call made (MPI_Comm_idup's): its calls cannot be replayed
    const comm = this.handle(rank, b.target as CommLike);
    if (b.target instanceof InterComm || log.comms.get(comm)!.key.startsWith('unknown:')) {
      this.skip(b.method);
      return;
    }
    const push = (call: TraceCall, e: Elements = NO_ELEMENTS): void => {
      log.calls.push({ call, fromPs: b.fromPs, toPs, type: e.type, typeBytes: e.typeBytes });
    };
    const a = b.args;
    const send = SENDS[b.method];
    if (send) {
      const long = a[2] instanceof Datatype;
      const e = long ? typedElements(a[1], a[2]) : elementsOf(a[0]);
      const peer = peerOf(num(long ? a[3] : a[1]));
      const nonblocking = b.method.startsWith('i');
      const req = nonblocking && result instanceof Request ? this.request(st, result) : undefined;
      push({ call: 'send', name: send[0], mode: send[1], comm, peer, tag: num(long ? a[4] : a[2]), bytes: e.count * e.typeBytes, ...(req !== undefined ? { req } : {}) }, e);
      return;
    }
    if (b.method === 'recv' || b.method === 'irecv') {
      const long = a[2] instanceof Datatype;
      const e = long ? typedElements(a[1], a[2]) : elementsOf(a[0]);
      const source = num(long ? a[3] : a[1]);
      const tag = num(long ? a[4] : a[2]);
      const req = b.method === 'irecv' && result instanceof Request ? this.request(st, result) : undefined;
      push({ call: 'recv', name: b.method === 'recv' ? 'MPI_Recv' : 'MPI_Irecv', comm, peer: sourceOf(source), tag: tag < 0 ? ANY_TAG : tag, bytes: e.count * e.typeBytes, ...(req !== undefined ? { req } : {}) }, e);
      return;
    }
    if (b.method === 'sendrecv') {
      const long = a.length > 6;
      const s = long ? typedElements(a[1], a[2]) : elementsOf(a[0]);
      const r = long ? typedElements(a[6], a[7]) : elementsOf(a[3]);
      const [dest, sendTag, source, recvTag] = long ? [a[3], a[4], a[8], a[9]] : [a[1], a[2], a[4], a[5]];
      push({ call: 'sendrecv', name: 'MPI_Sendrecv', comm, dest: peerOf(num(dest)), sendTag: num(sendTag), sendBytes: s.count * s.typeBytes, source: sourceOf(num(source)), recvTag: num(recvTag) < 0 ? ANY_TAG : num(recvTag), recvBytes: r.count * r.typeBytes }, s);
      return;
    }
    const completion = COMPLETIONS[b.method];
    if (completion) {
      this.completion(rank, b, toPs, completion[0], completion[1], completedIndices(completion[0], b.reqs.length, result));
      return;
    }
    if (b.method === 'dup' || b.method === 'split' || MAKERS.has(b.method)) {
      this.made(rank, b, comm, toPs, result);
      return;
    }
    if (b.method === 'free') {
      push({ call: 'free', name: 'MPI_Comm_free', comm, color: 0, key: 0, newComm: null });
      return;
    }
    const coll = collective(b.method, a, (b.target as CommLike).size, (b.target as CommLike).rank);
    if (coll) {
      push({ ...coll.call, comm } as TraceCall, coll.elements);
      return;
    }
    this.skip(b.method);
  }

  /** Counts a call left out, by its MPI name. */
  private skip(method: string): void {
    const name = `MPI_${method[0]!.toUpperCase()}${method.slice(1)}`;
    this.skipped[name] = (this.skipped[name] ?? 0) + 1;
  }

  finished(rank: number, ps: number): void {
    this.ranks[rank]!.endPs = ps;
  }

  /** The handle of communicator `c` on `rank`, numbering it (with its members) when new. */
  private handle(rank: number, c: CommLike, parent: number | null = null, key?: string): number {
    const st = this.state[rank]!;
    let h = st.comms.get(c);
    if (h !== undefined) return h;
    const members = Array.from({ length: c.size }, (_, i) => c.worldRank(i));
    // the rank's `mpi` is MPI_COMM_WORLD; a communicator no logged call made gets a key of its own
    h = c instanceof Mpi ? WORLD : st.nextComm++;
    st.comms.set(c, h);
    this.ranks[rank]!.comms.set(h, { handle: h, key: key ?? (h === WORLD ? 'world' : `unknown:${rank}:${h}`), members, parent });
    return h;
  }

  private request(st: RankState, r: Request): number {
    const id = st.nextRequest++;
    st.requests.set(r, id);
    return id;
  }

  private completion(rank: number, b: Begun, toPs: number, call: 'wait' | 'waitall' | 'waitany' | 'waitsome' | 'test' | 'testall' | 'testany' | 'testsome', name: string, done: readonly number[]): void {
    // requests made by calls left out (a nonblocking collective) are left out here too
    const reqs = b.reqs.filter((r): r is number => r !== null);
    if (reqs.length === 0 && b.reqs.length > 0) {
      this.skipped[name] = (this.skipped[name] ?? 0) + 1;
      return;
    }
    const completed = done.map((i) => b.reqs[i]).filter((r): r is number => r !== null && r !== undefined);
    this.ranks[rank]!.calls.push({ call: { call, name, reqs }, fromPs: b.fromPs, toPs, type: 'MPI_BYTE', typeBytes: 1, completed });
  }

  /** A communicator constructor: dup, split, or another logged as a split. */
  private made(rank: number, b: Begun, parent: number, toPs: number, result: unknown): void {
    const st = this.state[rank]!;
    const n = st.made.get(parent) ?? 0;
    st.made.set(parent, n + 1);
    const parentKey = this.ranks[rank]!.comms.get(parent)!.key;
    const made = isComm(result) ? result : null;
    const members = made ? Array.from({ length: made.size }, (_, i) => made.worldRank(i)) : [];
    const newComm = made ? this.handle(rank, made, parent, `${parentKey}/${n}:${members.join(',')}`) : null;
    const log = this.ranks[rank]!;
    const at = { fromPs: b.fromPs, toPs, type: 'MPI_BYTE', typeBytes: 1 };
    if (b.method === 'dup') {
      log.calls.push({ call: { call: 'dup', name: 'MPI_Comm_dup', comm: parent, color: 0, key: 0, newComm }, ...at });
    } else if (b.method === 'split') {
      const color = num(b.args[0]);
      log.calls.push({ call: { call: 'split', name: 'MPI_Comm_split', comm: parent, color: color === UNDEFINED || color < 0 ? UNDEFINED : color, key: num(b.args[1] ?? 0), newComm }, ...at });
    } else {
      log.calls.push({ call: { call: 'split', name: 'MPI_Comm_split', comm: parent, color: made ? members[0]! : UNDEFINED, key: made ? made.rank : 0, newComm }, ...at });
    }
  }
}

/** A destination as a trace gives it. */
function peerOf(v: number): number {
  return v === MPI_PROC_NULL ? PROC_NULL : v;
}

/** A source as a trace gives it. */
function sourceOf(v: number): number {
  return v === MPI_PROC_NULL ? PROC_NULL : v < 0 ? ANY_SOURCE : v;
}

/** Which of `n` requests a completion call completed, from its result. */
function completedIndices(call: string, n: number, result: unknown): number[] {
  const all = Array.from({ length: n }, (_, i) => i);
  switch (call) {
    case 'wait':
    case 'waitall':
      return all;
    case 'test':
      return result === true ? [0] : [];
    case 'testall':
      return Array.isArray(result) ? all : [];
    case 'waitany':
    case 'testany': {
      const r = result as { index?: number; flag?: boolean } | null;
      return r && typeof r.index === 'number' && r.index >= 0 && r.flag !== false ? [r.index] : [];
    }
    default:
      return Array.isArray(result) ? (result as { index: number }[]).map((c) => c.index) : [];
  }
}

/** A collective's call (without its communicator) and elements, or null for a method that is none the replay knows. */
function collective(method: string, a: readonly unknown[], size: number, rank: number): { call: Omit<CollCall, 'comm'> | Omit<VCollCall, 'comm'>; elements: Elements } | null {
  const coll = (call: CollCall['call'], e: Elements, root = 0, op: TraceOp = 'sum'): { call: Omit<CollCall, 'comm'>; elements: Elements } => ({
    call: { call, name: `MPI_${call[0]!.toUpperCase()}${call.slice(1)}`, count: e.count, typeBytes: e.typeBytes, root, op, flops: 0 },
    elements: e,
  });
  const inPlace = (x: unknown): boolean => x === IN_PLACE;
  const share = (e: Elements): Elements => ({ ...e, count: e.count / size });
  switch (method) {
    case 'barrier':
      return coll('barrier', NO_ELEMENTS);
    case 'bcast':
      return a[2] instanceof Datatype ? coll('bcast', typedElements(a[1], a[2]), num(a[3])) : coll('bcast', elementsOf(a[0]), num(a[1]));
    case 'reduce': {
      if (a[3] instanceof Datatype) return coll('reduce', typedElements(a[2], a[3]), num(a[5]), opOf(a[4]));
      return coll('reduce', elementsOf(inPlace(a[0]) ? a[1] : a[0]), num(a[3]), opOf(a[2]));
    }
    case 'allreduce':
    case 'scan':
    case 'exscan': {
      if (a[3] instanceof Datatype) return coll(method, typedElements(a[2], a[3]), 0, opOf(a[4]));
      return coll(method, elementsOf(inPlace(a[0]) ? a[1] : a[0]), 0, opOf(a[2]));
    }
    case 'allgather':
    case 'alltoall': {
      if (a.length > 3 && typeof a[1] === 'number') return coll(method, inPlace(a[0]) ? typedElements(a[4], a[5]) : typedElements(a[1], a[2]));
      if (method === 'allgather' && !inPlace(a[0])) return coll(method, elementsOf(a[0]));
      return coll(method, share(elementsOf(a[1])));
    }
    case 'gather': {
      if (a.length > 4 && typeof a[1] === 'number') return coll('gather', typedElements(a[1], a[2]), num(a[6]));
      return coll('gather', inPlace(a[0]) ? share(elementsOf(a[1])) : elementsOf(a[0]), num(a[2]));
    }
    case 'scatter': {
      if (a.length > 4 && typeof a[1] === 'number') return coll('scatter', inPlace(a[3]) ? typedElements(a[1], a[2]) : typedElements(a[4], a[5]), num(a[6]));
      return coll('scatter', inPlace(a[1]) ? share(elementsOf(a[0])) : elementsOf(a[1]), num(a[2]));
    }
    default:
      return vcollective(method, a, size, rank);
  }
}

/** A counted collective's call and elements, or null. */
function vcollective(method: string, a: readonly unknown[], size: number, rank: number): { call: Omit<VCollCall, 'comm'>; elements: Elements } | null {
  const v = (call: VCollCall['call'], name: string, e: Elements, send: number[] | null, recv: number[] | null, root = 0, op: TraceOp = 'sum'): { call: Omit<VCollCall, 'comm'>; elements: Elements } => ({
    call: { call, name, typeBytes: e.typeBytes, sendCounts: send, recvCounts: recv, root, op, flops: 0 },
    elements: e,
  });
  const inPlace = (x: unknown): boolean => x === IN_PLACE;
  switch (method) {
    case 'alltoallv': {
      const long = a.length > 7 && a[7] instanceof Datatype;
      const e = long ? typedElements(1, a[7]) : elementsOf(a[3]);
      const recv = counts(long ? a[5] : a[4]);
      return v('alltoallv', 'MPI_Alltoallv', e, inPlace(a[0]) ? recv : counts(a[1]), recv);
    }
    case 'allgatherv': {
      const long = a[6] instanceof Datatype;
      const recv = counts(long ? a[4] : a[2]);
      const e = long ? typedElements(1, a[6]) : elementsOf(a[1]);
      const mine = inPlace(a[0]) ? recv[rank]! : long ? num(a[1]) : elementsOf(a[0]).count;
      return v('allgatherv', 'MPI_Allgatherv', e, [mine], recv);
    }
    case 'gatherv': {
      const long = a.length > 6 && typeof a[1] === 'number';
      const root = num(long ? a[7] : a[4]);
      const recv = a[long ? 4 : 2] === null ? null : counts(a[long ? 4 : 2]);
      const e = long ? typedElements(1, a[2]) : elementsOf(inPlace(a[0]) ? a[1] : a[0]);
      const mine = inPlace(a[0]) ? (recv?.[rank] ?? 0) : long ? num(a[1]) : e.count;
      return v('gatherv', 'MPI_Gatherv', e, [mine], rank === root ? recv : null, root);
    }
    case 'scatterv': {
      const long = a.length > 6 && a[6] instanceof Datatype;
      const root = num(long ? a[7] : a[4]);
      const send = a[1] === null ? null : counts(a[1]);
      const recvBuf = long ? a[4] : a[3];
      const e = long ? typedElements(1, a[6]) : elementsOf(inPlace(recvBuf) ? a[0] : recvBuf);
      const mine = inPlace(recvBuf) ? (send?.[rank] ?? 0) : long ? num(a[5]) : e.count;
      return v('scatterv', 'MPI_Scatterv', e, rank === root ? send : null, [mine], root);
    }
    case 'reduceScatter': {
      const long = a[3] instanceof Datatype;
      return v('reduceScatter', 'MPI_Reduce_scatter', long ? typedElements(1, a[3]) : elementsOf(a[1]), null, counts(a[2]), 0, opOf(long ? a[4] : a[3]));
    }
    case 'reduceScatterBlock': {
      const long = a[3] instanceof Datatype;
      const e = long ? typedElements(a[2], a[3]) : elementsOf(a[1]);
      return v('reduceScatter', 'MPI_Reduce_scatter', e, null, new Array<number>(size).fill(e.count), 0, opOf(long ? a[4] : a[2]));
    }
    default:
      return null;
  }
}
