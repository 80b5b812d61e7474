/** Runs the checks of one figure id (what a worker thread of `phit validate` does) and judges them. */
import { formatNumber, formatPaper, judge, seedTolerance, type Check, type Kind, type Memo, type Status } from './check.ts';
import { CHECKS } from './figures.ts';
import { useFidelity } from './measure.ts';

/** One check's result, as plain data (sent back from a worker). */
export interface CheckResult {
  /** Index of the check in CHECKS. */
  readonly index: number;
  readonly id: string;
  readonly machine: string;
  readonly quantity: string;
  readonly source: string;
  readonly tier: Check['tier'];
  /** What the model's value is: structure, parameter, fitted or predicted. */
  readonly kind: Kind;
  /** The parameters fitted to this figure (fitted rows only). */
  readonly fittedParams?: readonly string[];
  /** Why the row's tolerance is not SEED-FIGURES.md's (rows with their own tolerance only). */
  readonly toleranceWhy?: string;
  /** The paper's value as text, and as data. */
  readonly paperText: string;
  readonly paper: Check['paper'];
  /** Reference computed by the model's own formula instead of a constant of the paper (or null). */
  readonly reference: number | null;
  /** The model's value (null when skipped or failed to run). */
  readonly model: number | string | null;
  readonly modelText: string;
  /** Signed deviation from the paper in % (null for text values, skipped checks and errors). */
  readonly deviationPct: number | null;
  readonly tolerancePct: number | null;
  readonly status: Status;
  /** Why a measurement failed, or what a computed reference is. */
  readonly note?: string;
  /** Wall time of the measurement (ms). */
  readonly ms: number;
}

/** One task: the indices (into CHECKS) of the checks of one id to run. */
export interface ValidateTask {
  readonly indices: readonly number[];
  /** Fidelity level of every run (default: packet). */
  readonly fidelity?: string;
}

function newMemo(): Memo {
  const cache = new Map<string, Promise<unknown>>();
  return <T>(key: string, compute: () => T | Promise<T>): Promise<T> => {
    let p = cache.get(key) as Promise<T> | undefined;
    if (!p) cache.set(key, (p = Promise.resolve().then(compute)));
    return p;
  };
}

const unitOf = (c: Check): string => c.modelUnit ?? c.paper.unit;

/** The fields every result of a check shares, whatever its verdict. */
function headOf(index: number, c: Check): Pick<CheckResult, 'index' | 'id' | 'machine' | 'quantity' | 'source' | 'tier' | 'kind' | 'fittedParams' | 'toleranceWhy' | 'paper'> {
  return {
    index, id: c.id, machine: c.machine, quantity: c.quantity, source: c.source, tier: c.tier, kind: c.kind,
    ...(c.fittedParams ? { fittedParams: c.fittedParams } : {}),
    ...(c.toleranceWhy !== undefined ? { toleranceWhy: c.toleranceWhy } : {}),
    paper: c.paper,
  };
}

/** The result row of a check that did not run. */
export function skippedResult(index: number, why: string): CheckResult {
  const c = CHECKS[index]!;
  return {
    ...headOf(index, c),
    paperText: c.paperText ?? formatPaper(c.paper), reference: null,
    model: null, modelText: why, deviationPct: null, tolerancePct: null, status: 'skipped', ms: 0,
  };
}

/** Measures and judges one check. */
export async function runCheck(index: number, memo: Memo = newMemo()): Promise<CheckResult> {
  const c = CHECKS[index]!;
  const start = performance.now();
  const head = headOf(index, c);
  const paperText = c.paperText ?? formatPaper(c.paper);
  try {
    const m = await c.measure(memo);
    const ms = Math.round(performance.now() - start);
    const value = typeof m === 'object' ? m.value : m;
    const paper = typeof m === 'object' ? { ...c.paper, value: m.reference } : c.paper;
    const { deviation, ok } = judge(paper, value, c.tolerance);
    const usesTolerance = c.paper.relation === 'about' || (c.paper.relation === 'range' && c.tolerance !== undefined);
    const modelText = typeof value === 'number' ? (unitOf(c) === '' ? formatNumber(value) : `${formatNumber(value)} ${unitOf(c)}`) : value;
    return {
      ...head,
      paperText: typeof m === 'object' ? `${paperText} (${formatPaper(paper)})` : paperText,
      reference: typeof m === 'object' ? m.reference : null,
      model: value,
      modelText,
      // a value in another unit than the paper's (a report row) has no deviation
      deviationPct: deviation === null || !Number.isFinite(deviation) || unitOf(c) !== c.paper.unit ? null : Number((deviation * 100).toFixed(1)),
      tolerancePct: usesTolerance && !c.report ? (c.tolerance ?? seedTolerance(c.paper.relation) ?? 0) * 100 : null,
      status: c.report ? 'report' : ok ? 'pass' : 'fail',
      ...(typeof m === 'object' && m.note !== undefined ? { note: m.note } : {}),
      ms,
    };
  } catch (e) {
    const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
    return { ...head, paperText, reference: null, model: null, modelText: 'error', deviationPct: null, tolerancePct: null, status: 'error', note: msg, ms: Math.round(performance.now() - start) };
  }
}

/** Runs the checks of one task in order, sharing one memo. */
export async function runTask(task: ValidateTask): Promise<CheckResult[]> {
  useFidelity(task.fidelity);
  const memo = newMemo();
  const out: CheckResult[] = [];
  for (const i of task.indices) out.push(await runCheck(i, memo));
  return out;
}
