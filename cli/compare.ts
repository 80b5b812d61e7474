/**
 * `phit compare`: one app, or one MPI trace replayed (`--trace`), on several machines, one worker
 * thread per machine, one table.
 *
 * Each machine's row gives the simulated time, the communication share and the app's figure of
 * merit. The runtime charges time to a rank only for `ctx.compute`, so the communication share
 * is `1 - mean compute time over ranks / simulated time`: everything a rank does not spend
 * computing (sending, waiting for messages, idling in collectives) counts as communication.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Tinypool from 'tinypool';
import { tsImport } from 'tsx/esm/api';
import { isCompileError, loadErrorLine } from './compile-error.ts';
import { shareApi } from './share-api.ts';
import { resolveParams, type App, type ParamSpec, type ParamValues } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { resolveMachine } from '../fabric/machine.ts';
import type { MachineSpec } from '../fabric/machines/spec.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { openTrace } from '../replay/open.ts';
import { replayProgram } from '../replay/replay.ts';
import { parseKeyValues, positiveInt } from './args.ts';
import { loadMachine, parseSets, withFidelity } from './machine-arg.ts';
import { formatTable } from './table.ts';

const USER_FILE = /\.(m?[jt]s)$/;

/** Loads a user's program file: default export `async (ctx, params) => result`, optional `params` schema and `merit`. */
export async function loadUserApp(path: string): Promise<App> {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new RangeError(`no such file: ${path}`);
  if (!USER_FILE.test(abs)) throw new RangeError(`${path}: a program is a .ts, .mts, .js or .mjs file (phit replay takes a trace)`);
  type Module = { default?: unknown; params?: Record<string, ParamSpec>; merit?: App['merit'] };
  shareApi();
  // loaded as an ES module wherever the file lives (outside a "type": "module" package too)
  const mod = (await tsImport(pathToFileURL(abs).href, import.meta.url).catch((e: unknown) => {
    throw compileError(path, e);
  })) as Module;
  // a .ts file outside an ES-module package arrives as CommonJS: its exports sit under `default`
  const inner = mod.default as Module | undefined;
  const main = typeof mod.default === 'function' ? mod.default : inner?.default;
  const params = mod.params ?? inner?.params;
  const merit = mod.merit ?? inner?.merit;
  if (typeof main !== 'function') throw new RangeError(`${path} must have a default export: async (ctx) => { ... }`);
  return {
    name: path,
    summary: 'user program',
    params: params ?? {},
    minRanks: 1,
    ...(merit ? { merit } : {}),
    main: (ctx: RankContext, params) => (main as (c: RankContext, p: unknown) => Promise<never>)(ctx, params),
  };
}

/** A program that does not compile fails as bad input, on one line; other errors pass through. */
function compileError(path: string, e: unknown): unknown {
  return isCompileError(e) ? new RangeError(`${path} does not compile: ${loadErrorLine(e)}`) : e;
}

/** A built-in app by name, or a user's program when the name looks like a path (`./my.ts`). */
export function loadApp(name: string): Promise<App> {
  return USER_FILE.test(name) || name.includes('/') ? loadUserApp(name) : Promise.resolve(findApp(name));
}

/** One machine's run: plain data, as sent to a worker thread. */
export interface CompareTask {
  /** Built-in app name or path of a user's program. */
  readonly app: string;
  /** The machine's name, as its row shows it. */
  readonly machine: string;
  /** The machine itself (a preset or a parsed machine file): plain data, so no path is resolved again in the worker. */
  readonly spec: MachineSpec;
  readonly nodes: number;
  readonly ppn: number;
  /** App parameters, key -> value as typed (`maxBytes=4KiB`). */
  readonly params: Readonly<Record<string, string>>;
  /** Machine parameters, key -> value with units. */
  readonly set: Readonly<Record<string, string>>;
  readonly seed: number;
  /** A skeleton run (sizes only, no bytes; the same time): default false. */
  readonly skeleton?: boolean;
  /** An MPI trace to replay instead of the app (its format guessed from the file), and the factor on its computation. */
  readonly trace?: string;
  readonly computeScale?: number;
}

/** One machine's row of the comparison (nulls when the run failed). */
export interface CompareRow {
  readonly machine: string;
  readonly simulatedTimeUs: number | null;
  /** 1 - mean compute time over ranks / simulated time. */
  readonly commShare: number | null;
  /** The app's figure of merit, from the last row of its result. */
  readonly merit: number | null;
  readonly meritKey: string | null;
  /** Why the run failed on this machine. */
  readonly error?: string;
}

/** The figure of merit chosen from an app's result. */
export interface Merit {
  readonly key: string;
  /** Column title: the app's label, else the key. */
  readonly label: string;
  readonly higherIsBetter: boolean;
  readonly value: number;
}

/** What a worker returns: the row, plus how to title and read the merit column, and the last result row's numbers. */
export interface CompareOutcome extends CompareRow {
  readonly meritLabel?: string;
  readonly higherIsBetter?: boolean;
  /** The numeric keys of the last row of the app's result (for `phit sweep`). */
  readonly lastRow?: Readonly<Record<string, number>>;
}

/** The finite numeric keys of the last row of an app's result; empty without rows. */
export function lastRowNumbers(result: unknown): Record<string, number> {
  const rows = (result as { rows?: unknown } | null | undefined)?.rows;
  const out: Record<string, number> = {};
  if (!Array.isArray(rows) || rows.length === 0) return out;
  const last = rows[rows.length - 1] as Record<string, unknown>;
  for (const [k, v] of Object.entries(last)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  return out;
}

/** A whole comparison, rows in the order the machines were given. */
export interface CompareResult {
  readonly app: string;
  readonly nodes: number;
  readonly ppn: number;
  readonly seed: number;
  /** Whether the runs were skeleton runs. */
  readonly skeleton: boolean;
  /** Whether a trace was replayed (`app` is then the replay's title). */
  readonly replay?: boolean;
  readonly rows: readonly CompareRow[];
  /** How the merit column is titled and read; null when no run gave one. */
  readonly merit: { readonly label: string; readonly higherIsBetter: boolean } | null;
}

/** Keys taken as a figure of merit when the app declares none: rates and bandwidths, higher is better. */
const RATE_KEY = /(GBs|MBs|Gflops|GUPS|Mps)$/i;

/**
 * Chooses an app's figure of merit from its result: the key the app declares in `merit`, else the
 * last row's first numeric key ending in GBs, MBs, Gflops, GUPS or Mps (higher is better), else its
 * `latencyUs` (lower is better). Null when the result has no rows or no such number.
 */
export function chooseMerit(declared: App['merit'], result: unknown): Merit | null {
  const rows = (result as { rows?: unknown } | null | undefined)?.rows;
  if (!Array.isArray(rows) || rows.length === 0) return null;
  const last = rows[rows.length - 1] as Record<string, unknown>;
  const pick = (key: string, higherIsBetter: boolean, label = key): Merit | null => {
    const value = last[key];
    return typeof value === 'number' && Number.isFinite(value) ? { key, label, higherIsBetter, value } : null;
  };
  if (declared) return pick(declared.key, declared.higherIsBetter, declared.label);
  const rate = Object.keys(last).find((k) => RATE_KEY.test(k) && typeof last[k] === 'number');
  return rate !== undefined ? pick(rate, true) : pick('latencyUs', false);
}

/** Checks what does not depend on the machine: the app's parameters, their relations and the rank count. */
export function checkAppInput(app: App, task: Pick<CompareTask, 'nodes' | 'ppn' | 'params'>): ParamValues {
  const params = resolveParams(app, task.params);
  app.check?.(params, task.nodes * task.ppn);
  if (task.nodes * task.ppn < app.minRanks) {
    throw new RangeError(`${app.name} needs at least ${app.minRanks} ranks; --nodes ${task.nodes} --ppn ${task.ppn} gives ${task.nodes * task.ppn}`);
  }
  return params;
}

/** The first line of an error's message. */
export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
}

function failed(machine: string, e: unknown): CompareOutcome {
  return { machine, simulatedTimeUs: null, commShare: null, merit: null, meritKey: null, error: firstLine(e) };
}

/** Runs one machine of a comparison (what each worker thread does); a failure becomes the row's `error`. */
export async function compareOne(task: CompareTask): Promise<CompareOutcome> {
  if (task.trace !== undefined) return replayOne(task, task.trace);
  try {
    const app = await loadApp(task.app);
    const params = checkAppInput(app, task);
    const r = await simulate({
      machine: task.spec,
      nodes: task.nodes,
      ppn: task.ppn,
      seed: task.seed,
      set: task.set,
      skeleton: task.skeleton === true,
      program: (ctx) => app.main(ctx, params),
    });
    const merit = chooseMerit(app.merit, r.result);
    const t = r.simulatedTimeUs;
    return {
      machine: task.machine,
      simulatedTimeUs: t,
      commShare: t > 0 ? Math.min(1, Math.max(0, 1 - r.computeUs / t)) : null,
      merit: merit?.value ?? null,
      meritKey: merit?.key ?? null,
      ...(merit ? { meritLabel: merit.label, higherIsBetter: merit.higherIsBetter } : {}),
      lastRow: lastRowNumbers(r.result),
    };
  } catch (e) {
    return failed(task.machine, e);
  }
}

/** Replays a trace on one machine of a comparison: a skeleton run, no figure of merit. */
async function replayOne(task: CompareTask, trace: string): Promise<CompareOutcome> {
  try {
    const source = openTrace(trace);
    const r = await simulate({ machine: task.spec, nodes: task.nodes, ppn: task.ppn, seed: task.seed, set: task.set, skeleton: true, program: replayProgram(source, { computeScale: task.computeScale ?? 1 }) });
    const t = r.simulatedTimeUs;
    return { machine: task.machine, simulatedTimeUs: t, commShare: t > 0 ? Math.min(1, Math.max(0, 1 - r.computeUs / t)) : null, merit: null, meritKey: null };
  } catch (e) {
    return failed(task.machine, e);
  }
}

/** Options of a comparison, parsed. */
export interface CompareOptions {
  /** Built-in app name or path of a user's program. */
  readonly app: string;
  /** Preset names, machine files (paths) or machine specs. */
  readonly machines: readonly (string | MachineSpec)[];
  readonly nodes: number;
  /** Ranks per node (default 1). */
  readonly ppn?: number;
  readonly params?: Readonly<Record<string, string>>;
  readonly set?: Readonly<Record<string, string>>;
  /** Seed of every run (default 1). */
  readonly seed?: number;
  /** Skeleton runs: sizes only, no bytes, the same simulated time (default false). */
  readonly skeleton?: boolean;
  /** An MPI trace to replay instead of the app: `app` is then only the table's title; the runs are skeleton runs. */
  readonly trace?: string;
  /** Factor on the trace's computation times (default 1). */
  readonly computeScale?: number;
}

/**
 * Runs one app (or replays one trace) on several machines in parallel worker threads. Bad input (unknown app or
 * machine, bad parameter, too few ranks, a configuration no machine accepts) throws RangeError
 * before any worker starts; a machine that cannot build the configuration or whose run fails
 * gets a row with `error`, and the others still run.
 */
export async function compare(opts: CompareOptions): Promise<CompareResult> {
  if (opts.machines.length === 0) throw new RangeError('--machines: give at least one machine');
  const specs = opts.machines.map((m) => (typeof m === 'string' ? loadMachine(m) : m));
  const seen = new Set<string>();
  for (const m of specs) {
    if (seen.has(m.name)) throw new RangeError(`--machines: ${m.name} is listed twice`);
    seen.add(m.name);
  }
  const ppn = opts.ppn ?? 1;
  const seed = opts.seed ?? 1;
  const set = opts.set ?? {};
  const trace = opts.trace === undefined ? undefined : resolve(opts.trace);
  const skeleton = opts.skeleton === true || trace !== undefined;
  let appName: string;
  let appPath: string;
  if (trace !== undefined) {
    // a bad trace file is bad input: read its ranks (and its first definitions) before any worker starts
    const source = openTrace(trace);
    if (opts.nodes * ppn !== source.ranks) throw new RangeError(`--nodes ${opts.nodes} --ppn ${ppn} gives ${opts.nodes * ppn} ranks; the trace ${opts.trace} has ${source.ranks}`);
    appName = `replay of ${opts.trace} (${source.format})`;
    appPath = appName;
  } else {
    const app = await loadApp(opts.app);
    appName = app.name;
    appPath = opts.app.includes('/') || USER_FILE.test(opts.app) ? resolve(opts.app) : opts.app;
    checkAppInput(app, { nodes: opts.nodes, ppn, params: opts.params ?? {} });
  }
  const replay = trace !== undefined ? { trace, computeScale: opts.computeScale ?? 1 } : {};
  const tasks: CompareTask[] = specs.map((spec) => ({ app: appPath, machine: spec.name, spec, nodes: opts.nodes, ppn, params: { ...opts.params }, set: { ...set }, seed, skeleton, ...replay }));
  // sizes and machine parameters that one machine cannot take fail that machine's row only
  const early = new Map<string, CompareOutcome>();
  for (const t of tasks) {
    try {
      resolveMachine(t.spec, t.nodes, { ...t.set });
    } catch (e) {
      early.set(t.machine, failed(t.machine, e));
    }
  }
  if (early.size === tasks.length) throw new RangeError(`no machine accepts this configuration: ${[...early.values()].map((o) => `${o.machine}: ${o.error}`).join('; ')}`);
  const runnable = tasks.filter((t) => !early.has(t.machine));
  const threads = Math.max(1, Math.min(runnable.length, availableParallelism()));
  const pool = new Tinypool({ filename: new URL('./compare-worker.mjs', import.meta.url).href, minThreads: threads, maxThreads: threads });
  let outcomes: CompareOutcome[];
  try {
    const done = await Promise.all(runnable.map((t) => (pool.run(t) as Promise<CompareOutcome>).catch((e: unknown) => failed(t.machine, e))));
    const byMachine = new Map(done.map((o) => [o.machine, o]));
    outcomes = tasks.map((t) => early.get(t.machine) ?? byMachine.get(t.machine)!);
  } finally {
    await pool.destroy();
  }
  const firstMerit = outcomes.find((o) => o.meritLabel !== undefined);
  return {
    app: appName,
    nodes: opts.nodes,
    ppn,
    seed,
    skeleton,
    ...(trace !== undefined ? { replay: true } : {}),
    rows: outcomes.map(({ meritLabel: _l, higherIsBetter: _h, lastRow: _r, ...row }) => row),
    merit: firstMerit ? { label: firstMerit.meritLabel!, higherIsBetter: firstMerit.higherIsBetter! } : null,
  };
}

/** The table of a comparison: a title line, one row per machine, a legend and the failures in full. */
export function formatCompare(r: CompareResult): string {
  const meritColumn = r.merit?.label ?? '';
  const short = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
  const rows = r.rows.map((row) => ({
    machine: row.machine,
    simulatedTimeUs: row.simulatedTimeUs === null ? undefined : Number(row.simulatedTimeUs.toFixed(3)),
    commShare: row.commShare === null ? undefined : Number(row.commShare.toFixed(3)),
    ...(r.merit ? { [meritColumn]: row.merit ?? undefined } : {}),
    ...(row.error !== undefined ? { error: short(row.error) } : {}),
  }));
  const ranks = r.nodes * r.ppn;
  const lines = [
    `${r.app} on ${r.nodes} node${r.nodes === 1 ? '' : 's'} x ${r.ppn} rank${r.ppn === 1 ? '' : 's'} per node (${ranks} rank${ranks === 1 ? '' : 's'}), seed ${r.seed}${r.skeleton ? ', skeleton runs (sizes only, data not moved)' : ''}`,
    formatTable(rows),
    'commShare = 1 - mean compute time over ranks / simulated time (all time not computing counts as communication)',
    r.merit
      ? `${meritColumn}: figure of merit from the last result row, ${r.merit.higherIsBetter ? 'higher' : 'lower'} is better`
      : r.replay
        ? 'a replay has no figure of merit: compare the simulated times'
        : 'no figure of merit: the app declares none and its result has no rate, bandwidth or latencyUs',
  ];
  for (const row of r.rows) if (row.error !== undefined && row.error.length > 60) lines.push(`${row.machine}: ${row.error}`);
  return lines.join('\n');
}

/** `phit compare` options as commander hands them over. */
export interface CompareCliOptions {
  readonly app?: string;
  readonly trace?: string;
  readonly computeScale: string;
  readonly machines: string;
  readonly nodes?: string;
  readonly ppn: string;
  readonly param: readonly string[];
  readonly set: readonly string[];
  readonly fidelity?: string;
  readonly seed: string;
  readonly skeleton?: boolean;
  readonly json?: boolean;
}


/** Runs `phit compare` and prints a table or JSON; returns 0, or 1 when a machine's run failed. Throws RangeError on bad input. */
export async function compareCommand(opts: CompareCliOptions, io: { out: (s: string) => void }): Promise<number> {
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new RangeError(`--seed ${opts.seed}: expected a non-negative integer`);
  if ((opts.app === undefined) === (opts.trace === undefined)) throw new RangeError('give one of --app <app> and --trace <file>');
  const scale = Number(opts.computeScale);
  if (!Number.isFinite(scale) || scale < 0 || opts.computeScale.trim() === '') throw new RangeError(`--compute-scale ${opts.computeScale}: expected a non-negative number`);
  const ppn = positiveInt('ppn', opts.ppn);
  let nodes: number;
  if (opts.nodes !== undefined) nodes = positiveInt('nodes', opts.nodes);
  else if (opts.trace !== undefined) {
    const ranks = openTrace(opts.trace).ranks;
    if (ranks % ppn !== 0) throw new RangeError(`--ppn ${ppn}: the trace's ${ranks} ranks do not fill whole nodes of ${ppn}; give --nodes and --ppn whose product is ${ranks}`);
    nodes = ranks / ppn;
  } else nodes = 2;
  const r = await compare({
    app: opts.app ?? '',
    ...(opts.trace !== undefined ? { trace: opts.trace, computeScale: scale } : {}),
    machines: opts.machines.split(',').map((m) => m.trim()).filter((m) => m !== ''),
    nodes,
    ppn,
    params: parseKeyValues(opts.param, '--param'),
    set: parseSets(withFidelity(opts.set, opts.fidelity)),
    seed,
    skeleton: opts.skeleton === true,
  });
  io.out(opts.json ? JSON.stringify({ app: r.app, nodes: r.nodes, ppn: r.ppn, ...(r.skeleton ? { skeleton: true } : {}), rows: r.rows }) : formatCompare(r));
  return r.rows.some((row) => row.error !== undefined) ? 1 : 0;
}
