/**
 * `phit calibrate`: named machine parameters fitted to curves a user measured (OSU output or
 * CSV), with part of every curve held out, a report of the errors on both parts, and a machine
 * file with the fitted values whose source names the data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { machineOverlay } from '../fabric/machines/file.ts';
import type { MachineSpec, ParamDef } from '../fabric/machines/spec.ts';
import { positiveInt, writeOutput } from './args.ts';
import { BENCHMARKS } from './calibrate/benchmarks.ts';
import { calibrate, holdOutStride, type CalibrationResult, type ErrorSummary } from './calibrate/calibration.ts';
import { readMeasurements, type MeasuredPoint } from './calibrate/measurements.ts';
import { isMachinePath, loadMachine, parseSets, withFidelity } from './machine-arg.ts';
import { formatTable } from './table.ts';

/** Options of `phit calibrate` as commander gives them. */
export interface CalibrateCliOptions {
  machine: string;
  data: string[];
  fit: string;
  nodes: string;
  ppn: string;
  holdOut: string;
  out?: string;
  set: string[];
  fidelity?: string;
  maxEvals?: string;
}

/** Text after `phit calibrate --help`. */
export const CALIBRATE_HELP =
  '\nData: the text an OSU micro-benchmark prints ("# OSU MPI Latency Test v7.3", "# Size  Avg Latency(us)",\n' +
  'then "size value" lines; several benchmarks in one file are fine), or CSV with a header naming the\n' +
  'columns benchmark,bytes,value and optionally nodes,ppn,unit (unit: us, ms, ns, s or MB/s, GB/s;\n' +
  `default us, MB/s for bandwidths). Benchmarks phit reproduces: ${Object.keys(BENCHMARKS).join(', ')}.\n` +
  "Point-to-point curves run on OSU's 2 ranks (2 nodes; a CSV row may say nodes 1, ppn 2); collective\n" +
  'curves on --nodes x --ppn unless the CSV row says. 0-byte points are skipped; collectives run whole\n' +
  '4-byte elements.\n' +
  '\nThe fit: Nelder-Mead over the logarithms of the parameters (each within a factor of 1000 of its start:\n' +
  'the machine value, or --set), minimising the mean squared log ratio simulated / measured over the\n' +
  'fitted points. Every k-th point of each curve (k = 1 / --hold-out, by size) is held out and only\n' +
  'checked. Each evaluation runs one skeleton simulation per curve (all its sizes), one warm-up and one\n' +
  'timed repetition per size; simulations are cached. A parameter whose 10 % change moves no fitted\n' +
  'point keeps its start and is left out of the machine file, with a warning.\n' +
  '\nOutput: a report (fitted values, every point with its error, median and largest error on the fitted\n' +
  "and the held-out points) and a machine file, \"base: <preset>\" plus the fitted parameters with source\n" +
  '"fitted: <data files>" (a machine given as a file is written out in full). With --out the report goes\n' +
  'to stdout; without, the machine file (YAML) goes to stdout and the report to stderr:\n' +
  '  phit calibrate -m xe6 --data osu_latency.txt --data osu_bw.txt --fit mpi.sendOverhead,mpi.recvOverhead > fitted.yaml\n' +
  '  phit run osu-latency --machine fitted.yaml\n' +
  'Exit code 2 on bad input (a file, line, parameter or option), 1 when a simulation fails.';

/** Reads every data file; throws RangeError naming a missing file or the first bad line. */
function readData(files: readonly string[]): MeasuredPoint[] {
  if (files.length === 0) throw new RangeError('--data: expected at least one file of OSU output or CSV');
  const points: MeasuredPoint[] = [];
  for (const f of files) {
    if (!existsSync(f)) throw new RangeError(`--data ${f}: no such file`);
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch (e) {
      throw new RangeError(`--data ${f}: cannot read it (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    points.push(...readMeasurements(text, f));
  }
  return points;
}

/** A number with up to 4 significant digits. */
const num = (v: number): number => Number(v.toPrecision(4));
/** A relative error in percent, two decimals. */
const pct = (v: number): string => `${(100 * v).toFixed(2)} %`;

/** One line of an error summary: "fitted points: 8, median |error| 0.01 %, max 0.03 %". */
function summaryLine(what: string, s: ErrorSummary): string {
  return `${what}: ${s.points}, median |error| ${pct(s.median)}, max ${pct(s.max)}`;
}

/** The report of a calibration, as lines. */
export function formatCalibration(r: CalibrationResult, machine: MachineSpec, files: readonly string[], holdOut: number): string[] {
  const k = holdOutStride(holdOut);
  const held = r.points.filter((p) => p.heldOut).length;
  const lines = [
    `calibrate ${machine.name} (${machine.title}): ${r.params.length} parameter${r.params.length === 1 ? '' : 's'} fitted to ${r.points.length - held} of ${r.points.length} points of ${files.join(', ')}` +
      (k > 0 ? ` (every ${k}${k === 2 ? 'nd' : k === 3 ? 'rd' : 'th'} point of each curve held out)` : ' (none held out)'),
    formatTable(r.params.map((p) => ({ parameter: p.key, start: p.start, fitted: p.fitted, change: `${p.change >= 0 ? '+' : ''}${(100 * p.change).toFixed(2)} %` }))),
    '',
    formatTable(
      r.points.map((p) => ({
        point: `${p.file}:${p.line}`,
        benchmark: p.benchmark,
        nodes: p.nodes,
        ppn: p.ppn,
        bytes: p.bytes,
        ...(r.points.some((q) => q.simBytes !== q.bytes) ? { simBytes: p.simBytes } : {}),
        unit: p.unit,
        measured: num(p.measured),
        simulated: num(p.simulated),
        'error%': Number((100 * p.error).toFixed(2)),
        use: p.heldOut ? 'held out' : 'fit',
      })),
    ),
    '',
    summaryLine('fitted points', r.fitted),
  ];
  if (r.heldOut) lines.push(summaryLine('held-out points', r.heldOut));
  lines.push(
    `rms error ${pct(r.rmsErrorStart)} at the start, ${pct(r.rmsError)} fitted; ` +
      `${r.converged ? 'converged after' : 'stopped at the cap of'} ${r.evaluations} evaluations, ${r.simulations} simulations (${r.runs} per evaluation)` +
      (r.converged ? '' : '; raise --max-evals to go on'),
  );
  for (const p of r.params) {
    if (p.idle) lines.push(`warning: ${p.key}: 10 % more of it moves no fitted point; the data do not determine it, so it keeps its start and the machine file leaves it out`);
    else if (p.atBound) lines.push(`warning: ${p.key} ended at a bound of the fit (a factor of 1000 from its start, or its kind's limit): the data hardly determine it`);
  }
  for (const s of r.skipped) lines.push(`skipped ${s.file}:${s.line} (${s.benchmark}): ${s.why}`);
  return lines;
}

/** The machine with the fitted values (source: the data files; a parameter the data do not determine keeps its own) and the fixed --set values. */
export function fittedMachine(machine: MachineSpec, r: CalibrationResult, set: Readonly<Record<string, string>>, files: readonly string[]): MachineSpec {
  const names = [...new Set(files.map((f) => basename(f)))].join(', ');
  const params: Record<string, ParamDef> = { ...machine.params };
  for (const [k, v] of Object.entries(set)) params[k] = { value: v, help: machine.params[k]?.help ?? '', source: 'held fixed in the calibration (phit calibrate --set)' };
  for (const p of r.params) if (!p.idle) params[p.key] = { value: p.fitted, help: machine.params[p.key]?.help ?? '', source: `fitted: ${names}` };
  return { name: `${machine.name}-fitted`, title: `${machine.title}, calibrated to ${names}`, seed: machine.seed, params };
}

/** Runs `phit calibrate`; returns the exit code. Bad input throws RangeError (exit code 2). */
export async function calibrateCommand(opts: CalibrateCliOptions, io: { out: (s: string) => void; err: (s: string) => void; tty?: NodeJS.WriteStream }): Promise<number> {
  const spec = loadMachine(opts.machine);
  const fit = opts.fit.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (fit.length === 0) throw new RangeError(`--fit "${opts.fit}": expected parameter keys joined by commas, e.g. mpi.sendOverhead,mpi.recvOverhead`);
  const nodes = positiveInt('nodes', opts.nodes);
  const ppn = positiveInt('ppn', opts.ppn);
  const holdOut = Number(opts.holdOut);
  if (opts.holdOut.trim() === '' || !Number.isFinite(holdOut)) throw new RangeError(`--hold-out ${opts.holdOut}: expected a fraction from 0 to 0.5`);
  holdOutStride(holdOut);
  const maxEvaluations = opts.maxEvals !== undefined ? positiveInt('max-evals', opts.maxEvals) : undefined;
  const format = opts.out === undefined ? 'yaml' : extname(opts.out).toLowerCase() === '.json' ? 'json' : /^\.ya?ml$/.test(extname(opts.out).toLowerCase()) ? 'yaml' : null;
  if (format === null) throw new RangeError(`--out ${opts.out}: expected a machine file name ending in .yaml, .yml or .json`);
  const set = parseSets(withFidelity(opts.set, opts.fidelity), spec);
  const points = readData(opts.data);
  // an output path that cannot be written fails before the fit
  if (opts.out !== undefined) writeOutput('--out', opts.out, '');

  // on a terminal, one line of progress on stderr, redrawn at most 4 times a second
  const tty = io.tty;
  let last = -Infinity;
  const onEvaluation = tty
    ? (n: number, sims: number, rms: number): void => {
        const t = performance.now();
        if (t - last < 250) return;
        last = t;
        tty.write(`\rcalibrate: evaluation ${n}, ${sims} simulations, rms error ${pct(rms)}\x1b[K`);
      }
    : undefined;
  let r: CalibrationResult;
  try {
    r = await calibrate({ machine: spec, fit, points, set, nodes, ppn, holdOut, ...(maxEvaluations !== undefined ? { maxEvaluations } : {}), ...(onEvaluation ? { onEvaluation } : {}) });
  } finally {
    if (tty && last > -Infinity) tty.write('\r\x1b[K');
  }
  const files = opts.data;
  const fitted = fittedMachine(spec, r, set, files);
  const report = formatCalibration(r, spec, files, holdOut);
  const idle = r.params.filter((p) => p.idle).map((p) => p.key);
  const comment =
    `phit calibrate: ${r.params.filter((p) => !p.idle).map((p) => p.key).join(', ') || 'no parameter'} of ${spec.name} fitted to ${[...new Set(files.map((f) => basename(f)))].join(', ')}` +
    `${idle.length > 0 ? ` (not determined by the data, left out: ${idle.join(', ')})` : ''};\n` +
    `median |error| ${pct(r.fitted.median)} on the fitted points${r.heldOut ? `, ${pct(r.heldOut.median)} on the held-out ones` : ''}. Load it with --machine <this file>.`;
  const text = machineOverlay(fitted, { ...(isMachinePath(opts.machine) ? {} : { base: spec.name }), format, comment });
  if (opts.out !== undefined) {
    writeOutput('--out', opts.out, text.endsWith('\n') ? text : `${text}\n`);
    io.out([...report, `machine file: ${opts.out}`].join('\n'));
  } else {
    io.err(report.join('\n'));
    io.out(text.trimEnd());
  }
  return 0;
}
