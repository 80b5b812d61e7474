/**
 * `phit validate`: every figure of the seed papers (SEED-FIGURES.md ids) beside the model's value,
 * with the deviation and a verdict. The checks of one id run in one task (sharing their runs);
 * tasks run in parallel worker threads and the rows keep the registry's order.
 */
import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import { FIDELITY_LEVELS } from '../fabric/machines/fidelity.ts';
import { presets } from '../fabric/machines/index.ts';
import type { ReportDoc, ReportSection } from './report.ts';
import { renderReport } from './report.ts';
import { writeOutput } from './args.ts';
import { formatTable } from './table.ts';
import { KINDS, type Kind } from './validate/check.ts';
import { CHECKS, NOT_COVERED } from './validate/figures.ts';
import { medianAbs } from './validate/measured.ts';
import { runTask, skippedResult, type CheckResult, type ValidateTask } from './validate/run.ts';

/** Options of a validation, parsed. */
export interface ValidateOptions {
  /** Only this machine's checks. */
  readonly machine?: string;
  /** Only these figure ids (their long checks included). */
  readonly ids?: readonly string[];
  /** Run the long checks too. */
  readonly all?: boolean;
  /** Worker threads (default: the host's parallelism; 0 runs in this thread). */
  readonly threads?: number;
  /** Fidelity level of every run (default: packet, the level the figures were checked at). */
  readonly fidelity?: string;
}

/** Counts of one verdict each. */
export type StatusCounts = Readonly<Record<CheckResult['status'], number>>;

/** A validation: rows in registry order, the count of each verdict, and per kind its rows and their verdicts. */
export interface ValidateResult {
  readonly rows: readonly CheckResult[];
  readonly counts: StatusCounts;
  readonly kinds: Readonly<Record<Kind, { readonly rows: number } & StatusCounts>>;
  /** The public tier per machine (see publicTier). */
  readonly public: readonly PublicTier[];
  /** Wall time (s). */
  readonly seconds: number;
}

/** Every figure id of the registry, in order. */
export function validateIds(): string[] {
  return [...new Set(CHECKS.map((c) => c.id))];
}

/** Indices (into CHECKS) of the checks to run and of the long ones skipped; throws RangeError naming a bad machine or id and the valid ones. */
export function selectChecks(opts: ValidateOptions): { run: number[]; skip: number[] } {
  if (opts.machine !== undefined && !Object.hasOwn(presets, opts.machine)) throw new RangeError(`--machine ${opts.machine}: valid: ${Object.keys(presets).join(', ')}`);
  const known = validateIds();
  for (const id of opts.ids ?? []) {
    if (Object.hasOwn(NOT_COVERED, id)) throw new RangeError(`--id ${id}: not checked (${NOT_COVERED[id]!.reason})`);
    if (!known.includes(id)) throw new RangeError(`--id ${id}: unknown figure id; valid: ${known.join(', ')}`);
  }
  const run: number[] = [];
  const skip: number[] = [];
  CHECKS.forEach((c, i) => {
    if (opts.machine !== undefined && c.machine !== opts.machine) return;
    if (opts.ids && opts.ids.length > 0 && !opts.ids.includes(c.id)) return;
    const named = (opts.ids?.length ?? 0) > 0;
    (c.tier === 'quick' || opts.all || named ? run : skip).push(i);
  });
  if (run.length + skip.length === 0) throw new RangeError(`no check of ${(opts.ids ?? []).join(', ')} on ${opts.machine}`);
  return { run, skip };
}

/** Runs the selected checks in worker threads; bad input throws RangeError before anything runs. */
export async function validate(opts: ValidateOptions = {}, onResult?: (done: number, total: number) => void): Promise<ValidateResult> {
  const start = performance.now();
  const { run, skip } = selectChecks(opts);
  // one task per figure id, the costliest ids first so that the threads finish together
  const byId = new Map<string, number[]>();
  for (const i of run) {
    const id = CHECKS[i]!.id;
    byId.set(id, [...(byId.get(id) ?? []), i]);
  }
  if (opts.fidelity !== undefined && !(FIDELITY_LEVELS as readonly string[]).includes(opts.fidelity)) throw new RangeError(`--fidelity ${opts.fidelity}: valid: ${FIDELITY_LEVELS.join(', ')}`);
  const tasks: ValidateTask[] = [...byId.values()].map((indices) => ({ indices, ...(opts.fidelity !== undefined ? { fidelity: opts.fidelity } : {}) }));
  const results = new Map<number, CheckResult>();
  let done = 0;
  const collect = (rs: readonly CheckResult[]): void => {
    for (const r of rs) results.set(r.index, r);
    done += rs.length;
    onResult?.(done, run.length);
  };
  const threads = Math.min(opts.threads ?? availableParallelism(), tasks.length);
  if (threads <= 0) {
    for (const t of tasks) collect(await runTask(t));
  } else {
    const pool = new Tinypool({ filename: new URL('./validate/worker.mjs', import.meta.url).href, minThreads: threads, maxThreads: threads });
    try {
      await Promise.all(tasks.map(async (t) => collect((await pool.run(t)) as CheckResult[])));
    } finally {
      await pool.destroy();
    }
  }
  for (const i of skip) results.set(i, skippedResult(i, 'skipped (--all)'));
  const rows = [...results.values()].sort((a, b) => a.index - b.index);
  return { rows, ...countRows(rows), public: publicTier(rows), seconds: (performance.now() - start) / 1000 };
}

/** The verdicts of `rows`, in all and per kind. */
export function countRows(rows: readonly CheckResult[]): Pick<ValidateResult, 'counts' | 'kinds'> {
  const zero = (): Record<CheckResult['status'], number> => ({ pass: 0, fail: 0, report: 0, skipped: 0, error: 0 });
  const counts = zero();
  const kinds = Object.fromEntries(KINDS.map((k) => [k, { rows: 0, ...zero() }])) as Record<Kind, { rows: number } & Record<CheckResult['status'], number>>;
  for (const r of rows) {
    counts[r.status]++;
    kinds[r.kind].rows++;
    kinds[r.kind][r.status]++;
  }
  return { counts, kinds };
}

/** The count of rows per kind and how many of each pass, one line: "kinds: 40 structure (38 pass, 2 report), ...". */
export function formatKinds(kinds: ValidateResult['kinds']): string {
  const parts = KINDS.map((k) => {
    const c = kinds[k];
    const rest = ([['fail', c.fail + c.error], ['report', c.report], ['skipped', c.skipped]] as const).filter(([, n]) => n > 0).map(([s, n]) => `, ${n} ${s}`);
    return `${c.rows} ${k} (${c.pass} pass${rest.join('')})`;
  });
  return `kinds: ${parts.join(', ')}`;
}

/** Per machine, the public tier's rows run (ids `P:...`), their median and largest absolute deviation (%), and how many of them are predicted. */
export interface PublicTier {
  readonly machine: string;
  readonly rows: number;
  readonly predicted: number;
  readonly medianAbsPct: number;
  readonly maxAbsPct: number;
}

/** The public tier of `rows` per machine (machines without a row run are left out). */
export function publicTier(rows: readonly CheckResult[]): PublicTier[] {
  const out: PublicTier[] = [];
  for (const m of [...new Set(rows.map((x) => x.machine))]) {
    const mine = rows.filter((x) => x.machine === m && x.id.startsWith('P:') && x.deviationPct !== null);
    if (mine.length === 0) continue;
    const devs = mine.map((x) => x.deviationPct!);
    out.push({ machine: m, rows: mine.length, predicted: mine.filter((x) => x.kind === 'predicted').length, medianAbsPct: medianAbs(devs)!, maxAbsPct: Math.max(...devs.map(Math.abs)) });
  }
  return out;
}

/** One line per machine of the public tier: "public measurements, xc30: 45 rows (45 predicted), median |dev| 31.2 %, largest 80.1 % (target 20 and 50 %)". */
export function formatPublicTier(tiers: readonly PublicTier[]): string[] {
  return tiers.map((t) => `public measurements, ${t.machine}: ${t.rows} rows (${t.predicted} predicted), median |dev| ${t.medianAbsPct.toFixed(1)} %, largest ${t.maxAbsPct.toFixed(1)} % (held to 20 and 50 %)`);
}

/** What a row's kind cell says: the kind, and for a fitted row the parameters fitted to its figure. */
const kindText = (x: CheckResult): string => (x.fittedParams ? `${x.kind}: ${x.fittedParams.join(', ')}` : x.kind);

/** What the kinds mean, one paragraph. */
const KINDS_TEXT =
  'kind: structure, counted from the built graph (ports, links, diameter, nodes); parameter, a machine parameter or a paper formula read back; ' +
  'fitted, simulated, but a parameter was fitted to this figure (named); predicted, simulated with nothing fitted to the figure.';

/** The table of a validation, one section per machine, and a summary line. */
export function formatValidate(r: ValidateResult): string {
  const lines: string[] = [];
  const machines = [...new Set(r.rows.map((x) => x.machine))];
  for (const m of machines) {
    const spec = presets[m]!;
    lines.push(`${m} (${spec.title}), seed ${spec.seed}`);
    lines.push(
      formatTable(
        r.rows
          .filter((x) => x.machine === m)
          .map((x) => ({
            id: x.id,
            quantity: x.quantity,
            seed: x.source,
            kind: x.kind,
            paper: x.paperText,
            model: x.modelText,
            'dev %': x.deviationPct === null ? '' : (x.deviationPct > 0 ? '+' : '') + x.deviationPct.toFixed(1),
            result: x.status === 'error' ? `error: ${x.note ?? ''}` : x.status,
          })),
      ),
    );
    const fitted = new Map<string, Set<string>>();
    for (const x of r.rows) if (x.machine === m && x.fittedParams) fitted.set(x.id, new Set([...(fitted.get(x.id) ?? []), ...x.fittedParams]));
    if (fitted.size > 0) lines.push(`parameters fitted to these figures: ${[...fitted].map(([id, ps]) => `${id} ${[...ps].join(', ')}`).join('; ')}`);
    lines.push('');
  }
  const c = r.counts;
  lines.push(`${c.pass} pass, ${c.fail + c.error} fail, ${c.report} report only, ${c.skipped} skipped (long; run them with --all); ${r.seconds.toFixed(0)} s`);
  lines.push(formatKinds(r.kinds));
  lines.push(...formatPublicTier(publicTier(r.rows)));
  lines.push('dev %: (model - paper) / paper; about: within the tolerance (15 % unless the row sets its own, with its reason in --json and --report); at most / under / at least / over: the side of the bound; a range: inside it.');
  lines.push(KINDS_TEXT);
  const missing = Object.entries(NOT_COVERED).filter(([, n]) => machines.includes(n.machine));
  if (missing.length > 0) lines.push(`Not checked: ${missing.map(([id, n]) => `${id} (${n.reason})`).join('; ')}.`);
  return lines.join('\n');
}

/**
 * The validation as a report: the verdicts in figures, then per machine a chart of the deviation
 * of every figure that has one (each bar beside the tolerance it is held to) and the full table.
 */
export function validateReport(r: ValidateResult): ReportDoc {
  const c = r.counts;
  const sections: ReportSection[] = [
    {
      title: 'Verdicts',
      text: `dev %: (model - paper) / paper. about: within the tolerance (15 % unless the row says otherwise); at most / under / at least / over: the side of the bound; a range: inside it; report: shown without a verdict; skipped: a long check not run (--all). ${KINDS_TEXT} ${formatKinds(r.kinds)}.`,
      items: [
        {
          kind: 'figures',
          figures: [
            { label: 'pass', value: c.pass },
            { label: 'fail', value: c.fail + c.error },
            { label: 'report only', value: c.report },
            { label: 'skipped (long)', value: c.skipped },
          ],
        },
        {
          kind: 'figures',
          figures: KINDS.map((k) => ({ label: `${k}, ${r.kinds[k].pass} pass`, value: r.kinds[k].rows })),
        },
      ],
    },
  ];
  for (const m of [...new Set(r.rows.map((x) => x.machine))]) {
    const rows = r.rows.filter((x) => x.machine === m);
    const withDev = rows.filter((x) => x.deviationPct !== null);
    const spec = presets[m]!;
    sections.push({
      title: `${m}: ${spec.title} (seed ${spec.seed})`,
      items: [
        ...(withDev.length > 0
          ? [
              {
                kind: 'bar' as const,
                title: `${m}: deviation of the model from the paper`,
                xLabel: 'figure',
                yLabel: 'deviation (%)',
                categories: withDev.map((x, i) => `${x.id}.${i + 1}`),
                series: [{ name: 'model - paper (%)', values: withDev.map((x) => Number(x.deviationPct!.toFixed(2))) }],
              },
            ]
          : []),
        {
          kind: 'table' as const,
          rows: rows.map((x) => ({
            id: x.id,
            quantity: x.quantity,
            seed: x.source,
            kind: kindText(x),
            paper: x.paperText,
            model: x.modelText,
            'dev %': x.deviationPct === null ? '' : x.deviationPct.toFixed(1),
            result: x.status === 'error' ? `error: ${x.note ?? ''}` : x.status,
            'own tolerance': x.toleranceWhy === undefined ? '' : `${x.tolerancePct ?? ''} %: ${x.toleranceWhy}`,
          })),
        },
      ],
    });
  }
  const missing = Object.entries(NOT_COVERED).map(([id, n]) => ({ id, machine: n.machine, reason: n.reason }));
  if (missing.length > 0) sections.push({ title: 'Figures not checked', items: [{ kind: 'table', rows: missing }] });
  return { title: 'phit validate: the seed figures beside the model', subtitle: `${r.rows.length} checks, ${r.seconds.toFixed(0)} s`, sections };
}

/** `phit validate` options as commander hands them over. */
export interface ValidateCliOptions {
  readonly machine?: string;
  readonly id?: string;
  readonly all?: boolean;
  readonly json?: boolean;
  readonly report?: string;
  readonly fidelity?: string;
}

/** Runs `phit validate`; returns 0, or 1 when a check fails. Throws RangeError on bad input. */
export async function validateCommand(opts: ValidateCliOptions, io: { out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const ids = opts.id === undefined ? [] : opts.id.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (opts.id !== undefined && ids.length === 0) throw new RangeError('--id: give figure ids like A21,K13');
  if (opts.report !== undefined) writeOutput('--report', opts.report, '');
  const r = await validate({ ...(opts.machine !== undefined ? { machine: opts.machine } : {}), ids, all: opts.all ?? false, ...(opts.fidelity !== undefined ? { fidelity: opts.fidelity } : {}) });
  if (opts.report !== undefined) writeOutput('--report', opts.report, renderReport(validateReport(r)));
  if (opts.json) {
    io.out(JSON.stringify({ machine: opts.machine ?? null, all: opts.all ?? false, fidelity: opts.fidelity ?? 'packet', counts: r.counts, kinds: r.kinds, seconds: Number(r.seconds.toFixed(1)), notCovered: NOT_COVERED, rows: r.rows }));
  } else {
    if (opts.fidelity !== undefined) io.out(`fidelity level: ${opts.fidelity} (the figures were calibrated at packet)`);
    io.out(formatValidate(r));
  }
  return r.counts.fail + r.counts.error > 0 ? 1 : 0;
}

