import { NicStatus, statusName } from '../../../fabric/nic/nic.ts';
import { describe, isReduceArray } from '../constants.ts';
import { PROC_NULL } from '../message.ts';
import type { Op, ReduceArray } from '../ops.ts';
import { MpiError, type Request, type Status } from '../request.ts';
import { checkAccOp, kindOfArray, longSpec, shortSpec, type AccSpec, type Side } from './acc-layout.ts';
import { amoFor, checkAccumulate, isQuadword, softwareRmw, type RmwContext } from './accumulate.ts';
import { NO_OP } from './constants.ts';
import type { TargetInfo } from './control.ts';
import { findRegions, type Region } from './dynamic.ts';
import { Epochs } from './epochs.ts';
import type { WinHost, WinParts, WinShared } from './parts.ts';
import { RmaNic } from './transport.ts';
import { accumulateValues, typedTransfer } from './typed.ts';
import { checkType, type Datatype } from '../datatype.ts';

export const EMPTY = new Uint8Array(0);

/** Bytes [from, from + bytes) past an operation's target displacement, and where they are on the target's NIC. */
export interface Piece {
  readonly from: number;
  readonly bytes: number;
  readonly handle: number;
  readonly offset: number;
}

/**
 * Where an operation's bytes are at the target: one registration (`handle`, `offset` of the
 * displacement), or, for a dynamic window's access reaching across regions attached back to
 * back, one piece per region (`pieces`).
 */
export interface Target {
  readonly t: TargetInfo;
  readonly handle: number;
  readonly offset: number;
  readonly pieces: readonly Piece[] | null;
}

/** The pieces of bytes [from, from + bytes) past the target displacement of `at`, each inside one registration. */
export function piecesOf(at: Target, from: number, bytes: number): Piece[] {
  if (!at.pieces) return [{ from, bytes, handle: at.handle, offset: at.offset + from }];
  const out: Piece[] = [];
  for (const p of at.pieces) {
    const lo = Math.max(from, p.from);
    const hi = Math.min(from + bytes, p.from + p.bytes);
    if (hi > lo) out.push({ from: lo, bytes: hi - lo, handle: p.handle, offset: p.offset + (lo - p.from) });
  }
  return out;
}

/**
 * The communication calls of a window (MPI-3.1 §11.3) and the checks they share: the target,
 * the epoch, the range; `Win` adds creation's other half and the synchronisation calls. How each
 * call maps onto the NIC is told at the top of window.ts.
 */
export class WinOperations {
  protected freed = false;
  protected readonly epochs = new Epochs();
  protected readonly nic: RmaNic;
  /** This origin's copy of each target's region table (dynamic windows). */
  private readonly tableCopies: (readonly Region[] | undefined)[] = [];

  constructor(
    protected readonly host: WinHost,
    protected readonly shared: WinShared,
    protected readonly parts: WinParts,
  ) {
    this.nic = new RmaNic(host.proc, host.world.progressOf(host.proc.rank), host.comm.size);
  }

  /** Puts `origin` into rank `target`'s window at `disp` (MPI_Put); complete at the next synchronisation. */
  put(origin: ArrayBufferView, target: number, disp: number): Promise<void>;
  /** MPI_Put's long form: `originCount` x `originType` from `origin` to `targetCount` x `targetType` at `targetDisp`. */
  put(origin: ArrayBufferView, originCount: number, originType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype): Promise<void>;
  async put(...a: unknown[]): Promise<void> {
    await this.transferAny('put', 'put', a, false);
  }

  /** Gets rank `target`'s window at `disp` into `origin` (MPI_Get); the data is there after the next synchronisation. */
  get(origin: ArrayBufferView, target: number, disp: number): Promise<void>;
  /** MPI_Get's long form: `targetCount` x `targetType` at `targetDisp` into `originCount` x `originType` at `origin`. */
  get(origin: ArrayBufferView, originCount: number, originType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype): Promise<void>;
  async get(...a: unknown[]): Promise<void> {
    await this.transferAny('get', 'get', a, false);
  }

  /** A put whose request completes when `origin` may be reused (MPI_Rput; passive-target epochs only). */
  rput(origin: ArrayBufferView, target: number, disp: number): Promise<Request>;
  rput(origin: ArrayBufferView, originCount: number, originType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype): Promise<Request>;
  async rput(...a: unknown[]): Promise<Request> {
    return (await this.transferAny('rput', 'put', a, true))!;
  }

  /** A get whose request completes with the data in `origin` (MPI_Rget; passive-target epochs only). */
  rget(origin: ArrayBufferView, target: number, disp: number): Promise<Request>;
  rget(origin: ArrayBufferView, originCount: number, originType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype): Promise<Request>;
  async rget(...a: unknown[]): Promise<Request> {
    return (await this.transferAny('rget', 'get', a, true))!;
  }

  /** The short form (buf, target, disp) or the long one (buf, count, type, target, disp, count, type). */
  private transferAny(call: string, op: 'put' | 'get', a: readonly unknown[], wantReq: boolean): Promise<Request | null> {
    if (a.length <= 3) return this.transfer(call, op, a[0] as ArrayBufferView, a[1] as number, a[2] as number, wantReq);
    const [buf, oc, ot, target, disp, tc, tt] = a as [ArrayBufferView, number, Datatype, number, number, number, Datatype];
    return this.transferTyped(call, op, buf, oc, ot, target, disp, tc, tt, wantReq);
  }

  /** A typed put or get: one NIC transfer per contiguous segment of the two layouts (see typed.ts). */
  protected async transferTyped(call: string, op: 'put' | 'get', buf: ArrayBufferView, oc: number, ot: Datatype, target: number, disp: number, tc: number, tt: Datatype, wantReq: boolean): Promise<Request | null> {
    this.live(call);
    const x = typedTransfer(call, buf, oc, ot, tc, tt);
    const what = `${call}(target=${target}, disp=${disp}, ${x.bytes} bytes in ${x.segments.length} pieces)`;
    const req = wantReq ? this.nic.request(what) : null;
    const status: Status = { source: target, tag: -1, count: oc, bytes: x.bytes };
    const at = await this.access(call, target, disp, x.span, wantReq);
    if (!at || x.segments.length === 0) {
      req?.complete(status);
      return req;
    }
    const pieces = x.segments.flatMap((g) => piecesOf(at, g.target, g.bytes).map((p) => ({ p, origin: g.origin + p.from - g.target })));
    let left = pieces.length;
    let failed: NicStatus = NicStatus.Ok;
    const one = (s: NicStatus): void => {
      if (s !== NicStatus.Ok) failed = s;
      if (--left === 0 && req) this.settle(req, failed, status, what);
    };
    for (const { p, origin } of pieces) {
      const local = x.user.subarray(origin, origin + p.bytes);
      const done = req ? (op === 'put' ? { onLocal: () => one(NicStatus.Ok) } : { onDone: one }) : {};
      await this.nic.issue({ op, target, proc: at.t.proc, handle: p.handle, offset: p.offset, local, ...done }, what);
    }
    return req;
  }

  /** Combines `origin` into rank `target`'s window at `disp` with `op`, element by element atomically (MPI_Accumulate). */
  accumulate(origin: ReduceArray, target: number, disp: number, op: Op): Promise<void>;
  /** MPI_Accumulate's long form: any datatypes made of one predefined type (a basic or a pair type) at both ends. */
  accumulate(origin: ArrayBufferView, originCount: number, originType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype, op: Op): Promise<void>;
  async accumulate(...a: unknown[]): Promise<void> {
    const [spec, target, disp, op] = this.accumulateArgs('accumulate', a);
    await this.combine('accumulate', spec, target, disp, op, false);
  }

  /** Like `accumulate`, returning the target's elements as they were into `result` (MPI_Get_accumulate); `origin` may be null with NO_OP. */
  getAccumulate(origin: ReduceArray | null, result: ReduceArray, target: number, disp: number, op: Op): Promise<void>;
  /** MPI_Get_accumulate's long form: any datatypes made of one predefined type; the origin's are ignored with NO_OP. */
  getAccumulate(origin: ArrayBufferView | null, originCount: number, originType: Datatype, result: ArrayBufferView, resultCount: number, resultType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype, op: Op): Promise<void>;
  async getAccumulate(...a: unknown[]): Promise<void> {
    const [spec, target, disp, op] = this.getAccumulateArgs('getAccumulate', a);
    await this.combine('getAccumulate', spec, target, disp, op, false);
  }

  /** One element of getAccumulate (MPI_Fetch_and_op): element 0 of `origin` and `result`. */
  fetchAndOp(origin: ReduceArray | null, result: ReduceArray, target: number, disp: number, op: Op): Promise<void>;
  /** MPI_Fetch_and_op's long form: one element of predefined `datatype` (a pair type too) at `origin` and `result`. */
  fetchAndOp(origin: ArrayBufferView | null, result: ArrayBufferView, datatype: Datatype, target: number, disp: number, op: Op): Promise<void>;
  async fetchAndOp(...a: unknown[]): Promise<void> {
    const call = 'fetchAndOp';
    if (a.length > 5) {
      const [o, r, dt, target, disp, op] = a as [ArrayBufferView | null, ArrayBufferView, Datatype, number, number, Op];
      const t = checkType(call, 'datatype', dt);
      if (!t.predefined) throw new MpiError('MPI_ERR_TYPE', `${call}: datatype ${t.name} is not predefined; fetchAndOp takes one element of a predefined type`);
      await this.combine(call, this.typedSpec(call, o === null || op === NO_OP ? null : { buf: o, count: 1, type: t }, { buf: r, count: 1, type: t }, 1, t, op), target, disp, op, false);
      return;
    }
    const [origin, result, target, disp, op] = a as [ReduceArray | null, ReduceArray, number, number, Op];
    const one = (x: ReduceArray | null): ReduceArray | null => (isReduceArray(x) && x.length > 1 ? x.subarray(0, 1) : x);
    await this.combine(call, shortSpecOf(call, one(origin), one(result), op, true), target, disp, op, false);
  }

  /** An accumulate whose request completes when `origin` may be reused (MPI_Raccumulate; passive-target epochs only). */
  raccumulate(origin: ReduceArray, target: number, disp: number, op: Op): Promise<Request>;
  /** MPI_Raccumulate's long form: any datatypes made of one predefined type. */
  raccumulate(origin: ArrayBufferView, originCount: number, originType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype, op: Op): Promise<Request>;
  async raccumulate(...a: unknown[]): Promise<Request> {
    const [spec, target, disp, op] = this.accumulateArgs('raccumulate', a);
    return (await this.combine('raccumulate', spec, target, disp, op, true))!;
  }

  /** A getAccumulate whose request completes with the old elements in `result` (MPI_Rget_accumulate). */
  rgetAccumulate(origin: ReduceArray | null, result: ReduceArray, target: number, disp: number, op: Op): Promise<Request>;
  /** MPI_Rget_accumulate's long form: any datatypes made of one predefined type. */
  rgetAccumulate(origin: ArrayBufferView | null, originCount: number, originType: Datatype, result: ArrayBufferView, resultCount: number, resultType: Datatype, target: number, targetDisp: number, targetCount: number, targetType: Datatype, op: Op): Promise<Request>;
  async rgetAccumulate(...a: unknown[]): Promise<Request> {
    const [spec, target, disp, op] = this.getAccumulateArgs('rgetAccumulate', a);
    return (await this.combine('rgetAccumulate', spec, target, disp, op, true))!;
  }

  /**
   * Atomically replaces element `disp` of rank `target`'s window by `origin[0]` if it equals
   * `compare[0]`; `result[0]` receives the old element (MPI_Compare_and_swap). Integer types only.
   */
  compareAndSwap(origin: ReduceArray, compare: ReduceArray, result: ReduceArray, target: number, disp: number): Promise<void>;
  /** MPI_Compare_and_swap's long form: one element of predefined `datatype` at each buffer. */
  compareAndSwap(origin: ArrayBufferView, compare: ArrayBufferView, result: ArrayBufferView, datatype: Datatype, target: number, disp: number): Promise<void>;
  async compareAndSwap(...a: unknown[]): Promise<void> {
    const call = 'compareAndSwap';
    let [origin, compare, result, target, disp] = a as [ReduceArray, ReduceArray, ReduceArray, number, number];
    if (a.length > 5) {
      const dt = a[3] as Datatype;
      [origin, compare, result] = (['origin', 'compare', 'result'] as const).map((name, i) => accumulateValues(call, name, a[i], 1, dt)) as [ReduceArray, ReduceArray, ReduceArray];
      [target, disp] = [a[4] as number, a[5] as number];
    }
    this.live(call);
    for (const [name, b] of [['origin', origin], ['compare', compare], ['result', result]] as const) {
      if (!isReduceArray(b) || b.length < 1) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} must be a typed array of at least one element, got ${describe(b)}`);
      if (b.constructor !== origin.constructor) throw new MpiError('MPI_ERR_TYPE', `${call}: ${name} is ${b.constructor.name}, origin is ${origin.constructor.name}; they must have the same type`);
    }
    if (origin instanceof Float32Array || origin instanceof Float64Array) throw new MpiError('MPI_ERR_TYPE', `${call}: ${origin.constructor.name} is not an integer type`);
    const o = origin.subarray(0, 1);
    const res = result.subarray(0, 1);
    const at = await this.access(call, target, disp, o.byteLength, false);
    if (!at) return;
    const what = `${call}(target=${target}, disp=${disp})`;
    if (at.pieces) throw new MpiError('MPI_ERR_RMA_RANGE', `${call}: the element at address ${disp} lies across two attached regions`);
    if (isQuadword(o) && at.offset % 8 === 0 && !this.skeleton(o, res, target)) {
      await this.nic.issue(
        { op: 'amo', target, proc: at.t.proc, handle: at.handle, offset: at.offset, local: bytesOf(res), amo: { op: 'cswap', width: 8, operand: BigInt.asUintN(64, o[0]!), compare: BigInt.asUintN(64, (compare as BigInt64Array)[0]!), fetch: true }, ordered: true },
        what,
      );
      return;
    }
    await softwareRmw(this.rmw, at.t, [{ handle: at.handle, offset: at.offset, bytes: o.byteLength }], kindOfArray(o), o, res, 'cswap', compare.subarray(0, 1), false, what);
  }

  // ---------------------------------------------------------------- shared by the calls

  protected get rmw(): RmwContext {
    return { proc: this.host.proc, nic: this.nic, watch: this.shared.locks, me: this.host.comm.rank };
  }

  /** A put or get; with `wantReq`, a request-based one (passive-target epochs only). */
  protected async transfer(call: string, op: 'put' | 'get', buf: ArrayBufferView, target: number, disp: number, wantReq: boolean): Promise<Request | null> {
    this.live(call);
    const bytes = viewBytes(call, buf);
    const what = `${call}(target=${target}, disp=${disp}, ${bytes.length} bytes)`;
    const req = wantReq ? this.nic.request(what) : null;
    const status: Status = { source: target, tag: -1, count: elementsOf(buf), bytes: bytes.length };
    const at = await this.access(call, target, disp, bytes.length, wantReq);
    if (!at || bytes.length === 0) {
      req?.complete(status);
      return req;
    }
    const pieces = piecesOf(at, 0, bytes.length);
    let left = pieces.length;
    let failed: NicStatus = NicStatus.Ok;
    const one = (s: NicStatus): void => {
      if (s !== NicStatus.Ok) failed = s;
      if (--left === 0 && req) this.settle(req, failed, status, what);
    };
    for (const p of pieces) {
      const local = pieces.length === 1 ? bytes : bytes.subarray(p.from, p.from + p.bytes);
      const done = req ? (op === 'put' ? { onLocal: () => one(NicStatus.Ok) } : { onDone: one }) : {};
      await this.nic.issue({ op, target, proc: at.t.proc, handle: p.handle, offset: p.offset, local, ...done }, what);
    }
    return req;
  }

  /** An accumulate's arguments, short form (origin, target, disp, op) or long (origin, count, type, target, disp, count, type, op). */
  private accumulateArgs(call: string, a: readonly unknown[]): [AccSpec, number, number, Op] {
    if (a.length <= 4) {
      const [origin, target, disp, op] = a as [ReduceArray, number, number, Op];
      return [shortSpecOf(call, origin, null, op, false), target, disp, op];
    }
    const [buf, oc, ot, target, disp, tc, tt, op] = a as [ArrayBufferView, number, Datatype, number, number, number, Datatype, Op];
    return [this.typedSpec(call, { buf, count: oc, type: ot }, null, tc, tt, op), target, disp, op];
  }

  /** A get-accumulate's arguments, short form (origin, result, target, disp, op) or long (with a count and type for each buffer). */
  private getAccumulateArgs(call: string, a: readonly unknown[]): [AccSpec, number, number, Op] {
    if (a.length <= 5) {
      const [origin, result, target, disp, op] = a as [ReduceArray | null, ReduceArray, number, number, Op];
      return [shortSpecOf(call, origin, result, op, true), target, disp, op];
    }
    const [buf, oc, ot, res, rc, rt, target, disp, tc, tt, op] = a as [ArrayBufferView | null, number, Datatype, ArrayBufferView, number, Datatype, number, number, number, Datatype, Op];
    // with NO_OP the origin's arguments are ignored (MPI-3.1 §11.3.4)
    const origin = buf === null || op === NO_OP ? null : { buf, count: oc, type: ot };
    return [this.typedSpec(call, origin, { buf: res, count: rc, type: rt }, tc, tt, op), target, disp, op];
  }

  /** The long form's spec, its op checked. */
  private typedSpec(call: string, origin: Side | null, result: Side | null, tc: unknown, tt: unknown, op: Op): AccSpec {
    this.live(call);
    if (!op || typeof op.apply !== 'function') throw new MpiError('MPI_ERR_OP', `${call}: op must be an MPI op (mpi.SUM, mpi.REPLACE, ...), got ${describe(op)}`);
    const spec = longSpec(call, { proc: this.host.proc, params: this.host.world.params }, origin, result, { count: tc, type: tt }, op);
    checkAccOp(call, spec.kind, op, result !== null, false);
    return spec;
  }

  /**
   * An accumulate-type call: one NIC AMO per element where the NIC has it (8-byte integers, an
   * op it covers, aligned, a result that can take the fetched bytes in place), else a software
   * read-modify-write of every contiguous piece of the target under one hold of its mutex.
   */
  protected async combine(call: string, spec: AccSpec, target: number, disp: number, op: Op, wantReq: boolean): Promise<Request | null> {
    this.live(call);
    const { kind, items, result } = spec;
    const o = spec.origin ?? result!;
    const what = `${call}(target=${target}, disp=${disp}, ${items} x ${kind.name}, ${op.name})`;
    const req = wantReq ? this.nic.request(what) : null;
    const status: Status = { source: target, tag: -1, count: items, bytes: items * kind.itemBytes };
    const at = await this.access(call, target, disp, spec.span, wantReq);
    if (!at || items === 0) {
      req?.complete(status);
      return req;
    }
    const pieces = spec.runs.flatMap((r) => piecesOf(at, r.target, r.bytes).map((p) => ({ handle: p.handle, offset: p.offset, bytes: p.bytes, from: r.from + p.from - r.target })));
    const elem = kind.pair ? kind.pair.value.size : kind.itemBytes;
    const split = at.pieces ? pieces.find((p) => p.from % elem !== 0 || p.bytes % elem !== 0) : undefined;
    if (split) throw new MpiError('MPI_ERR_RMA_RANGE', `${call}: an element at byte ${split.from + split.bytes} past the displacement lies across two attached regions`);
    const amo = spec.skeleton || kind.pair || this.skeleton(o, result, target) ? null : amoFor(op, o, 0);
    if (amo === null || !pieces.every((p) => p.offset % 8 === 0 && p.bytes % 8 === 0) || (result !== null && !spec.resultInPlace)) {
      await softwareRmw(this.rmw, at.t, pieces, kind, o, result, op, null, spec.skeleton, what);
      spec.finish();
      req?.complete(status);
      return req;
    }
    const q = o as BigInt64Array | BigUint64Array;
    const out = result ? bytesOf(result) : null;
    let left = q.length;
    let failed: NicStatus = NicStatus.Ok;
    const last = (s: NicStatus): void => {
      if (s !== NicStatus.Ok) failed = s;
      if (--left === 0 && req) this.settle(req, failed, status, what);
    };
    for (const p of pieces) {
      for (let j = 0; j < p.bytes; j += 8) {
        const i = (p.from + j) / 8;
        await this.nic.issue(
          {
            op: 'amo',
            target,
            proc: at.t.proc,
            handle: p.handle,
            offset: p.offset + j,
            local: out ? out.subarray(8 * i, 8 * i + 8) : EMPTY,
            amo: { op: amo, width: 8, operand: op === NO_OP ? 0n : BigInt.asUintN(64, q[i]!), fetch: out !== null },
            ordered: true,
            // a non-fetching AMO's request completes when its operand has left (local completion)
            ...(out ? { onDone: last } : { onLocal: () => last(NicStatus.Ok) }),
          },
          what,
        );
      }
    }
    spec.finish();
    return req;
  }

  /**
   * The checks every operation makes, in MPI's order: the target (PROC_NULL: null, nothing to
   * do), the epoch (request-based calls need a passive-target one), and the target's range;
   * returns where the bytes are on the target's NIC.
   */
  protected async access(call: string, target: number, disp: number, bytes: number, passive: boolean): Promise<Target | null> {
    if (target === PROC_NULL) return null;
    this.checkRank(call, 'target', target);
    if (passive) this.epochs.passive(call, target);
    this.epochs.operation(call, target);
    if (!Number.isInteger(disp) || disp < 0) throw new MpiError('MPI_ERR_DISP', `${call}: disp=${disp} must be a non-negative integer`);
    const t = this.parts.targets[target]!;
    if (this.parts.flavor === 'dynamic') {
      const rs = await this.regions(call, t, disp, bytes);
      const r = rs[0]!;
      if (rs.length === 1) return { t, handle: r.handle, offset: disp - r.address, pieces: null };
      const pieces = rs.map((x) => ({ from: Math.max(x.address - disp, 0), bytes: Math.min(x.address + x.mem.length, disp + bytes) - Math.max(x.address, disp), handle: x.handle, offset: Math.max(disp - x.address, 0) }));
      return { t, handle: r.handle, offset: disp - r.address, pieces };
    }
    const offset = disp * t.dispUnit;
    if (offset + bytes > t.size) {
      throw new MpiError('MPI_ERR_RMA_RANGE', `${call}: ${bytes} bytes at displacement ${disp} (byte ${offset}) run past the end of rank ${target}'s ${t.size}-byte window`);
    }
    return { t, handle: t.memHandle, offset, pieces: null };
  }

  /** The regions of a dynamic window at `t` holding [address, address + bytes): from this origin's copy of its table, read again when they are not there. */
  protected async regions(call: string, t: TargetInfo, address: number, bytes: number): Promise<Region[]> {
    const table = this.shared.tables[t.rank]!;
    const copy = this.tableCopies[t.rank];
    let r = copy ? findRegions(copy, address, bytes) : undefined;
    if (!r || !r.every((x) => table.regions.includes(x))) {
      const n = Math.max(1, table.regions.length);
      const what = `${call}: reading rank ${t.rank}'s table of attached regions`;
      const at = table.tableAt(t.ctrlHandle);
      const s = await this.nic.run({ op: 'get', target: t.rank, proc: t.proc, handle: at.handle, offset: at.offset, local: new Uint8Array(16 * n), internal: true }, what);
      if (s !== NicStatus.Ok) throw new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the read with status ${statusName(s)}`);
      this.tableCopies[t.rank] = table.regions;
      r = findRegions(table.regions, address, bytes);
    }
    if (!r) throw new MpiError('MPI_ERR_RMA_RANGE', `${call}: no region attached at rank ${t.rank} holds ${bytes} bytes at address ${address}`);
    return r;
  }

  /** Whether skeleton memory is involved: AMOs need real memory, so such an accumulate runs in software (which moves no bytes). */
  protected skeleton(o: ReduceArray, result: ReduceArray | null, target: number): boolean {
    const p = this.host.proc;
    const seg = this.shared.segments[target];
    return p.isSkeleton(o) || (result !== null && p.isSkeleton(result)) || (seg !== null && seg !== undefined && p.isSkeleton(seg));
  }

  protected settle(req: Request, s: NicStatus, status: Status, what: string): void {
    if (s === NicStatus.Ok) req.complete(status);
    else req.fail(new MpiError('MPI_ERR_OTHER', `${what}: the NIC failed the transfer with status ${statusName(s)}`));
  }

  protected checkRank(call: string, name: string, v: number): void {
    const n = this.host.comm.size;
    if (!Number.isInteger(v) || v < 0 || v >= n) throw new MpiError('MPI_ERR_RANK', `${call}: ${name}=${v} is not a rank of the window (0..${n - 1} or mpi.PROC_NULL)`);
  }

  /** MPI_ERR_WIN for any call on a freed window. */
  protected live(call: string): void {
    if (this.freed) throw new MpiError('MPI_ERR_WIN', `${call}: the window was freed`);
  }
}

/** The bytes of a typed array or DataView (MPI_ERR_BUFFER otherwise). */
export function viewBytes(call: string, buf: unknown): Uint8Array {
  if (!ArrayBuffer.isView(buf)) throw new MpiError('MPI_ERR_BUFFER', `${call}: the buffer must be a typed array or DataView, got ${describe(buf)}`);
  return bytesOf(buf);
}

function bytesOf(buf: ArrayBufferView): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

function elementsOf(buf: ArrayBufferView): number {
  return 'BYTES_PER_ELEMENT' in buf ? buf.byteLength / (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : buf.byteLength;
}

/** The short form's spec: the typed arrays checked, they are the values. */
function shortSpecOf(call: string, origin: ReduceArray | null, result: ReduceArray | null, op: Op, fetching: boolean): AccSpec {
  // NO_OP reads only: the origin may be left out
  const o = checkAccumulate(call, origin === null && op === NO_OP ? result : origin, result, op, fetching);
  return shortSpec(origin === null ? null : o, fetching ? result : null, kindOfArray(o));
}
