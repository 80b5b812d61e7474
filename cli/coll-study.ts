/**
 * `phit collectives --study C`: every algorithm of collective C (or a chosen list) over a matrix
 * of machines, node counts and sizes, one point per worker-thread task, with per point the best
 * algorithm, the selector's choice (the machine's `mpi.collSelector` or --coll-selector) and how far it is from the best, and per algorithm the fabric's link
 * utilisation (the thing a flow-level simulator cannot show).
 */
import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import { sizeSweep } from '../apps/app.ts';
import { resolveMachine } from '../fabric/machine.ts';
import { parseBytes } from '../fabric/units.ts';
import { SELECTOR_NAMES, type SelectorName } from '../runtime/mpi/coll/index.ts';
import { runStudyPoint, selectorChoice, STUDY_COLLECTIVES, studyAlgorithms, type StudyCollective, type StudyPoint, type StudyTask } from '../runtime/coll-study.ts';
import { loadMachine } from './machine-arg.ts';
import type { ReportDoc, ReportSection } from './report.ts';
import { formatTable } from './table.ts';

/** A study's options, parsed from the command line. */
export interface StudyOptions {
  readonly collective: string;
  readonly machines: readonly string[];
  readonly nodes: readonly number[];
  /** `8B..4MiB` (doubling) or a list `8,64KiB`. */
  readonly sizes: string;
  readonly algorithms?: readonly string[];
  readonly ppn?: number;
  readonly iterations?: number;
  readonly set?: Readonly<Record<string, string>>;
  /** Whose rules the study compares with the best (default: each machine's `mpi.collSelector`). */
  readonly collSelector?: SelectorName;
  /** Run in this thread, not in workers (tests). */
  readonly inline?: boolean;
}

/** One point of the matrix with the algorithms compared there. */
export interface StudyRow {
  readonly machine: string;
  readonly nodes: number;
  readonly bytes: number;
  readonly best: string | null;
  readonly bestUs: number | null;
  /** The library whose rules chose (`mpi.collSelector` or --coll-selector). */
  readonly selectorName: SelectorName;
  /** What its rules pick here. */
  readonly selector: string;
  readonly selectorUs: number | null;
  /** selectorUs / bestUs - 1 (0: the selector picked the best). */
  readonly selectorExcess: number | null;
}

export interface StudyResult {
  readonly collective: StudyCollective;
  readonly algorithms: readonly string[];
  readonly points: readonly StudyPoint[];
  readonly rows: readonly StudyRow[];
}

/** The largest study: points run (each one simulation). */
const MAX_POINTS = 5000;

/** Sizes of `8B..4MiB` (doubling from the first to the last) or of a comma list. */
export function parseSizes(text: string): number[] {
  const range = /^\s*([^.,]+)\s*\.\.\s*([^.,]+)\s*$/.exec(text);
  let sizes: number[];
  try {
    const lo = range ? parseBytes(range[1]!) : 1;
    sizes = range ? (lo >= 1 ? sizeSweep(lo, parseBytes(range[2]!)) : [lo]) : text.split(',').map((s) => parseBytes(s.trim()));
  } catch {
    sizes = [];
  }
  if (sizes.length === 0 || sizes.some((b) => !Number.isInteger(b) || b < 1 || b > 2 ** 30)) throw new RangeError(`--sizes ${text}: expected sizes from 1 B to 1 GiB, e.g. 8B..4MiB or 8,1KiB,64KiB`);
  return sizes;
}

/** Plans and runs a study; bad input throws RangeError naming the flag. */
export async function runStudy(o: StudyOptions): Promise<StudyResult> {
  if (!(STUDY_COLLECTIVES as readonly string[]).includes(o.collective)) throw new RangeError(`--study ${o.collective}: valid: ${STUDY_COLLECTIVES.join(', ')}`);
  const c = o.collective as StudyCollective;
  const all = studyAlgorithms(c);
  const algorithms = o.algorithms && o.algorithms.length > 0 ? [...o.algorithms] : all;
  for (const a of algorithms) if (!all.includes(a)) throw new RangeError(`--algorithms: ${c} has no algorithm '${a}'; valid: ${all.join(', ')}`);
  const sizes = c === 'barrier' ? [0] : parseSizes(o.sizes);
  if (o.machines.length === 0) throw new RangeError('--machines: give at least one machine');
  if (o.nodes.length === 0) throw new RangeError('--nodes: give at least one node count');
  const ppn = o.ppn ?? 1;
  const iterations = o.iterations ?? 3;
  const set = o.set ?? {};
  const specs = o.machines.map((m) => loadMachine(m));
  if (o.collSelector !== undefined && !(SELECTOR_NAMES as readonly string[]).includes(o.collSelector)) throw new RangeError(`--coll-selector ${String(o.collSelector)}: valid: ${SELECTOR_NAMES.join(', ')}`);
  const selectorOfMachine = new Map(specs.map((spec) => [spec.name, o.collSelector ?? resolveMachine(spec, o.nodes[0]!, { ...set }).mpi.collSelector]));
  for (const spec of specs) for (const n of o.nodes) resolveMachine(spec, n, { ...set });
  const tasks: StudyTask[] = [];
  for (const spec of specs) for (const nodes of o.nodes) for (const bytes of sizes) for (const algorithm of algorithms) tasks.push({ machine: spec.name, spec, nodes, ppn, collective: c, algorithm, bytes, iterations, set: { ...set } });
  if (tasks.length > MAX_POINTS) throw new RangeError(`the study has ${tasks.length} points; at most ${MAX_POINTS} (fewer sizes, node counts or algorithms)`);
  let points: StudyPoint[];
  if (o.inline) {
    points = [];
    for (const t of tasks) points.push(await runStudyPoint(t));
  } else {
    const threads = Math.max(1, Math.min(tasks.length, availableParallelism()));
    const pool = new Tinypool({ filename: new URL('./compare-worker.mjs', import.meta.url).href, minThreads: threads, maxThreads: threads });
    try {
      points = await Promise.all(tasks.map((t) => pool.run(t) as Promise<StudyPoint>));
    } finally {
      await pool.destroy();
    }
  }
  const rows: StudyRow[] = [];
  for (const spec of specs) {
    for (const nodes of o.nodes) {
      for (const bytes of sizes) {
        const here = points.filter((p) => p.machine === spec.name && p.nodes === nodes && p.bytes === bytes && p.us !== null);
        const best = here.reduce<StudyPoint | null>((b, p) => (b === null || p.us! < b.us! ? p : b), null);
        const selectorName = selectorOfMachine.get(spec.name)!;
        const selector = selectorChoice(c, nodes * ppn, bytes, selectorName, ppn);
        const sel = points.find((p) => p.machine === spec.name && p.nodes === nodes && p.bytes === bytes && p.algorithm === selector);
        const selectorUs = sel?.us ?? null;
        rows.push({
          machine: spec.name,
          nodes,
          bytes,
          best: best?.algorithm ?? null,
          bestUs: best?.us ?? null,
          selectorName,
          selector,
          selectorUs,
          selectorExcess: selectorUs !== null && best?.us ? Number((selectorUs / best.us - 1).toFixed(4)) : null,
        });
      }
    }
  }
  return { collective: c, algorithms, points, rows };
}

/** The study as text: time per algorithm and size, then best and selector per point, then link utilisation per algorithm. */
export function formatStudy(r: StudyResult): string {
  const out: string[] = [];
  const keys = [...new Set(r.points.map((p) => `${p.machine} ${p.nodes}`))];
  for (const k of keys) {
    const pts = r.points.filter((p) => `${p.machine} ${p.nodes}` === k);
    const bytes = [...new Set(pts.map((p) => p.bytes))];
    out.push(`${r.collective} on ${k} nodes: us per call (largest over ranks)`);
    out.push(formatTable(bytes.map((b) => ({ bytes: b, ...Object.fromEntries(r.algorithms.map((a) => [a, pts.find((p) => p.bytes === b && p.algorithm === a)?.us ?? 'failed'])) }))));
  }
  out.push('best algorithm per point, and what the selector (the library whose rules choose) picks:');
  out.push(formatTable(r.rows.map((x) => ({ machine: x.machine, nodes: x.nodes, bytes: x.bytes, best: x.best ?? '-', bestUs: x.bestUs ?? '-', selector: x.selectorName, choice: x.selector, choiceUs: x.selectorUs ?? '-', 'excess%': x.selectorExcess === null ? '-' : Number((100 * x.selectorExcess).toFixed(1)) }))));
  out.push('link utilisation per algorithm (mean over points; busiest class mean / busiest link), %:');
  out.push(
    formatTable(
      r.algorithms.map((a) => {
        const ps = r.points.filter((p) => p.algorithm === a && p.meanLinkUtil !== null);
        const mean = (f: (p: StudyPoint) => number): number => Number(((100 * ps.reduce((s, p) => s + f(p), 0)) / Math.max(1, ps.length)).toFixed(2));
        return { algorithm: a, 'classMean%': mean((p) => p.meanLinkUtil!), 'busiestLink%': mean((p) => p.maxLinkUtil!) };
      }),
    ),
  );
  const failedPoints = r.points.filter((p) => p.error);
  for (const p of failedPoints) out.push(`failed: ${p.algorithm} on ${p.machine} ${p.nodes} nodes, ${p.bytes} B: ${p.error}`);
  return out.join('\n');
}

/** The study as an HTML report: a latency chart per machine and node count, the tables. */
export function studyReport(r: StudyResult): ReportDoc {
  const sections: ReportSection[] = [];
  for (const k of [...new Set(r.points.map((p) => `${p.machine} ${p.nodes}`))]) {
    const pts = r.points.filter((p) => `${p.machine} ${p.nodes}` === k);
    sections.push({
      title: `${k} nodes`,
      items: [
        {
          kind: 'line',
          title: `${r.collective}: time per call`,
          xLabel: 'bytes',
          yLabel: 'us',
          logX: true,
          logY: true,
          series: r.algorithms.map((a) => ({ name: a, points: pts.filter((p) => p.algorithm === a && p.us !== null).map((p) => [Math.max(1, p.bytes), p.us!] as const) })),
        },
      ],
    });
  }
  sections.push({ title: 'Best algorithm and the selector\'s choice', items: [{ kind: 'table', rows: r.rows as unknown as Record<string, unknown>[] }] });
  sections.push({ title: 'Every point', items: [{ kind: 'table', rows: r.points as unknown as Record<string, unknown>[] }] });
  return { title: `phit collectives --study ${r.collective}`, sections };
}
