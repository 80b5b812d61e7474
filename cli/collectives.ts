/** `phit collectives`: the list of algorithms and selectors, `--check` (an algorithm with real data) and `--study`. */
import { presets } from '../fabric/machines/index.ts';
import { checkCollective } from '../runtime/coll-check.ts';
import { ALGORITHMS, SELECTORS, type AlgorithmChoice, type Collective } from '../runtime/mpi/coll/index.ts';
import { collSelectorArg, parseKeyValues, positiveInt, writeOutput } from './args.ts';
import { loadAlgorithms } from './coll-file.ts';
import { formatStudy, runStudy, studyReport, type StudyResult } from './coll-study.ts';
import { parseRankList } from './metrics-output.ts';
import { renderReport } from './report.ts';
import { formatTable } from './table.ts';

/** Where the command writes. */
interface Io {
  out: (s: string) => void;
}

/** `phit collectives`: `--check`, `--study`, or the list; returns the exit code (bad input throws RangeError). */
export async function collectivesCommand(opts: CollectivesCliOptions, io: Io): Promise<number> {
  if (opts.check !== undefined) return checkCommand(opts.check, opts.ranks, opts.machine, io);
  if (opts.study !== undefined) return studyCommand(opts, io);
  let count = 0;
  for (const [coll, algs] of Object.entries(ALGORITHMS)) {
    io.out(`${coll}:`);
    for (const a of Object.values(algs)) {
      count++;
      io.out(`  ${a.name} [${a.origin}]${a.commutativeOnly ? ' (commutative ops only)' : ''}: ${a.help}; time ${a.cost}`);
    }
  }
  io.out("  collectiveEngine (allreduce and barrier): the NIC's collective engine, on machines that have one (xc30); automatic for one item of a predefined op other than product with --set mpi.collectiveEngine=yes (off by default, as in Cray MPT)");
  io.out(`${count} algorithms (and the collective engine). Times in the Hockney model: α per message, β per byte, γ per byte combined, n bytes, p ranks, P nodes, s segment bytes.`);
  io.out(`The automatic choice follows a library's rules (--coll-selector, machine parameter mpi.collSelector): ${Object.values(SELECTORS).map((s) => `${s.name} (${s.source})`).join('; ')}.`);
  io.out(`Presets: ${Object.values(presets).map((p) => `${p.name} ${String(p.params['mpi.collSelector']?.value ?? 'mpich')}`).join(', ')}.`);
  return 0;
}

/** The options of `phit collectives`, as commander parses them. */
export interface CollectivesCliOptions {
  check?: string;
  ranks: string;
  machine: string;
  study?: string;
  machines: string;
  nodes: string;
  sizes: string;
  algorithms?: string;
  iterations: string;
  set: string[];
  collSelector?: string;
  json?: boolean;
  report?: string;
}

/** `phit collectives --study C`: every algorithm over machines x nodes x sizes (see coll-study.ts). */
async function studyCommand(opts: CollectivesCliOptions, io: Io): Promise<number> {
  const nodes = opts.nodes.split(',').map((n) => positiveInt('nodes', n.trim()));
  const set = parseKeyValues(opts.set, '--set');
  const r: StudyResult = await runStudy({
    collective: opts.study!,
    machines: opts.machines.split(',').map((m) => m.trim()),
    nodes,
    sizes: opts.sizes,
    algorithms: opts.algorithms?.split(',').map((a) => a.trim()),
    iterations: positiveInt('iterations', opts.iterations),
    set,
    ...(opts.collSelector !== undefined ? { collSelector: collSelectorArg(opts.collSelector) } : {}),
  });
  if (opts.report !== undefined) writeOutput('--report', opts.report, renderReport(studyReport(r)));
  io.out(opts.json ? JSON.stringify(r) : formatStudy(r));
  return r.points.some((p) => p.error !== undefined) ? 1 : 0;
}

/** `phit collectives --check coll=alg`: the algorithm with real data on each size of `ranks`; 1 if any is wrong. */
async function checkCommand(check: string, ranks: string, machine: string, io: Io): Promise<number> {
  const choice = parseKeyValues([check], '--check');
  const [coll] = Object.keys(choice);
  if (Object.keys(choice).length !== 1 || coll === undefined) throw new RangeError(`--check ${check}: expected one collective=algorithm`);
  if (!Object.hasOwn(presets, machine)) throw new RangeError(`--machine ${machine}: valid presets: ${Object.keys(presets).join(', ')}`);
  let sizes: number[];
  try {
    sizes = parseRankList(ranks, MAX_CHECK_RANKS + 1).filter((n) => n >= 1);
  } catch {
    throw new RangeError(`--ranks ${ranks}: expected sizes or ranges of sizes from 1 to ${MAX_CHECK_RANKS}, e.g. 1-9,16`);
  }
  if (sizes.length === 0) throw new RangeError(`--ranks ${ranks}: no size from 1 to ${MAX_CHECK_RANKS}`);
  let algorithms: Record<string, AlgorithmChoice>;
  try {
    algorithms = await loadAlgorithms(choice);
  } catch (e) {
    throw new RangeError(`--check: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const results = await checkCollective(coll as Collective, algorithms[coll]!, sizes, machine);
  const bad = results.filter((r) => r.error !== null);
  io.out(formatTable(results.map((r) => ({ ranks: r.ranks, result: r.error === null ? 'pass' : 'FAIL', timeUs: Number(r.us.toFixed(3)) }))));
  for (const r of bad) io.out(`${r.ranks} ranks: ${r.error}`);
  io.out(`${coll}=${check.slice(coll.length + 1)}: ${results.length - bad.length} of ${results.length} sizes pass on ${machine}`);
  return bad.length > 0 ? 1 : 0;
}

/** The largest communicator `phit collectives --check` runs. */
const MAX_CHECK_RANKS = 256;
