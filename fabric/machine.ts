import { Engine } from './engine/engine.ts';
import { presets } from './machines/index.ts';
import { ParamReader, type MachineSpec } from './machines/spec.ts';
import { Network, type NetworkParams } from './network.ts';
import type { PacketFormatConfig } from './nic/packet-format.ts';
import { putRequestPhits } from './nic/packet-format.ts';
import { Nic, TxnTable, type NicParams } from './nic/nic.ts';
import { PacketPool } from './packet.ts';
import { pickRouting } from './routing/routing.ts';
import { torusRouting } from './routing/torus-routing.ts';
import { balancedDims, buildTorus, torusDistance, type TorusGraph } from './topology/torus.ts';
import { cyclePs } from './units.ts';

/** Processor model of one core. */
export interface CpuParams {
  readonly flopsPerPs: number;
  readonly memBytesPerPs: number;
}

/** MPI library parameters of a machine. */
export interface MpiParams {
  readonly eagerMaxBytes: number;
  readonly sendOverheadPs: number;
  readonly recvOverheadPs: number;
  readonly copyBytesPerPs: number;
  readonly testOverheadPs: number;
  readonly shmLatencyPs: number;
  readonly shmBytesPerPs: number;
}

/** A machine preset resolved for one run: every value in ps, bytes or counts. */
export interface MachineConfig {
  readonly name: string;
  readonly title: string;
  readonly seed: string;
  readonly nodes: number;
  readonly torus: { dims: number[]; links: number[]; wrap: boolean[]; nodesPerRouter: number };
  readonly routing: string;
  readonly network: Omit<NetworkParams, 'vcs'>;
  readonly nic: NicParams;
  readonly cpu: CpuParams;
  readonly mpi: MpiParams;
  readonly dmapp: { readonly bteThresholdBytes: number };
}

/** Looks up a preset by name; throws RangeError listing the valid ones. */
export function machineSpec(name: string): MachineSpec {
  const s = presets[name];
  if (!s) throw new RangeError(`unknown machine "${name}"; valid: ${Object.keys(presets).join(', ')}`);
  return s;
}

/** Resolves a spec for `nodes` nodes, applying `overrides` (key -> value in human units). */
export function resolveMachine(spec: MachineSpec, nodes: number, overrides: Record<string, string> = {}): MachineConfig {
  if (!Number.isInteger(nodes) || nodes < 1) throw new RangeError(`nodes must be a positive integer, got ${nodes}`);
  const r = new ParamReader(spec, overrides);
  const links = r.ints('torus.links');
  const nodesPerRouter = r.int('torus.nodesPerRouter');
  const dimsText = r.string('torus.dims');
  const dims = dimsText === 'auto' ? balancedDims(Math.ceil(nodes / nodesPerRouter), links.length) : r.ints('torus.dims');
  const wrap = r.string('torus.wrap').split(',').map((s) => {
    if (s !== 'true' && s !== 'false') throw new RangeError(`parameter torus.wrap: expected true/false per dimension, got "${s}"`);
    return s === 'true';
  });
  const slots = dims.reduce((a, b) => a * b, 1) * nodesPerRouter;
  if (nodes > slots) throw new RangeError(`nodes=${nodes} does not fit torus ${dims.join('x')} with ${nodesPerRouter} nodes per router (${slots} slots)`);

  const routerCyclePs = cyclePs(r.hz('router.clock'));
  const phitBits = r.int('link.phitBits');
  const laneBytesPerPs = r.bytesPerPs('link.laneRate');
  const linkPhitPs = phitBits / 8 / (r.int('link.lanes') * laneBytesPerPs);
  const tiles = r.int('netlink.tiles');
  const maxPayload = r.bytes('packet.maxPayload');
  const format: PacketFormatConfig = {
    phitBits,
    requestHeaderPhits: r.int('packet.requestHeaderPhits'),
    eopPhits: r.int('packet.eopPhits'),
    dataGroupBytes: r.int('packet.dataGroupBytes'),
    dataGroupPhits: r.int('packet.dataGroupPhits'),
    responsePhits: r.int('packet.responsePhits'),
    errorResponsePhits: r.int('packet.errorResponsePhits'),
    readRequestPhits: r.int('packet.readRequestPhits'),
    readResponseHeaderPhits: r.int('packet.readResponseHeaderPhits'),
    maxPayloadBytes: maxPayload,
  };
  const fullPacket = putRequestPhits(format, maxPayload);
  const injectPhitPs = (r.int('netlink.tileCyclesPerPacket') * routerCyclePs) / fullPacket / tiles;
  const network: Omit<NetworkParams, 'vcs'> = {
    routerLatencyPs: r.timePs('router.latency'),
    linkPhitPs,
    linkLatencyPs: r.timePs('link.latency'),
    linkOverheadPhits: r.int('link.overheadPhits'),
    injectPhitPs,
    injectLatencyPs: r.timePs('netlink.latency'),
    ejectPhitPs: injectPhitPs,
    ejectLatencyPs: r.timePs('netlink.latency'),
    inputBufferPhits: r.int('router.inputBuffer'),
    ejectBufferPhits: r.int('nic.receiveBuffer'),
    // the Netlink spreads a NIC's packets over all its processor tiles, each with its own buffer
    injectBufferPhits: tiles * r.int('router.inputBuffer'),
  };
  if (fullPacket > network.inputBufferPhits || fullPacket > network.ejectBufferPhits) {
    throw new RangeError(`buffers (router.inputBuffer=${network.inputBufferPhits}, nic.receiveBuffer=${network.ejectBufferPhits}) must hold a full ${fullPacket}-phit packet`);
  }
  const nicCyclePs = cyclePs(r.hz('nic.clock'));
  const htBytesPerPs = (r.hz('ht.clock') * r.int('ht.widthBits') * 2) / 8 / 1e12;
  const nic: NicParams = {
    format,
    packetPs: Math.round(r.int('nic.packetCycles') * nicCyclePs),
    cyclePs: Math.round(nicCyclePs),
    outLatencyPs: Math.round(r.int('nic.outLatencyCycles') * nicCyclePs),
    inLatencyPs: Math.round(r.int('nic.inLatencyCycles') * nicCyclePs),
    hostBytesPerPs: htBytesPerPs,
    hostLatencyPs: r.timePs('ht.latency'),
    hostWriteOverheadBytes: r.bytes('ht.writeOverhead'),
    hostReadRequestBytes: r.bytes('ht.readRequest'),
    memoryReadLatencyPs: r.timePs('ht.memoryReadLatency'),
    fmaIssuePs: r.timePs('fma.issue'),
    bteIssuePs: r.timePs('bte.issue'),
    bteStartupPs: r.timePs('bte.startup'),
    bteReadsInFlight: r.int('bte.readsInFlight'),
    cqEventBytes: r.bytes('nic.cqEventBytes'),
    maxOutstandingPackets: r.int('nic.maxOutstandingPackets'),
    smsgHeaderBytes: r.bytes('nic.smsgHeader'),
  };
  return {
    name: spec.name,
    title: spec.title,
    seed: spec.seed,
    nodes,
    torus: { dims, links, wrap, nodesPerRouter },
    routing: r.string('routing.algorithm'),
    network,
    nic,
    cpu: { flopsPerPs: (r.number('cpu.gflops') * 1e9) / 1e12, memBytesPerPs: r.bytesPerPs('cpu.memBandwidth') },
    mpi: {
      eagerMaxBytes: r.bytes('mpi.eagerMax'),
      sendOverheadPs: r.timePs('mpi.sendOverhead'),
      recvOverheadPs: r.timePs('mpi.recvOverhead'),
      copyBytesPerPs: r.bytesPerPs('mpi.copyBandwidth'),
      testOverheadPs: r.timePs('mpi.testOverhead'),
      shmLatencyPs: r.timePs('mpi.shmLatency'),
      shmBytesPerPs: r.bytesPerPs('mpi.shmBandwidth'),
    },
    dmapp: { bteThresholdBytes: r.bytes('dmapp.bteThreshold') },
  };
}

/** A built machine: engine, network and one NIC per node. */
export interface Machine {
  readonly config: MachineConfig;
  readonly engine: Engine;
  readonly graph: TorusGraph;
  readonly net: Network<TorusGraph>;
  readonly nics: readonly Nic[];
  /** Router-to-router hops between the routers of two nodes on a quiet network. */
  hops(nodeA: number, nodeB: number): number;
}

/** Builds the simulator objects for a resolved machine. */
export function buildMachine(config: MachineConfig, seed = 1): Machine {
  const engine = new Engine(seed);
  const graph = buildTorus({ ...config.torus, nodes: config.nodes });
  const route = pickRouting(torusRouting, 'torus', config.routing);
  const pool = new PacketPool(config.nic.format.maxPayloadBytes);
  const net = new Network(engine, graph, route, { ...config.network, vcs: torusRouting.vcs }, pool);
  const txns = new TxnTable();
  const nics: Nic[] = [];
  for (let n = 0; n < config.nodes; n++) nics.push(new Nic(engine, net, txns, n, config.nic));
  return {
    config,
    engine,
    graph,
    net,
    nics,
    hops: (a, b) => torusDistance(graph, graph.nodeRouter[a]!, graph.nodeRouter[b]!),
  };
}
