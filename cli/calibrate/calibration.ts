/**
 * A calibration: named machine parameters fitted to measured points by Nelder-Mead in log space,
 * minimising the mean squared log ratio simulated / measured over the fitted points; a
 * deterministic part of every curve is held out and only checked. Each evaluation runs one
 * simulation per run plan (a curve's sizes in one app run), and every simulation is cached by the
 * parameter values it ran with, as written to the machine file.
 */
import { resolveMachine } from '../../fabric/machine.ts';
import type { MachineSpec } from '../../fabric/machines/spec.ts';
import { benchmarkModel, BENCHMARKS, describeRun, planRuns, simulateRun, type RunPlan } from './benchmarks.ts';
import { fitParam, type FitParam } from './fit-params.ts';
import type { MeasuredPoint, MeasuredUnit } from './measurements.ts';
import { nelderMead } from './nelder-mead.ts';

/** Options of `calibrate`. */
export interface CalibrationOptions {
  readonly machine: MachineSpec;
  /** Parameter keys to fit. */
  readonly fit: readonly string[];
  readonly points: readonly MeasuredPoint[];
  /** Fixed machine parameters of every run; a fitted key given here starts from this value. */
  readonly set?: Readonly<Record<string, string>>;
  /** Nodes and ranks per node of collective curves that do not say (default 2 and 1). */
  readonly nodes?: number;
  readonly ppn?: number;
  /** Share of each curve held out, 0 to 0.5 (default 0.25: every 4th point). */
  readonly holdOut?: number;
  /** Most evaluations of the objective (default 60 per parameter plus 40). */
  readonly maxEvaluations?: number;
  /** Called after each evaluation: evaluations and simulations so far, best rms error (relative). */
  readonly onEvaluation?: (evaluations: number, simulations: number, rmsError: number) => void;
}

/** One measured point beside its simulated value. */
export interface PointResult {
  readonly file: string;
  readonly line: number;
  readonly benchmark: string;
  readonly nodes: number;
  readonly ppn: number;
  readonly bytes: number;
  /** The size the app ran (differs for sizes it cannot run exactly, e.g. 1 byte as one int32). */
  readonly simBytes: number;
  readonly unit: MeasuredUnit;
  readonly measured: number;
  readonly simulated: number;
  /** (simulated - measured) / measured. */
  readonly error: number;
  readonly heldOut: boolean;
}

/** A point left out, and why. */
export interface SkippedPoint {
  readonly file: string;
  readonly line: number;
  readonly benchmark: string;
  readonly why: string;
}

/** Absolute relative errors of a set of points. */
export interface ErrorSummary {
  readonly points: number;
  readonly median: number;
  readonly max: number;
}

/** One fitted parameter: start and result as written in a machine file. */
export interface FittedParam {
  readonly key: string;
  readonly start: string;
  readonly fitted: string;
  /** fitted / start - 1. */
  readonly change: number;
  /** The fit ended on a bound (a factor of 1000 from the start, or the kind's limit): the data hardly determine it. */
  readonly atBound: boolean;
  /** 10 % more of it moves no fitted point: the data do not determine it, and it keeps its start. */
  readonly idle: boolean;
}

/** What a calibration found. */
export interface CalibrationResult {
  readonly params: readonly FittedParam[];
  readonly points: readonly PointResult[];
  readonly skipped: readonly SkippedPoint[];
  readonly fitted: ErrorSummary;
  readonly heldOut: ErrorSummary | null;
  /** Root mean squared log ratio over the fitted points, as a relative error, at the start and at the end. */
  readonly rmsErrorStart: number;
  readonly rmsError: number;
  readonly evaluations: number;
  readonly simulations: number;
  /** Simulations per evaluation. */
  readonly runs: number;
  readonly converged: boolean;
}

/** How far a fit may move a parameter from its start: a factor of 1000 either way. */
const RANGE = Math.log(1000);

/** Every k-th point of a curve held out for a fraction (0: none); throws on a fraction outside 0..0.5. */
export function holdOutStride(fraction: number): number {
  if (!(fraction >= 0 && fraction <= 0.5)) throw new RangeError(`--hold-out ${fraction}: expected a fraction from 0 to 0.5`);
  return fraction === 0 ? 0 : Math.round(1 / fraction);
}

/** A usable point: its run's shape and the size the app runs. */
interface Prepared {
  readonly point: MeasuredPoint;
  readonly bytes: number;
  readonly nodes: number;
  readonly ppn: number;
  readonly simBytes: number;
  heldOut: boolean;
}

/** The supported points with their nodes, ppn and simulated size, and the skipped ones; throws on unsupported benchmarks and bad shapes. */
function prepare(opts: CalibrationOptions): { usable: Prepared[]; skipped: SkippedPoint[] } {
  const unsupported = new Map<string, string>();
  for (const p of opts.points) if (!(p.benchmark in BENCHMARKS) && !unsupported.has(p.benchmark)) unsupported.set(p.benchmark, `${p.file}:${p.line}`);
  if (unsupported.size > 0) {
    const list = [...unsupported].map(([b, at]) => `${b} (${at})`).join(', ');
    throw new RangeError(`no phit app for ${list}; calibrate reproduces ${Object.keys(BENCHMARKS).join(', ')}`);
  }
  const usable: Prepared[] = [];
  const skipped: SkippedPoint[] = [];
  for (const p of opts.points) {
    const at = `${p.file}:${p.line}`;
    const model = benchmarkModel(p.benchmark);
    if (p.unit !== model.unit) throw new RangeError(`${at}: ${p.benchmark} measures ${model.unit === 'us' ? 'a latency (us)' : 'a bandwidth (MB/s)'}, but the value is ${p.unit === 'us' ? 'a time' : 'a bandwidth'}`);
    if (p.bytes === null) throw new RangeError(`${at}: ${p.benchmark} needs a message size`);
    let nodes: number;
    let ppn: number;
    if (model.pointToPoint) {
      ppn = p.ppn ?? 1;
      nodes = p.nodes ?? Math.max(1, Math.floor(2 / ppn));
      if (nodes * ppn !== 2) throw new RangeError(`${at}: ${p.benchmark} runs on OSU's 2 ranks, but nodes ${nodes} x ppn ${ppn} gives ${nodes * ppn}`);
    } else {
      nodes = p.nodes ?? opts.nodes ?? 2;
      ppn = p.ppn ?? opts.ppn ?? 1;
    }
    const simBytes = model.simBytes(p.bytes);
    if (simBytes === null) {
      skipped.push({ file: p.file, line: p.line, benchmark: p.benchmark, why: `${p.bytes} bytes: the ${model.app.name} app cannot run it` });
      continue;
    }
    usable.push({ point: p, bytes: p.bytes, nodes, ppn, simBytes, heldOut: false });
  }
  return { usable, skipped };
}

/** Marks every k-th point of each curve (by size, from the k-th) as held out. */
function holdOut(usable: Prepared[], k: number): void {
  if (k === 0) return;
  const curves = new Map<string, Prepared[]>();
  for (const u of usable) {
    const c = curves.get(u.point.curve) ?? [];
    c.push(u);
    curves.set(u.point.curve, c);
  }
  for (const c of curves.values()) {
    // a stable sort: equal sizes keep their file order
    c.sort((a, b) => a.bytes - b.bytes);
    c.forEach((u, i) => (u.heldOut = i % k === k - 1));
  }
}

/** Median and largest absolute relative error. */
export function summarise(errors: readonly number[]): ErrorSummary {
  const a = errors.map(Math.abs).sort((x, y) => x - y);
  const mid = a.length >> 1;
  const median = a.length === 0 ? 0 : a.length % 2 === 1 ? a[mid]! : (a[mid - 1]! + a[mid]!) / 2;
  return { points: a.length, median, max: a.length === 0 ? 0 : a[a.length - 1]! };
}

/** The value each point's run gave. */
function lookup(plans: readonly RunPlan[], results: readonly Map<number, number>[], u: Prepared): number {
  const i = plans.findIndex((p) => p.benchmark === u.point.benchmark && p.nodes === u.nodes && p.ppn === u.ppn && p.sizes.includes(u.simBytes));
  return results[i]!.get(u.simBytes)!;
}

/** Fits `opts.fit` to `opts.points` on `opts.machine` (see the module comment). */
export async function calibrate(opts: CalibrationOptions): Promise<CalibrationResult> {
  const set = opts.set ?? {};
  if (opts.fit.length === 0) throw new RangeError('--fit: no parameters; expected keys such as mpi.sendOverhead,mpi.recvOverhead');
  const twice = opts.fit.find((k, i) => opts.fit.indexOf(k) !== i);
  if (twice !== undefined) throw new RangeError(`--fit: ${twice} is named twice`);
  const params: FitParam[] = opts.fit.map((k) => fitParam(opts.machine, k, set));
  const k = holdOutStride(opts.holdOut ?? 0.25);
  const { usable, skipped } = prepare(opts);
  holdOut(usable, k);
  const fitting = usable.filter((u) => !u.heldOut);
  if (fitting.length === 0) throw new RangeError(`no data points to fit (${usable.length} held out, ${skipped.length} skipped)`);
  const need = (us: readonly Prepared[]): RunPlan[] => planRuns(us.map((u) => ({ benchmark: u.point.benchmark, nodes: u.nodes, ppn: u.ppn, bytes: u.simBytes })));
  const fitPlans = need(fitting);
  const allPlans = need(usable);
  // impossible machine sizes and bad --set values fail here, before any simulation
  for (const nodes of new Set(allPlans.map((p) => p.nodes))) resolveMachine(opts.machine, nodes, { ...set });

  // simulations, cached by run and by the parameter values as written
  const cache = new Map<string, Map<number, number>>();
  let simulations = 0;
  const texts = (x: readonly number[]): string[] => params.map((p, i) => p.format(p.start * Math.exp(x[i]!)));
  const runAll = async (plans: readonly RunPlan[], x: readonly number[]): Promise<Map<number, number>[]> => {
    const values = texts(x);
    const runSet = { ...set, ...Object.fromEntries(params.map((p, i) => [p.key, values[i]!])) };
    const out: Map<number, number>[] = [];
    for (const plan of plans) {
      // a run is its app run: the same size range gives the same rows, whichever sizes a plan needs
      const key = JSON.stringify([plan.benchmark, plan.nodes, plan.ppn, plan.sizes[0], plan.sizes[plan.sizes.length - 1], values]);
      let r = cache.get(key);
      if (!r) {
        try {
          r = await simulateRun(plan, opts.machine, runSet);
        } catch (e) {
          const why = e instanceof Error ? e.message : String(e);
          throw new Error(`${describeRun(plan)} with ${params.map((p, i) => `${p.key}=${values[i]}`).join(', ')}: ${why}`, { cause: e });
        }
        simulations++;
        cache.set(key, r);
      }
      out.push(r);
    }
    return out;
  };
  const objective = async (x: readonly number[]): Promise<number> => {
    const results = await runAll(fitPlans, x);
    let sum = 0;
    for (const u of fitting) sum += Math.log(lookup(fitPlans, results, u) / u.point.value) ** 2;
    return sum / fitting.length;
  };
  const toRms = (f: number): number => Math.exp(Math.sqrt(f)) - 1;

  const x0 = params.map(() => 0);
  const lower = params.map((p) => Math.max(-RANGE, Math.log(p.min / p.start)));
  const upper = params.map((p) => Math.min(RANGE, Math.log(p.max / p.start)));
  const start = await objective(x0);
  const nm = await nelderMead(objective, x0, {
    step: 0.5,
    xTolerance: 5e-4,
    fTolerance: 1e-8,
    maxEvaluations: opts.maxEvaluations ?? 60 * params.length + 40,
    lower,
    upper,
    ...(opts.onEvaluation ? { onEvaluation: (n: number, best: number) => opts.onEvaluation!(n, simulations, toRms(best)) } : {}),
  });

  // a parameter whose 10 % change moves no fitted point is not determined by the data: it keeps its start
  const atFit = await runAll(fitPlans, nm.x);
  const idle: boolean[] = [];
  for (let i = 0; i < params.length; i++) {
    const moved = await runAll(fitPlans, nm.x.map((v, j) => (j === i ? v + Math.log(1.1) : v)));
    idle.push(fitting.every((u) => lookup(fitPlans, moved, u) === lookup(fitPlans, atFit, u)));
  }
  const x = nm.x.map((v, i) => (idle[i] ? 0 : v));
  const fittedText = texts(x);

  // every point, held-out ones included, at the fitted values
  const results = await runAll(allPlans, x);
  const points: PointResult[] = usable.map((u) => {
    const simulated = lookup(allPlans, results, u);
    const p = u.point;
    return { file: p.file, line: p.line, benchmark: p.benchmark, nodes: u.nodes, ppn: u.ppn, bytes: u.bytes, simBytes: u.simBytes, unit: p.unit, measured: p.value, simulated, error: (simulated - p.value) / p.value, heldOut: u.heldOut };
  });
  const held = points.filter((p) => p.heldOut);
  return {
    params: params.map((p, i) => ({ key: p.key, start: p.startText, fitted: fittedText[i]!, change: p.read(fittedText[i]!) / p.start - 1, atBound: Math.abs(x[i]! - lower[i]!) < 1e-9 || Math.abs(x[i]! - upper[i]!) < 1e-9, idle: idle[i]! })),
    points,
    skipped,
    fitted: summarise(points.filter((p) => !p.heldOut).map((p) => p.error)),
    heldOut: held.length > 0 ? summarise(held.map((p) => p.error)) : null,
    rmsErrorStart: toRms(start),
    rmsError: toRms(await objective(x)),
    evaluations: nm.evaluations,
    simulations,
    runs: fitPlans.length,
    converged: nm.converged,
  };
}
