/**
 * The measured benchmarks `phit calibrate` can reproduce: each OSU program mapped onto the phit
 * app that does the same, the row key that holds its figure, and the parameters of a calibration
 * run. A run covers every size of a curve that lies on one doubling chain (OSU's sizes do), so a
 * curve costs one simulation per evaluation, not one per point.
 */
import { resolveParams, type App, type Row } from '../../apps/app.ts';
import { allreduce } from '../../apps/allreduce.ts';
import { alltoall } from '../../apps/alltoall.ts';
import { osuBibw } from '../../apps/osu-bibw.ts';
import { osuBw } from '../../apps/osu-bw.ts';
import { osuLatency } from '../../apps/osu-latency.ts';
import type { MachineSpec } from '../../fabric/machines/spec.ts';
import { simulate } from '../../runtime/simulate.ts';
import type { MeasuredUnit } from './measurements.ts';

/** How phit reproduces one OSU benchmark. */
export interface BenchmarkModel {
  readonly app: App;
  /** The unit of the measured value and of `key`. */
  readonly unit: MeasuredUnit;
  /** The result row's key that holds the figure. */
  readonly key: string;
  /** OSU runs it on exactly two ranks (rank 0 and the peer). */
  readonly pointToPoint: boolean;
  /** App parameters of a calibration run (sizes aside). */
  readonly params: Readonly<Record<string, string>>;
  /** The message size the app runs for a measured size, or null when it cannot run it. */
  simBytes(bytes: number): number | null;
}

/**
 * One warm-up and one timed repetition per size: a calibration run is deterministic, and on a quiet
 * machine more repetitions change the figures by well under 1 % (allreduce always times two).
 */
const REPEAT = { iterations: '1', warmup: '1' };

/** The apps send at least one byte: a 0-byte point has no counterpart. */
const atLeastOne = (b: number): number | null => (b >= 1 ? b : null);

/** Collectives of 4-byte elements (int32; OSU's float, int or char): the size rounded down to whole elements, at least one. */
const wholeInts = (b: number): number => Math.max(4, b - (b % 4));

/** The benchmarks phit reproduces, by OSU program name. */
export const BENCHMARKS: Readonly<Record<string, BenchmarkModel>> = {
  osu_latency: { app: osuLatency, unit: 'us', key: 'latencyUs', pointToPoint: true, params: REPEAT, simBytes: atLeastOne },
  osu_bw: { app: osuBw, unit: 'MB/s', key: 'bandwidthMBs', pointToPoint: true, params: REPEAT, simBytes: atLeastOne },
  osu_bibw: { app: osuBibw, unit: 'MB/s', key: 'bandwidthMBs', pointToPoint: true, params: REPEAT, simBytes: atLeastOne },
  // OSU reports the mean over ranks of each rank's mean call time, phit's apps the largest
  osu_allreduce: { app: allreduce, unit: 'us', key: 'latencyUs', pointToPoint: false, params: { ...REPEAT, type: 'int32', op: 'sum' }, simBytes: wholeInts },
  osu_alltoall: { app: alltoall, unit: 'us', key: 'timeUs', pointToPoint: false, params: REPEAT, simBytes: wholeInts },
};

/** The benchmark model of `name`; throws a RangeError listing the ones phit has. */
export function benchmarkModel(name: string): BenchmarkModel {
  const m = BENCHMARKS[name];
  if (!m) throw new RangeError(`no phit app for ${name}; calibrate reproduces ${Object.keys(BENCHMARKS).join(', ')}`);
  return m;
}

/** One simulation of a calibration: a benchmark on `nodes` x `ppn` ranks over a doubling chain of sizes. */
export interface RunPlan {
  readonly benchmark: string;
  readonly nodes: number;
  readonly ppn: number;
  /** The sizes the points need, ascending; the run covers minBytes to maxBytes doubling. */
  readonly sizes: readonly number[];
}

/** Whether `b` is `a` times a power of two. */
function onChain(a: number, b: number): boolean {
  const r = b / a;
  return Number.isInteger(r) && (r & (r - 1)) === 0;
}

/**
 * The runs that cover `needs` (benchmark, nodes, ppn, size): per (benchmark, nodes, ppn), the
 * smallest size left opens a doubling chain and takes every size on it; sizes off the chain open
 * the next one. Ordered by benchmark, nodes, ppn and size.
 */
export function planRuns(needs: readonly { benchmark: string; nodes: number; ppn: number; bytes: number }[]): RunPlan[] {
  const groups = new Map<string, { benchmark: string; nodes: number; ppn: number; sizes: Set<number> }>();
  for (const n of needs) {
    const k = `${n.benchmark}|${n.nodes}|${n.ppn}`;
    const g = groups.get(k) ?? { benchmark: n.benchmark, nodes: n.nodes, ppn: n.ppn, sizes: new Set<number>() };
    g.sizes.add(n.bytes);
    groups.set(k, g);
  }
  const plans: RunPlan[] = [];
  const order = [...groups.values()].sort((a, b) => (a.benchmark < b.benchmark ? -1 : a.benchmark > b.benchmark ? 1 : a.nodes - b.nodes || a.ppn - b.ppn));
  for (const g of order) {
    let left = [...g.sizes].sort((a, b) => a - b);
    while (left.length > 0) {
      const first = left[0]!;
      plans.push({ benchmark: g.benchmark, nodes: g.nodes, ppn: g.ppn, sizes: left.filter((s) => onChain(first, s)) });
      left = left.filter((s) => !onChain(first, s));
    }
  }
  return plans;
}

/** A run's name in messages: `osu_bw on 2 nodes x 1, 8 B to 8 KiB`. */
export function describeRun(p: RunPlan): string {
  return `${p.benchmark} on ${p.nodes} node${p.nodes > 1 ? 's' : ''} x ${p.ppn}, ${p.sizes[0]} to ${p.sizes[p.sizes.length - 1]} B`;
}

/**
 * Simulates one run as a skeleton (sizes only: the same simulated time, less memory) on `machine`
 * with the parameter overrides `set`; returns the figure of every size the run covered (each size of
 * the plan among them).
 */
export async function simulateRun(plan: RunPlan, machine: MachineSpec, set: Readonly<Record<string, string>>): Promise<Map<number, number>> {
  const model = benchmarkModel(plan.benchmark);
  const sizes = plan.sizes;
  const params = resolveParams(model.app, {
    ...model.params,
    minBytes: String(sizes[0]),
    maxBytes: String(sizes[sizes.length - 1]),
    // the peer is the first rank of the second node (one node: rank 1)
    ...(model.pointToPoint ? { peer: String(plan.nodes > 1 ? plan.ppn : 1) } : {}),
  });
  const r = await simulate({ machine, nodes: plan.nodes, ppn: plan.ppn, set, skeleton: true, program: (ctx) => model.app.main(ctx, params) });
  const rows = (r.result as { rows?: readonly Row[] } | undefined)?.rows ?? [];
  const out = new Map<number, number>();
  for (const row of rows) {
    const v = row[model.key];
    if (typeof row.bytes === 'number' && typeof v === 'number') out.set(row.bytes, v);
  }
  for (const s of sizes) if (!out.has(s)) throw new Error(`${describeRun(plan)}: the ${model.app.name} app gave no ${model.key} for ${s} bytes`);
  return out;
}
