/**
 * `phit run --dumpi DIR`, `--otf2 DIR`, `--simgrid DIR`: the run's MPI calls written as a trace
 * of that format, which `phit replay` (and the format's own tools) read. The folders are checked
 * (and made) before the run, the traces written after it.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CallLog } from '../replay/call-log.ts';
import { writeDumpi, type WrittenTrace } from '../replay/dumpi-writer.ts';
import { writeOtf2 } from '../replay/otf2-writer.ts';
import { writeSimgrid } from '../replay/simgrid-writer.ts';

/** The formats `phit run` writes, each its own option. */
export const TRACE_OUT_FORMATS = ['dumpi', 'otf2', 'simgrid'] as const;
export type TraceOutFormat = (typeof TRACE_OUT_FORMATS)[number];

/** Text after `phit run --help` about the trace options. */
export const TRACE_OUT_HELP =
  '\nWriting the run as an MPI trace (--dumpi DIR, --otf2 DIR, --simgrid DIR; any of them together):\n' +
  '  every rank\'s MPI calls (point-to-point, completion, collective and communicator calls, persistent\n' +
  '  requests, probes, cancel, nonblocking collectives, MPI-2 one-sided calls on windows of MPI_Win_create\n' +
  '  or MPI_Win_allocate, with peer, tag, communicator, datatype and count, root, op, requests, window,\n' +
  '  target, displacement, group, lock type and assertions) and their simulated entry and exit\n' +
  '  times. DUMPI: DIR/<app>.meta and DIR/<app>-NNNN.bin; OTF2: DIR/<app>.otf2 (anchor), DIR/<app>.def and\n' +
  '  DIR/<app>/<rank>.evt; SimGrid: DIR/<app>.trace listing DIR/<app>_files/rank-<n>.txt. The time between\n' +
  '  calls is the trace\'s computation, so the trace replays on another machine:\n' +
  '    phit run halo3d --machine xe6 --nodes 8 --dumpi out\n' +
  '    phit replay out/halo3d.meta --machine xc30\n' +
  '  Each format keeps what it has records for: DUMPI all but nonblocking collectives (MPI-2\'s functions),\n' +
  '  OTF2 all (one-sided calls as Score-P\'s RMA records, with phit:: attributes for the window size,\n' +
  '  displacement, element size, op and assertions), SimGrid point-to-point and collectives on the\n' +
  '  world communicator.\n' +
  '  Calls no format here expresses (neighbourhood and persistent collectives, MPI-3 one-sided calls:\n' +
  '  request-based and atomic operations, lock_all, flush, dynamic and shared windows) and whatever a\n' +
  '  format leaves out are counted in a warning. DIR is made if missing.';

/** Folders to write traces to, by format. */
export type TraceOuts = Partial<Record<TraceOutFormat, string>>;

/** Checks each trace folder before the run: made if missing; a file or a folder that cannot be written is bad input. */
export function checkTraceOuts(outs: TraceOuts): void {
  for (const [format, dir] of Object.entries(outs)) {
    const flag = `--${format}`;
    if (dir === '') throw new RangeError(`${flag}: expected a folder name`);
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new RangeError(`${flag} ${dir}: is a file; give a folder (it is made if missing)`);
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
    } catch (e) {
      throw new RangeError(`${flag} ${dir}: cannot write in it (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
  }
}

/** A call log for the run when a trace is asked for. */
export function callLogFor(outs: TraceOuts, ranks: number): CallLog | undefined {
  return Object.keys(outs).length > 0 ? new CallLog(ranks) : undefined;
}

/** The trace files' base name: the app's name, kept to letters, digits, `-` and `_`. */
export function traceName(app: string): string {
  const n = app.replace(/\.ts$/, '').split(/[\\/]/).pop()!.replace(/[^A-Za-z0-9_-]+/g, '-');
  return n === '' ? 'phit' : n;
}

/** Writes the traces; returns one line per trace and warnings about calls left out. */
export function writeTraceOuts(outs: TraceOuts, log: CallLog, app: string, machine: string): { lines: string[]; written: Partial<Record<TraceOutFormat, WrittenTrace>>; warnings: string[] } {
  const name = traceName(app);
  const lines: string[] = [];
  const warnings: string[] = [];
  const written: Partial<Record<TraceOutFormat, WrittenTrace>> = {};
  for (const format of TRACE_OUT_FORMATS) {
    const dir = outs[format];
    if (dir === undefined) continue;
    let w: WrittenTrace;
    try {
      if (format === 'simgrid') {
        const sg = writeSimgrid(dir, name, log);
        const left = Object.entries(sg.omitted);
        if (left.length > 0) warnings.push(`the SimGrid trace (world communicator only) leaves out ${left.map(([n, c]) => `${n} x${c}`).join(', ')}`);
        w = sg;
      } else {
        w = format === 'dumpi' ? writeDumpi(dir, name, log) : writeOtf2(dir, name, log, machine);
        const left = Object.entries(w.omitted ?? {});
        if (left.length > 0) warnings.push(`the ${format === 'dumpi' ? 'DUMPI trace (MPI-2 functions only)' : 'OTF2 trace'} leaves out ${left.map(([n, c]) => `${n} x${c}`).join(', ')}`);
      }
    } catch (e) {
      throw new RangeError(`--${format} ${dir}: cannot write the trace (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    written[format] = w;
    lines.push(`${format} trace: ${w.path} (${w.files} files, ${(w.bytes / 1e6).toFixed(2)} MB, ${w.records} records); replay it with phit replay ${w.path}`);
  }
  const skipped = Object.entries(log.skipped);
  if (skipped.length > 0) warnings.unshift(`the trace leaves out calls it cannot express: ${skipped.map(([n, c]) => `${n} x${c}`).join(', ')}`);
  return { lines, written, warnings };
}

/** The trace folders of `phit run`'s options. */
export function traceOutsOf(opts: { dumpi?: string; otf2?: string; simgrid?: string }): TraceOuts {
  const outs: TraceOuts = {};
  for (const f of TRACE_OUT_FORMATS) if (opts[f] !== undefined) outs[f] = opts[f];
  return outs;
}

/** Where a format's trace of app `app` lands in `dir` (the file `phit replay` takes). */
export function tracePath(format: TraceOutFormat, dir: string, app: string): string {
  const n = traceName(app);
  return join(dir, format === 'dumpi' ? `${n}.meta` : format === 'otf2' ? `${n}.otf2` : `${n}.trace`);
}
