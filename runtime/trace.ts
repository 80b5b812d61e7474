/**
 * Rank timelines in the Chrome trace-event format, which https://ui.perfetto.dev and
 * chrome://tracing open: one process per node, one thread per rank, complete events for
 * computation, API calls (with their arguments), the waits inside them and the rounds of
 * collective schedules, and optional flow arrows from each MPI send to the receive that matched
 * it (the program's messages and, in their own category, the collectives'). Timestamps are simulated time in us.
 */
import type { Proc, SpanKind, SpanListener } from './proc.ts';
import { SPAN_COMPUTE } from './proc.ts';

/** What `simulate({ trace })` records. */
export interface TraceOptions {
  /** Flow arrows from each MPI send (the program's and the collectives') to the receive that matched it (default false). */
  readonly flows?: boolean;
  /** Ranks to record (default all). */
  readonly ranks?: readonly number[];
  /** Events after which recording stops, with a note in the metadata (default DEFAULT_MAX_TRACE_EVENTS). */
  readonly maxEvents?: number;
}

/** Events a trace holds unless told otherwise (about 150 MB of JSON). */
export const DEFAULT_MAX_TRACE_EVENTS = 1_000_000;

/** One event of the Trace Event Format. */
export interface TraceEvent {
  name: string;
  cat?: string;
  /** X complete, M metadata, s/f flow start/finish. */
  ph: 'X' | 'M' | 's' | 'f';
  /** Simulated time (us). */
  ts: number;
  /** Duration of a complete event (us). */
  dur?: number;
  /** The node. */
  pid: number;
  /** The rank. */
  tid: number;
  /** A flow's id (its start and finish share it). */
  id?: number;
  /** A flow finish binds to the slice that encloses it. */
  bp?: 'e';
  args?: Record<string, string | number | boolean>;
}

/** What a trace says about itself. */
export interface TraceMetadata {
  readonly machine: string;
  readonly nodes: number;
  readonly ranks: number;
  /** Ranks recorded. */
  readonly tracedRanks: readonly number[];
  readonly flows: boolean;
  readonly maxEvents: number;
  readonly events: number;
  /** True when recording stopped at `maxEvents`. */
  readonly truncated: boolean;
  /** Why the trace ends early, and how to get a complete one. */
  readonly note?: string;
}

/** A trace file's content. */
export interface Trace {
  readonly traceEvents: readonly TraceEvent[];
  readonly displayTimeUnit: 'ns';
  readonly metadata: TraceMetadata;
}

const us = (ps: number): number => ps / 1e6;

/** Records the events of one run; see the module comment. */
export class TraceRecorder {
  private readonly events: TraceEvent[] = [];
  private readonly traced: Uint8Array;
  private readonly max: number;
  private truncatedAtPs = -1;
  private nextFlow = 1;
  /** Sends whose flow may still start: `src:dst:seq` -> flow start time (ps), negated (minus one) for a collective's message. */
  private readonly pendingFlows = new Map<string, number>();
  readonly flows: boolean;

  constructor(
    private readonly procs: readonly Proc[],
    private readonly machine: { readonly name: string; readonly nodes: number },
    opts: TraceOptions,
  ) {
    const size = procs.length;
    this.traced = new Uint8Array(size);
    if (opts.ranks === undefined) this.traced.fill(1);
    else
      for (const r of opts.ranks) {
        if (!Number.isInteger(r) || r < 0 || r >= size) throw new RangeError(`trace.ranks: ${r} is not a rank (0..${size - 1})`);
        this.traced[r] = 1;
      }
    const max = opts.maxEvents ?? DEFAULT_MAX_TRACE_EVENTS;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`trace.maxEvents: expected a positive integer, got ${max}`);
    this.max = max;
    this.flows = opts.flows ?? false;
    const nodes = new Set<number>();
    for (let r = 0; r < size; r++) {
      if (!this.traced[r]) continue;
      const node = procs[r]!.node;
      if (!nodes.has(node)) {
        nodes.add(node);
        this.events.push({ name: 'process_name', ph: 'M', ts: 0, pid: node, tid: 0, args: { name: `node ${node}` } });
        this.events.push({ name: 'process_sort_index', ph: 'M', ts: 0, pid: node, tid: 0, args: { sort_index: node } });
      }
      this.events.push({ name: 'thread_name', ph: 'M', ts: 0, pid: node, tid: r, args: { name: `rank ${r}` } });
      this.events.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid: node, tid: r, args: { sort_index: r } });
    }
  }

  /** Whether rank `r`'s track is recorded. */
  traces(r: number): boolean {
    return this.traced[r] === 1;
  }

  /** The compute and wait spans of rank `r`, for its Proc. */
  spansOf(r: number): SpanListener {
    const pid = this.procs[r]!.node;
    return {
      span: (kind: SpanKind, from: number, to: number) => {
        const compute = kind === SPAN_COMPUTE;
        this.push({ name: compute ? 'compute' : 'wait', cat: compute ? 'compute' : 'wait', ph: 'X', ts: us(from), dur: us(to - from), pid, tid: r });
      },
    };
  }

  /** Opens a call's complete event at `fromPs` (its duration is set by `end`); null once the trace is full. */
  begin(r: number, name: string, cat: string, fromPs: number, args: Record<string, string | number | boolean>): TraceEvent | null {
    const e: TraceEvent = { name, cat, ph: 'X', ts: us(fromPs), dur: 0, pid: this.procs[r]!.node, tid: r, args };
    return this.push(e) ? e : null;
  }

  /** Closes a call's event at `toPs`. */
  end(e: TraceEvent, fromPs: number, toPs: number): void {
    e.dur = us(toPs - fromPs);
  }

  /**
   * A send: its flow starts now on the sender's track. `collective`: a message of a collective's
   * schedule (category `coll-flow`), else the program's own (category `flow`).
   */
  sent(src: number, dst: number, seq: number, collective = false): void {
    if (!this.traced[src] || !this.traced[dst]) return;
    const at = this.procs[src]!.time();
    this.pendingFlows.set(`${src}:${dst}:${seq}`, collective ? -1 - at : at);
  }

  /** The receive of that send matched it: the flow ends now on the receiver's track. */
  matched(dst: number, src: number, seq: number): void {
    const key = `${src}:${dst}:${seq}`;
    const v = this.pendingFlows.get(key);
    if (v === undefined) return;
    this.pendingFlows.delete(key);
    if (!this.room(2)) return;
    const collective = v < 0;
    const from = collective ? -1 - v : v;
    const cat = collective ? 'coll-flow' : 'flow';
    const id = this.nextFlow++;
    const s = this.procs[src]!;
    const d = this.procs[dst]!;
    this.events.push({ name: 'message', cat, ph: 's', id, ts: us(from), pid: s.node, tid: src });
    this.events.push({ name: 'message', cat, ph: 'f', bp: 'e', id, ts: us(d.engine.now), pid: d.node, tid: dst });
  }

  /** Round `index` of a collective's schedule on rank `r`, from posting to the end of its wait: a span inside the call. */
  round(r: number, index: number, fromPs: number, toPs: number, what: string): void {
    this.push({ name: `round ${index}`, cat: 'round', ph: 'X', ts: us(fromPs), dur: us(toPs - fromPs), pid: this.procs[r]!.node, tid: r, args: { waitsFor: what } });
  }

  /**
   * The network's pauses to compute new routes after a failure (Network.quiesces), as spans of
   * their own process, "network", numbered after the nodes.
   */
  networkPauses(spans: readonly { readonly startPs: number; readonly endPs: number }[]): void {
    if (spans.length === 0) return;
    const pid = this.machine.nodes;
    this.events.push({ name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: 'network' } });
    this.events.push({ name: 'process_sort_index', ph: 'M', ts: 0, pid, tid: 0, args: { sort_index: pid } });
    for (const s of spans) this.events.push({ name: 'quiesce: new routes', cat: 'fault', ph: 'X', ts: us(s.startPs), dur: us(s.endPs - s.startPs), pid, tid: 0 });
  }

  /** The finished trace. */
  result(): Trace {
    const truncated = this.truncatedAtPs >= 0;
    const tracedRanks: number[] = [];
    for (let r = 0; r < this.traced.length; r++) if (this.traced[r]) tracedRanks.push(r);
    return {
      traceEvents: this.events,
      displayTimeUnit: 'ns',
      metadata: {
        machine: this.machine.name,
        nodes: this.machine.nodes,
        ranks: this.procs.length,
        tracedRanks,
        flows: this.flows,
        maxEvents: this.max,
        events: this.events.length,
        truncated,
        ...(truncated ? { note: truncationNote(this.max, this.truncatedAtPs) } : {}),
      },
    };
  }

  private push(e: TraceEvent): boolean {
    if (!this.room(1)) return false;
    this.events.push(e);
    return true;
  }

  private room(n: number): boolean {
    if (this.events.length + n <= this.max) return true;
    if (this.truncatedAtPs < 0) this.truncatedAtPs = this.procs[0]!.engine.now;
    return false;
  }
}

/** What a truncated trace says about where it stops and how to record a whole run. */
export function truncationNote(maxEvents: number, atPs: number): string {
  return `recording stopped after ${maxEvents} events at ${(atPs / 1e6).toFixed(3)} us of simulated time; record fewer ranks with --trace-ranks or allow more events with --trace-max-events`;
}

/** The trace as JSON text in pieces (one event per line), to write a large file without one huge string. */
export function* traceChunks(trace: Trace): Generator<string> {
  yield '{"traceEvents":[\n';
  const ev = trace.traceEvents;
  const per = 4096;
  for (let i = 0; i < ev.length; i += per) {
    const part = ev.slice(i, i + per).map((e) => JSON.stringify(e));
    yield (i > 0 ? ',\n' : '') + part.join(',\n');
  }
  yield `\n],\n"displayTimeUnit":"ns",\n"metadata":${JSON.stringify(trace.metadata)}}\n`;
}
