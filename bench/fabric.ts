import { performance } from 'node:perf_hooks';
import { Engine, type EventHandler } from '../fabric/engine/engine.ts';
import { linksByClass, machineSpec, resolveMachine } from '../fabric/machine.ts';
import { Network, type Endpoint, type LinkParams, type NetworkAccess } from '../fabric/network.ts';
import { routerDistances, type PortGraph } from '../fabric/topology/port-graph.ts';
import { PacketPool } from '../fabric/packet.ts';
import { buildTopology } from '../fabric/topology/topologies.ts';

/** Options of the fabric (uniform random traffic) benchmark. */
export interface FabricBenchOptions {
  /** Machine preset (default xe6). */
  readonly machine?: string;
  /** Nodes (default 1024). */
  readonly nodes?: number;
  /** Machine parameter overrides (default for xe6: an 8x8x8 torus). */
  readonly set?: Readonly<Record<string, string>>;
  /** Simulated time during which packets are injected, in ns (default 300,000 ns = 300 us). */
  readonly durationNs?: number;
  /** Mean time between two packets of one node, in ns (default 200 ns); Poisson arrivals. */
  readonly intervalNs?: number;
  /**
   * Instead of intervalNs: offered load as a fraction of the machine's estimated capacity for
   * uniform traffic (its router-to-router links per node, divided by the mean hop count).
   */
  readonly load?: number;
  /** Packet size in phits (default 32). */
  readonly phits?: number;
  /** Simulated injection time of the warm-up run on a separate network, in ns (default 20,000). */
  readonly warmupNs?: number;
  /** Engine seed (default 1). */
  readonly seed?: number;
}

/** Result of the fabric benchmark. */
export interface FabricBenchResult {
  readonly packetHopsPerSec: number;
  readonly eventsPerSec: number;
  readonly packets: number;
  readonly meanLatencyNs: number;
  readonly meanHops: number;
  readonly topology: string;
  readonly nodes: number;
  readonly linkHops: number;
  readonly events: number;
  readonly seconds: number;
  /** CPU seconds of the process during the run (user + system; on a loaded host steadier than wall time). */
  readonly cpuSeconds: number;
  /** Packet-hops per CPU second. */
  readonly packetHopsPerCpuSec: number;
  /** Engine events per packet-hop (the simulator's work per hop, which the host does not move). */
  readonly eventsPerHop: number;
  /** Simulated time at which the last packet was delivered (ns). */
  readonly endNs: number;
}

/** Counts what reaches a node, returns the NIC receive-buffer credit at once and frees the packet. */
class Sink implements Endpoint {
  constructor(
    private readonly stats: Stats,
    private readonly engine: Engine,
    private readonly net: NetworkAccess,
    private readonly pool: PacketPool,
    private readonly node: number,
  ) {}

  deliver(p: number): void {
    const pool = this.pool;
    const now = this.engine.now;
    const s = this.stats;
    s.delivered++;
    s.latencyPs += now - pool.injectedAt[p]!;
    s.hops += pool.hops[p]!;
    this.net.ejectCredit(this.node, pool.vc[p]!, pool.phits[p]!, now);
    pool.free(p);
  }
}

class Stats {
  injected = 0;
  delivered = 0;
  latencyPs = 0;
  hops = 0;
}

/**
 * Injects fixed-size packets from every node to uniformly random other nodes, with exponential
 * inter-arrival times (mean `intervalPs`), until `endPs`. Event arg = source node.
 */
class UniformTraffic implements EventHandler {
  readonly id: number;
  constructor(
    private readonly engine: Engine,
    private readonly net: NetworkAccess,
    private readonly pool: PacketPool,
    private readonly stats: Stats,
    private readonly nodes: number,
    private readonly phits: number,
    private readonly intervalPs: number,
    private readonly endPs: number,
  ) {
    this.id = engine.register(this);
  }

  /** Schedules every node's first packet at a random phase. */
  start(): void {
    const e = this.engine;
    for (let n = 0; n < this.nodes; n++) {
      const t = e.now + e.rng.int(this.intervalPs);
      if (t < this.endPs) e.at(t, this.id, 0, n);
    }
  }

  onEvent(_kind: number, src: number): void {
    const e = this.engine;
    const pool = this.pool;
    let dst = e.rng.int(this.nodes - 1);
    if (dst >= src) dst++;
    const p = pool.alloc();
    pool.src[p] = src;
    pool.dst[p] = dst;
    pool.phits[p] = this.phits;
    pool.vcClass[p] = 0;
    this.stats.injected++;
    this.net.inject(src, p);
    const next = e.now + Math.max(1, Math.round(-Math.log(1 - e.rng.next()) * this.intervalPs));
    if (next < this.endPs) e.at(next, this.id, 0, src);
  }
}

interface RunResult {
  seconds: number;
  cpuSeconds: number;
  stats: Stats;
  net: Network;
  engine: Engine;
  nodes: number;
  topology: string;
}

/** Mean packet interval (ns) per node that offers `load` x the uniform-traffic capacity of a topology. */
function intervalForLoad(graph: PortGraph, links: readonly LinkParams[], phits: number, load: number): number {
  let linkPhitsPerPs = 0;
  for (let gp = 0; gp < graph.routers * graph.radix; gp++) {
    if (graph.peerRouter[gp]! >= 0) linkPhitsPerPs += 1 / links[graph.portClass[gp]!]!.phitPs;
  }
  // mean router hops from a sample of sources
  let sum = 0;
  let count = 0;
  const step = Math.max(1, Math.floor(graph.nodes / 16));
  for (let a = 0; a < graph.nodes; a += step) {
    const d = routerDistances(graph, graph.nodeRouter[a]!);
    for (let b = 0; b < graph.nodes; b++) {
      if (b === a) continue;
      sum += d[graph.nodeRouter[b]!]!;
      count++;
    }
  }
  const meanHops = Math.max(1, sum / count);
  const capacityPhitsPerPsPerNode = linkPhitsPerPs / graph.nodes / meanHops;
  return phits / (load * capacityPhitsPerPsPerNode) / 1000;
}

function fabricRun(machine: string, nodes: number, set: Readonly<Record<string, string>>, durationNs: number, intervalNs: number | null, load: number, phits: number, seed: number): RunResult {
  const cfg = resolveMachine(machineSpec(machine), nodes, { ...set });
  const engine = new Engine(seed);
  const { graph, route, vcs, nextPort } = buildTopology(cfg.topology);
  if (intervalNs === null) intervalNs = intervalForLoad(graph, linksByClass(cfg, graph), phits, load);
  const pool = new PacketPool(cfg.nic.format.maxPayloadBytes);
  const net = new Network(engine, graph, route, { ...cfg.network, vcs, links: linksByClass(cfg, graph) }, pool, nextPort);
  if (phits > net.maxPacketPhits) throw new RangeError(`fabric bench: ${phits}-phit packets exceed the ${net.maxPacketPhits}-phit buffers`);
  const stats = new Stats();
  for (let n = 0; n < cfg.nodes; n++) net.attach(n, new Sink(stats, engine, net, pool, n));
  const gen = new UniformTraffic(engine, net, pool, stats, cfg.nodes, phits, Math.round(intervalNs * 1000), durationNs * 1000);
  gen.start();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  engine.drain();
  const cpu = process.cpuUsage(c0);
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (stats.delivered !== stats.injected || net.delivered !== stats.injected || pool.live !== 0) {
    throw new Error(`fabric bench: injected ${stats.injected}, delivered ${stats.delivered} (network ${net.delivered}), ${pool.live} packets live`);
  }
  return { seconds, cpuSeconds, stats, net, engine, nodes: cfg.nodes, topology: cfg.topologySummary };
}

/**
 * Uniform random traffic at the packet level, straight on the Network (no NICs): every
 * node's endpoint returns ejection credits at once, so the measured cost is the event queue,
 * routing, arbitration and credit flow. Reports packet-hops (router-to-router channel traversals)
 * per second of wall time and per CPU second of the process, and engine events per packet-hop.
 * A short warm-up on a separate network runs first.
 */
export function benchFabric(opts: FabricBenchOptions = {}): FabricBenchResult {
  const machine = opts.machine ?? 'xe6';
  const nodes = opts.nodes ?? 1024;
  const set = opts.set ?? (machine === 'xe6' ? { 'torus.dims': '8,8,8' } : {});
  const durationNs = opts.durationNs ?? 300_000;
  const intervalNs = opts.intervalNs ?? 200;
  const phits = opts.phits ?? 32;
  const warmupNs = opts.warmupNs ?? 20_000;
  const seed = opts.seed ?? 1;
  const interval = opts.load !== undefined ? null : intervalNs;
  const load = opts.load ?? 0;
  if (warmupNs > 0) fabricRun(machine, nodes, set, warmupNs, interval, load, phits, seed + 1);
  const r = fabricRun(machine, nodes, set, durationNs, interval, load, phits, seed);
  const s = r.stats;
  return {
    packetHopsPerSec: r.net.linkHops / r.seconds,
    eventsPerSec: r.engine.events / r.seconds,
    packets: s.delivered,
    meanLatencyNs: s.delivered > 0 ? s.latencyPs / s.delivered / 1000 : 0,
    meanHops: s.delivered > 0 ? s.hops / s.delivered : 0,
    topology: r.topology,
    nodes: r.nodes,
    linkHops: r.net.linkHops,
    events: r.engine.events,
    seconds: r.seconds,
    cpuSeconds: r.cpuSeconds,
    packetHopsPerCpuSec: r.net.linkHops / r.cpuSeconds,
    eventsPerHop: r.net.linkHops > 0 ? r.engine.events / r.net.linkHops : 0,
    endNs: r.engine.now / 1000,
  };
}
