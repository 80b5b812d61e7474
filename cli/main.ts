import { Command, CommanderError } from 'commander';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { machineSpec, rawLinkGBs, resolveMachine } from '../fabric/machine.ts';
import { checkDeadlockFreedom } from '../fabric/deadlock.ts';
import { topologyMetrics } from '../fabric/topology/metrics.ts';
import { PATTERNS, runTraffic, sweepTraffic, type Pattern } from '../fabric/traffic.ts';
import { buildTopology, nodesPerRouterOf } from '../fabric/topology/topologies.ts';
import { presets } from '../fabric/machines/index.ts';
import { ALGORITHMS, checkAlgorithms } from '../runtime/mpi/coll/index.ts';
import { PLACEMENTS, type Placement } from '../runtime/placement.ts';
import { simulate } from '../runtime/simulate.ts';
import { parseKeyValues, positiveInt } from './args.ts';
import { compareCommand, loadApp, type CompareCliOptions } from './compare.ts';
import { formatTable } from './table.ts';
import { validateCommand, type ValidateCliOptions } from './validate.ts';

/** Bad input: printed as one line, exit code 2. */
class UsageError extends Error {}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

const defaultIo: Io = {
  out: (s) => process.stdout.write(s + '\n'),
  err: (s) => process.stderr.write(s + '\n'),
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
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showSuggestionAfterError(false);

  program
    .command('run')
    .description('run an app (or your own .ts file) on a simulated machine')
    .argument('<app>', `built-in app (${Object.keys(apps).join(', ')}) or a path to a .ts file whose default export is async (ctx) => {...}`)
    .option('-m, --machine <name>', `machine preset (${Object.keys(presets).join(', ')})`, 'xe6')
    .option('-n, --nodes <n>', 'number of nodes', '2')
    .option('--ppn <p>', 'ranks per node', '1')
    .option('-p, --param <key=value>', "set an app parameter (repeatable); see 'phit apps'", collect, [])
    .option('-s, --set <key=value>', "set a machine parameter with its unit (repeatable), e.g. --set fma.op=10ns; see 'phit machines'", collect, [])
    .option('-c, --coll <collective=algorithm>', "run a collective with one algorithm (repeatable), e.g. --coll allreduce=ring; see 'phit collectives'", collect, [])
    .option('--placement <how>', `ranks on nodes: ${PLACEMENTS.join(', ')} (contiguous: rank r on node r/ppn; round-robin: node r%nodes; random: seeded shuffle)`, 'contiguous')
    .option('--seed <s>', 'seed of the run (same seed, same result)', '1')
    .option('--json', 'print one JSON object instead of a table')
    .action(async (appName: string, opts: RunOptions) => {
      code = await runCommand(appName, opts, io);
    });

  program
    .command('compare')
    .description('run one app on several machines in parallel and compare simulated time, communication share and figure of merit')
    .requiredOption('-a, --app <app>', 'built-in app or a path to a .ts file (as for run)')
    .option('--machines <list>', 'comma-separated machine presets, one row each in this order', Object.keys(presets).join(','))
    .option('-n, --nodes <n>', 'number of nodes', '2')
    .option('--ppn <p>', 'ranks per node', '1')
    .option('-p, --param <key=value>', 'set an app parameter (repeatable)', collect, [])
    .option('-s, --set <key=value>', 'set a machine parameter (repeatable); a machine it does not apply to shows an error', collect, [])
    .option('--seed <s>', 'seed of every run (same seed, same result)', '1')
    .option('--json', 'print one JSON object instead of a table')
    .addHelpText(
      'after',
      '\ncommShare = 1 - mean compute time over ranks / simulated time: all the time a rank does not\n' +
        'spend in ctx.compute counts as communication (sending, waiting, collectives).\n' +
        "Figure of merit: the key the app declares, read from its last result row; else that row's\n" +
        'first key ending in GBs, MBs, Gflops, GUPS or Mps (higher is better); else latencyUs.\n' +
        'Exit code 1 when the run fails on some machine (its row shows the error), 2 on bad input.',
    )
    .action(async (opts: CompareCliOptions) => {
      code = await compareCommand(opts, io);
    });

  program
    .command('validate')
    .description("the seeds' published figures beside the model: paper value, model value, deviation, pass/fail")
    .option('-m, --machine <name>', `only this machine's figures (${Object.keys(presets).join(', ')})`)
    .option('--id <list>', 'only these figure ids of SEED-FIGURES.md, comma-separated (e.g. A21,K13); their long checks run too')
    .option('--all', 'run the long checks too (full-machine runs, minutes each)')
    .option('--json', 'print one JSON object instead of the tables')
    .addHelpText(
      'after',
      '\nEach row: figure id, quantity, seed section, the paper value with its relation (about: within\n' +
        '15 % unless the row says otherwise; at most, under, at least, over: the side of a bound; a range;\n' +
        'an exact structural value), the model value, the deviation (model - paper) / paper and the verdict\n' +
        '(pass, fail, report: shown without a verdict, skipped: a long check without --all).\n' +
        'Exit code 1 when a check fails, 2 on an unknown machine or id.',
    )
    .action(async (opts: ValidateCliOptions) => {
      code = await validateCommand(opts, io);
    });

  program
    .command('collectives')
    .description('list the MPI collectives, their algorithms and the automatic choice')
    .action(() => {
      for (const [coll, algs] of Object.entries(ALGORITHMS)) {
        io.out(`${coll}:`);
        for (const a of Object.values(algs)) io.out(`  ${a.name}${a.commutativeOnly ? ' (commutative ops only)' : ''}: ${a.help}`);
      }
      io.out("  collectiveEngine (allreduce and barrier): the NIC's collective engine, on machines that have one (xc30); automatic for one item of a predefined op other than product");
      io.out("The automatic choice follows MPICH's rules by message size and communicator size.");
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

  program
    .command('machines')
    .description('list the machine presets with their key figures')
    .option('--json', 'print JSON')
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

  program
    .command('topo')
    .description('structure of a machine: routers, links, diameter, average hops, bisection')
    .argument('<machine>', `machine preset (${Object.keys(presets).join(', ')})`)
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
    .option('-m, --machine <name>', `machine preset (${Object.keys(presets).join(', ')})`, 'xe6')
    .option('-n, --nodes <n>', 'number of nodes', '64')
    .option('--pattern <p>', `traffic pattern (${PATTERNS.join(', ')})`, 'uniform')
    .option('--load <fraction>', 'offered load, fraction of each NIC peak injection bandwidth', '0.5')
    .option('--sweep', 'sweep the load from 0.1 to 1.0 and report the saturation point')
    .option('--routing <name>', 'routing algorithm (see the machine preset)')
    .option('--hotspot <node>', 'hotspot pattern: the node everyone sends to', '0')
    .option('--window <us>', 'measurement window in simulated us', '20')
    .option('--warmup <us>', 'warm-up before measuring, simulated us', '5')
    .option('--per-source', "report each source's share of the delivered bandwidth")
    .option('-s, --set <key=value>', 'set a machine parameter (repeatable)', collect, [])
    .option('--seed <s>', 'seed of the run', '1')
    .option('--json', 'print one JSON object')
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
    io.err(`phit: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

interface TrafficCliOptions {
  machine: string;
  nodes: string;
  pattern: string;
  load: string;
  sweep?: boolean;
  routing?: string;
  hotspot: string;
  window: string;
  warmup: string;
  perSource?: boolean;
  set: string[];
  seed: string;
  json?: boolean;
}

function positiveNumber(name: string, text: string): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v <= 0 || text.trim() === '') throw new UsageError(`--${name} ${text}: expected a positive number`);
  return v;
}

function trafficCommand(opts: TrafficCliOptions, io: Io): number {
  const spec = machineSpec(opts.machine);
  if (!(PATTERNS as readonly string[]).includes(opts.pattern)) throw new UsageError(`--pattern ${opts.pattern}: valid: ${PATTERNS.join(', ')}`);
  const nodes = positiveInt('nodes', opts.nodes);
  const set = parseKeyValues(opts.set, '--set');
  if (opts.routing !== undefined) set['routing.algorithm'] = opts.routing;
  const config = resolveMachine(spec, nodes, set);
  const base = {
    pattern: opts.pattern as Pattern,
    windowUs: positiveNumber('window', opts.window),
    warmupUs: Number(opts.warmup),
    hotspot: Number(opts.hotspot),
    seed: Number(opts.seed),
    perSource: opts.perSource ?? false,
    ...(config.topology.kind === 'dragonfly'
      ? { nodesPerGroup: config.topology.config.chassis * config.topology.config.routersPerChassis * config.topology.config.nodesPerRouter }
      : {}),
  };
  const result = opts.sweep
    ? sweepTraffic(config, base, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
    : { rows: [runTraffic(config, { ...base, load: positiveNumber('load', opts.load) })], saturationFraction: null };
  const out = { machine: spec.name, topology: config.topologySummary, nodes, pattern: opts.pattern, routing: config.topology.routing, ...result };
  if (opts.json) {
    io.out(JSON.stringify(out));
    return 0;
  }
  io.out(`${opts.pattern} traffic on ${spec.name}: ${config.topologySummary}, ${nodes} nodes`);
  io.out(formatTable(result.rows.map(({ sourceShares: _s, ...r }) => r)));
  if (opts.sweep) io.out(result.saturationFraction === null ? 'no saturation up to full load' : `saturates at ${result.saturationFraction} of peak injection`);
  return 0;
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

function topoCommand(name: string, opts: TopoCliOptions, io: Io): number {
  const spec = machineSpec(name);
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
  // without --nodes, fill the structure the other options describe
  let nodes = opts.nodes !== undefined ? positiveInt('nodes', opts.nodes) : 0;
  if (nodes === 0) {
    const probe = resolveMachine(spec, 1, set);
    nodes = buildTopology(probe.topology).graph.routers * nodesPerRouterOf(probe.topology);
  }
  const config = resolveMachine(spec, nodes, set);
  const built = buildTopology(config.topology);
  const { graph } = built;
  const m = topologyMetrics(graph, (cls) => rawLinkGBs(config, cls));
  const deadlock = opts.checkDeadlock ? checkDeadlockFreedom(graph, built.route, built.vcs, { salts: 8 }) : null;
  const round3 = (v: number): number => Number(v.toFixed(3));
  const out = {
    machine: name,
    topology: config.topologySummary,
    routers: m.routers,
    nodes: m.nodes,
    linksPerClass: m.linksPerClass,
    diameter: m.diameter,
    diameterWithNodeLinks: m.diameter + 2,
    averageHops: round3(m.averageHops),
    averageHopsSampled: m.averageHopsSampled,
    bisectionLinks: m.bisectionLinks,
    bisectionUnit: m.bisectionUnit,
    bisectionGBs: round3(m.bisectionGBs),
    bisectionIsBound: m.bisectionIsBound,
    globalCables: m.globalCables,
    globalGBsPerNode: m.globalGBsPerNode === null ? null : round3(m.globalGBsPerNode),
    ...(deadlock ? { deadlockFree: deadlock.cycle === null, dependencyCycle: deadlock.cycle, routesChecked: deadlock.routes } : {}),
  };
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
  machine: string;
  nodes: string;
  ppn: string;
  param: string[];
  set: string[];
  coll: string[];
  placement: string;
  seed: string;
  json?: boolean;
}

async function runCommand(appName: string, opts: RunOptions, io: Io): Promise<number> {
  const app = await loadApp(appName);
  const spec = machineSpec(opts.machine);
  const nodes = positiveInt('nodes', opts.nodes);
  const ppn = positiveInt('ppn', opts.ppn);
  const seed = Number(opts.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed ${opts.seed}: expected a non-negative integer`);
  const params = resolveParams(app, parseKeyValues(opts.param, '--param'));
  app.check?.(params);
  if (nodes * ppn < app.minRanks) {
    throw new UsageError(`${app.name} needs at least ${app.minRanks} ranks; --nodes ${nodes} --ppn ${ppn} gives ${nodes * ppn}`);
  }
  const set = parseKeyValues(opts.set, '--set');
  resolveMachine(spec, nodes, { ...set }); // reports impossible sizes and bad parameters before any rank starts
  const algorithms = parseKeyValues(opts.coll, '--coll');
  try {
    checkAlgorithms(algorithms);
  } catch (e) {
    throw new UsageError(`--coll: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!(PLACEMENTS as readonly string[]).includes(opts.placement)) throw new UsageError(`--placement ${opts.placement}: valid: ${PLACEMENTS.join(', ')}`);
  const placement = opts.placement as Placement;
  const r = await simulate({ machine: spec, nodes, ppn, seed, set, algorithms, placement, program: (ctx) => app.main(ctx, params) });
  const results = r.result ?? null;
  if (opts.json) {
    io.out(JSON.stringify({ app: app.name, machine: r.machine, nodes: r.nodes, ranks: r.ranks, simulatedTimeUs: r.simulatedTimeUs, results }));
    return 0;
  }
  io.out(`${app.name} on ${spec.name} (${spec.title}): ${r.nodes} nodes, ${r.ranks} ranks, simulated time ${r.simulatedTimeUs.toFixed(3)} us`);
  const rows = (results as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows)) io.out(formatTable(rows as Record<string, unknown>[]));
  else if (results !== null) io.out(JSON.stringify(results, null, 2));
  return 0;
}
