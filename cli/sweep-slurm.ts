/**
 * `phit sweep FILE --slurm`: the points of a sweep as the tasks of one Slurm job array.
 *
 * The submitter writes the planned tasks to a job directory (`sweep.json`) with a batch script
 * (`sweep.sh`), submits it with `sbatch --array=<points> --wait` (array task i runs point i: the
 * hidden `phit sweep-point DIR i`, which runs the point as a local sweep's worker does and writes
 * `point-<i>.json`, its log going to `point-<i>.log`), and when sbatch returns reads every point
 * file back into the rows a local sweep would have given. The job directory must be on a
 * filesystem the compute nodes see, as must this checkout and node (the script names both by
 * their absolute paths). sbatch is run without a shell: the extra options are split as a shell
 * would split them and passed on word by word.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, delimiter, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareOne, type CompareOutcome, type CompareTask } from './compare.ts';
import { splitShellWords } from './shell-words.ts';
import { failedRow, outcomeRow } from './sweep-rows.ts';
import type { SweepPlan, SweepRow } from './sweep.ts';

/** The job file's name in the job directory. */
const JOB_FILE = 'sweep.json';
/** The batch script's name in the job directory. */
const SCRIPT_FILE = 'sweep.sh';
/** Marks a job file as one of ours. */
const JOB_KIND = 'phit sweep job';

/** sbatch options phit sets itself, long names and the short letters that stand for them. */
const OWN_LONG = ['array', 'wait', 'parsable', 'output', 'error', 'chdir', 'wrap'];
const OWN_SHORT: Readonly<Record<string, string>> = { a: 'array', W: 'wait', o: 'output', e: 'error', D: 'chdir' };

/** What the job file holds: the sweep's name and the task of every point that runs. */
interface JobFile {
  readonly kind: typeof JOB_KIND;
  readonly file: string;
  readonly points: readonly { readonly index: number; readonly label: string; readonly task: CompareTask }[];
}

/** What a point file holds: the point's index and what its run gave. */
interface PointFile {
  readonly index: number;
  readonly outcome: CompareOutcome;
}

/** The point file of point `index`. */
export const pointFile = (dir: string, index: number): string => join(dir, `point-${index}.json`);
/** The log of the array task of point `index`. */
export const pointLog = (dir: string, index: number): string => join(dir, `point-${index}.log`);

/**
 * The extra sbatch options of `--slurm-opts`, split as a shell would; throws RangeError on an
 * unclosed quote, a shell operator, or an option phit sets itself (array, wait, output, ...).
 */
export function slurmOptions(text: string): string[] {
  const words = splitShellWords(text, '--slurm-opts');
  for (const w of words) {
    const long = /^--([^=]+)/.exec(w)?.[1];
    // sbatch takes an unambiguous prefix of a long option too (--arr=0-3)
    const own = long !== undefined ? OWN_LONG.find((o) => o === long || (long.length >= 3 && o.startsWith(long))) : /^-([^-])/.exec(w)?.[1];
    const name = long !== undefined ? own : own !== undefined ? OWN_SHORT[own] : undefined;
    if (name !== undefined) throw new RangeError(`--slurm-opts: ${w}: phit sets --${name} itself (one array task per point); leave it out`);
  }
  return words;
}

/** The path of `sbatch` on PATH; throws RangeError when there is none. */
export function findSbatch(path = process.env.PATH ?? ''): string {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'sbatch');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new RangeError('--slurm: no sbatch on PATH (run on a Slurm login node, or add the folder of sbatch to PATH)');
}

/** A fresh job directory `phit-sweep-<name>-<n>` in `parent` (the first n not taken). */
export function newJobDir(parent: string, sweepFile: string): string {
  const name = basename(sweepFile, extname(sweepFile)).replace(/[^A-Za-z0-9._-]/g, '_');
  for (let n = 1; ; n++) {
    const dir = resolve(parent, `phit-sweep-${name}-${n}`);
    if (existsSync(dir)) continue;
    try {
      mkdirSync(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new RangeError(`--slurm: cannot create the job directory ${dir} (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
  }
}

/** The job directory of `--slurm-dir`: created when missing; an existing one must be empty (old point files would be read back). */
export function givenJobDir(dir: string): string {
  const abs = resolve(dir);
  try {
    mkdirSync(abs, { recursive: true });
  } catch (e) {
    throw new RangeError(`--slurm-dir ${dir}: cannot create it (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (readdirSync(abs).length > 0) throw new RangeError(`--slurm-dir ${dir}: not empty; give a new or empty folder`);
  return abs;
}

/** Point indices as a Slurm array: runs of consecutive indices as ranges (`0-3,5,7-9`). */
export function arraySpec(indices: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indices.length; ) {
    let j = i;
    while (j + 1 < indices.length && indices[j + 1] === indices[j]! + 1) j++;
    parts.push(j === i ? `${indices[i]}` : `${indices[i]}-${indices[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Writes the job file and the batch script of `plan` into `dir`; returns the script's path. */
export function writeJob(plan: SweepPlan, dir: string): string {
  const job: JobFile = {
    kind: JOB_KIND,
    file: plan.name,
    points: [...plan.tasks].map(([index, task]) => ({ index, label: plan.points[index]!.label, task })),
  };
  writeFileSync(join(dir, JOB_FILE), JSON.stringify(job) + '\n');
  const phit = fileURLToPath(new URL('./phit.mjs', import.meta.url));
  const script = join(dir, SCRIPT_FILE);
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `# phit sweep ${plan.name.replace(/[\r\n]/g, ' ')}: array task i runs point i of ${JOB_FILE} and writes point-i.json`,
      `exec ${quote(process.execPath)} ${quote(phit)} sweep-point ${quote(dir)} "$SLURM_ARRAY_TASK_ID"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return script;
}

/** How sbatch ended: the job id it printed (null when it refused the job), its exit code and its stderr. */
interface Submission {
  readonly jobId: string | null;
  readonly code: number;
  readonly stderr: string;
}

/** Runs sbatch (no shell) and waits for it; `onJob` hears the job id as soon as sbatch prints it. */
function submit(sbatch: string, args: readonly string[], onJob: (id: string) => void): Promise<Submission> {
  return new Promise((done, fail) => {
    const child = spawn(sbatch, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let jobId: string | null = null;
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
      // --parsable: "<job id>" or "<job id>;<cluster>"
      const m = /^(\d+)(;\S*)?\r?\n/.exec(stdout);
      if (m && jobId === null) {
        jobId = m[1]!;
        onJob(jobId);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', (e) => fail(new RangeError(`--slurm: cannot run ${sbatch} (${e.message})`, { cause: e })));
    child.on('close', (code) => done({ jobId, code: code ?? 1, stderr }));
  });
}

function readPoint(dir: string, index: number): PointFile | null {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(pointFile(dir, index), 'utf8'));
  } catch {
    return null;
  }
  const p = doc as Partial<PointFile> | null;
  return p !== null && typeof p === 'object' && p.index === index && typeof p.outcome === 'object' && p.outcome !== null ? (p as PointFile) : null;
}

/** The last non-empty line of a task's log, if it has one. */
function logTail(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '').at(-1);
  } catch {
    return undefined;
  }
}

/** The rows of a finished job: every point's file read back as a local sweep's row; a point without one is an error row naming its task and log. */
export function gatherRows(plan: SweepPlan, dir: string, jobId: string): SweepRow[] {
  return plan.points.map((point) => {
    const early = plan.early.get(point.index);
    if (early !== undefined) return early;
    const got = readPoint(dir, point.index);
    if (got !== null) return outcomeRow(point, got.outcome);
    const log = pointLog(dir, point.index);
    const tail = logTail(log);
    return failedRow(point, `Slurm array task ${jobId}_${point.index} wrote no result; its log: ${log}${tail !== undefined ? ` (last line: ${tail})` : ''}`);
  });
}

/** Options of `runSweepOnSlurm`. */
export interface SlurmSweepOptions {
  /** The job directory: created and empty. */
  readonly dir: string;
  /** sbatch's path (`findSbatch`). */
  readonly sbatch: string;
  /** Extra sbatch options (`slurmOptions`). */
  readonly sbatchOptions: readonly string[];
  /** Called once sbatch has printed the job id. */
  readonly onSubmit?: (jobId: string, tasks: number) => void;
  /** Called as point files appear, with the number of points done (early failures included) and failed. */
  readonly onPoint?: (done: number, failed: number) => void;
}

/**
 * Runs the plan's points as one Slurm job array and returns one row per point in matrix order,
 * as `runSweep` does. Throws RangeError when sbatch refuses the job (bad options, no controller),
 * leaving the job directory as it was before.
 */
export async function runSweepOnSlurm(plan: SweepPlan, opts: SlurmSweepOptions): Promise<{ rows: SweepRow[]; jobId: string }> {
  const script = writeJob(plan, opts.dir);
  const name = basename(plan.name, extname(plan.name));
  const args = [
    `--job-name=phit-sweep-${name}`,
    ...opts.sbatchOptions,
    `--array=${arraySpec([...plan.tasks.keys()])}`,
    '--wait',
    '--parsable',
    // relative to --chdir: sbatch replaces %a by the array index
    '--output=point-%a.log',
    `--chdir=${opts.dir}`,
    script,
  ];
  // progress: count the point files as they appear
  const seen = new Map<number, boolean>();
  const poll = (): void => {
    if (opts.onPoint === undefined) return;
    let fresh = false;
    for (const i of plan.tasks.keys()) {
      if (seen.has(i)) continue;
      const got = readPoint(opts.dir, i);
      if (got === null) continue;
      seen.set(i, got.outcome.error !== undefined);
      fresh = true;
    }
    if (fresh) opts.onPoint(plan.early.size + seen.size, plan.early.size + [...seen.values()].filter((f) => f).length);
  };
  const timer = opts.onPoint !== undefined ? setInterval(poll, 1000) : undefined;
  let sub: Submission;
  try {
    sub = await submit(opts.sbatch, args, (id) => opts.onSubmit?.(id, plan.tasks.size));
  } finally {
    if (timer !== undefined) clearInterval(timer);
  }
  if (sub.jobId === null) {
    // nothing ran: take back what was written for the job
    for (const f of [JOB_FILE, SCRIPT_FILE]) rmSync(join(opts.dir, f), { force: true });
    const why = sub.stderr.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? `exit code ${sub.code}`;
    throw new RangeError(`--slurm: sbatch refused the job: ${why}`);
  }
  poll();
  return { rows: gatherRows(plan, opts.dir, sub.jobId), jobId: sub.jobId };
}

/**
 * `phit sweep-point DIR INDEX` (hidden; what each array task runs): runs point INDEX of the job in
 * DIR as a local sweep's worker does and writes its point file. Returns 0 once the file is
 * written, whether the point ran or failed (its file says which); throws RangeError on a bad job.
 */
export async function sweepPointCommand(dir: string, index: string, io: { out: (s: string) => void }): Promise<number> {
  let job: JobFile;
  try {
    job = JSON.parse(readFileSync(join(dir, JOB_FILE), 'utf8')) as JobFile;
  } catch (e) {
    throw new RangeError(`sweep-point: ${join(dir, JOB_FILE)}: cannot read it (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (job.kind !== JOB_KIND || !Array.isArray(job.points)) throw new RangeError(`sweep-point: ${join(dir, JOB_FILE)} is not a phit sweep job`);
  const i = /^\d+$/.test(index) ? Number(index) : NaN;
  const point = job.points.find((p) => p.index === i);
  if (point === undefined) throw new RangeError(`sweep-point: ${index === '' ? 'no index (SLURM_ARRAY_TASK_ID is not set)' : `${index} is not a point of this job that runs`}`);
  const outcome = await compareOne(point.task);
  const file = pointFile(dir, point.index);
  const doc: PointFile = { index: point.index, outcome };
  // written whole, then renamed: a reader never sees half a file
  writeFileSync(`${file}.tmp`, JSON.stringify(doc) + '\n');
  renameSync(`${file}.tmp`, file);
  io.out(`point ${point.index} (${point.label}) of ${job.file}: ${outcome.error === undefined ? `ok, ${outcome.simulatedTimeUs} us simulated` : `error: ${outcome.error}`}`);
  return 0;
}
