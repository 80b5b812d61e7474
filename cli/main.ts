import { Command, CommanderError } from 'commander';
import { closeSync, openSync } from 'node:fs';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { machineTopology, resolveMachine } from '../fabric/machine.ts';
import { PATTERNS } from '../fabric/traffic.ts';
import { machineToJson, machineToYaml } from '../fabric/machines/file.ts';
import { presets } from '../fabric/machines/index.ts';
import { SELECTOR_NAMES, type AlgorithmChoice } from '../runtime/mpi/coll/index.ts';
import { algorithmNames, loadAlgorithms } from './coll-file.ts';
import { PLACEMENTS, type Placement } from '../runtime/placement.ts';
import { simulate, type SimulateOptions, type SimulateProgress } from '../runtime/simulate.ts';
import { ShmemGlobalExit } from '../runtime/shmem/shmem.ts';
import { DEFAULT_MAX_TRACE_EVENTS, type TraceOptions } from '../runtime/trace.ts';
import { formatFabricMetrics, formatMetrics, parseRankList, writeTrace } from './metrics-output.ts';
import { collSelectorArg, parseKeyValues, positiveInt, seedOf, writeOutput } from './args.ts';
import { CALIBRATE_HELP, calibrateCommand, type CalibrateCliOptions } from './calibrate.ts';
import { compareCommand, loadApp, type CompareCliOptions } from './compare.ts';
import { CONFORMANCE_HELP, conformanceCommand, type ConformanceCliOptions } from './conformance.ts';
import { SHMEM_CONFORMANCE_HELP, shmemConformanceCommand } from './conformance-shmem.ts';
import { progressLine } from './progress.ts';
import { addReplayCommand, replayCommand } from './replay.ts';
import { SWEEP_KEYS, sweepCommand, type SweepCliOptions } from './sweep.ts';
import { sweepPointCommand } from './sweep-slurm.ts';
import { readFaultsFile } from './faults-file.ts';
import { loadMachine, parseSets, withFidelity } from './machine-arg.ts';
import { renderReport } from './report.ts';
import { runReport } from './run-report.ts';
import { formatTable } from './table.ts';
import { callLogFor, checkTraceOuts, TRACE_OUT_HELP, traceOutsOf, writeTraceOuts } from './trace-out.ts';
import { trafficCommand, type TrafficCliOptions } from './traffic.ts';
import { validateCommand, type ValidateCliOptions } from './validate.ts';
import { collectivesCommand, type CollectivesCliOptions } from './collectives.ts';

/** The help of `--faults`, the same for run and traffic. */
const FAULTS_HELP = "a YAML or JSON file of faults, each key a machine parameter that --set may still override: ber (link.ber: a rate, or a mapping of link class to rate, all: the rest), nodes (faults.nodes: node ids, each a number, dead from the start, or {node: N, at: 2us}); links, routers, lanes (faults.links, faults.routers, faults.lanes) where the build has them; see examples/faults.yaml";

/** Bad input: printed as one line, exit code 2. */
class UsageError extends Error {}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stderr when it is a terminal: progress is drawn there; absent when piped (and in-process). */
  tty?: NodeJS.WriteStream;
  /** In-process callers (tests): a run stops as a failure once it has processed more engine events than this. */
  maxEvents?: number;
}

const defaultIo: Io = {
  out: (s) => process.stdout.write(s + '\n'),
  err: (s) => process.stderr.write(s + '\n'),
  ...(process.stderr.isTTY ? { tty: process.stderr } : {}),
};

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}


/** Runs the phit command line; returns the exit code. */
export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  let code = 0;
  const program = new Command();
  program
    .name('phit')
    .description('Emulate message-passing programs over simulated HPC interconnects (seed machines: Cray XE6 Gemini, ...)')
    .exitOverride()
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showSuggestionAfterError(false);

  program
    .command('run')
    .description('run an app (or your own .ts file) on a simulated machine')
    .argument('<app>', `built-in app (${Object.keys(apps).join(', ')}) or a path to a .ts file whose default export is async (ctx) => {...}`)
    .option('-m, --machine <name|file>', `machine preset (${Object.keys(presets).join(', ')}) or a machine file (.yaml/.yml/.json, see 'phit machines show')`, 'xe6')
    .option('-n, --nodes <n>', 'number of nodes', '2')
    .option('--ppn <p>', 'ranks per node', '1')
    .option('-p, --param <key=value>', "set an app parameter (repeatable); see 'phit apps'", collect, [])
    .option('-s, --set <key=value>', "set a machine parameter with its unit (repeatable), e.g. --set fma.op=10ns; checked before the run; see docs/parameters.md", collect, [])
    .option('--fidelity <level>', 'what the fabric simulates: packet (every hardware packet, the reference), coarse (bulk transfers in packets of fabric.coarseBytes), flow (transfers of at least fabric.flowBytes as max-min fair flows); same as --set fabric.fidelity=<level>')
    .option('--faults <file>', FAULTS_HELP)
    .option('-c, --coll <collective=algorithm>', "run a collective with one algorithm (repeatable), e.g. --coll allreduce=ring, or your own from a file, --coll allreduce=./my-allreduce.ts; see 'phit collectives --help'", collect, [])
    .option('--coll-selector <library>', `whose rules choose each collective's algorithm when --coll names none: ${SELECTOR_NAMES.join(', ')} (default: the machine's mpi.collSelector, see 'phit collectives')`)
    .option('--placement <how>', `ranks on nodes: ${PLACEMENTS.join(', ')} (contiguous: rank r on node r/ppn; round-robin: node r%nodes; random: seeded shuffle)`, 'contiguous')
    .option('--seed <s>', 'seed of the run (same seed, same result)', '1')
    .option('--skeleton', "skeleton run: buffers from ctx.alloc cost no memory and their bytes are never copied or reduced; sizes, simulated time, events and packets stay exactly those of a normal run; the apps skip their data checks (check: 'skipped (skeleton run)')")
    .option('--json', 'print one JSON object instead of a table')
    .option('--metrics', 'after the results, print each rank\'s time split (compute, transfer, wait: min/mean/max), a table of API calls (count, bytes, time) and the fabric\'s load (link utilisation, hops, packet latency; at --fidelity flow, the transfers carried as flows; retransmissions, replay time and the latency replays added per packet, per link class, when link.ber is set; reroutes, pauses and detour hops per link class when faults.links, faults.routers or faults.lanes are set; the dead nodes, the packets they dropped and the transactions that timed out when a node dies); with --json, include them')
    .option('--report <file>', 'write a self-contained HTML report: results vs size, time per rank, link-utilisation heat map laid out by the topology, hop and latency histograms, retransmissions, replay time and detour hops per link class when the run has link errors or faults, API calls, the full configuration (measures the run as --metrics does)')
    .option('--trace <file>', 'write a Chrome trace-event JSON timeline (open it in https://ui.perfetto.dev): one track per rank with compute, API calls and their arguments, waits, and the rounds of collective algorithms')
    .option('--trace-flows', 'with --trace: arrows from each MPI send to the receive that matched it (the program\'s messages: category flow; collectives\': coll-flow)')
    .option('--trace-ranks <list>', 'with --trace: record only these ranks, e.g. 0-7,12')
    .option('--trace-max-events <n>', `with --trace: stop recording after n events (default ${DEFAULT_MAX_TRACE_EVENTS})`)
    .option('--dumpi <dir>', 'write the run\'s MPI calls as a DUMPI trace in this folder (<app>.meta, <app>-NNNN.bin) that phit replay reads')
    .option('--otf2 <dir>', 'write the run\'s MPI calls as an OTF2 archive in this folder (<app>.otf2, <app>.def, <app>/<rank>.evt)')
    .option('--simgrid <dir>', 'write the run\'s MPI calls as a SimGrid time-independent trace in this folder (<app>.trace, <app>_files/); world communicator only')
    .addHelpText('after', TRACE_OUT_HELP)
    .addHelpText('after', '\nOn a terminal, a long run shows one line of progress on stderr (simulated time, events, events/s),\nerased when it ends; nothing is drawn when stderr is piped.')
    .action(async (appName: string, opts: RunOptions) => {
      code = await runCommand(appName, opts, io);
    });

  program
    .command('compare')
    .description('run one app (or replay one MPI trace) on several machines in parallel and compare simulated time, communication share and figure of merit')
    .option('-a, --app <app>', 'built-in app or a path to a .ts file (as for run)')
    .option('--trace <file>', 'replay this MPI trace (SimGrid, DUMPI .meta or OTF2 .otf2, as for replay) instead of an app; skeleton runs')
    .option('--compute-scale <f>', 'with --trace: factor on the traced time between calls', '1')
    .option('--machines <list>', 'comma-separated machine presets or machine files (.yaml/.yml/.json), one row each in this order', Object.keys(presets).join(','))
    .option('-n, --nodes <n>', "number of nodes (default 2; with --trace, the trace's ranks / --ppn)")
    .option('--ppn <p>', 'ranks per node', '1')
    .option('-p, --param <key=value>', 'set an app parameter (repeatable)', collect, [])
    .option('-s, --set <key=value>', 'set a machine parameter (repeatable); a machine it does not apply to shows an error', collect, [])
    .option('--fidelity <level>', 'what the fabric simulates: packet (every hardware packet, the reference), coarse (bulk transfers in packets of fabric.coarseBytes), flow (transfers of at least fabric.flowBytes as max-min fair flows); same as --set fabric.fidelity=<level>')
    .option('--seed <s>', 'seed of every run (same seed, same result)', '1')
    .option('--skeleton', 'skeleton runs: sizes only, no bytes moved or reduced, the same simulated time (see phit run --help)')
    .option('--json', 'print one JSON object instead of a table')
    .addHelpText(
      'after',
      '\ncommShare = 1 - mean compute time over ranks / simulated time: all the time a rank does not\n' +
        'spend in ctx.compute counts as communication (sending, waiting, collectives).\n' +
        "Figure of merit: the key the app declares, read from its last result row; else that row's\n" +
        'first key ending in GBs, MBs, Gflops, GUPS or Mps (higher is better); else latencyUs.\n' +
        'With --trace, one MPI trace is replayed on every machine as phit replay does (no figure of merit):\n' +
        '  phit compare --trace test/fixtures/traces/otf2/halo/halo.otf2 --machines xe6,xc30,bw\n' +
        'Exit code 1 when the run fails on some machine (its row shows the error), 2 on bad input.',
    )
    .action(async (opts: CompareCliOptions) => {
      code = await compareCommand(opts, io);
    });

  addReplayCommand(program, async (trace, opts) => {
    code = await replayCommand(trace, opts, io);
  });

  program
    .command('sweep')
    .description('run a matrix of (app x machine x nodes x ppn x parameters x seed) from a YAML or JSON file in parallel worker threads, or as a Slurm job array (--slurm)')
    .argument('<file>', `sweep file with the keys ${SWEEP_KEYS.join(', ')}; a list is one axis of the matrix`)
    .option('-o, --out <file>', 'also write the results, one row per point: .csv or .json by the extension')
    .option('-r, --report <file.html>', 'also write a self-contained HTML summary: figure of merit and simulated time against the swept numeric axis (nodes first), one line per machine and other swept values, and every row')
    .option('-w, --workers <n>', 'worker threads (default: the number of cores, at most one per point)')
    .option('--json', 'print one JSON object instead of a table')
    .option('--slurm', 'run the points as one Slurm job array (one array task per point) instead of worker threads; waits for the job, then gives the same rows, table and files')
    .option('--slurm-dir <dir>', 'with --slurm: the job directory, on a filesystem the compute nodes see (default: a new phit-sweep-<name>-<n> beside --out, or in the current folder)')
    .option('--slurm-opts <options>', 'with --slurm: extra sbatch options, split as a shell would (no shell runs), e.g. "--partition=debug --time=10"')
    .addHelpText(
      'after',
      '\nExample file (examples/sweep-halo.yaml):\n' +
        '  app: halo3d                # or a list: apps: [halo3d, fft3d]\n' +
        '  machines: [xe6, xc30]      # or machine: xe6\n' +
        '  nodes: [8, 64]\n' +
        '  ppn: 1                     # a value or a list\n' +
        "  params: { iterations: 5, nx: 16 }           # app parameters (phit apps); a list is one axis\n" +
        '  set: { mpi.eagerMaxBytes: [4KiB, 8KiB] }    # machine parameters (fabric/machines/<preset>.ts)\n' +
        '  seed: 1\n' +
        '  skeleton: false            # true: skeleton runs, sizes only (phit run --help); [false, true]: both\n' +
        'Points are the cross product of every list, numbered from 0 with the last axis turning fastest.\n' +        'An app or machine may be a path (your .ts program, a machine file), relative to the sweep file.\n' +
        'Each row: the point, ok or error, simulated time, communication share, the figure of merit (as\n' +
        "in compare) and the last result row's numbers. A progress bar is drawn on a terminal's stderr;\n" +
        'piped, stderr gets one final line. Exit code 1 when some point failed (its row shows why; the\n' +
        'others still run), 2 on bad input (checked for the whole matrix before anything runs).\n' +
        '\nOn a Slurm cluster (from a login node, in a folder the compute nodes see):\n' +
        '  phit sweep examples/sweep-halo.yaml --slurm --slurm-opts "--partition=debug --time=10" --out halo.csv\n' +
        'writes the planned points and a batch script to the job directory, submits them with\n' +
        '  sbatch --array=0-7 --wait ...  (array task i runs point i: phit sweep-point <dir> i)\n' +
        'and, when the job has ended, reads the point files (point-<i>.json, logs point-<i>.log) back\n' +
        'into the same rows, table, --out and --report as a local sweep of the file. A point whose task\n' +
        'left no result is an error row naming the task and its log (exit code 1). This checkout and\n' +
        'node must be on a path the compute nodes see. No sbatch on PATH, --slurm-opts that a shell\n' +
        'would do more than split, or an option phit sets itself (--array, --wait, --output, ...): exit 2.',
    )
    .action(async (file: string, opts: SweepCliOptions) => {
      code = await sweepCommand(file, opts, io);
    });

  program
    .command('sweep-point', { hidden: true })
    .description('run one point of a sweep job directory written by phit sweep --slurm (what each array task runs)')
    .argument('<dir>', 'the job directory')
    .argument('<index>', 'the point (the array task id)')
    .action(async (dir: string, index: string) => {
      code = await sweepPointCommand(dir, index, io);
    });

  program
    .command('validate')
    .description("the seeds' published figures beside the model: paper value, model value, deviation, pass/fail")
    .option('-m, --machine <name>', `only this machine's figures (${Object.keys(presets).join(', ')})`)
    .option('--id <list>', 'only these figure ids (of SEED-FIGURES.md, or P:... of the public measurements), comma-separated (e.g. A21,K13); their long checks run too')
    .option('--all', 'run the long checks too (full-machine runs, minutes each)')
    .option('--json', 'print one JSON object instead of the tables')
    .option('--report <file>', 'also write a self-contained HTML report: the verdicts, per machine a chart of every deviation and the table')
    .option('--fidelity <level>', 'run every measurement at this fidelity level (packet, coarse, flow; default packet, the level the figures were calibrated at)')
    .addHelpText(
      'after',
      '\nEach row: figure id, quantity, seed section, its kind, the paper value with its relation (about:\n' +
        'within 15 % unless the row says otherwise and why; at most, under, at least, over: the side of a\n' +
        'bound; a range; an exact structural value), the model value, the deviation (model - paper) / paper\n' +
        'and the verdict (pass, fail, report: shown without a verdict, skipped: a long check without --all).\n' +
        'Kinds: structure (counted from the built graph), parameter (a machine parameter or a paper formula\n' +
        'read back), fitted (simulated, but a parameter was fitted to this figure; the table names it),\n' +
        'predicted (simulated, nothing fitted to it). A summary line counts the rows of each kind and their verdicts.\n' +
        'Rows with ids P:... are public measurements of the real machines (cli/validate/measured/<machine>.json:\n' +
        'OSU, IMB and HPCC runs with their sources), each held to 50 %; a line per machine gives their median\n' +
        'and largest deviation (the target is a median within 20 %).\n' +
        'Exit code 1 when a check fails, 2 on an unknown machine or id.',
    )
    .action(async (opts: ValidateCliOptions) => {
      code = await validateCommand(opts, io);
    });

  program
    .command('calibrate')
    .description('fit machine parameters to measured curves (OSU output or CSV), hold part of each curve out, and write a machine file with the fitted values')
    .requiredOption('-m, --machine <name|file>', `machine preset (${Object.keys(presets).join(', ')}) or a machine file to start from`)
    .requiredOption('-d, --data <file>', 'measured data: OSU benchmark output or CSV (repeatable)', collect, [])
    .requiredOption('-f, --fit <keys>', 'machine parameters to fit, joined by commas, e.g. mpi.sendOverhead,mpi.recvOverhead (any number, time, size, bandwidth or frequency)')
    .option('-n, --nodes <n>', 'nodes of collective curves the data do not give', '2')
    .option('--ppn <p>', 'ranks per node of collective curves the data do not give', '1')
    .option('--hold-out <fraction>', 'share of each curve held out and only checked, 0 to 0.5', '0.25')
    .option('-o, --out <file>', 'write the machine file here (.yaml, .yml or .json); default: stdout, the report on stderr')
    .option('-s, --set <key=value>', 'a machine parameter held fixed, or the start of a fitted one (repeatable)', collect, [])
    .option('--fidelity <level>', 'fabric fidelity of the runs (packet, coarse, flow); same as --set fabric.fidelity=<level>')
    .option('--max-evals <n>', 'most evaluations of the fit (default 60 per parameter plus 40)')
    .addHelpText('after', CALIBRATE_HELP)
    .action(async (opts: CalibrateCliOptions) => {
      code = await calibrateCommand(opts, io);
    });

  program
    .command('conformance')
    .description("run a test suite ported to phit programs: MPICH's (pt2pt, coll, comm, group, topo, datatype, rma; the default), SOS's unit tests (--suite sos) or the tests-uh feature tests (--suite tests-uh): pass or fail per test, counts per directory")
    .option('--suite <name>', 'mpich (default), sos or tests-uh', 'mpich')
    .option('-m, --machine <name|file>', `machine preset (${Object.keys(presets).join(', ')}) or a machine file`, 'xe6')
    .option('--dir <dir>', 'only the tests of this directory (mpich: pt2pt, coll, comm, group, topo, datatype, rma; sos: unit; tests-uh: C, Fortran/transfer, ...)')
    .option('--only <name>', 'only this test (every variant and PE count of it), e.g. sendrecv3, coll/allred, put1 or test_shmem_put')
    .option('--np <n>', 'SHMEM suites: only the runs on this many PEs')
    .option('--long', 'also run the long tier (the tests CI cannot afford)')
    .option('--fidelity <level>', 'fabric fidelity of the runs: packet, coarse or flow (default flow)')
    .option('--try-needs', 'also run the ported tests listed as needing a feature or a call (to see whether it has landed)')
    .option('-v, --verbose', 'also list the tests not run (needs, todo, omit, long tier)')
    .option('--json', 'print one JSON object: every test with its verdict, and the counts')
    .addHelpText('after', CONFORMANCE_HELP + '\n' + SHMEM_CONFORMANCE_HELP)
    .action(async (opts: ConformanceCliOptions & { suite: string; np?: string }) => {
      if (opts.suite === 'mpich') {
        if (opts.np !== undefined) throw new UsageError('--np: only for the SHMEM suites (--suite sos or tests-uh); MPICH tests run on their testlist rank count');
        code = await conformanceCommand(opts, io);
      } else code = await shmemConformanceCommand(opts.suite, opts, io);
    });

  program
    .command('collectives')
    .description('list the MPI collectives, their algorithms and the automatic choice; --check runs an algorithm (yours too) with real data')
    .option('--check <collective=algorithm>', 'check one algorithm, a built-in one by name or yours by file (e.g. allreduce=./my-allreduce.ts), with real data on each communicator size of --ranks; exit 1 if any is wrong')
    .option('--ranks <list>', 'communicator sizes for --check, e.g. 1-9,16 (one rank per node)', '1-9,16')
    .option('-m, --machine <name>', 'machine preset for --check', 'xe6')
    .option('--study <collective>', 'time every algorithm of the collective (or --algorithms) over --machines x --nodes x --sizes in worker threads: time per algorithm and size, the best per point, MPICH\'s choice and its excess, link utilisation per algorithm')
    .option('--machines <list>', 'machines for --study (presets or machine files)', 'xe6')
    .option('--nodes <list>', 'node counts for --study', '16')
    .option('--sizes <range>', 'bytes per rank for --study: 8B..4MiB (doubling) or a list 8,1KiB', '8B..64KiB')
    .option('--algorithms <list>', 'algorithms for --study (default: all of the collective)')
    .option('--iterations <n>', 'timed calls per point for --study', '3')
    .option('--set <key=value>', 'machine parameter for --study (repeatable), e.g. fabric.fidelity=flow', collect, [])
    .option('--coll-selector <library>', `whose choice --study compares with the best: ${SELECTOR_NAMES.join(', ')} (default: each machine's mpi.collSelector)`)
    .option('--json', 'print the --study result as JSON')
    .option('--report <file>', 'write the --study result as an HTML report')
    .addHelpText(
      'after',
      '\nYour own algorithm: a .ts file whose default export is { collective?, commutativeOnly?, run } or\n' +
        'the generator function run itself: function* (s, ...the collective\'s arguments) using the\n' +
        'schedule s (s.rank, s.size, s.send, s.recv, s.reduceLocal, s.copy, s.alloc), yielding a request\n' +
        'or an array of requests per round. Use it in a run with --coll allreduce=./my-allreduce.ts;\n' +
        'see examples/collectives/ring-allreduce.ts.',
    )
    .action(async (opts: CollectivesCliOptions) => {
      code = await collectivesCommand(opts, io);
    });

  program
    .command('apps')
    .description('list the built-in apps and their parameters')
    .action(() => {
      for (const a of Object.values(apps)) {
        io.out(`${a.name}: ${a.summary}`);
        for (const [k, s] of Object.entries(a.params)) io.out(`  --param ${k}=<${s.type}>  ${s.help} (default ${s.default})`);
      }
    });

  const machines = program
    .command('machines')
    .description("list the machine presets with their key figures; 'machines show <preset|file>' writes one out as a machine file")
    .option('--json', 'print JSON')
    // `machines show --json` belongs to show, not to this list
    .enablePositionalOptions()
    .action((opts: { json?: boolean }) => {
      const rows = Object.values(presets).map((spec) => {
        const c = resolveMachine(spec, 2);
        const linkGBs = (c.nic.format.phitBits / 8 / c.links.link.phitPs) * 1000;
        return {
          machine: spec.name,
          title: spec.title,
          topology: c.topologySummary,
          linkGBs: Number(linkGBs.toFixed(3)),
          hopNs: (c.network.routerLatencyPs + c.links.link.latencyPs) / 1000,
          nicGBs: Number(((c.nic.format.maxPayloadBytes / c.nic.packetPs) * 1000).toFixed(2)),
          eagerMaxBytes: c.mpi.eagerMaxBytes,
          seed: spec.seed,
        };
      });
      io.out(opts.json ? JSON.stringify(rows, null, 2) : formatTable(rows));
    });
  machines
    .command('show')
    .description('write a machine out as a machine file: every parameter with its value, help and source; edit it and load it with --machine <file>')
    .argument('<machine>', `machine preset (${Object.keys(presets).join(', ')}) or a machine file`)
    .option('--yaml', 'YAML with help and source as comments (the default)')
    .option('--json', 'JSON, each parameter as {value, help, source}')
    .addHelpText(
      'after',
      '\nA machine file is either a full table (name, title, seed, params) or "base: <preset>" plus, under\n' +
        'params, only the parameters that differ. Every key and value is checked against the parameter\n' +
        'schema (docs/parameters.md); a changed value gets the source "file <path>".',
    )
    .action((name: string, opts: { yaml?: boolean; json?: boolean }) => {
      if (opts.yaml && opts.json) throw new UsageError('machines show: give --yaml or --json, not both');
      const spec = loadMachine(name);
      io.out((opts.json ? machineToJson(spec) : machineToYaml(spec)).trimEnd());
    });

  program
    .command('topo')
    .description('structure of a machine: routers, links, diameter, average hops, bisection')
    .argument('<machine>', `machine preset (${Object.keys(presets).join(', ')}) or a machine file`)
    .option('-n, --nodes <n>', 'number of nodes')
    .option('--groups <g>', 'dragonfly groups')
    .option('--cables-per-pair <c>', 'dragonfly optical cables between each pair of groups')
    .option('--dims <XxYxZ>', 'torus dimensions, e.g. 8x8x8')
    .option('--diameter <k>', 'Kautz diameter (degree 3: 4 -> 108 nodes, 5 -> 324, 6 -> 972)')
    .option('--check-deadlock', 'walk every route and check the channel dependency graph is acyclic')
    .option('--json', 'print one JSON object')
    .action((name: string, opts: TopoCliOptions) => {
      code = topoCommand(name, opts, io);
    });

  program
    .command('traffic')
    .description('synthetic traffic from every NIC: offered vs accepted load and latency')
    .option('-m, --machine <name|file>', `machine preset (${Object.keys(presets).join(', ')}) or a machine file (.yaml/.yml/.json, see 'phit machines show')`, 'xe6')
    .option('-n, --nodes <n>', 'number of nodes', '64')
    .option('--pattern <p>', `traffic pattern (${PATTERNS.join(', ')})`, 'uniform')
    .option('--load <fraction>', 'offered load, fraction of each NIC peak injection bandwidth (above 0, at most 1)', '0.5')
    .option('--sweep', 'sweep the load from 0.1 to 1.0 and report the saturation point')
    .option('--routing <name>', 'routing algorithm (see the machine preset)')
    .option('--hotspot <node>', 'hotspot pattern: the node everyone sends to', '0')
    .option('--window <us>', 'measurement window in simulated us (at most 10000)', '20')
    .option('--warmup <us>', 'warm-up before measuring, simulated us (at most 10000)', '5')
    .option('--per-source', "report each source's share of the delivered bandwidth")
    .option('--metrics', 'also measure the fabric over the window: link utilisation and credit stall per link class, hop and latency histograms, minimal-route share (and retransmissions per link class with --ber)')
    .option('--ber <rates>', 'bit-error rate of every router-to-router lane (link.ber); a comma list runs each rate, one row per rate and load')
    .option('--faults <file>', FAULTS_HELP)
    .option('-s, --set <key=value>', 'set a machine parameter (repeatable)', collect, [])
    .option('--seed <s>', 'seed of the run', '1')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\n--metrics covers the measurement window. Utilisation: the share of the window a link spent\n' +
        'serializing packets (mean and max over the links of a class, one link per direction); credit\n' +
        'stall: the share it was free while packets waited for it without credits downstream. Hops are\n' +
        'router-to-router; packet latency runs from the injection channel to delivery at the NIC (a\n' +
        'response packet counts as a packet). Minimal share: for routings that can leave the minimal\n' +
        'path (dragonfly valiant and adaptive, Kautz multipath, torus table around broken links). With\n' +
        '--json each row holds a `metrics` object (FabricMetrics).\n\n' +
        '--ber corrupts packets at random (from --seed) with probability 1 - (1 - BER)^(bits on the wire);\n' +
        'the receiving CRC rejects them and the link replays them (go-back-N, or per-hop retry on\n' +
        'sc5832): a saturated link then carries (1 - p) / (1 - p + W p) of its error-free load, for\n' +
        'packet error probability p and W the packets a replay costs (README, Link errors). Rates per\n' +
        'link class: --set link.ber=1e-12,global=1e-9.',
    )
    .action((opts: TrafficCliOptions) => {
      code = trafficCommand(opts, io);
    });

  try {
    await program.parseAsync(['node', 'phit', ...argv]);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // explicit --help or help: 0; `phit` alone (usage shown on stderr) and bad options: 2
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
      if (e.code === 'commander.help') return e.exitCode === 0 ? 0 : 2;
      return 2;
    }
    if (e instanceof UsageError || e instanceof RangeError) {
      io.err(`phit: ${e.message}`);
      return 2;
    }
    if (e instanceof ShmemGlobalExit) {
      io.err(`phit: ${e.message}`);
      return e.status;
    }
    io.err(`phit: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

interface TopoCliOptions {
  nodes?: string;
  groups?: string;
  cablesPerPair?: string;
  dims?: string;
  diameter?: string;
  checkDeadlock?: boolean;
  json?: boolean;
}

function topoCommand(arg: string, opts: TopoCliOptions, io: Io): number {
  const spec = loadMachine(arg);
  const name = spec.name;
  const set: Record<string, string> = {};
  if (opts.groups !== undefined) set['dragonfly.groups'] = String(positiveInt('groups', opts.groups));
  if (opts.cablesPerPair !== undefined) set['dragonfly.cablesPerPair'] = String(positiveInt('cables-per-pair', opts.cablesPerPair));
  if (opts.dims !== undefined) {
    if (!/^\d+(x\d+)*$/.test(opts.dims)) throw new UsageError(`--dims ${opts.dims}: expected dimensions like 8x8x8`);
    set['torus.dims'] = opts.dims;
  }
  if (opts.diameter !== undefined) set['kautz.diameter'] = String(positiveInt('diameter', opts.diameter));
  const flag: Record<string, string> = { 'dragonfly.groups': '--groups', 'dragonfly.cablesPerPair': '--cables-per-pair', 'torus.dims': '--dims', 'kautz.diameter': '--diameter' };
  for (const k of Object.keys(set)) {
    if (!(k in spec.params)) throw new UsageError(`${flag[k]} does not apply to ${name} (${spec.title})`);
  }
  const { deadlock, ...out } = machineTopology(spec, { nodes: opts.nodes !== undefined ? positiveInt('nodes', opts.nodes) : undefined, set, checkDeadlock: opts.checkDeadlock === true });
  if (opts.json) {
    io.out(JSON.stringify(out));
    return 0;
  }
  io.out(`${name} (${spec.title}): ${out.topology}`);
  io.out(`routers ${out.routers}, nodes ${out.nodes}`);
  io.out(`links per class: ${Object.entries(out.linksPerClass).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  io.out(`diameter ${out.diameter} router hops (${out.diameterWithNodeLinks} counting the two node links); average ${out.averageHops} hops over all node pairs${out.averageHopsSampled ? ' (sampled)' : ''}`);
  io.out(`bisection ${out.bisectionLinks} ${out.bisectionUnit}, ${out.bisectionGBs} GB/s both directions${out.bisectionIsBound ? ' (bound)' : ' (exact)'}`);
  if (out.globalCables !== null) io.out(`global network: ${out.globalCables} optical cables, peak ${out.globalGBsPerNode} GB/s per node`);
  if (deadlock) {
    io.out(
      deadlock.cycle === null
        ? `deadlock-free: ${deadlock.routes} routes, ${deadlock.channels} channels, ${deadlock.dependencies} dependencies, no cycle`
        : `CAN DEADLOCK: dependency cycle ${deadlock.cycle.join(' -> ')}`,
    );
  }
  return deadlock?.cycle ? 1 : 0;
}

interface RunOptions {
  report?: string;
  faults?: string;
  machine: string;
  nodes: string;
  ppn: string;
  param: string[];
  set: string[];
  fidelity?: string;
  coll: string[];
  collSelector?: string;
  placement: string;
  seed: string;
  skeleton?: boolean;
  json?: boolean;
  metrics?: boolean;
  trace?: string;
  traceFlows?: boolean;
  traceRanks?: string;
  traceMaxEvents?: string;
  dumpi?: string;
  otf2?: string;
  simgrid?: string;
}

/** The trace options of `phit run`, or undefined without --trace; throws naming a bad value. */
function traceOptions(opts: RunOptions, ranks: number): TraceOptions | undefined {
  if (opts.trace === undefined) {
    const stray = opts.traceFlows ? '--trace-flows' : opts.traceRanks !== undefined ? '--trace-ranks' : opts.traceMaxEvents !== undefined ? '--trace-max-events' : null;
    if (stray) throw new UsageError(`${stray} needs --trace <file>`);
    return undefined;
  }
  if (opts.trace === '') throw new UsageError('--trace: expected a file name');
  return {
    flows: opts.traceFlows ?? false,
    ...(opts.traceRanks !== undefined ? { ranks: parseRankList(opts.traceRanks, ranks) } : {}),
    ...(opts.traceMaxEvents !== undefined ? { maxEvents: positiveInt('trace-max-events', opts.traceMaxEvents) } : {}),
  };
}

/** Progress options that stop a run after `cap` engine events (and pass progress on to `draw`). */
function capped(cap: number, draw?: (p: SimulateProgress) => void): Pick<SimulateOptions<unknown>, 'onProgress' | 'progressEvery'> {
  return {
    progressEvery: Math.max(1, Math.min(cap, 1 << 18)),
    onProgress: (p) => {
      draw?.(p);
      if (p.events > cap) throw new Error(`run stopped after ${p.events} engine events, more than the caller's cap of ${cap}`);
    },
  };
}

async function runCommand(appName: string, opts: RunOptions, io: Io): Promise<number> {
  const app = await loadApp(appName);
  const spec = loadMachine(opts.machine);
  const nodes = positiveInt('nodes', opts.nodes);
  const ppn = positiveInt('ppn', opts.ppn);
  const seed = seedOf(opts.seed);
  const params = resolveParams(app, parseKeyValues(opts.param, '--param'));
  app.check?.(params, nodes * ppn);
  if (nodes * ppn < app.minRanks) {
    throw new UsageError(`${app.name} needs at least ${app.minRanks} ranks; --nodes ${nodes} --ppn ${ppn} gives ${nodes * ppn}`);
  }
  // the faults file's parameters first: --set overrides them
  const set = { ...(opts.faults !== undefined ? readFaultsFile(opts.faults, spec) : {}), ...parseSets(withFidelity(opts.set, opts.fidelity), spec) };
  const config = resolveMachine(spec, nodes, { ...set }); // reports impossible sizes and bad parameters before any rank starts
  const chosen = parseKeyValues(opts.coll, '--coll');
  const collSelector = collSelectorArg(opts.collSelector);
  let algorithms: Record<string, AlgorithmChoice>;
  try {
    algorithms = await loadAlgorithms(chosen);
  } catch (e) {
    throw new UsageError(`--coll: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!(PLACEMENTS as readonly string[]).includes(opts.placement)) throw new UsageError(`--placement ${opts.placement}: valid: ${PLACEMENTS.join(', ')}`);
  const placement = opts.placement as Placement;
  const trace = traceOptions(opts, nodes * ppn);
  const metrics = (opts.metrics ?? false) || opts.report !== undefined;
  // a report path that cannot be written fails before the run
  if (opts.report !== undefined) writeOutput('--report', opts.report, '');
  // open the trace file first: a path that cannot be written fails before the run, not after
  let traceFd = -1;
  if (opts.trace !== undefined) {
    try {
      traceFd = openSync(opts.trace, 'w');
    } catch (e) {
      throw new UsageError(`--trace ${opts.trace}: cannot write it (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  const traceOuts = traceOutsOf(opts);
  checkTraceOuts(traceOuts);
  const calls = callLogFor(traceOuts, nodes * ppn);
  // on a terminal, one line of progress on stderr (simulated time, events, events/s), erased at the end
  const line = io.tty ? progressLine(io.tty) : null;
  const cap = io.maxEvents;
  const progress = cap !== undefined ? capped(cap, line?.onProgress) : line ? { onProgress: line.onProgress } : {};
  let r;
  try {
    r = await simulate({ machine: spec, nodes, ppn, seed, set, algorithms, ...(collSelector ? { collSelector } : {}), placement, metrics, trace, skeleton: opts.skeleton === true, program: (ctx) => app.main(ctx, params), ...progress, ...(calls ? { calls } : {}) });
  } catch (e) {
    if (traceFd >= 0) closeSync(traceFd);
    throw e;
  } finally {
    line?.clear();
  }
  for (const w of r.warnings ?? []) io.err(`phit: warning: ${w}`);
  const results = r.result ?? null;
  let traceNote: string | null = null;
  if (opts.trace !== undefined && r.trace) {
    const bytes = writeTrace(traceFd, r.trace);
    const m = r.trace.metadata;
    if (m.truncated) io.err(`phit: warning: trace ${m.note}`);
    traceNote = `trace: ${opts.trace}, ${m.events} events, ${(bytes / 1e6).toFixed(1)} MB${m.truncated ? ' (truncated)' : ''}; open it in https://ui.perfetto.dev`;
  }
  const traced = calls ? writeTraceOuts(traceOuts, calls, app.name, spec.name) : null;
  for (const w of traced?.warnings ?? []) io.err(`phit: warning: ${w}`);
  let reportNote: string | null = null;
  if (opts.report !== undefined) {
    const sections = runReport({
      app: app.name,
      params,
      spec,
      set,
      algorithms: algorithmNames(algorithms),
      collSelector: collSelector ?? config.mpi.collSelector,
      topology: config.topologySummary,
      nodes: r.nodes,
      ranks: r.ranks,
      ppn: r.ppn,
      placement: r.placement,
      seed,
      ...(r.skeleton ? { skeleton: true } : {}),
      simulatedTimeUs: r.simulatedTimeUs,
      events: r.events,
      packets: r.packets,
      result: results,
      ...(r.metrics ? { metrics: r.metrics } : {}),
    });
    const html = renderReport({ title: `${app.name} on ${spec.name}`, subtitle: `${spec.title}: ${r.nodes} nodes, ${r.ranks} ranks`, sections });
    writeOutput('--report', opts.report, html);
    reportNote = `report: ${opts.report} (${(html.length / 1e6).toFixed(1)} MB)`;
  }
  if (opts.json) {
    const out: Record<string, unknown> = { app: app.name, machine: r.machine, nodes: r.nodes, ranks: r.ranks, simulatedTimeUs: r.simulatedTimeUs, results };
    if (r.skeleton) out.skeleton = true;
    if (r.metrics && opts.metrics) out.metrics = r.metrics;
    if (opts.report !== undefined) out.report = opts.report;
    if (r.trace) out.trace = { file: opts.trace, events: r.trace.metadata.events, truncated: r.trace.metadata.truncated };
    if (traced) out.traces = traced.written;
    io.out(JSON.stringify(out));
    return 0;
  }
  io.out(`${app.name} on ${spec.name} (${spec.title}): ${r.nodes} nodes, ${r.ranks} ranks, simulated time ${r.simulatedTimeUs.toFixed(3)} us`);
  if (r.skeleton) io.out('skeleton run: sizes moved, bytes not (buffers from ctx.alloc read as zeros); data checks skipped');
  const rows = (results as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows)) io.out(formatTable(rows as Record<string, unknown>[]));
  else if (results !== null) io.out(JSON.stringify(results, null, 2));
  if (r.metrics && opts.metrics) io.out([formatMetrics(r.metrics), 'fabric over the run:', ...formatFabricMetrics(r.metrics.fabric, config.topology.routing)].join('\n'));
  if (traceNote) io.out(traceNote);
  for (const l of traced?.lines ?? []) io.out(l);
  if (reportNote) io.out(reportNote);
  return 0;
}
