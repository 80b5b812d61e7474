/**
 * `phit sweep FILE`: a matrix of runs described in a YAML or JSON file, run in parallel worker
 * threads (the workers of `phit compare`, one task per point).
 *
 * Every key of the file takes a value or a list; a list is one axis, and the matrix is the cross
 * product of the axes in this order: app, machine, nodes, ppn, each app parameter, each machine
 * parameter (in the file's order), seed, skeleton; the last axis varies fastest. Points are numbered from 0
 * in that order, so a file always gives the same points in the same order.
 *
 * The whole matrix is checked before any worker starts: a bad key, app, machine, app parameter
 * name or value, machine parameter name or node count is bad input (RangeError naming the key).
 * A point that cannot run (too few ranks for its app, parameters its app rejects together, a
 * machine that cannot be built from its parameters) gets an error row and the others still run.
 * With `--slurm` the points run as the tasks of one Slurm job array instead (sweep-slurm.ts).
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, extname, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import Tinypool from 'tinypool';
import { parse as parseYaml } from 'yaml';
import { resolveParams, type App } from '../apps/app.ts';
import { MAX_NODES, MAX_PPN, resolveMachine } from '../fabric/machine.ts';
import { closestKey, PARAM_SCHEMA, paramErrors } from '../fabric/machines/schema.ts';
import type { MachineSpec } from '../fabric/machines/spec.ts';
import { positiveInt, writeOutput } from './args.ts';
import { checkAppInput, firstLine, loadApp, type CompareOutcome, type CompareTask } from './compare.ts';
import { isMachinePath, loadMachine } from './machine-arg.ts';
import { renderReport, type ReportDoc, type ReportItem } from './report.ts';
import { failedRow, outcomeRow } from './sweep-rows.ts';
import { findSbatch, givenJobDir, newJobDir, runSweepOnSlurm, slurmOptions } from './sweep-slurm.ts';
import { formatTable } from './table.ts';

/** A value of a sweep file. */
export type SweepValue = string | number | boolean;

/** Keys a sweep file may have. */
export const SWEEP_KEYS = ['app', 'apps', 'machine', 'machines', 'nodes', 'ppn', 'params', 'set', 'seed', 'skeleton'] as const;

/** A sweep file, checked for shape: every axis as its list of values (a scalar is a list of one). */
export interface SweepSpec {
  /** How the file is named in messages. */
  readonly name: string;
  /** Built-in app names or paths of users' programs (relative to the file). */
  readonly apps: readonly string[];
  readonly machines: readonly string[];
  readonly nodes: readonly number[];
  readonly ppn: readonly number[];
  /** App parameters: key -> values. */
  readonly params: Readonly<Record<string, readonly SweepValue[]>>;
  /** Machine parameters: key -> values with units. */
  readonly set: Readonly<Record<string, readonly SweepValue[]>>;
  readonly seeds: readonly number[];
  /** Skeleton runs or not (`skeleton: true`; `[false, true]` runs both); default [false]. */
  readonly skeleton: readonly boolean[];
  /** The keys the file used for the app and machine axes (`app` or `apps`, `machine` or `machines`). */
  readonly appKey: string;
  readonly machineKey: string;
}

/** One point of the matrix. */
export interface SweepPoint {
  /** Position in the matrix, from 0. */
  readonly index: number;
  /** App and machine, then `key=value` of every axis with more than one value. */
  readonly label: string;
  /** The app as the file names it. */
  readonly app: string;
  readonly machine: string;
  readonly nodes: number;
  readonly ppn: number;
  readonly seed: number;
  /** A skeleton run: sizes only, no bytes, the same simulated time. */
  readonly skeleton: boolean;
  readonly params: Readonly<Record<string, SweepValue>>;
  readonly set: Readonly<Record<string, SweepValue>>;
}

/** One point's outcome: its axes, whether it ran, and what it measured (nulls when it failed). */
export interface SweepRow extends SweepPoint {
  readonly status: 'ok' | 'error';
  /** Why the point failed (first line of the error). */
  readonly error?: string;
  readonly simulatedTimeUs: number | null;
  /** 1 - mean compute time over ranks / simulated time (as in `phit compare`). */
  readonly commShare: number | null;
  /** The app's figure of merit (see `chooseMerit`), its key, and whether higher is better. */
  readonly merit: number | null;
  readonly meritKey: string | null;
  readonly higherIsBetter: boolean | null;
  /** The numeric keys of the last row of the app's result. */
  readonly result: Readonly<Record<string, number>>;
}

/** A sweep ready to run: its points, the tasks of the runnable ones, and the rows of those that cannot run. */
export interface SweepPlan {
  readonly name: string;
  readonly points: readonly SweepPoint[];
  /** Worker tasks by point index (points that can run). */
  readonly tasks: ReadonlyMap<number, CompareTask>;
  /** Error rows by point index (points found unable to run before any worker starts). */
  readonly early: ReadonlyMap<number, SweepRow>;
}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v) ?? String(v));

/** Parses a sweep file's text (YAML, or JSON which is YAML too) and checks its shape; throws RangeError naming the bad key. */
export function parseSweep(text: string, name: string): SweepSpec {
  const bad = (what: string): RangeError => new RangeError(`${name}: ${what}`);
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw bad(`not valid YAML or JSON: ${firstLine(e)}`);
  }
  if (!isMapping(doc)) throw bad(`expected a mapping of ${SWEEP_KEYS.join(', ')}`);
  for (const k of Object.keys(doc)) {
    if (!(SWEEP_KEYS as readonly string[]).includes(k)) throw bad(`unknown key "${k}"; valid: ${SWEEP_KEYS.join(', ')}`);
  }
  const list = (key: string, v: unknown): SweepValue[] => {
    const items = Array.isArray(v) ? v : [v];
    if (items.length === 0) throw bad(`${key}: an empty list; give at least one value`);
    const seen = new Set<SweepValue>();
    for (const x of items) {
      if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean') throw bad(`${key}: expected a value or a list of values, got ${show(x)}`);
      if (seen.has(x)) throw bad(`${key}: ${show(x)} is listed twice`);
      seen.add(x);
    }
    return items as SweepValue[];
  };
  const oneOf = (single: string, plural: string): { key: string; values: SweepValue[] } => {
    if (single in doc && plural in doc) throw bad(`give "${single}" or "${plural}", not both`);
    const key = single in doc ? single : plural;
    if (!(key in doc)) throw bad(`missing key "${single}" (or "${plural}": a list)`);
    return { key, values: list(key, doc[key]) };
  };
  const names = (key: string, values: SweepValue[]): string[] =>
    values.map((v) => {
      if (typeof v !== 'string' || v === '') throw bad(`${key}: expected a name, got ${show(v)}`);
      return v;
    });
  const ints = (key: string, min: number, fallback: number, max = Number.MAX_SAFE_INTEGER): number[] => {
    if (!(key in doc)) return [fallback];
    return list(key, doc[key]).map((v) => {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw bad(`${key}: ${show(v)} is not ${min === 0 ? 'a non-negative' : 'a positive'} integer`);
      if (v > max) throw bad(`${key}: ${show(v)} is more than ${max}`);
      return v;
    });
  };
  const bools = (key: string, fallback: boolean): boolean[] => {
    if (!(key in doc)) return [fallback];
    return list(key, doc[key]).map((v) => {
      if (typeof v !== 'boolean') throw bad(`${key}: ${show(v)} is not true or false`);
      return v;
    });
  };
  const table = (key: string): Record<string, SweepValue[]> => {
    const v = doc[key];
    if (v === undefined || v === null) return {};
    if (!isMapping(v)) throw bad(`${key}: expected a mapping of key: value (or key: [values]), got ${show(v)}`);
    // nothing inherited: a key "__proto__" or "toString" is a key like any other (and refused as unknown)
    const out = Object.create(null) as Record<string, SweepValue[]>;
    for (const [k, x] of Object.entries(v)) out[k] = list(`${key}.${k}`, x);
    return out;
  };
  const app = oneOf('app', 'apps');
  const machine = oneOf('machine', 'machines');
  if (!('nodes' in doc)) throw bad('missing key "nodes" (a node count or a list of them)');
  return {
    name,
    apps: names(app.key, app.values),
    machines: names(machine.key, machine.values),
    nodes: ints('nodes', 1, 1, MAX_NODES),
    ppn: ints('ppn', 1, 1, MAX_PPN),
    params: table('params'),
    set: table('set'),
    seeds: ints('seed', 0, 1),
    skeleton: bools('skeleton', false),
    appKey: app.key,
    machineKey: machine.key,
  };
}

/** A user's program is named by a path (relative to the sweep file); a built-in app by its name. */
function appPath(app: string, baseDir: string): string {
  return /\.(m?[jt]s)$/.test(app) || app.includes('/') ? resolve(baseDir, app) : app;
}

/**
 * Checks a sweep against the apps and machines and lays out its points; bad input throws
 * RangeError naming the key, points that cannot run get error rows. Throws too when no point can run.
 */
export async function planSweep(spec: SweepSpec, baseDir: string): Promise<SweepPlan> {
  const bad = (what: string): RangeError => new RangeError(`${spec.name}: ${what}`);
  const wrap = <T>(key: string, f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw bad(`${key}: ${firstLine(e)}`);
    }
  };
  const apps = new Map<string, App>();
  for (const a of spec.apps) {
    try {
      apps.set(a, await loadApp(appPath(a, baseDir)));
    } catch (e) {
      throw bad(`${spec.appKey}: ${firstLine(e)}`);
    }
  }
  // presets, or machine files named relative to the sweep file; a row shows the machine's name
  const machines = new Map<string, MachineSpec>();
  for (const m of spec.machines) {
    const machine = wrap(spec.machineKey, () => loadMachine(isMachinePath(m) ? resolve(baseDir, m) : m));
    if ([...machines.values()].some((x) => x.name === machine.name)) throw bad(`${spec.machineKey}: two machines are named ${machine.name}`);
    machines.set(m, machine);
  }
  // every value of every app parameter, alone, for every app: names and values
  for (const [k, values] of Object.entries(spec.params)) {
    for (const app of apps.values()) for (const v of values) wrap(`params.${k}`, () => resolveParams(app, { [k]: String(v) }));
  }
  // a machine parameter must exist on some machine of the sweep (the others show an error row), each value of its kind
  const known = [...new Set([...machines.values()].flatMap((m) => Object.keys(m.params)))];
  for (const [k, values] of Object.entries(spec.set)) {
    if (!known.includes(k)) {
      const why = k in PARAM_SCHEMA
        ? `no machine of the sweep (${[...machines.values()].map((m) => m.name).join(', ')}) has this parameter`
        : `unknown machine parameter; did you mean ${closestKey(k, known)}?`;
      throw bad(`set.${k}: ${why} (every parameter of a machine: phit machines show <machine>)`);
    }
    for (const v of values) {
      const problem = paramErrors({ [k]: String(v) }, '', { valid: known })[0];
      if (problem !== undefined) throw bad(`set.${problem.startsWith(`${k}: `) ? problem : `${k}: ${problem}`}`);
    }
  }
  // the axes, slowest first
  type Axis = { key: string; values: readonly SweepValue[] };
  const axes: Axis[] = [
    { key: 'app', values: spec.apps },
    { key: 'machine', values: spec.machines },
    { key: 'nodes', values: spec.nodes },
    { key: 'ppn', values: spec.ppn },
    ...Object.entries(spec.params).map(([k, values]) => ({ key: `params.${k}`, values })),
    ...Object.entries(spec.set).map(([k, values]) => ({ key: `set.${k}`, values })),
    { key: 'seed', values: spec.seeds },
    { key: 'skeleton', values: spec.skeleton },
  ];
  const total = axes.reduce((n, a) => n * a.values.length, 1);
  const points: SweepPoint[] = [];
  const tasks = new Map<number, CompareTask>();
  const early = new Map<number, SweepRow>();
  const pick = new Array<number>(axes.length).fill(0);
  for (let index = 0; index < total; index++) {
    // odometer: the last axis turns fastest
    let rest = index;
    for (let a = axes.length - 1; a >= 0; a--) {
      pick[a] = rest % axes[a]!.values.length;
      rest = Math.floor(rest / axes[a]!.values.length);
    }
    const at = (key: string): SweepValue => {
      const a = axes.findIndex((x) => x.key === key);
      return axes[a]!.values[pick[a]!]!;
    };
    const params: Record<string, SweepValue> = {};
    for (const k of Object.keys(spec.params)) params[k] = at(`params.${k}`);
    const set: Record<string, SweepValue> = {};
    for (const k of Object.keys(spec.set)) set[k] = at(`set.${k}`);
    const app = at('app') as string;
    const machineSpec = machines.get(at('machine') as string)!;
    const machine = machineSpec.name;
    const swept = axes.filter((a) => a.values.length > 1 && a.key !== 'app' && a.key !== 'machine');
    const label = [app, machine, ...swept.map((a) => `${a.key.replace(/^(params|set)\./, '')}=${String(at(a.key))}`)].join(' ');
    const point: SweepPoint = { index, label, app, machine, nodes: at('nodes') as number, ppn: at('ppn') as number, seed: at('seed') as number, skeleton: at('skeleton') as boolean, params, set };
    points.push(point);
    const task: CompareTask = {
      app: appPath(app, baseDir),
      machine,
      spec: machineSpec,
      nodes: point.nodes,
      ppn: point.ppn,
      params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
      set: Object.fromEntries(Object.entries(set).map(([k, v]) => [k, String(v)])),
      seed: point.seed,
      skeleton: point.skeleton,
    };
    try {
      checkAppInput(apps.get(app)!, task);
      resolveMachine(machineSpec, task.nodes, { ...task.set });
      tasks.set(index, task);
    } catch (e) {
      early.set(index, failedRow(point, e));
    }
  }
  if (tasks.size === 0) {
    const reasons = [...new Set([...early.values()].map((r) => r.error))];
    throw bad(`no point of the sweep can run: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more reasons` : ''}`);
  }
  return { name: spec.name, points, tasks, early };
}

/** Options of `runSweep`. */
export interface RunSweepOptions {
  /** Worker threads (default: the host's cores, at most one per runnable point). */
  readonly workers?: number;
  /** Called after each point finishes, with the number done (early failures included) and failed. */
  readonly onPoint?: (row: SweepRow, done: number, failed: number) => void;
}

/** Runs the plan's points in worker threads; returns one row per point in matrix order. A point that fails does not stop the others. */
export async function runSweep(plan: SweepPlan, opts: RunSweepOptions = {}): Promise<SweepRow[]> {
  const rows = new Array<SweepRow | undefined>(plan.points.length);
  let done = 0;
  let failed = 0;
  for (const [i, row] of plan.early) {
    rows[i] = row;
    done++;
    failed++;
  }
  const threads = Math.max(1, Math.min(plan.tasks.size, opts.workers ?? availableParallelism()));
  const pool = new Tinypool({ filename: new URL('./compare-worker.mjs', import.meta.url).href, minThreads: threads, maxThreads: threads });
  try {
    await Promise.all(
      [...plan.tasks].map(async ([i, task]) => {
        const point = plan.points[i]!;
        let row: SweepRow;
        try {
          row = outcomeRow(point, (await pool.run(task)) as CompareOutcome);
        } catch (e) {
          row = failedRow(point, e);
        }
        rows[i] = row;
        done++;
        if (row.status === 'error') failed++;
        opts.onPoint?.(row, done, failed);
      }),
    );
  } finally {
    await pool.destroy();
  }
  return rows as SweepRow[];
}

/** Largest sweep file read (bytes): a matrix of runs is a few KiB. */
const SWEEP_FILE_CAP = 1 << 20;

/** Reads, checks and plans a sweep file; throws RangeError on bad input (a folder, a missing or too large file). */
export async function loadSweep(path: string): Promise<SweepPlan> {
  const st = path === '' ? undefined : statSync(path, { throwIfNoEntry: false });
  if (st === undefined) throw new RangeError(`sweep file "${path}": no such file`);
  if (!st.isFile()) throw new RangeError(`sweep file "${path}": not a file (a sweep file is YAML or JSON)`);
  if (st.size > SWEEP_FILE_CAP) throw new RangeError(`sweep file "${path}": ${st.size} bytes; a sweep file has at most ${SWEEP_FILE_CAP}`);
  return planSweep(parseSweep(readFileSync(path, 'utf8'), path), dirname(resolve(path)));
}

/** A row with its axes and result flattened to columns (`params.n`, `set.mpi.eagerMaxBytes`, `result.timeUs`). */
export function flattenRow(row: SweepRow): Record<string, SweepValue | null> {
  const out: Record<string, SweepValue | null> = { index: row.index, label: row.label, app: row.app, machine: row.machine, nodes: row.nodes, ppn: row.ppn, seed: row.seed, skeleton: row.skeleton };
  for (const [k, v] of Object.entries(row.params)) out[`params.${k}`] = v;
  for (const [k, v] of Object.entries(row.set)) out[`set.${k}`] = v;
  Object.assign(out, {
    status: row.status,
    error: row.error ?? null,
    simulatedTimeUs: row.simulatedTimeUs,
    commShare: row.commShare,
    merit: row.merit,
    meritKey: row.meritKey,
    higherIsBetter: row.higherIsBetter,
  });
  for (const [k, v] of Object.entries(row.result)) out[`result.${k}`] = v;
  return out;
}

/** One CSV field: quoted when it holds a comma, quote, line break or edge space (RFC 4180); null is empty. */
function csvField(v: SweepValue | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The rows as CSV: a header of every column any row has (first-seen order), one line per point. */
export function sweepCsv(rows: readonly SweepRow[]): string {
  const flat = rows.map(flattenRow);
  const cols: string[] = [];
  for (const r of flat) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  return [cols.map(csvField).join(','), ...flat.map((r) => cols.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';
}

/** The rows as one JSON document: the file, the counts and every row. */
export function sweepJson(name: string, rows: readonly SweepRow[]): string {
  return JSON.stringify({ file: name, points: rows.length, failed: rows.filter((r) => r.status === 'error').length, rows });
}

/** The table of a sweep: one line per point, a legend of the merits, long errors in full. */
export function formatSweep(rows: readonly SweepRow[]): string {
  const short = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
  const table = formatTable(
    rows.map((r) => ({
      index: r.index,
      label: r.label,
      status: r.status,
      simulatedTimeUs: r.simulatedTimeUs === null ? undefined : Number(r.simulatedTimeUs.toFixed(3)),
      merit: r.merit ?? undefined,
      ...(r.error !== undefined ? { error: short(r.error) } : {}),
    })),
  );
  const lines = [table];
  const merits = new Map<string, string>();
  for (const r of rows) {
    if (r.meritKey !== null && !merits.has(r.app)) merits.set(r.app, `${r.meritKey} of ${r.app}'s last result row, ${r.higherIsBetter ? 'higher' : 'lower'} is better`);
  }
  for (const m of merits.values()) lines.push(`merit: ${m}`);
  for (const r of rows) if (r.error !== undefined && r.error.length > 60) lines.push(`${r.index}: ${r.error}`);
  return lines.join('\n');
}

/** A point's axes other than app and machine, in matrix order: nodes, ppn, app parameters, machine parameters, seed, skeleton. */
function axisValues(row: SweepPoint): [string, SweepValue][] {
  return [
    ['nodes', row.nodes],
    ['ppn', row.ppn],
    ...Object.entries(row.params),
    ...Object.entries(row.set),
    ['seed', row.seed],
    ['skeleton', row.skeleton],
  ];
}

/**
 * The summary report of a sweep: for each app, its figure of merit and the simulated time against
 * the swept numeric axis (nodes, else the first numeric axis with more than one value), one line
 * per combination of machine and the other swept values; then every row as a table. Without a
 * numeric axis the charts are bars, one per point.
 */
export function sweepReport(name: string, rows: readonly SweepRow[]): ReportDoc {
  const keys = rows.length > 0 ? axisValues(rows[0]!).map(([k]) => k) : [];
  const distinct = (i: number): SweepValue[] => [...new Set(rows.map((r) => axisValues(r)[i]![1]))];
  const swept = keys.map((_, i) => i).filter((i) => distinct(i).length > 1);
  const xIndex = swept.find((i) => distinct(i).every((v) => typeof v === 'number'));
  const seriesName = (r: SweepRow): string => {
    const rest = swept.filter((i) => i !== xIndex).map((i) => `${keys[i]}=${String(axisValues(r)[i]![1])}`);
    return [r.machine, ...rest].join(' ');
  };
  const apps = [...new Set(rows.map((r) => r.app))];
  const items: ReportItem[] = [];
  for (const app of apps) {
    const mine = rows.filter((r) => r.app === app && r.status === 'ok');
    const meritRow = mine.find((r) => r.meritKey !== null);
    const measures: { title: string; value: (r: SweepRow) => number | null }[] = [];
    if (meritRow) {
      measures.push({ title: `${app}: ${meritRow.meritKey} (${meritRow.higherIsBetter ? 'higher' : 'lower'} is better)`, value: (r) => (r.meritKey === meritRow.meritKey ? r.merit : null) });
    }
    measures.push({ title: `${app}: simulated time (us)`, value: (r) => r.simulatedTimeUs });
    for (const m of measures) {
      if (xIndex !== undefined) {
        const xKey = keys[xIndex]!;
        const series = new Map<string, [number, number][]>();
        for (const r of mine) {
          const y = m.value(r);
          if (y === null) continue;
          const s = seriesName(r);
          if (!series.has(s)) series.set(s, []);
          series.get(s)!.push([axisValues(r)[xIndex]![1] as number, y]);
        }
        const xs = distinct(xIndex) as number[];
        const logX = xKey === 'nodes' && Math.min(...xs) > 0 && Math.max(...xs) / Math.min(...xs) >= 8;
        items.push({
          kind: 'line',
          title: m.title,
          xLabel: xKey,
          yLabel: m.title.slice(app.length + 2),
          ...(logX ? { logX: true } : {}),
          series: [...series].map(([s, points]) => ({ name: s, points: points.sort((a, b) => a[0] - b[0]) })),
        });
      } else {
        const points = mine.filter((r) => m.value(r) !== null);
        items.push({ kind: 'bar', title: m.title, yLabel: m.title.slice(app.length + 2), categories: points.map((r) => r.label), series: [{ name: app, values: points.map((r) => m.value(r)!) }] });
      }
    }
  }
  const failed = rows.filter((r) => r.status === 'error').length;
  return {
    title: `phit sweep ${name}`,
    subtitle: `${rows.length} point${rows.length === 1 ? '' : 's'}, ${failed} failed${xIndex !== undefined ? `; x axis: ${keys[xIndex]}` : ''}`,
    sections: [
      { title: 'Figure of merit and simulated time', text: 'One line per machine and combination of the other swept values; failed points are left out.', items },
      { title: 'Every point', items: [{ kind: 'table', rows: rows.map(flattenRow) }] },
    ],
  };
}

/** `phit sweep` options as commander hands them over. */
export interface SweepCliOptions {
  readonly out?: string;
  readonly report?: string;
  readonly workers?: string;
  readonly json?: boolean;
  /** Run the points as a Slurm job array instead of worker threads. */
  readonly slurm?: boolean;
  /** With --slurm: the job directory (default a fresh one next to --out, or in the current folder). */
  readonly slurmDir?: string;
  /** With --slurm: extra sbatch options, split as a shell would. */
  readonly slurmOpts?: string;
}

/** What `phit sweep` writes to. */
export interface SweepIo {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stderr when it is a terminal: the progress bar is drawn there. */
  tty?: NodeJS.WriteStream;
}

/** Runs `phit sweep FILE`; returns 0, or 1 when a point failed. Throws RangeError on bad input, before any worker starts. */
export async function sweepCommand(file: string, opts: SweepCliOptions, io: SweepIo): Promise<number> {
  const format = opts.out === undefined ? null : extname(opts.out).toLowerCase();
  if (format !== null && format !== '.csv' && format !== '.json') throw new RangeError(`--out ${opts.out}: expected a file ending in .csv or .json`);
  if (opts.report !== undefined && extname(opts.report).toLowerCase() !== '.html') throw new RangeError(`--report ${opts.report}: expected a file ending in .html`);
  const workers = opts.workers === undefined ? undefined : positiveInt('workers', opts.workers);
  if (!opts.slurm) {
    const stray = opts.slurmDir !== undefined ? '--slurm-dir' : opts.slurmOpts !== undefined ? '--slurm-opts' : undefined;
    if (stray !== undefined) throw new RangeError(`${stray} needs --slurm`);
  } else if (workers !== undefined) throw new RangeError('--workers does not apply with --slurm (one array task per point)');
  const slurm = opts.slurm ? { sbatch: findSbatch(), sbatchOptions: slurmOptions(opts.slurmOpts ?? '') } : null;
  const plan = await loadSweep(file);
  // output paths that cannot be written fail before any point runs
  if (opts.out !== undefined) writeOutput('--out', opts.out, '');
  if (opts.report !== undefined) writeOutput('--report', opts.report, '');
  const started = performance.now();
  const bar = io.tty
    ? new cliProgress.SingleBar(
        { stream: io.tty, format: 'sweep [{bar}] {value}/{total} points, {failed} failed, {duration_formatted}', hideCursor: true, clearOnComplete: true },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let rows: SweepRow[];
  if (slurm !== null) {
    const fresh = opts.slurmDir === undefined;
    const dir = fresh ? newJobDir(opts.out !== undefined ? dirname(resolve(opts.out)) : process.cwd(), file) : givenJobDir(opts.slurmDir!);
    const onSubmit = (jobId: string, tasks: number): void => {
      io.err(`sweep: Slurm job ${jobId}, ${tasks} array task${tasks === 1 ? '' : 's'}; job directory ${dir}`);
      bar?.start(plan.points.length, plan.early.size, { failed: plan.early.size });
    };
    try {
      rows = (await runSweepOnSlurm(plan, { dir, ...slurm, onSubmit, onPoint: (done, failed) => bar?.update(done, { failed }) })).rows;
    } catch (e) {
      // sbatch refused the job: a job directory made for it goes too
      if (fresh) rmSync(dir, { recursive: true, force: true });
      throw e;
    } finally {
      bar?.stop();
    }
  } else {
    bar?.start(plan.points.length, plan.early.size, { failed: plan.early.size });
    try {
      rows = await runSweep(plan, { ...(workers !== undefined ? { workers } : {}), onPoint: (_row, done, failed) => bar?.update(done, { failed }) });
    } finally {
      bar?.stop();
    }
  }
  if (opts.out !== undefined) writeOutput('--out', opts.out, format === '.csv' ? sweepCsv(rows) : sweepJson(file, rows) + '\n');
  if (opts.report !== undefined) writeOutput('--report', opts.report, renderReport(sweepReport(file, rows)));
  io.out(opts.json ? sweepJson(file, rows) : formatSweep(rows));
  const failed = rows.filter((r) => r.status === 'error').length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const files = [opts.out, opts.report].filter((f) => f !== undefined);
  io.err(`sweep: ${rows.length} point${rows.length === 1 ? '' : 's'}, ${failed} failed, ${seconds} s${files.length > 0 ? `; wrote ${files.join(', ')}` : ''}`);
  return failed > 0 ? 1 : 0;
}
