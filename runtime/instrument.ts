/**
 * Per-call metrics and trace events of the API faces, installed only when a run asks for them:
 * each listed method of a rank's `mpi`, `shmem`, `dmapp` and `gni` objects (and of the
 * communicators, requests, windows and SHMEM contexts they hand out) is replaced on that object by a wrapper that
 * records the call. An uninstrumented run never reaches this module.
 *
 * Only user-level calls count: a call made while another of the same rank is in progress (a
 * collective's internal sends, SHMEM's DMAPP operations, `waitAll` waiting on each request) is
 * part of that call. A program that runs two calls of one rank at once (Promise.all) sees the
 * second counted as part of the first.
 *
 * Instrumentation does not change simulated time: the wrapper returns the very promise the call
 * returned and learns of its end from a reaction registered before the caller's, so the order
 * in which ranks' continuations run stays the same.
 */
import type { CallStats } from './metrics.ts';
import { Comm, InterComm } from './mpi/comm.ts';
import type { MpiObserver } from './mpi/core.ts';
import { Request } from './mpi/request.ts';
import type { Proc } from './proc.ts';
import { dmappCalls, gniCalls, mpiCalls, REQUEST_CALLS, shmemCalls, shmemCtxCalls, WIN_CALLS, WIN_MAKER_CALLS, type CallArgs, type CallSpec } from './calls.ts';
import { Win } from './mpi/rma/window.ts';
import { ShmemCtx } from './shmem/contexts.ts';
import type { TraceEvent, TraceRecorder } from './trace.ts';

/** A call in progress. */
interface Open {
  readonly name: string;
  readonly fromPs: number;
  readonly bytes: number;
  readonly event: TraceEvent | null;
  /** What the call listener made of the call at its start. */
  readonly token: unknown;
  algorithm: string | null;
}

/**
 * Sees every user-level call of a run (`simulate({ calls })`): its start with the method, the
 * object it was called on and the arguments as they were then, and its end with the result.
 */
export interface CallListener {
  /** Rank `rank` called `method` of `target` at `fromPs`; the value returned comes back to `end`. */
  begin(rank: number, method: string, target: object, args: readonly unknown[], fromPs: number): unknown;
  /** That call returned `result` at `toPs` (undefined when it failed). */
  end(rank: number, token: unknown, toPs: number, result: unknown): void;
  /** Rank `rank`'s program returned at `ps`. */
  finished(rank: number, ps: number): void;
}

interface Totals {
  calls: number;
  bytes: number;
  ps: number;
}

/** A rank's faces, as `makeContext` receives them. */
export interface Faces {
  readonly mpi: object;
  readonly shmem: object;
  readonly dmapp: object;
  readonly gni: object;
}

/** Records the calls of every rank of one run: totals by name, and trace events when tracing. */
export class Instrument implements MpiObserver {
  private readonly totals = new Map<string, Totals>();
  private readonly open: (Open | null)[];
  private readonly comms: number[];
  private readonly specs = { shmem: shmemCalls(), shmemCtx: shmemCtxCalls(), dmapp: dmappCalls(), gni: gniCalls() };
  /** Rounds of collective schedules, as spans inside their calls: only when tracing. */
  readonly round?: MpiObserver['round'];

  constructor(
    private readonly procs: readonly Proc[],
    /** The trace to fill, or null for totals only. */
    private readonly trace: TraceRecorder | null,
    /** Told of every user-level call, or null. */
    private readonly listener: CallListener | null = null,
  ) {
    this.open = procs.map(() => null);
    this.comms = procs.map(() => 0);
    if (trace) {
      this.round = (rank, index, fromPs, toPs, what) => {
        if (trace.traces(rank)) trace.round(rank, index, fromPs, toPs, what);
      };
    }
  }

  /** Wraps the calls of rank `r`'s faces. */
  attach(r: number, faces: Faces): void {
    if (this.trace?.traces(r)) this.procs[r]!.spans = this.trace.spansOf(r);
    this.wrapComm(r, faces.mpi as Comm, 'MPI_COMM_WORLD');
    this.wrap(r, faces.shmem, this.specs.shmem, 'shmem', null);
    const ctxDefault = (faces.shmem as { CTX_DEFAULT?: unknown }).CTX_DEFAULT;
    if (ctxDefault instanceof ShmemCtx) this.wrap(r, ctxDefault, this.specs.shmemCtx, 'shmem', null);
    this.wrap(r, faces.dmapp, this.specs.dmapp, 'dmapp', null);
    this.wrap(r, faces.gni, this.specs.gni, 'ugni', null);
  }

  /** Totals by call name over all ranks, most time first. */
  callStats(): CallStats[] {
    return [...this.totals]
      .map(([name, t]) => ({ name, calls: t.calls, bytes: t.bytes, timeUs: t.ps / 1e6 }))
      .sort((a, b) => b.timeUs - a.timeUs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  sent(src: number, dst: number, seq: number, ctx: number): void {
    // even contexts carry the program's messages, odd ones the collectives' own
    if (this.trace?.flows) this.trace.sent(src, dst, seq, ctx % 2 === 1);
  }

  matched(dst: number, src: number, seq: number, _ctx: number): void {
    if (this.trace?.flows) this.trace.matched(dst, src, seq);
  }

  algorithm(rank: number, name: string): void {
    const o = this.open[rank];
    if (o && o.algorithm === null) o.algorithm = name;
  }

  private wrapComm(r: number, comm: Comm | InterComm, label: string): void {
    this.wrap(r, comm, mpiCalls(comm.size), 'mpi', label);
    this.wrap(r, comm, WIN_MAKER_CALLS, 'mpi', label);
  }

  /** Replaces each listed method of `obj` by a recording wrapper. */
  private wrap(r: number, obj: object, specs: Readonly<Record<string, CallSpec>>, cat: string, comm: string | null): void {
    const target = obj as Record<string, unknown>;
    for (const [method, spec] of Object.entries(specs)) {
      const fn = target[method];
      if (typeof fn !== 'function') continue;
      const orig = fn as (...a: unknown[]) => unknown;
      target[method] = (...args: unknown[]): unknown => {
        if (this.open[r]) return orig.apply(obj, args);
        const o = this.enter(r, method, obj, spec, cat, comm, args);
        let result: unknown;
        try {
          result = orig.apply(obj, args);
        } catch (e) {
          this.exit(r, o, undefined);
          throw e;
        }
        if (result instanceof Promise) {
          result.then(
            (v: unknown) => this.exit(r, o, v),
            () => this.exit(r, o, undefined),
          );
        } else this.exit(r, o, result);
        return result;
      };
    }
  }

  private enter(r: number, method: string, obj: object, spec: CallSpec, cat: string, comm: string | null, args: readonly unknown[]): Open {
    const fromPs = this.procs[r]!.settle();
    let event: TraceEvent | null = null;
    if (this.trace?.traces(r)) {
      const a: CallArgs = spec.args ? spec.args(args) : {};
      if (comm !== null) a.comm = comm;
      event = this.trace.begin(r, spec.name, cat, fromPs, a);
    }
    const token = this.listener ? this.listener.begin(r, method, obj, args, fromPs) : null;
    const o: Open = { name: spec.name, fromPs, bytes: spec.bytes ? spec.bytes(args) : 0, event, token, algorithm: null };
    this.open[r] = o;
    return o;
  }

  private exit(r: number, o: Open, result: unknown): void {
    if (this.open[r] !== o) return;
    this.open[r] = null;
    const toPs = this.procs[r]!.settle();
    let t = this.totals.get(o.name);
    if (!t) {
      t = { calls: 0, bytes: 0, ps: 0 };
      this.totals.set(o.name, t);
    }
    t.calls++;
    t.bytes += o.bytes;
    t.ps += toPs - o.fromPs;
    if (o.event) {
      this.trace!.end(o.event, o.fromPs, toPs);
      if (o.algorithm !== null) o.event.args!.algorithm = o.algorithm;
    }
    this.listener?.end(r, o.token, toPs, result);
    // what the call handed out is instrumented too: requests, communicators
    if (result instanceof Request) this.wrap(r, result, REQUEST_CALLS, 'mpi', null);
    else if (result instanceof Comm) this.wrapComm(r, result, `comm ${++this.comms[r]!} (${result.size} ranks)`);
    else if (result instanceof InterComm) this.wrapComm(r, result, `comm ${++this.comms[r]!} (intercommunicator, ${result.size} + ${result.remoteSize} ranks)`);
    else if (result instanceof ShmemCtx) this.wrap(r, result, this.specs.shmemCtx, 'shmem', null);
    else if (result instanceof Win) this.wrap(r, result, WIN_CALLS, 'mpi', null);
    else if (typeof result === 'object' && result !== null && (result as { win?: unknown }).win instanceof Win) this.wrap(r, (result as { win: Win }).win, WIN_CALLS, 'mpi', null);
  }
}
