import { DeadlockError } from '../fabric/engine/engine.ts';
import { buildMachine, describeValue, machineSpec, MAX_PPN, resolveMachine } from '../fabric/machine.ts';
import type { MachineSpec } from '../fabric/machines/spec.ts';
import { SkeletonStore } from '../fabric/skeleton.ts';
import { Dmapp, SymmetricHeap } from './dmapp/dmapp.ts';
import { IncompleteCollectiveError } from './mpi/agreement.ts';
import { checkAlgorithms, SELECTOR_NAMES, type AlgorithmChoice, type SelectorName } from './mpi/coll/index.ts';
import { MpiWorld } from './mpi/core.ts';
import { Mpi } from './mpi/mpi.ts';
import { asNodeFailure, watchNodeDeaths } from './node-failure.ts';
import { Proc } from './proc.ts';
import { globalExitOf, Shmem } from './shmem/shmem.ts';
import { ShmemJob } from './shmem/job.ts';
import { Gni, GniJob } from './ugni/gni.ts';
import { Detours } from './noise.ts';
import { PLACEMENTS, placeRanks, type Placement } from './placement.ts';
import { makeContext, type MachineView, type RankProgram } from './rank.ts';
import { Instrument, type CallListener } from './instrument.ts';
import { collectFabricMetrics } from '../fabric/metrics.ts';
import type { RankTime, RunMetrics } from './metrics.ts';
import { TraceRecorder, type Trace, type TraceOptions } from './trace.ts';

/** Options of one simulation run. */
export interface SimulateOptions<R = unknown> {
  /** Preset name (`xe6`) or a machine spec. */
  readonly machine: string | MachineSpec;
  readonly nodes: number;
  /** Ranks per node (default 1). */
  readonly ppn?: number;
  /** How ranks are laid out on nodes (default contiguous: rank r on node r / ppn); see `placeRanks`. */
  readonly placement?: Placement;
  readonly program: RankProgram<R>;
  /** Seed of the run's only random generator (default 1). */
  readonly seed?: number;
  /** Machine parameter overrides, key -> value with units (`{'mpi.eagerMaxBytes': '4KiB'}`). */
  readonly set?: Readonly<Record<string, string>>;
  /** MPI collective algorithms for the whole run, by collective (`{allreduce: 'ring'}`); a call's own `{algorithm}` wins. */
  readonly algorithms?: Readonly<Record<string, AlgorithmChoice>>;
  /** Whose rules choose a collective's algorithm when none is named: mpich, ompi, mvapich2 or cray (default: the machine's `mpi.collSelector`). */
  readonly collSelector?: SelectorName;
  /** Measure the fabric, each rank's time split and each API call's count, bytes and time (default false; free when off). */
  readonly metrics?: boolean;
  /** Record a Chrome/Perfetto trace of the ranks' timelines (default: none). */
  readonly trace?: TraceOptions;
  /** Told of every user-level API call of every rank, with its arguments, result and times (default: none). */
  readonly calls?: CallListener;
  /** Called during the run every `progressEvery` engine events with the simulated time reached. */
  readonly onProgress?: (p: SimulateProgress) => void;
  /** Engine events between two `onProgress` calls (default 2^18). */
  readonly progressEvery?: number;
  /**
   * A skeleton run (default false): buffers from `ctx.alloc` (and symmetric segments allocated
   * with `{skeleton: true}`) cost no memory and their bytes never move or combine; sizes, and so
   * the simulated time, events and packets, are exactly those of a normal run.
   */
  readonly skeleton?: boolean;
}

/** How far a run has come: simulated time reached and engine events processed. */
export interface SimulateProgress {
  readonly simulatedTimeUs: number;
  readonly events: number;
}

/** Outcome of a run. */
export interface SimulateResult<R = unknown> {
  readonly machine: string;
  readonly nodes: number;
  readonly ppn: number;
  readonly placement: Placement;
  readonly ranks: number;
  /** Simulated time when the last rank finished (us). */
  readonly simulatedTimeUs: number;
  /** Mean over ranks of the time spent in `ctx.compute` (us); the rest of `simulatedTimeUs` is communication and waiting. */
  readonly computeUs: number;
  /** What rank 0's program returned. */
  readonly result: R;
  /** Every rank's return value. */
  readonly rankResults: readonly R[];
  /** Whether it was a skeleton run. */
  readonly skeleton: boolean;
  /** Engine events processed. */
  readonly events: number;
  /** Packets delivered and router-to-router packet hops. */
  readonly packets: number;
  readonly packetHops: number;
  /** MPI point-to-point messages sent (those of collectives included). */
  readonly mpiMessages: number;
  /** With `metrics: true`: the fabric's load over the run, each rank's compute, transfer and wait time, and the totals per API call. */
  readonly metrics?: RunMetrics;
  /** With `trace`: the timeline, ready for JSON (see `traceChunks`). */
  readonly trace?: Trace;
  /** Misuse the run noticed but went on after (a rank that returned with MPI requests pending), one line each. */
  readonly warnings?: readonly string[];
}

/** Runs `program` on every rank of a simulated machine and returns rank 0's result and the time. */
export async function simulate<R>(opts: SimulateOptions<R>): Promise<SimulateResult<R>> {
  checkOptions(opts);
  const spec = typeof opts.machine === 'string' ? machineSpec(opts.machine) : opts.machine;
  const ppn = opts.ppn ?? 1;
  if (typeof ppn !== 'number' || !Number.isInteger(ppn) || ppn < 1) throw new RangeError(`ppn must be a positive integer, got ${describeValue(ppn)}`);
  if (ppn > MAX_PPN) throw new RangeError(`ppn=${ppn}: at most ${MAX_PPN} ranks per node`);
  const config = resolveMachine(spec, opts.nodes, { ...opts.set, ...(opts.collSelector !== undefined ? { 'mpi.collSelector': opts.collSelector } : {}) });
  checkAlgorithms(opts.algorithms ?? {});
  const machine = buildMachine(config, opts.seed ?? 1);
  // a skeleton run: one store behind every skeleton buffer, known to every NIC
  const skeleton = opts.skeleton === true ? new SkeletonStore() : null;
  for (const nic of machine.nics) nic.skeleton = skeleton;
  const onProgress = opts.onProgress;
  if (onProgress) machine.engine.onProgress((nowPs, events) => onProgress({ simulatedTimeUs: nowPs / 1e6, events }), opts.progressEvery);
  const size = opts.nodes * ppn;
  const seed = opts.seed ?? 1;
  const placement = opts.placement ?? 'contiguous';
  const layout = placeRanks(placement, opts.nodes, ppn, seed);
  const { cpu, noise } = config;
  const results = new Array<R>(size);
  const finished = new Float64Array(size);
  const procs: Proc[] = [];
  const bodies: ((ctx: ReturnType<typeof makeContext>) => Promise<void>)[] = [];
  const warnings: string[] = [];
  for (let r = 0; r < size; r++) {
    const thread = machine.engine.spawn(`rank ${r}`, async () => {
      await bodies[r]!(contexts[r]!);
    });
    const inst = layout.inst[r]!;
    // a node's ranks fill its sockets in order; those not on the NIC's socket cross to it
    const socket = Math.floor((inst * cpu.sockets) / ppn);
    procs.push(new Proc(r, layout.node[r]!, inst, thread, machine, socket === cpu.nicSocket ? 0 : cpu.socketCrossingPs, Detours.of(noise, seed, r)));
    bodies.push(async (ctx) => {
      results[r] = await opts.program(ctx);
      // an MPI error the program caught under MPI_ERRORS_ARE_FATAL still fails the rank
      const fatal = procs[r]!.fatal;
      if (fatal) throw fatal;
      world.finalize(r);
      const pending = world.pendingAt(r);
      if (pending.length > 0) warnings.push(`rank ${r} returned with ${pending.length} MPI request(s) still pending: ${pending.slice(0, 3).join(', ')}${pending.length > 3 ? ', ...' : ''}`);
      finished[r] = procs[r]!.settle();
      opts.calls?.finished(r, finished[r]!);
    });
  }
  const world = new MpiWorld(procs, config.mpi, opts.algorithms ?? {});
  watchNodeDeaths(machine, procs, world);
  const heap = new SymmetricHeap(size);
  const view: MachineView = {
    name: config.name,
    title: config.title,
    nodes: config.nodes,
    ppn,
    placement,
    nodeOf: (rank) => procs[rank]!.node,
    hops: (a, b) => machine.hops(procs[a]!.node, procs[b]!.node),
    nic: {
      fma: config.nic.hasFma,
      amoCacheEntries: config.nic.amoCacheEntries,
      pteCacheEntries: config.nic.pteEntries,
      vmdh: config.dmapp.vmdh,
      heapPageBytes: config.dmapp.heapPageBytes,
      collectiveEngine: config.mpi.collectiveEngine,
    },
    nicStats: (node) => {
      const nic = machine.nics[node];
      if (!nic) throw new RangeError(`nicStats: node=${node} is not a node (0..${config.nodes - 1})`);
      return { amo: nic.amoStats, pte: nic.pteStats };
    },
  };
  const gniJob = new GniJob(procs);
  const shmemJob = new ShmemJob(machine.engine, procs);
  const tracer = opts.trace ? new TraceRecorder(procs, { name: config.name, nodes: config.nodes }, opts.trace) : null;
  const instrument = opts.metrics || tracer || opts.calls ? new Instrument(procs, tracer, opts.calls ?? null) : null;
  world.observer = instrument;
  if (opts.metrics) machine.net.enableMetrics();
  const contexts = procs.map((p) => {
    const dmapp = new Dmapp(p, heap, procs);
    const faces = { mpi: new Mpi(world, p), dmapp, shmem: new Shmem(dmapp, p, shmemJob), gni: new Gni(p, gniJob) };
    instrument?.attach(p.rank, faces);
    return makeContext(p, size, faces.mpi, faces.dmapp, faces.shmem, faces.gni, view);
  });
  try {
    await machine.engine.run();
  } catch (e) {
    // shmem.globalExit ends the run as itself
    const exit = globalExitOf(e);
    if (exit) throw exit;
    // a deadlock that comes from a collective some ranks never called is reported as that
    const why = e instanceof DeadlockError && !machine.faults.any ? world.registry.incompleteCollective() : null;
    throw why ? new IncompleteCollectiveError(why, (e as DeadlockError).timePs, (e as DeadlockError).blocked) : asNodeFailure(machine, e);
  }
  // a collective the ranks of a dead node never called is their failure, not the program's
  const why = machine.faults.any ? null : world.registry.incompleteCollective();
  if (why) throw new IncompleteCollectiveError(why, machine.engine.now, []);
  const endPs = finished.reduce((a, b) => Math.max(a, b), 0);
  return {
    machine: config.name,
    nodes: config.nodes,
    ppn,
    placement,
    ranks: size,
    simulatedTimeUs: endPs / 1e6,
    computeUs: procs.reduce((a, p) => a + p.computePs, 0) / size / 1e6,
    result: results[0]!,
    rankResults: results,
    skeleton: skeleton !== null,
    events: machine.engine.events,
    packets: machine.net.delivered,
    packetHops: machine.net.linkHops,
    mpiMessages: world.messages,
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(opts.metrics && instrument
      ? {
          metrics: {
            // the fabric's figures cover the whole run, up to its last event
            fabric: collectFabricMetrics(machine, Math.max(1, machine.engine.now, endPs)),
            ranks: procs.map(rankTime),
            calls: instrument.callStats(),
          },
        }
      : {}),
    ...(tracer ? { trace: (tracer.networkPauses(machine.net.quiesces), tracer.result()) } : {}),
  };
}

/** A plain object (not null, not an array). */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks the type of every option given (an option left undefined takes its default); throws a
 * TypeError or RangeError naming the option and the value. Values are checked further where they
 * are used (nodes, ppn, set, algorithms, trace).
 */
function checkOptions(opts: SimulateOptions<unknown>): void {
  if (!isRecord(opts)) throw new TypeError(`simulate: expected an options object, got ${describeValue(opts)}`);
  const m = opts.machine as unknown;
  if (typeof m !== 'string' && !(isRecord(m) && isRecord(m.params))) throw new TypeError(`simulate: machine must be a preset name or a machine spec ({name, title, seed, params}), got ${describeValue(m)}`);
  if (typeof opts.program !== 'function') throw new TypeError(`simulate: program must be a function (ctx) => ..., got ${describeValue(opts.program)}`);
  const given = (v: unknown): boolean => v !== undefined;
  if (given(opts.ppn) && typeof opts.ppn !== 'number') throw new TypeError(`simulate: ppn must be a positive integer, got ${describeValue(opts.ppn)}`);
  if (given(opts.seed) && !(typeof opts.seed === 'number' && Number.isSafeInteger(opts.seed) && opts.seed >= 0)) throw new RangeError(`simulate: seed must be a non-negative integer, got ${describeValue(opts.seed)}`);
  if (given(opts.placement) && !(PLACEMENTS as readonly unknown[]).includes(opts.placement)) throw new RangeError(`simulate: placement must be one of ${PLACEMENTS.join(', ')}, got ${describeValue(opts.placement)}`);
  for (const key of ['set', 'algorithms'] as const) {
    const v = opts[key] as unknown;
    if (!given(v)) continue;
    if (!isRecord(v)) throw new TypeError(`simulate: ${key} must be an object of key: value, got ${describeValue(v)}`);
    for (const [k, x] of Object.entries(v)) {
      // an algorithm may also be a user's, made by userAlgorithm()
      if (key === 'algorithms' && isRecord(x) && typeof x.fn === 'function') continue;
      if (typeof x !== 'string' && typeof x !== 'number') throw new TypeError(`simulate: ${key}["${k}"] must be a text${key === 'algorithms' ? ' or an algorithm made by userAlgorithm()' : ''}, got ${describeValue(x)}`);
    }
  }
  if (given(opts.collSelector) && !(SELECTOR_NAMES as readonly unknown[]).includes(opts.collSelector)) throw new RangeError(`simulate: collSelector must be one of ${SELECTOR_NAMES.join(', ')}, got ${describeValue(opts.collSelector)}`);
  for (const key of ['metrics', 'skeleton'] as const) {
    if (given(opts[key]) && typeof opts[key] !== 'boolean') throw new TypeError(`simulate: ${key} must be true or false, got ${describeValue(opts[key])}`);
  }
  const t = opts.trace as unknown;
  if (given(t) && !isRecord(t)) throw new TypeError(`simulate: trace must be {flows?, ranks?, maxEvents?}, got ${describeValue(t)}`);
  if (isRecord(t) && given(t.flows) && typeof t.flows !== 'boolean') throw new TypeError(`simulate: trace.flows must be true or false, got ${describeValue(t.flows)}`);
  if (isRecord(t) && given(t.ranks) && !Array.isArray(t.ranks)) throw new TypeError(`simulate: trace.ranks must be a list of ranks, got ${describeValue(t.ranks)}`);
  const c = opts.calls as unknown;
  if (given(c) && !(isRecord(c) && typeof c.begin === 'function' && typeof c.end === 'function' && typeof c.finished === 'function')) throw new TypeError(`simulate: calls must be a call listener {begin, end, finished}, got ${describeValue(c)}`);
  if (given(opts.onProgress) && typeof opts.onProgress !== 'function') throw new TypeError(`simulate: onProgress must be a function, got ${describeValue(opts.onProgress)}`);
  const every = opts.progressEvery as unknown;
  if (given(every) && !(typeof every === 'number' && Number.isSafeInteger(every) && every >= 1)) throw new RangeError(`simulate: progressEvery must be a positive integer of engine events, got ${describeValue(every)}`);
}

/** Where a rank's time went. */
function rankTime(p: Proc): RankTime {
  return { rank: p.rank, node: p.node, computeUs: p.computePs / 1e6, transferUs: p.transferPs / 1e6, waitUs: p.waitPs / 1e6 };
}
