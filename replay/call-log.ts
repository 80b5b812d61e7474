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
 * world rank of its rank 0, key: the rank in it). Persistent requests (their init, start, free),
 * cancel, probes, nonblocking collectives, and windows made by MPI_Win_create or MPI_Win_allocate
 * with their puts, gets, accumulates and synchronisation are logged too; each writer leaves out
 * what its format cannot hold (`trace-filter.ts`). Calls no format here can express (neighbourhood
 * and persistent collectives, MPI-3 one-sided calls: request-based and atomic operations,
 * lock_all, flush, dynamic and shared windows) are counted in `skipped` and left out, as are the
 * requests they made, the calls on intercommunicators and on communicators such calls made, and a
 * window's calls from its first MPI_Win_lock_all on (their epoch could not be replayed).
 */
import { UNDEFINED } from '../runtime/mpi/constants.ts';
import { Datatype } from '../runtime/mpi/datatype.ts';
import { Request } from '../runtime/mpi/request.ts';
import type { CallListener } from '../runtime/instrument.ts';
import { PROC_NULL as MPI_PROC_NULL } from '../runtime/mpi/core.ts';
import { InterComm, Mpi } from '../runtime/mpi/mpi.ts';
import { Group } from '../runtime/mpi/group.ts';
import { LOCK_EXCLUSIVE, MODE_NOCHECK, MODE_NOPRECEDE, MODE_NOPUT, MODE_NOSTORE, MODE_NOSUCCEED } from '../runtime/mpi/rma/constants.ts';
import { Win } from '../runtime/mpi/rma/window.ts';
import { mpiCalls, WIN_CALLS, WIN_MAKER_CALLS } from '../runtime/calls.ts';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, WORLD, type RecvCall, type SendCall, type SendMode, type TraceCall, type WinSyncCall } from './calls.ts';
import { collective, elementsOf, NO_ELEMENTS, num, opOf, typedElements, type Elements } from './call-args.ts';

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
/** The first window handle (DUMPI's: 0 is MPI_WIN_NULL). */
const FIRST_WIN = 1;

/** What `begin` keeps for `end`. */
interface Begun {
  readonly method: string;
  readonly target: object;
  readonly args: readonly unknown[];
  readonly fromPs: number;
  /** Request handles named at the start (a completion call may replace them in its list). */
  readonly reqs: readonly (number | null)[];
  /** What the call returned (known at its end). */
  readonly result?: unknown;
}

/** Per-rank numbering state. */
interface RankState {
  readonly comms: Map<object, number>;
  readonly requests: Map<object, number>;
  nextComm: number;
  nextRequest: number;
  /** Communicators made so far from each handle. */
  readonly made: Map<number, number>;
  /** Logged windows: their handle and the world ranks of their communicator. */
  readonly wins: Map<object, { handle: number; members: readonly number[]; lockedAll: boolean }>;
  nextWin: number;
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

/** Persistent point-to-point inits and their send modes (null: a receive). */
const INITS: Readonly<Record<string, [string, SendMode | null]>> = {
  sendInit: ['MPI_Send_init', 'standard'],
  ssendInit: ['MPI_Ssend_init', 'sync'],
  rsendInit: ['MPI_Rsend_init', 'ready'],
  bsendInit: ['MPI_Bsend_init', 'buffered'],
  recvInit: ['MPI_Recv_init', null],
};

/** Collectives with a nonblocking form the log keeps (`ibcast` for `bcast`, ...). */
const NONBLOCKING = new Set(['barrier', 'bcast', 'reduce', 'allreduce', 'scan', 'exscan', 'alltoall', 'allgather', 'gather', 'scatter', 'alltoallv', 'allgatherv', 'gatherv', 'scatterv', 'reduceScatter', 'reduceScatterBlock']);

/** MPI names of the methods of communicators and windows, for the calls left out. */
const MPI_NAMES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries({ ...mpiCalls(1), ...WIN_MAKER_CALLS }).map(([m, s]) => [m, s.name]));
const WIN_NAMES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(WIN_CALLS).map(([m, s]) => [m, s.name]));

/** phit's MPI_MODE_* flags as DUMPI numbers them. */
const ASSERTS: readonly [number, number][] = [[MODE_NOCHECK, 1], [MODE_NOSTORE, 2], [MODE_NOPUT, 4], [MODE_NOPRECEDE, 8], [MODE_NOSUCCEED, 16]];

/** An assert as a trace gives it (DUMPI's bits). */
export function traceAssert(phit: number): number {
  return ASSERTS.reduce((a, [p, d]) => ((phit & p) !== 0 ? a | d : a), 0);
}

/** A trace's assert as phit's flags. */
export function phitAssert(trace: number): number {
  return ASSERTS.reduce((a, [p, d]) => ((trace & d) !== 0 ? a | p : a), 0);
}

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
    this.state = Array.from({ length: size }, () => ({ comms: new Map(), requests: new Map(), nextComm: FIRST_COMM, nextRequest: FIRST_REQUEST, made: new Map(), wins: new Map(), nextWin: FIRST_WIN }));
  }

  begin(rank: number, method: string, target: object, args: readonly unknown[], fromPs: number): Begun | null {
    // only MPI: a communicator's methods and a request's wait and test
    if (!isComm(target) && !(target instanceof Request) && !(target instanceof Win)) return null;
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
    if (b.target instanceof Win) {
      this.winCall(rank, { ...b, result }, toPs);
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
    const init = INITS[b.method];
    if (init) {
      if (!(result instanceof Request)) return;
      const long = a[2] instanceof Datatype;
      const e = long ? typedElements(a[1], a[2]) : elementsOf(a[0]);
      const peer = num(long ? a[3] : a[1]);
      const tag = num(long ? a[4] : a[2]);
      const req = this.request(st, result);
      const bytes = e.count * e.typeBytes;
      const op: SendCall | RecvCall = init[1] === null
        ? { call: 'recv', name: init[0], comm, peer: sourceOf(peer), tag: tag < 0 ? ANY_TAG : tag, bytes, req }
        : { call: 'send', name: init[0], mode: init[1], comm, peer: peerOf(peer), tag, bytes, req };
      push({ call: 'init', name: init[0], req, op }, e);
      return;
    }
    if (b.method === 'start' || b.method === 'startAll' || b.method === 'requestFree' || b.method === 'cancel') {
      const reqs = b.reqs.filter((r): r is number => r !== null);
      // a request no logged call made (a persistent collective's): left out
      if (reqs.length === 0 || reqs.length !== b.reqs.length) {
        this.skip(b.method);
        return;
      }
      if (b.method === 'start' || b.method === 'startAll') push({ call: 'start', name: b.method === 'start' ? 'MPI_Start' : 'MPI_Startall', reqs });
      else push({ call: b.method, name: b.method === 'cancel' ? 'MPI_Cancel' : 'MPI_Request_free', req: reqs[0]! });
      return;
    }
    if (b.method === 'probe' || b.method === 'iprobe') {
      const tag = num(a[1]);
      push({ call: b.method, name: b.method === 'probe' ? 'MPI_Probe' : 'MPI_Iprobe', comm, peer: sourceOf(num(a[0])), tag: tag < 0 ? ANY_TAG : tag });
      return;
    }
    if (b.method === 'sendrecvReplace') {
      const long = a.length > 5;
      const e = long ? typedElements(a[1], a[2]) : elementsOf(a[0]);
      const [dest, sendTag, source, recvTag] = long ? [a[3], a[4], a[5], a[6]] : [a[1], a[2], a[3], a[4]];
      const bytes = e.count * e.typeBytes;
      push({ call: 'sendrecv', name: 'MPI_Sendrecv_replace', comm, dest: peerOf(num(dest)), sendTag: num(sendTag), sendBytes: bytes, source: sourceOf(num(source)), recvTag: num(recvTag) < 0 ? ANY_TAG : num(recvTag), recvBytes: bytes }, e);
      return;
    }
    if (b.method === 'winCreate' || b.method === 'winAllocate') {
      const win = result instanceof Win ? result : (result as { win?: unknown } | null)?.win;
      if (!(win instanceof Win)) return;
      const handle = st.nextWin++;
      const c = b.target as CommLike;
      st.wins.set(win, { handle, members: Array.from({ length: c.size }, (_, i) => c.worldRank(i)), lockedAll: false });
      const bytes = b.method === 'winCreate' ? (ArrayBuffer.isView(a[0]) ? a[0].byteLength : 0) : num(a[0]);
      push({ call: 'winCreate', name: b.method === 'winCreate' ? 'MPI_Win_create' : 'MPI_Win_allocate', comm, win: handle, bytes, dispUnit: typeof a[1] === 'number' ? a[1] : 1 });
      return;
    }
    if (b.method.startsWith('i') && NONBLOCKING.has(b.method[1]!.toLowerCase() + b.method.slice(2)) && result instanceof Request) {
      const base = b.method[1]!.toLowerCase() + b.method.slice(2);
      const coll = collective(base, a, (b.target as CommLike).size, (b.target as CommLike).rank);
      if (coll) {
        const req = this.request(st, result);
        push({ ...coll.call, name: `MPI_I${coll.call.name.slice(4).toLowerCase()}`, comm, req } as TraceCall, coll.elements);
        return;
      }
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
  private skip(method: string, names: Readonly<Record<string, string>> = MPI_NAMES): void {
    const name = names[method] ?? `MPI_${method[0]!.toUpperCase()}${method.slice(1)}`;
    this.skipped[name] = (this.skipped[name] ?? 0) + 1;
  }

  /** A call of a window: MPI-2's one-sided calls are logged, the others left out. */
  private winCall(rank: number, b: Begun, toPs: number): void {
    const st = this.state[rank]!;
    const w = st.wins.get(b.target);
    const a = b.args;
    const log = this.ranks[rank]!;
    const name = WIN_NAMES[b.method] ?? b.method;
    // after MPI_Win_lock_all (no format here has it) the window's calls could not be replayed in their epochs: left out
    if (!w || w.lockedAll) {
      this.skip(b.method, WIN_NAMES);
      return;
    }
    const sync = (call: WinSyncCall['call'], more: Partial<WinSyncCall> = {}): void => {
      log.calls.push({ call: { call, name, win: w.handle, group: null, target: -1, exclusive: false, assert: 0, ...more }, fromPs: b.fromPs, toPs, type: 'MPI_BYTE', typeBytes: 1 });
    };
    const ranksOf = (g: unknown): number[] => (g instanceof Group ? g.ranks.map((x) => w.members.indexOf(x)) : []);
    switch (b.method) {
      case 'free':
        return sync('winFree');
      case 'fence':
        return sync('fence', { assert: traceAssert(num(a[0])) });
      case 'post':
      case 'start':
        return sync(b.method === 'post' ? 'winPost' : 'winStart', { group: ranksOf(a[0]), assert: traceAssert(num(a[1])) });
      case 'complete':
        return sync('winComplete');
      case 'wait':
        return sync('winWait');
      case 'test':
        return sync('winTest', { flag: b.result === true });
      case 'lock':
        return sync('lock', { target: num(a[1]), exclusive: a[0] === LOCK_EXCLUSIVE, assert: traceAssert(num(a[2])) });
      case 'unlock':
        return sync('unlock', { target: num(a[0]) });
      case 'put':
      case 'get':
      case 'accumulate': {
        const long = a[2] instanceof Datatype;
        const e = long ? typedElements(a[1], a[2]) : elementsOf(a[0]);
        const op = b.method === 'accumulate' ? opOf(long ? a[7] : a[3]) : 'sum';
        log.calls.push({
          call: { call: b.method, name, win: w.handle, target: num(long ? a[3] : a[1]), disp: num(long ? a[4] : a[2]), count: e.count, typeBytes: e.typeBytes, op },
          fromPs: b.fromPs, toPs, type: e.type, typeBytes: e.typeBytes,
        });
        return;
      }
      default:
        if (b.method === 'lockAll') w.lockedAll = true;
        this.skip(b.method, WIN_NAMES);
    }
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
