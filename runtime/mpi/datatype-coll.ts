/**
 * The collectives' long forms, (buffer, count, datatype) as in MPI, and MPI_Alltoallw. Data
 * movement packs each side into bytes (a view of the user's buffer when the layout is contiguous),
 * runs the collective's short form on bytes, and unpacks; the receiving side must hold as many
 * bytes as the sending side sends, as MPI's type matching implies. Reductions take any datatype
 * of one basic type and run on a typed array of its values (a non-contiguous layout packed first
 * and unpacked after, at the library's packing cost; a user op still sees each operand laid out as
 * the datatype describes, see user-op-layout.ts); MINLOC and MAXLOC
 * take the pair types (mpi.DOUBLE_INT, ...), reduced as interleaved (value, index) arrays.
 */
import type { ArrayType } from '../../fabric/skeleton.ts';
import type { CollComm } from './comm-coll.ts';
import { describe, IN_PLACE, type CollOptions } from './constants.ts';
import { checkCount, checkType, Datatype, type Pair, type ValueArrayType } from './datatype.ts';
import { landing, packTo, scratch, sendBytes, unpackFrom, userBytes, type Landing, type Packer } from './datatype-pack.ts';
import { MAXLOC, MINLOC, PREDEFINED_OPS, type Op, type ReduceArray } from './ops.ts';
import { partsReduction } from './reduce-parts.ts';
import { MpiError, Request, type RequestWaiter, type Status } from './request.ts';
import { opOnType } from './user-op-layout.ts';

/** Whether a collective's arguments `a` are its long form: more than the short form's `shortMax`, or a Datatype at `typeAt`. */
export function longForm(a: readonly unknown[], shortMax: number, typeAt = -1): boolean {
  return a.length > shortMax || (typeAt >= 0 && a[typeAt] instanceof Datatype);
}

type Opts = CollOptions | undefined;

/**
 * Runs a collective's short form on bytes for long form `call`: its errors name `call` and count
 * bytes, as the short form counted them.
 */
async function onBytes(call: string, run: Promise<void>): Promise<void> {
  try {
    await run;
  } catch (e) {
    throw renamed(call, e);
  }
}

/**
 * How a long form runs its short form on bytes: blocking (awaits it, then lands the data) or
 * nonblocking (returns the short form's request, wrapped so that the data lands when the rank
 * takes the completion: in its wait or test, charged to it then).
 */
export type Mode = 'blocking' | 'nonblocking';

function go(mode: Mode, call: string, blocking: () => Promise<void>, nonblocking: () => Request, after: () => void = () => {}): Promise<void> | Request {
  if (mode === 'blocking') return onBytes(call, blocking()).then(after);
  let inner: Request;
  try {
    inner = nonblocking();
  } catch (e) {
    throw renamed(call, e);
  }
  return new LandingRequest(inner, call, after);
}

/**
 * A nonblocking long form's request: complete when the short form's is; taking its completion
 * runs `after` (unpacking into the user's buffer, at the rank's cost) once. Freed
 * (MPI_Request_free), it still lands the data: at once if complete, else when it completes.
 */
class LandingRequest extends Request implements RequestWaiter {
  private landed = false;
  private landOnCompletion = false;
  constructor(
    inner: Request,
    call: string,
    private readonly after: () => void,
  ) {
    super(inner.proc, 0, `${call} (${inner.what})`, inner.progress);
    if (inner.done) this.requestDone(inner);
    else inner.waiter = this;
  }

  requestDone(inner: Request): void {
    const o = inner.handOver();
    if (o.failure) this.fail(renamed(this.what.slice(0, this.what.indexOf(' ')), o.failure) as Error);
    else {
      this.complete(o.status!, o.cpuPs);
      if (this.landOnCompletion) this.land();
    }
  }

  /** MPI_Request_free: the operation still completes, so its data still lands in the user's buffer. */
  override free(): void {
    super.free();
    if (this.done) this.land();
    else this.landOnCompletion = true;
  }

  override take(): Status {
    const s = super.take();
    this.land();
    return s;
  }

  /** A request that waits on this one (a persistent collective's start) takes its completion: the data lands then. */
  override handOver(): ReturnType<Request['handOver']> {
    const o = super.handOver();
    if (!o.failure) this.land();
    return o;
  }

  private land(): void {
    if (!this.landed) {
      this.landed = true;
      this.after();
    }
  }
}

/** An error of the short form, renamed for long form `call` (bytes, not elements). */
function renamed(call: string, e: unknown): unknown {
  if (!(e instanceof MpiError)) return e;
  return new MpiError(e.errorClass, e.message.slice(e.errorClass.length + 2).replace(/^[A-Za-z]+/, call).replace(/\belements\b/g, 'bytes'));
}

/** Unpacks a landing's bytes into the user's buffer, charging the rank for it. */
function land(pk: Packer, l: Landing): void {
  if (l.unpack) pk.proc.charge(l.unpack(l.bytes.length));
}

/** Bytes `sent` as a buffer of their own: a copy when they view `user` (an in-place block the collective also writes). */
function detached(pk: Packer, sent: Uint8Array, user: Uint8Array): Uint8Array {
  if (sent.buffer !== user.buffer) return sent;
  if (pk.proc.isSkeleton(sent)) return scratch(pk, sent, sent.length);
  return sent.slice();
}

/** The bytes of (buf, count, type) to send, checked, named `buf`/`count`/`type` in errors. */
function sendSide(pk: Packer, call: string, names: [string, string, string], buf: unknown, count: unknown, type: unknown): Uint8Array {
  const t = checkType(call, names[2], type);
  const n = checkCount(call, names[1], count);
  return sendBytes(pk, userBytes(call, names[0], buf, n, t), 0, n, t);
}

/** Where (buf, count, type) receives, checked. */
function recvSide(pk: Packer, call: string, names: [string, string, string], buf: unknown, count: unknown, type: unknown): Landing {
  const t = checkType(call, names[2], type);
  const n = checkCount(call, names[1], count);
  return landing(pk, userBytes(call, names[0], buf, n, t), 0, n, t);
}

const SEND: [string, string, string] = ['sendBuf', 'sendCount', 'sendType'];
const RECV: [string, string, string] = ['recvBuf', 'recvCount', 'recvType'];

/** MPI_Bcast(buf, count, datatype, root). */
export function bcastLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'bcast'): Promise<void> | Request {
  const [buf, count, datatype, root, opts] = a as [unknown, unknown, unknown, number, Opts];
  const names: [string, string, string] = ['buf', 'count', 'datatype'];
  if (c.rank === root) {
    const b = sendSide(pk, call, names, buf, count, datatype);
    return go(mode, call, () => c.bcast(b, root, opts), () => c.ibcast(b, root, opts));
  }
  const l = recvSide(pk, call, names, buf, count, datatype);
  return go(mode, call, () => c.bcast(l.bytes, root, opts), () => c.ibcast(l.bytes, root, opts), () => land(pk, l));
}

/** MPI_Gather(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root): recv arguments matter at the root. */
export function gatherLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'gather'): Promise<void> | Request {
  const [sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root, opts] = a as [unknown, unknown, unknown, unknown, number, unknown, number, Opts];
  if (sendBuf === IN_PLACE && c.rank !== root) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
  if (c.rank !== root) {
    const send = sendSide(pk, call, SEND, sendBuf, sendCount, sendType);
    return go(mode, call, () => c.gather(send, null, root, opts), () => c.igather(send, null, root, opts));
  }
  const k = checkCount(call, 'recvCount', recvCount);
  const rt = checkType(call, 'recvType', recvType);
  const l = recvSide(pk, call, RECV, recvBuf, k * c.size, recvType);
  // in place: the root's block is already where it goes in recvBuf (sendCount and sendType are ignored)
  const user = userBytes(call, 'recvBuf', recvBuf, k * c.size, rt);
  const send = sendBuf === IN_PLACE ? detached(pk, sendBytes(pk, user, root * k * rt.extent, k, rt), user) : sendSide(pk, call, SEND, sendBuf, sendCount, sendType);
  return go(mode, call, () => c.gather(send, l.bytes, root, opts), () => c.igather(send, l.bytes, root, opts), () => land(pk, l));
}

/** MPI_Scatter(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root): send arguments matter at the root. */
export function scatterLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'scatter'): Promise<void> | Request {
  const [sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root, opts] = a as [unknown, number, unknown, unknown, unknown, unknown, number, Opts];
  if (recvBuf === IN_PLACE && c.rank !== root) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
  const send = c.rank === root ? sendSide(pk, call, SEND, sendBuf, checkCount(call, 'sendCount', sendCount) * c.size, sendType) : null;
  if (recvBuf === IN_PLACE) {
    // the root's block stays where it is in sendBuf (recvCount and recvType are ignored): it receives into scratch
    const k = send!.length / c.size;
    const tmp = scratch(pk, send!, k);
    return go(mode, call, () => c.scatter(send, tmp, root, opts), () => c.iscatter(send, tmp, root, opts));
  }
  const l = recvSide(pk, call, RECV, recvBuf, recvCount, recvType);
  return go(mode, call, () => c.scatter(send, l.bytes, root, opts), () => c.iscatter(send, l.bytes, root, opts), () => land(pk, l));
}

/** MPI_Allgather(sendBuf | IN_PLACE, sendCount, sendType, recvBuf, recvCount, recvType). */
export function allgatherLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'allgather'): Promise<void> | Request {
  const [sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, opts] = a as [unknown, unknown, unknown, unknown, unknown, unknown, Opts];
  const rt = checkType(call, 'recvType', recvType);
  const k = checkCount(call, 'recvCount', recvCount);
  const user = userBytes(call, 'recvBuf', recvBuf, k * c.size, rt);
  // in place: this rank's block is already in recvBuf
  const send = sendBuf === IN_PLACE ? detached(pk, sendBytes(pk, user, c.rank * k * rt.extent, k, rt), user) : sendSide(pk, call, SEND, sendBuf, sendCount, sendType);
  const l = landing(pk, user, 0, k * c.size, rt);
  return go(mode, call, () => c.allgather(send, l.bytes, opts), () => c.iallgather(send, l.bytes, opts), () => land(pk, l));
}

/** MPI_Alltoall(sendBuf | IN_PLACE, sendCount, sendType, recvBuf, recvCount, recvType). */
export function alltoallLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'alltoall'): Promise<void> | Request {
  const [sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, opts] = a as [unknown, unknown, unknown, unknown, unknown, unknown, Opts];
  const rt = checkType(call, 'recvType', recvType);
  const n = checkCount(call, 'recvCount', recvCount) * c.size;
  const user = userBytes(call, 'recvBuf', recvBuf, n, rt);
  const send = sendBuf === IN_PLACE ? detached(pk, sendBytes(pk, user, 0, n, rt), user) : sendSide(pk, call, SEND, sendBuf, checkCount(call, 'sendCount', sendCount) * c.size, sendType);
  const l = landing(pk, user, 0, n, rt);
  return go(mode, call, () => c.alltoall(send, l.bytes, opts), () => c.ialltoall(send, l.bytes, opts), () => land(pk, l));
}

// ---------------------------------------------------------------- blocks per rank (the v and w forms)

/** One block per rank of a buffer, as bytes: byte counts and displacements into `bytes`. */
export interface Blocks {
  readonly bytes: Uint8Array;
  readonly counts: Int32Array;
  readonly displs: Int32Array;
  /** Receive side: unpacks the blocks into the user's buffer (charged); nothing when they landed in place. */
  finish(): void;
}

/** Per-rank counts of `name`: one non-negative integer per rank (or per `per`: a neighbour). */
function countsOf(call: string, name: string, v: unknown, n: number, per = 'rank'): number[] {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<number>).length !== 'number' || (v as ArrayLike<number>).length < n) {
    throw new MpiError('MPI_ERR_COUNT', `${call}: ${name} must have one entry per ${per} (${n}), got ${describe(v)}`);
  }
  const a = v as ArrayLike<unknown>;
  return Array.from({ length: n }, (_, r) => checkCount(call, `${name}[${r}]`, a[r]));
}

/** Displacements of `name`, integers, times `unit` bytes. */
function displsOf(call: string, name: string, v: unknown, n: number, unit: number[], per = 'rank'): number[] {
  if (v === null || typeof v !== 'object' || typeof (v as ArrayLike<number>).length !== 'number' || (v as ArrayLike<number>).length < n) {
    throw new MpiError('MPI_ERR_ARG', `${call}: ${name} must have one entry per ${per} (${n}), got ${describe(v)}`);
  }
  const a = v as ArrayLike<unknown>;
  return Array.from({ length: n }, (_, r) => {
    const d = a[r];
    if (typeof d !== 'number' || !Number.isSafeInteger(d)) throw new MpiError('MPI_ERR_ARG', `${call}: ${name}[${r}]=${String(d)} must be a safe integer (within ±2^53)`);
    return d * unit[r]!;
  });
}

/**
 * Block r of `buf`: `counts[r]` elements of `types[r]` from byte `displs[r]`. As bytes: the
 * user's own when every block is contiguous, else packed (send) or unpacked at `finish` (receive).
 */
function blocks(pk: Packer, call: string, name: string, buf: unknown, counts: number[], displs: number[], types: Datatype[], send: boolean): Blocks {
  const n = counts.length;
  let user: Uint8Array = new Uint8Array(0);
  const bc = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    user = userBytes(call, `${name} (block ${r})`, buf, counts[r]!, types[r]!, displs[r]!);
    bc[r] = counts[r]! * types[r]!.size;
  }
  const u = user;
  const bd = new Int32Array(n);
  if (types.every((t, r) => t.contiguous(counts[r]!))) {
    for (let r = 0; r < n; r++) bd[r] = bc[r] === 0 ? 0 : displs[r]! + types[r]!.trueLb;
    return { bytes: u, counts: bc, displs: bd, finish: () => {} };
  }
  let total = 0;
  for (let r = 0; r < n; r++) {
    bd[r] = total;
    total += bc[r]!;
  }
  const bytes = scratch(pk, u, total);
  if (send) for (let r = 0; r < n; r++) packTo(pk, u, displs[r]!, counts[r]!, types[r]!, bytes, bd[r]!);
  return {
    bytes,
    counts: bc,
    displs: bd,
    finish: () => {
      if (send) return;
      let ps = 0;
      for (let r = 0; r < n; r++) ps += unpackFrom(pk, bytes, bd[r]!, u, displs[r]!, counts[r]!, types[r]!);
      pk.proc.charge(ps);
    },
  };
}

/** An in-place alltoallv/w's send side: recvBuf's blocks as laid out for receiving, in a buffer of their own. */
function inPlaceSend(pk: Packer, call: string, recvBuf: unknown, counts: unknown, displs: unknown, types: unknown, n: number, w: boolean): Blocks {
  const s = vSide(pk, call, ['recvBuf', 'recvCounts', 'recvDispls', w ? 'recvTypes' : 'recvType'], recvBuf, counts, displs, types, n, true);
  const shared = ArrayBuffer.isView(recvBuf) && s.bytes.buffer === recvBuf.buffer;
  return shared && !pk.proc.isSkeleton(s.bytes) ? { ...s, bytes: s.bytes.slice() } : s;
}

/** `count` copies of one type, or the types of a w-form (one per rank, or per `per`). */
function typesOf(call: string, name: string, v: unknown, n: number, per = 'rank'): Datatype[] {
  if (!Array.isArray(v)) {
    const t = checkType(call, name, v);
    return new Array<Datatype>(n).fill(t);
  }
  if (v.length < n) throw new MpiError('MPI_ERR_ARG', `${call}: ${name} must have one datatype per ${per} (${n}), got ${v.length}`);
  return Array.from({ length: n }, (_, r) => checkType(call, `${name}[${r}]`, v[r]));
}

/** A v-form side: counts in elements, displacements in extents of its one type (w-forms: in bytes, a type per rank). */
function vSide(pk: Packer, call: string, names: [string, string, string, string], buf: unknown, counts: unknown, displs: unknown, types: unknown, n: number, send: boolean): Blocks {
  const ts = typesOf(call, names[3], types, n);
  const cs = countsOf(call, names[1], counts, n);
  const ds = displsOf(call, names[2], displs, n, Array.isArray(types) ? new Array<number>(n).fill(1) : ts.map((t) => t.extent));
  return blocks(pk, call, names[0], buf, cs, ds, ts, send);
}

/** MPI_Gatherv(sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType, root). */
export function gathervLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'gatherv'): Promise<void> | Request {
  const [sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType, root, opts] = a as [unknown, unknown, unknown, unknown, unknown, unknown, unknown, number, Opts];
  if (sendBuf === IN_PLACE && c.rank !== root) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
  if (c.rank !== root) {
    const send = sendSide(pk, call, SEND, sendBuf, sendCount, sendType);
    return go(mode, call, () => c.gatherv(send, null, null, null, root, opts), () => c.igatherv(send, null, null, null, root, opts));
  }
  const b = vSide(pk, call, ['recvBuf', 'recvCounts', 'displs', 'recvType'], recvBuf, recvCounts, displs, recvType, c.size, false);
  let send: Uint8Array;
  if (sendBuf === IN_PLACE) {
    // the root's block is already where it goes in recvBuf (sendCount and sendType are ignored)
    const rt = checkType(call, 'recvType', recvType);
    const user = userBytes(call, 'recvBuf', recvBuf, 0, rt);
    send = detached(pk, sendBytes(pk, user, (displs as ArrayLike<number>)[root]! * rt.extent, (recvCounts as ArrayLike<number>)[root]!, rt), user);
  } else send = sendSide(pk, call, SEND, sendBuf, sendCount, sendType);
  return go(mode, call, () => c.gatherv(send, b.bytes, b.counts, b.displs, root, opts), () => c.igatherv(send, b.bytes, b.counts, b.displs, root, opts), () => b.finish());
}

/** MPI_Scatterv(sendBuf, sendCounts, displs, sendType, recvBuf, recvCount, recvType, root). */
export function scattervLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'scatterv'): Promise<void> | Request {
  const [sendBuf, sendCounts, displs, sendType, recvBuf, recvCount, recvType, root, opts] = a as [unknown, unknown, unknown, unknown, unknown, unknown, unknown, number, Opts];
  if (recvBuf === IN_PLACE && c.rank !== root) throw new MpiError('MPI_ERR_BUFFER', `${call}: only the root may pass mpi.IN_PLACE`);
  const b = c.rank === root ? vSide(pk, call, ['sendBuf', 'sendCounts', 'displs', 'sendType'], sendBuf, sendCounts, displs, sendType, c.size, true) : null;
  if (recvBuf === IN_PLACE) {
    // the root's block stays where it is in sendBuf (recvCount and recvType are ignored): it receives into scratch
    const tmp = scratch(pk, b!.bytes, b!.counts[root]!);
    return go(mode, call, () => c.scatterv(b!.bytes, b!.counts, b!.displs, tmp, root, opts), () => c.iscatterv(b!.bytes, b!.counts, b!.displs, tmp, root, opts));
  }
  const l = recvSide(pk, call, RECV, recvBuf, recvCount, recvType);
  return go(mode, call, () => c.scatterv(b?.bytes ?? null, b?.counts ?? null, b?.displs ?? null, l.bytes, root, opts), () => c.iscatterv(b?.bytes ?? null, b?.counts ?? null, b?.displs ?? null, l.bytes, root, opts), () => land(pk, l));
}

/** MPI_Allgatherv(sendBuf | IN_PLACE, sendCount, sendType, recvBuf, recvCounts, displs, recvType). */
export function allgathervLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'allgatherv'): Promise<void> | Request {
  const [sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType, opts] = a as [unknown, unknown, unknown, unknown, unknown, unknown, unknown, Opts];
  const b = vSide(pk, call, ['recvBuf', 'recvCounts', 'displs', 'recvType'], recvBuf, recvCounts, displs, recvType, c.size, false);
  let send: Uint8Array;
  if (sendBuf === IN_PLACE) {
    // this rank's block, from where it lies in recvBuf
    const rt = checkType(call, 'recvType', recvType);
    const user = userBytes(call, 'recvBuf', recvBuf, 0, rt);
    const k = (recvCounts as ArrayLike<number>)[c.rank]!;
    const at = (displs as ArrayLike<number>)[c.rank]! * rt.extent;
    send = detached(pk, sendBytes(pk, user, at, k, rt), user);
  } else send = sendSide(pk, call, SEND, sendBuf, sendCount, sendType);
  return go(mode, call, () => c.allgatherv(send, b.bytes, b.counts, b.displs, opts), () => c.iallgatherv(send, b.bytes, b.counts, b.displs, opts), () => b.finish());
}

/** MPI_Alltoallv(sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts, recvDispls, recvType). */
export function alltoallvLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'alltoallv'): Promise<void> | Request {
  const [sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts, recvDispls, recvType, opts] = a as [unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, Opts];
  if (Array.isArray(sendType) || Array.isArray(recvType)) throw new MpiError('MPI_ERR_TYPE', `${call}: sendType and recvType are one datatype each (alltoallw takes one per rank)`);
  return vw(c, pk, call, sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts, recvDispls, recvType, opts, mode);
}

/**
 * What the v- and w-forms of alltoall run on: an alltoallv of byte blocks over `size` peers (a
 * communicator's ranks, or an intercommunicator's remote group).
 */
export interface ByteExchange {
  readonly size: number;
  alltoallv(s: Uint8Array, sc: Int32Array, sd: Int32Array, r: Uint8Array, rc: Int32Array, rd: Int32Array, opts?: Opts): Promise<void>;
  ialltoallv(s: Uint8Array, sc: Int32Array, sd: Int32Array, r: Uint8Array, rc: Int32Array, rd: Int32Array, opts?: Opts): Request;
}

/**
 * MPI_Alltoallw: `sendCounts[j]` elements of `sendTypes[j]` from byte `sendDispls[j]` of
 * `sendBuf` go to rank j, landing as `recvCounts[i]` elements of `recvTypes[i]` at byte
 * `recvDispls[i]` of rank j's `recvBuf` (i the sender); each pair's bytes must agree.
 */
export function alltoallw(c: ByteExchange, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'alltoallw'): Promise<void> | Request {
  const [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes, opts] = a as [unknown, unknown, unknown, unknown, unknown, unknown, unknown, unknown, Opts];
  for (const [name, v] of [['sendTypes', sendTypes], ['recvTypes', recvTypes]] as const) {
    if (name === 'sendTypes' && sendBuf === IN_PLACE) continue;
    if (!Array.isArray(v)) throw new MpiError('MPI_ERR_ARG', `${call}: ${name} must be an array of one datatype per rank, got ${describe(v)}`);
  }
  return vw(c, pk, call, sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes, opts, mode);
}

function vw(c: ByteExchange, pk: Packer, call: string, sendBuf: unknown, sendCounts: unknown, sendDispls: unknown, sendType: unknown, recvBuf: unknown, recvCounts: unknown, recvDispls: unknown, recvType: unknown, opts: Opts, mode: Mode): Promise<void> | Request {
  const w = Array.isArray(recvType);
  // in place: what goes out is in recvBuf, laid out as what comes in (the send arguments are ignored); sent from a copy
  const s = sendBuf === IN_PLACE ? inPlaceSend(pk, call, recvBuf, recvCounts, recvDispls, recvType, c.size, w) : vSide(pk, call, ['sendBuf', 'sendCounts', 'sendDispls', w ? 'sendTypes' : 'sendType'], sendBuf, sendCounts, sendDispls, sendType, c.size, true);
  const r = vSide(pk, call, ['recvBuf', 'recvCounts', 'recvDispls', w ? 'recvTypes' : 'recvType'], recvBuf, recvCounts, recvDispls, recvType, c.size, false);
  return go(mode, call, () => c.alltoallv(s.bytes, s.counts, s.displs, r.bytes, r.counts, r.displs, opts), () => c.ialltoallv(s.bytes, s.counts, s.displs, r.bytes, r.counts, r.displs, opts), () => r.finish());
}

/** The blocks of a neighbourhood collective's w-form, one per neighbour: what goes to each destination, and where each source's block lands. */
export interface NeighborSides {
  /** Bytes for destination j: a view of the user's buffer when contiguous, else packed (charged). */
  readonly send: readonly Uint8Array[];
  /** Where the block from source i lands, and how it is unpacked. */
  readonly recv: readonly Landing[];
}

/**
 * MPI_Neighbor_alltoallw's arguments for `dests` destinations and `sources` sources, checked:
 * block j is `sendCounts[j]` elements of `sendTypes[j]` from byte `sendDispls[j]` of `sendBuf`,
 * packed now (charged) unless contiguous; source i's block lands as `recvCounts[i]` elements of
 * `recvTypes[i]` at byte `recvDispls[i]` of `recvBuf`.
 */
export function neighborSides(pk: Packer, call: string, a: readonly unknown[], dests: number, sources: number): NeighborSides {
  const [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes] = a;
  const side = (names: [string, string, string, string], buf: unknown, counts: unknown, displs: unknown, types: unknown, n: number, per: string): { user: Uint8Array; count: number; displ: number; type: Datatype }[] => {
    if (!Array.isArray(types)) throw new MpiError('MPI_ERR_ARG', `${call}: ${names[3]} must be an array of one datatype per ${per}, got ${describe(types)}`);
    if (!ArrayBuffer.isView(buf)) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${names[0]} must be a typed array or DataView, got ${describe(buf)}`);
    const ts = typesOf(call, names[3], types, n, per);
    const cs = countsOf(call, names[1], counts, n, per);
    const ds = displsOf(call, names[2], displs, n, new Array<number>(n).fill(1), per);
    return cs.map((count, j) => ({ user: userBytes(call, `${names[0]} (block ${j})`, buf, count, ts[j]!, ds[j]!), count, displ: ds[j]!, type: ts[j]! }));
  };
  const s = side(['sendBuf', 'sendCounts', 'sendDispls', 'sendTypes'], sendBuf, sendCounts, sendDispls, sendTypes, dests, 'destination');
  const r = side(['recvBuf', 'recvCounts', 'recvDispls', 'recvTypes'], recvBuf, recvCounts, recvDispls, recvTypes, sources, 'source');
  return { send: s.map((b) => sendBytes(pk, b.user, b.displ, b.count, b.type)), recv: r.map((b) => landing(pk, b.user, b.displ, b.count, b.type)) };
}

// ---------------------------------------------------------------- reductions

/** The values of a reduction's buffer, and how they get back into it. */
interface Values {
  readonly array: ReduceArray;
  /** Writes the values back where they came from (nothing when `array` views the buffer). */
  store(): void;
}

/**
 * What a reduction on `t` reduces: the typed array of its basic type, or its (value, index)
 * pairs, or the floats of a long double or complex type (see Parts), and the op to run on them:
 * `op` itself, or for MPI_PROD on a complex type the complex product over (real, imaginary)
 * pairs. MPI-3.1 §5.9.2 defines SUM, PROD, MIN and MAX on long double, SUM and PROD on complex.
 */
export function reduction(call: string, t: Datatype, op: Op): { array: ValueArrayType; per: number; pair: Pair | null; op: Op } {
  const loc = op === MINLOC || op === MAXLOC;
  if (t.pair) {
    if (!loc && Object.values(PREDEFINED_OPS).includes(op)) throw new MpiError('MPI_ERR_OP', `${call}: ${op.name} is not defined on ${t.name}; pair types take MPI_MINLOC and MPI_MAXLOC`);
    return { array: t.pair.array, per: 2, pair: t.pair, op };
  }
  if (loc) throw new MpiError('MPI_ERR_OP', `${call}: ${op.name} works on the pair types (mpi.DOUBLE_INT, mpi.TWO_INT, ...), not ${t.name}`);
  const b = t.basic;
  if (b?.parts) return { ...partsReduction(call, b.name, b.parts, op), per: (t.size / b.size) * b.parts.per, pair: null };
  if (!b || !b.array) throw new MpiError('MPI_ERR_TYPE', `${call}: ${t.name} is not made of one basic type; reductions take a predefined type, a pair type, or a type of one basic type`);
  return { array: b.array, per: t.size / b.size, pair: null, op };
}

/** The values of `count` elements of `t` in `buf`, read in. */
export function valuesOf(pk: Packer, call: string, name: string, buf: unknown, count: number, t: Datatype, kind: ReturnType<typeof reduction>): Values {
  const user = userBytes(call, name, buf, count, t);
  const A = kind.array;
  const n = count * kind.per;
  if (pk.proc.isSkeleton(user)) return { array: pk.proc.skeleton!.alloc(A as ArrayType<ReduceArray>, n), store: () => {} };
  if (kind.pair) {
    const p = kind.pair;
    const view = new DataView(user.buffer, user.byteOffset, user.byteLength);
    const array = new A(n);
    const ext = t.extent;
    for (let i = 0; i < count; i++) {
      const at = t.trueLb + i * ext;
      array[2 * i] = readValue(view, at, p) as never;
      array[2 * i + 1] = (A === BigInt64Array ? BigInt(view.getInt32(at + p.indexOffset, true)) : view.getInt32(at + p.indexOffset, true)) as never;
    }
    return {
      array,
      store: () => {
        for (let i = 0; i < count; i++) {
          const at = t.trueLb + i * ext;
          writeValue(view, at, p, array[2 * i]!);
          view.setInt32(at + p.indexOffset, Number(array[2 * i + 1]!), true);
        }
      },
    };
  }
  if (!t.contiguous(count)) {
    // a non-contiguous layout: the values travel packed (a user op gets them back in the layout, opOnType), written back after
    const packed = sendBytes(pk, user, 0, count, t);
    const array = new A(packed.buffer as ArrayBuffer, packed.byteOffset, n);
    return { array, store: () => pk.proc.charge(unpackFrom(pk, packed, 0, user, 0, count, t)) };
  }
  const at = user.byteOffset + t.trueLb;
  if (at % A.BYTES_PER_ELEMENT === 0) return { array: new A(user.buffer as ArrayBuffer, at, n), store: () => {} };
  // not aligned for a typed array over the user's bytes: work on a copy
  const copy = user.slice(t.trueLb, t.trueLb + count * t.size);
  const array = new A(copy.buffer, 0, n);
  return { array, store: () => user.set(copy, t.trueLb) };
}

/** The value of the pair `p` at byte `at` of `v`. */
export function readValue(v: DataView, at: number, p: Pair): number | bigint {
  switch (p.value.size) {
    case 2:
      return v.getInt16(at, true);
    case 4:
      return p.value.array === Float32Array ? v.getFloat32(at, true) : v.getInt32(at, true);
    default:
      return p.value.array === Float64Array ? v.getFloat64(at, true) : v.getBigInt64(at, true);
  }
}

/** Writes `x` as the value of the pair `p` at byte `at` of `v`. */
export function writeValue(v: DataView, at: number, p: Pair, x: number | bigint): void {
  switch (p.value.size) {
    case 2:
      return v.setInt16(at, Number(x), true);
    case 4:
      return p.value.array === Float32Array ? v.setFloat32(at, Number(x), true) : v.setInt32(at, Number(x), true);
    default:
      return p.value.array === Float64Array ? v.setFloat64(at, Number(x), true) : v.setBigInt64(at, BigInt(x), true);
  }
}

/** The checked datatype and count of a reduction's long form, and its op as applied to that datatype (a user op sees the datatype's layout). */
function reduceArgs(call: string, count: unknown, datatype: unknown, op: Op): { t: Datatype; n: number; kind: ReturnType<typeof reduction>; op: Op } {
  const t = checkType(call, 'datatype', datatype);
  const n = checkCount(call, 'count', count);
  if (!op || typeof op.apply !== 'function') throw new MpiError('MPI_ERR_OP', `${call}: op must be an MPI op (mpi.SUM, mpi.MAX, ..., or mpi.opCreate(...)), got ${describe(op)}`);
  const kind = reduction(call, t, op);
  return { t, n, kind, op: opOnType(kind.op, t, kind.per) };
}

type Reducer<R> = (send: ReduceArray | typeof IN_PLACE, recv: ReduceArray, op: Op, opts: Opts) => R;

/** allreduce, scan and exscan: (sendBuf | IN_PLACE, recvBuf, count, datatype, op); `run` is the short form, `irun` its nonblocking one. */
export function reduceAllLong(call: string, pk: Packer, run: Reducer<Promise<void>>, irun: Reducer<Request>, a: readonly unknown[], mode: Mode = 'blocking'): Promise<void> | Request {
  const [sendBuf, recvBuf, count, datatype, userOp, opts] = a as [unknown, unknown, unknown, unknown, Op, Opts];
  const { t, n, kind, op } = reduceArgs(call, count, datatype, userOp);
  const recv = valuesOf(pk, call, 'recvBuf', recvBuf, n, t, kind);
  const send = sendBuf === IN_PLACE ? IN_PLACE : valuesOf(pk, call, 'sendBuf', sendBuf, n, t, kind).array;
  return direct(mode, () => run(send, recv.array, op, opts), () => irun(send, recv.array, op, opts), () => recv.store());
}

/** A reduction's short form on the values themselves (errors already name the call): blocking, or its request whose taking stores them. */
function direct(mode: Mode, blocking: () => Promise<void>, nonblocking: () => Request, after: () => void): Promise<void> | Request {
  if (mode === 'blocking') return blocking().then(after);
  const inner = nonblocking();
  return new LandingRequest(inner, inner.what, after);
}

/** MPI_Reduce(sendBuf | IN_PLACE, recvBuf, count, datatype, op, root): recvBuf matters at the root. */
export function reduceLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'reduce'): Promise<void> | Request {
  const [sendBuf, recvBuf, count, datatype, userOp, root, opts] = a as [unknown, unknown, unknown, unknown, Op, number, Opts];
  const { t, n, kind, op } = reduceArgs(call, count, datatype, userOp);
  const recv = c.rank === root ? valuesOf(pk, call, 'recvBuf', recvBuf, n, t, kind) : null;
  const send = sendBuf === IN_PLACE ? IN_PLACE : valuesOf(pk, call, 'sendBuf', sendBuf, n, t, kind).array;
  return direct(mode, () => c.reduce(send, recv?.array ?? null, op, root, opts), () => c.ireduce(send, recv?.array ?? null, op, root, opts), () => recv?.store());
}

/** MPI_Reduce_scatter_block(sendBuf, recvBuf, recvCount, datatype, op). */
export function reduceScatterBlockLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'reduceScatterBlock'): Promise<void> | Request {
  const [sendBuf, recvBuf, recvCount, datatype, userOp, opts] = a as [unknown, unknown, unknown, unknown, Op, Opts];
  const { t, n, kind, op } = reduceArgs(call, recvCount, datatype, userOp);
  if (sendBuf === IN_PLACE) {
    // in place: recvBuf holds every rank's block and gets the result in its first
    const all = valuesOf(pk, call, 'recvBuf', recvBuf, n * c.size, t, kind);
    return direct(mode, () => c.reduceScatterBlock(IN_PLACE, all.array, op, opts), () => c.ireduceScatterBlock(IN_PLACE, all.array, op, opts), () => all.store());
  }
  const send = valuesOf(pk, call, 'sendBuf', sendBuf, n * c.size, t, kind);
  const recv = valuesOf(pk, call, 'recvBuf', recvBuf, n, t, kind);
  return direct(mode, () => c.reduceScatterBlock(send.array, recv.array, op, opts), () => c.ireduceScatterBlock(send.array, recv.array, op, opts), () => recv.store());
}

/** MPI_Reduce_scatter(sendBuf, recvBuf, recvCounts, datatype, op). */
export function reduceScatterLong(c: CollComm, pk: Packer, a: readonly unknown[], mode: Mode = 'blocking', call = 'reduceScatter'): Promise<void> | Request {
  const [sendBuf, recvBuf, recvCounts, datatype, userOp, opts] = a as [unknown, unknown, unknown, unknown, Op, Opts];
  const counts = countsOf(call, 'recvCounts', recvCounts, c.size);
  const { t, kind, op } = reduceArgs(call, 0, datatype, userOp);
  const total = counts.reduce((x, y) => x + y, 0);
  const per = counts.map((k) => k * kind.per);
  if (sendBuf === IN_PLACE) {
    // in place: recvBuf holds the whole input and gets this rank's block at its start
    const all = valuesOf(pk, call, 'recvBuf', recvBuf, total, t, kind);
    return direct(mode, () => c.reduceScatter(IN_PLACE, all.array, per, op, opts), () => c.ireduceScatter(IN_PLACE, all.array, per, op, opts), () => all.store());
  }
  const send = valuesOf(pk, call, 'sendBuf', sendBuf, total, t, kind);
  const recv = valuesOf(pk, call, 'recvBuf', recvBuf, counts[c.rank]!, t, kind);
  return direct(mode, () => c.reduceScatter(send.array, recv.array, per, op, opts), () => c.ireduceScatter(send.array, recv.array, per, op, opts), () => recv.store());
}
