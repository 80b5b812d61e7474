import { performance } from 'node:perf_hooks';
import { Engine, type EventHandler } from '../fabric/engine/engine.ts';

/** Options of the engine (hold model) benchmark. */
export interface EngineBenchOptions {
  /** Events processed by the measured run, the pre-filled ones included (default 3,000,000). */
  readonly events?: number;
  /** Pending events kept in the queue (default 10,000). */
  readonly pending?: number;
  /** Events of the warm-up run on a separate engine (default 300,000). */
  readonly warmupEvents?: number;
  /** Mean time increment of a rescheduled event in ps (default 1,000 ps). */
  readonly meanIncrementPs?: number;
  /** Engine seed (default 1). */
  readonly seed?: number;
  /** Measured runs (each on a fresh engine, same seed); the median is reported (default 3). */
  readonly repeats?: number;
}

/** Result of the engine benchmark. */
export interface EngineBenchResult {
  readonly eventsPerSec: number;
  readonly events: number;
  readonly pending: number;
  /** Wall time of the reported (median) run. */
  readonly seconds: number;
  /** Events per second of every measured run, in run order. */
  readonly runs: readonly number[];
  /** Simulated time reached (ps), for a determinism check across runs. */
  readonly endTimePs: number;
}

/**
 * The hold model's only handler: every event it handles schedules one new event at now plus a
 * uniform integer increment in [1, 2 * mean - 1] ps, until its budget of reschedules is spent;
 * then the queue simply drains.
 */
class HoldHandler implements EventHandler {
  id = -1;
  handled = 0;
  constructor(
    private readonly engine: Engine,
    private remaining: number,
    private readonly span: number,
  ) {}

  onEvent(kind: number, _arg: number): void {
    this.handled++;
    if (this.remaining > 0) {
      this.remaining--;
      const e = this.engine;
      e.at(e.now + 1 + e.rng.int(this.span), this.id, kind, 0);
    }
  }
}

/** One hold-model run: returns the wall time of `drain()` and the handler's count. */
function holdRun(events: number, pending: number, meanIncrementPs: number, seed: number): Omit<EngineBenchResult, 'runs'> {
  const engine = new Engine(seed);
  const span = Math.max(1, 2 * meanIncrementPs - 1);
  const handler = new HoldHandler(engine, Math.max(0, events - pending), span);
  handler.id = engine.register(handler);
  for (let i = 0; i < pending; i++) engine.at(1 + engine.rng.int(span), handler.id, 0, 0);
  const before = engine.events;
  const t0 = performance.now();
  engine.drain();
  const seconds = (performance.now() - t0) / 1000;
  const done = engine.events - before;
  if (done !== handler.handled || engine.pending !== 0) {
    throw new Error(`engine bench: handled ${handler.handled} of ${done} events, ${engine.pending} left pending`);
  }
  return { eventsPerSec: done / seconds, events: done, pending, seconds, endTimePs: engine.now };
}

/**
 * The classic hold model on the Engine's event path: `pending` events stay in the queue; each
 * handled event schedules one new one at a pseudo-random later time (the engine's seeded rng).
 * A short warm-up on a separate engine lets the JIT settle; then `repeats` identical runs are
 * measured and the median reported (the host's noise, not the simulator, varies between them).
 */
export function benchEngine(opts: EngineBenchOptions = {}): EngineBenchResult {
  const events = opts.events ?? 3_000_000;
  const pending = opts.pending ?? 10_000;
  const warmup = opts.warmupEvents ?? 300_000;
  const mean = opts.meanIncrementPs ?? 1_000;
  const seed = opts.seed ?? 1;
  const repeats = opts.repeats ?? 3;
  if (!(events >= pending && pending >= 1 && repeats >= 1)) throw new RangeError(`engine bench: need events >= pending >= 1 and repeats >= 1`);
  if (warmup > 0) holdRun(Math.max(warmup, pending), pending, mean, seed + 1);
  const results: Omit<EngineBenchResult, 'runs'>[] = [];
  for (let i = 0; i < repeats; i++) results.push(holdRun(events, pending, mean, seed));
  if (results.some((r) => r.endTimePs !== results[0]!.endTimePs)) throw new Error('engine bench: identical runs diverged');
  const sorted = [...results].sort((a, b) => a.eventsPerSec - b.eventsPerSec);
  return { ...sorted[(repeats - 1) >> 1]!, runs: results.map((r) => r.eventsPerSec) };
}
