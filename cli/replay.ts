/**
 * `phit replay`: an MPI trace (SimGrid time-independent, DUMPI, OTF2) replayed rank by rank on a
 * simulated machine, every traced call issued through phit's MPI, the gaps between calls as
 * computation. A skeleton run: traced messages move their sizes only.
 */
import type { Command } from 'commander';
import { resolveMachine } from '../fabric/machine.ts';
import { presets } from '../fabric/machines/index.ts';
import { RankError } from '../fabric/engine/engine.ts';
import { PLACEMENTS, type Placement } from '../runtime/placement.ts';
import { simulate } from '../runtime/simulate.ts';
import { TraceFormatError } from '../replay/calls.ts';
import { openTrace, TRACE_FORMATS, type TraceFormat } from '../replay/open.ts';
import { replayProgram, type RankReplay, type UnsupportedCount, type UnsupportedMode } from '../replay/replay.ts';
import { formatMetrics } from './metrics-output.ts';
import { positiveInt } from './args.ts';
import { loadMachine, parseSets, withFidelity } from './machine-arg.ts';
import { progressLine } from './progress.ts';
import { formatTable } from './table.ts';

/** Options of `phit replay` as commander gives them. */
export interface ReplayCliOptions {
  machine: string;
  nodes?: string;
  ppn: string;
  placement: string;
  computeScale: string;
  unsupported: string;
  format?: string;
  set: string[];
  fidelity?: string;
  seed: string;
  json?: boolean;
  metrics?: boolean;
}

/** Text after `phit replay --help`. */
export const REPLAY_HELP =
  '\nFormats (guessed from the file; --format to say):\n' +
  '  simgrid  SimGrid time-independent trace (smpirun -trace-ti): the list file naming one file per\n' +
  '           rank (paths relative to it), or one file of every rank\'s actions ("0 isend 1 7 1000 0").\n' +
  '           Counts are elements of SMPI\'s datatype number; compute is flops on the simulated CPU;\n' +
  '           SimGrid traces collectives on MPI_COMM_WORLD and records no reduction op (sum is used).\n' +
  '  dumpi    DUMPI (SST): the .meta file; its <fileprefix>-NNNN.bin files beside it. The time between\n' +
  '           a call\'s return and the next call\'s entry (wall clock, else CPU clock) becomes compute.\n' +
  '  otf2     OTF2 (Score-P): the .otf2 anchor file; <name>.def and <name>/<location>.evt beside it.\n' +
  '           Each Enter/Leave of an MPI_* region is one call built from the MPI events inside it;\n' +
  '           no datatype or op is traced: reductions sum elements of the widest size dividing the\n' +
  '           bytes; an alltoallv gets an exchange with every rank\'s traced totals. One-sided calls\n' +
  '           come from the RMA records, their window size, displacement, element size, op and\n' +
  '           assertions from phit:: attributes (phit run --otf2 writes them); without them (Score-P\'s\n' +
  '           traces) transfers go to displacement 0 on windows sized to their largest access (a warning).\n' +
  '\nEvery traced call is issued with its arguments (peer, tag, communicator, bytes, root, op) through\n' +
  "phit's MPI, so protocols, collective algorithms and network are the simulated machine's. Buffers are\n" +
  'skeleton buffers (sizes move, bytes do not). Calls with no message (MPI_Comm_rank, MPI_Wtime, type\n' +
  'construction) are counted as local. Unsupported calls are listed with their counts: with\n' +
  '--unsupported map (the default) the nearest supported call runs instead (MPI_Start: the isend or\n' +
  'irecv its MPI_Send_init/MPI_Recv_init described; MPI_Alltoallw: an alltoallv of the same bytes;\n' +
  'MPI_Cart_create: MPI_Comm_dup), calls with no nearest one are skipped; with skip, all are skipped.\n' +
  '\nThe run has as many ranks as the trace: --nodes defaults to ranks / --ppn.\n' +
  'Example:\n' +
  '  phit replay test/fixtures/traces/simgrid/halo/halo.trace --machine xe6\n' +
  'Exit code 2 on bad input (a bad or truncated trace file: the file, byte offset or line, and what\n' +
  'was expected), 1 when the replay fails (an MPI error, a deadlock).';

/** Totals over the ranks of a replay. */
interface ReplayTotals {
  traced: Record<string, number>;
  issued: number;
  sentBytes: number;
  local: number;
  computeUs: number;
  doneRequests: number;
  leftPending: number;
  rmaBytes: number;
  unsupported: Record<string, UnsupportedCount>;
}

function totals(ranks: readonly RankReplay[]): ReplayTotals {
  const t: ReplayTotals = { traced: {}, issued: 0, sentBytes: 0, local: 0, computeUs: 0, doneRequests: 0, leftPending: 0, rmaBytes: 0, unsupported: {} };
  for (const r of ranks) {
    for (const [k, v] of Object.entries(r.traced)) t.traced[k] = (t.traced[k] ?? 0) + v;
    for (const [k, v] of Object.entries(r.unsupported)) {
      const u = (t.unsupported[k] ??= { count: 0, mappedTo: v.mappedTo });
      u.count += v.count;
    }
    t.issued += r.issued;
    t.sentBytes += r.sentBytes;
    t.local += r.local;
    t.computeUs += r.computePs / 1e6 / ranks.length;
    t.doneRequests += r.doneRequests;
    t.leftPending += r.leftPending;
    t.rmaBytes += r.rmaBytes;
  }
  t.computeUs = Number(t.computeUs.toFixed(3));
  return t;
}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  tty?: NodeJS.WriteStream;
}

/** Runs `phit replay`; returns the exit code. Bad input throws RangeError (exit code 2). */
export async function replayCommand(tracePath: string, opts: ReplayCliOptions, io: Io): Promise<number> {
  if (opts.format !== undefined && !(TRACE_FORMATS as readonly string[]).includes(opts.format)) throw new RangeError(`--format ${opts.format}: valid: ${TRACE_FORMATS.join(', ')}`);
  if (opts.unsupported !== 'map' && opts.unsupported !== 'skip') throw new RangeError(`--unsupported ${opts.unsupported}: valid: map, skip`);
  const scale = Number(opts.computeScale);
  if (!Number.isFinite(scale) || scale < 0 || opts.computeScale.trim() === '') throw new RangeError(`--compute-scale ${opts.computeScale}: expected a non-negative number`);
  if (!(PLACEMENTS as readonly string[]).includes(opts.placement)) throw new RangeError(`--placement ${opts.placement}: valid: ${PLACEMENTS.join(', ')}`);
  const seed = Number(opts.seed);
  if (!Number.isSafeInteger(seed) || seed < 0 || opts.seed.trim() === '') throw new RangeError(`--seed ${opts.seed}: expected a non-negative integer`);
  const spec = loadMachine(opts.machine);
  const source = openTrace(tracePath, opts.format as TraceFormat | undefined);
  for (const w of source.warnings ?? []) io.err(`phit: warning: ${w}`);
  const ppn = positiveInt('ppn', opts.ppn);
  let nodes: number;
  if (opts.nodes === undefined) {
    if (source.ranks % ppn !== 0) throw new RangeError(`--ppn ${ppn}: the trace's ${source.ranks} ranks do not fill whole nodes of ${ppn}; give --nodes and --ppn whose product is ${source.ranks}`);
    nodes = source.ranks / ppn;
  } else {
    nodes = positiveInt('nodes', opts.nodes);
    if (nodes * ppn !== source.ranks) throw new RangeError(`--nodes ${nodes} --ppn ${ppn} gives ${nodes * ppn} ranks; the trace ${tracePath} has ${source.ranks}`);
  }
  const set = parseSets(withFidelity(opts.set, opts.fidelity), spec);
  resolveMachine(spec, nodes, { ...set });
  const program = replayProgram(source, { computeScale: scale, unsupported: opts.unsupported as UnsupportedMode });
  const line = io.tty ? progressLine(io.tty) : null;
  let r;
  try {
    r = await simulate({ machine: spec, nodes, ppn, seed, set, placement: opts.placement as Placement, skeleton: true, metrics: opts.metrics === true, program, ...(line ? { onProgress: line.onProgress } : {}) });
  } catch (e) {
    // a bad trace file found while a rank read it is bad input, reported as itself
    if (e instanceof RankError && e.error instanceof TraceFormatError) throw e.error;
    throw e;
  } finally {
    line?.clear();
  }
  for (const w of r.warnings ?? []) io.err(`phit: warning: ${w}`);
  const t = totals(r.rankResults);
  if (opts.json) {
    const out: Record<string, unknown> = { trace: tracePath, format: source.format, machine: r.machine, nodes: r.nodes, ranks: r.ranks, simulatedTimeUs: r.simulatedTimeUs, ...t };
    if (r.metrics) out.metrics = r.metrics;
    io.out(JSON.stringify(out));
    return 0;
  }
  io.out(`replay of ${tracePath} (${source.format}, ${source.ranks} ranks) on ${spec.name} (${spec.title}): ${r.nodes} nodes, ${r.ranks} ranks, simulated time ${r.simulatedTimeUs.toFixed(3)} us`);
  io.out(`MPI calls issued ${t.issued}, point-to-point bytes sent ${t.sentBytes}, compute ${t.computeUs} us per rank (x${scale}), local calls ${t.local}`);
  io.out(formatTable(Object.entries(t.traced).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([call, count]) => ({ call, count }))));
  const unsupported = Object.entries(t.unsupported);
  if (unsupported.length > 0) {
    io.out(`unsupported calls (--unsupported ${opts.unsupported}):`);
    for (const [name, u] of unsupported) io.out(`  ${name}: ${u.count} call${u.count === 1 ? '' : 's'}, ${u.mappedTo ? `issued as ${u.mappedTo}` : 'skipped'}`);
  }
  if (t.doneRequests > 0) io.out(`completion calls on requests already complete in the replay: ${t.doneRequests} (passed over)`);
  if (t.leftPending > 0) io.out(`requests the trace left pending: ${t.leftPending} (waited for at the end)`);
  if (t.rmaBytes > 0) io.out(`one-sided bytes (put, get, accumulate): ${t.rmaBytes}`);
  if (r.metrics) io.out(formatMetrics(r.metrics));
  return 0;
}

/** Adds `phit replay` to the command line; `run` is called with the trace and the options. */
export function addReplayCommand(program: Command, run: (trace: string, opts: ReplayCliOptions) => Promise<void>): void {
  program
    .command('replay')
    .description('replay an MPI trace (SimGrid time-independent, DUMPI, OTF2) rank by rank on a simulated machine')
    .argument('<trace>', 'a SimGrid trace (list file or actions file), a DUMPI .meta file or an OTF2 .otf2 anchor file')
    .option('-m, --machine <name|file>', `machine preset (${Object.keys(presets).join(', ')}) or a machine file`, 'xe6')
    .option('-n, --nodes <n>', 'number of nodes (default: the trace\'s ranks / --ppn)')
    .option('--ppn <p>', 'ranks per node', '1')
    .option('--placement <how>', `ranks on nodes: ${PLACEMENTS.join(', ')}`, 'contiguous')
    .option('--compute-scale <f>', 'factor on the traced time between calls (2: a processor half as fast)', '1')
    .option('--unsupported <map|skip>', 'calls phit does not replay: map to the nearest supported call, or skip', 'map')
    .option('--format <format>', 'the trace format (simgrid, dumpi, otf2); default: guessed from the file')
    .option('-s, --set <key=value>', 'set a machine parameter (repeatable)', (v: string, prev: string[]) => [...prev, v], [])
    .option('--fidelity <level>', 'what the fabric simulates: packet, coarse or flow; same as --set fabric.fidelity=<level>')
    .option('--seed <s>', 'seed of the run', '1')
    .option('--metrics', "also print each rank's time split and the table of MPI calls issued (count, bytes, time)")
    .option('--json', 'print one JSON object')
    .addHelpText('after', REPLAY_HELP)
    .action(run);
}
