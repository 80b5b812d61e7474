import { assertDeadlockFree, checkDeadlockFreedom, type DeadlockCheck } from './deadlock.ts';
import { Engine } from './engine/engine.ts';
import type { COLL_SELECTORS } from './machines/coll-selector.ts';
import { FIDELITY_LEVELS, type Fidelity } from './machines/fidelity.ts';
import { presets } from './machines/index.ts';
import { ParamReader, type MachineSpec } from './machines/spec.ts';
import { berOfClass, checkBerClasses, linkEfficiency, resolveLinkErrors, type LinkErrorConfig, type LinkErrorParams } from './link-errors.ts';
import { MAX_BUFFER_PHITS, Network, type AgeArbitration, type LinkParams, type NetworkParams } from './network.ts';
import type { PacketFormatConfig } from './nic/packet-format.ts';
import { putRequestPhits } from './nic/packet-format.ts';
import { FlowNetwork } from './flow/flow-network.ts';
import { BteFlows } from './nic/bte-flow.ts';
import { Nic, TxnTable, type NicParams } from './nic/nic.ts';
import { NodeFaults, parseDeadNodes, type NodeFaultConfig } from './node-faults.ts';
import { setupFaults, type FaultConfig } from './fault-setup.ts';
import { PacketPool } from './packet.ts';
import { routerDistances, type PortGraph } from './topology/port-graph.ts';
import { topologyMetrics } from './topology/metrics.ts';
import { buildTopology, describeTopology, linkFamily, nodesPerRouterOf, resolveTopology, type TopologySpec } from './topology/topologies.ts';
import { cyclePs } from './units.ts';

/** Processor model of one core. */
export interface CpuParams {
  readonly flopsPerPs: number;
  readonly memBytesPerPs: number;
  /** Sockets per node; a node's ranks fill socket 0 first. */
  readonly sockets: number;
  /** The socket wired to the NIC. */
  readonly nicSocket: number;
  /** Extra time of a rank on another socket, per send posted and per wait returned (ps). */
  readonly socketCrossingPs: number;
}

/** Operating-system noise on the application cores. */
export interface NoiseParams {
  /** none, periodic (one detour per period, random phase per core) or random (Poisson). */
  readonly kind: 'none' | 'periodic' | 'random';
  readonly periodPs: number;
  readonly detourPs: number;
  /** Core specialisation: the OS has a core of its own and application cores see no detours. */
  readonly coreSpec: boolean;
}

/** A library whose collective selection rules phit has. */
export type CollSelector = (typeof COLL_SELECTORS)[number];

/** MPI library parameters of a machine. */
export interface MpiParams {
  readonly eagerMaxBytes: number;
  /** Rendezvous transfers progress while the receiver computes (a progress thread); otherwise only inside MPI calls. */
  readonly asyncProgress: boolean;
  /** Whether allreduce and barrier of one item go to the NIC's collective engine unasked (Cray MPT's MPICH_USE_DMAPP_COLL). */
  readonly collectiveEngine: boolean;
  /** Allreduce and barrier combine within each node over shared memory first, the node leaders alone across the network (MPICH's SMP collectives). */
  readonly nodeAwareCollectives: boolean;
  /** Whose rules choose a collective's algorithm when none is named (runtime/mpi/coll/selectors.ts). */
  readonly collSelector: CollSelector;
  readonly sendOverheadPs: number;
  readonly recvOverheadPs: number;
  readonly copyBytesPerPs: number;
  readonly testOverheadPs: number;
  /** Least time between two messages leaving one rank: the library's and NIC's message rate (LogGP's g). */
  readonly messageGapPs: number;
  /** CPU time per queue entry a match searches past (posted receives, unexpected messages). */
  readonly matchEntryPs: number;
  /** CPU time to allocate a request and complete it, per point-to-point call. */
  readonly requestOverheadPs: number;
  /** CPU time of a collective call's entry: argument checks, algorithm choice, communicator lookup. */
  readonly collectiveOverheadPs: number;
  /** CPU time per step of a collective's schedule (each wait of the algorithm). */
  readonly collectiveStepPs: number;
  /** CPU time per contiguous block of a non-contiguous datatype the library packs or unpacks (besides the bytes at copyBytesPerPs). */
  readonly packBlockPs: number;
  /** CPU time of a send, and of a receive's match and completion, on the on-node path (`mpi.shmOverhead`; absent: sendOverheadPs and recvOverheadPs). */
  readonly shmSendOverheadPs: number;
  readonly shmRecvOverheadPs: number;
  readonly shmLatencyPs: number;
  readonly shmBytesPerPs: number;
  /** Rendezvous messages of at least this many bytes are pulled over `rails` independent paths (0: never). */
  readonly railThresholdBytes: number;
  /** Streams of a multi-rail message, one per independent path. */
  readonly rails: number;
  /** Regions one rank may have attached to one dynamic window at once (`mpi.maxAttach`): MPI_Win_attach past it fails. */
  readonly maxAttach: number;
}

/** The one-sided library layer (DMAPP, and SHMEM over it). */
export interface DmappParams {
  /** Puts and gets above this many bytes use the BTE. */
  readonly bteThresholdBytes: number;
  /** CPU time of the library in each call. */
  readonly overheadPs: number;
  /** The symmetric heap uses one virtual MDH on every node. */
  readonly vmdh: boolean;
  /** Page size of the symmetric heap (IOMMU translation). */
  readonly heapPageBytes: number;
  /** Bound of each PE's symmetric heap (SHMEM_SYMMETRIC_SIZE): the user's allocations past it fail. */
  readonly symmetricSizeBytes: number;
}

/** How much of the fabric a run simulates (see fabric/machines/fidelity.ts). */
export interface FabricParams {
  readonly fidelity: Fidelity;
  /** coarse: payload of one simulated packet of a bulk transfer, a whole number of hardware packets. */
  readonly coarseBytes: number;
  /** flow: transfers of at least this many bytes become flows. */
  readonly flowBytes: number;
}

/** A machine preset resolved for one run: every value in ps, bytes or counts. */
export interface MachineConfig {
  readonly name: string;
  readonly title: string;
  readonly seed: string;
  readonly nodes: number;
  readonly topology: TopologySpec;
  /** One line describing the topology. */
  readonly topologySummary: string;
  /** Everything of the network but its VCs (from the routing) and its per-class links (below). */
  readonly network: Omit<NetworkParams, 'vcs' | 'links'>;
  /** Router-to-router link timing of each link family. */
  readonly links: { readonly link: LinkParams; readonly optical?: LinkParams };
  /** Raw bandwidth of one link of each family, per direction, before link-layer efficiency (GB/s). */
  readonly rawLinkGBs: { readonly link: number; readonly optical?: number };
  /** Bit errors per link class and the link-level retry (link-errors.ts). */
  readonly linkErrors: LinkErrorConfig;
  readonly nic: NicParams;
  /** The nodes that die and the NIC timeout that reports them (node-faults.ts). */
  readonly nodeFaults: NodeFaultConfig;
  readonly cpu: CpuParams;
  readonly noise: NoiseParams;
  readonly mpi: MpiParams;
  readonly dmapp: DmappParams;
  readonly fabric: FabricParams;
  /** Link, lane and router failures (faults.*; fault-setup.ts), as text until the graph is built. */
  readonly faults: FaultConfig;
  /** Lanes of one link of each family (link.lanes, optical.lanes). */
  readonly lanes: { readonly link: number; readonly optical?: number };
}

/** Most nodes a run may have: ten times the largest seed machine (the Cray XC's 92,544), so that sizes are checked before anything is allocated. */
export const MAX_NODES = 1_000_000;
/** Most ranks per node: the seed machines have at most 32 cores per node. */
export const MAX_PPN = 256;

/** A value as an error message shows it: strings quoted, so that '4' does not read as 4. */
export function describeValue(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null' : typeof v === 'object' ? (v.constructor?.name ?? 'an object') : String(v);
}

/** Looks up a preset by name; throws RangeError listing the valid ones. */
export function machineSpec(name: string): MachineSpec {
  const s = presets[name];
  if (!s) throw new RangeError(`unknown machine "${name}"; valid: ${Object.keys(presets).join(', ')}`);
  return s;
}

/** Resolves a spec for `nodes` nodes, applying `overrides` (key -> value in human units). */
export function resolveMachine(spec: MachineSpec, nodes: number, overrides: Record<string, string> = {}): MachineConfig {
  if (typeof nodes !== 'number' || !Number.isInteger(nodes) || nodes < 1) throw new RangeError(`nodes must be a positive integer, got ${describeValue(nodes)}`);
  if (nodes > MAX_NODES) throw new RangeError(`nodes=${nodes}: at most ${MAX_NODES} (ten times the largest seed machine)`);
  const r = new ParamReader(spec, overrides);
  const topology = resolveTopology(r, nodes);
  const phitBits = r.int('link.phitBits');
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
  // each processor tile moves one phit per cycle; a NIC spreads its packets over its tiles
  const injectPhitPs = cyclePs(r.hz('netlink.clock')) / tiles;
  const network: Omit<NetworkParams, 'vcs' | 'links'> = {
    routerLatencyPs: r.timePs('router.latency'),
    injectPhitPs,
    injectLatencyPs: r.timePs('netlink.latency'),
    ejectPhitPs: injectPhitPs,
    ejectLatencyPs: r.timePs('netlink.latency'),
    inputBufferPhits: r.int('router.inputBuffer'),
    ejectBufferPhits: r.int('nic.receiveBuffer'),
    // the NIC's packets enter through all its processor tiles, each with its own buffer
    injectBufferPhits: tiles * r.int('router.inputBuffer'),
    ...(spec.params['arbitration.ageRrSelect'] ? { age: resolveAge(r) } : {}),
    voq: r.string('router.queues') === 'voq',
  };
  if (fullPacket > network.inputBufferPhits || fullPacket > network.ejectBufferPhits) {
    throw new RangeError(`buffers (router.inputBuffer=${network.inputBufferPhits}, nic.receiveBuffer=${network.ejectBufferPhits}) must hold a full ${fullPacket}-phit packet`);
  }
  if (network.injectBufferPhits > MAX_BUFFER_PHITS || network.ejectBufferPhits > MAX_BUFFER_PHITS) {
    throw new RangeError(`buffers (router.inputBuffer=${network.inputBufferPhits}, times ${tiles} behind a node port; nic.receiveBuffer=${network.ejectBufferPhits}) must each be at most ${MAX_BUFFER_PHITS} phits`);
  }
  const fabric = fabricOf(r, maxPayload);
  const nicCyclePs = cyclePs(r.hz('nic.clock'));
  const nic: NicParams = {
    format,
    packetPs: Math.round(r.int('nic.packetCycles') * nicCyclePs),
    cyclePs: Math.round(nicCyclePs),
    outLatencyPs: Math.round(r.int('nic.outLatencyCycles') * nicCyclePs),
    inLatencyPs: Math.round(r.int('nic.inLatencyCycles') * nicCyclePs),
    hostBytesPerPs: r.bytesPerPs('host.bandwidth'),
    hostLatencyPs: r.timePs('host.latency'),
    hostWriteOverheadBytes: r.bytes('host.writeOverhead'),
    hostReadRequestBytes: r.bytes('host.readRequest'),
    memoryReadLatencyPs: r.timePs('host.memoryReadLatency'),
    fmaIssuePs: r.timePs('fma.issue'),
    bteIssuePs: r.timePs('bte.issue'),
    bteStartupPs: r.timePs('bte.startup'),
    bteReadsInFlight: r.int('bte.readsInFlight'),
    cqEventBytes: r.bytes('nic.cqEventBytes'),
    maxOutstandingPackets: r.int('nic.maxOutstandingPackets'),
    smsgHeaderBytes: r.bytes('nic.smsgHeader'),
    smsgWindow: r.int('nic.smsgWindow'),
    smsgAckDelayPs: r.timePs('nic.smsgAckDelay'),
    hasFma: r.yesNo('fma.present'),
    fmaDescriptors: r.int('fma.descriptors'),
    fmaOpPs: r.timePs('fma.op'),
    fmaMdhChangePs: r.timePs('fma.mdhChange'),
    bteChannels: Math.max(1, r.int('bte.channels')),
    // 'nic': a channel's gets keep up with the NIC's pipelines
    bteGetBytesPerPs: r.string('bte.getBandwidth') === 'nic' ? 0 : r.bytesPerPs('bte.getBandwidth'),
    hostReadsInFlight: Math.max(1, r.int('host.readsInFlight')),
    amoOpPs: r.timePs('amo.op'),
    amoCacheEntries: r.int('amo.cacheEntries'),
    amoFillPs: r.timePs('amo.fill'),
    pteEntries: r.int('iommu.pteEntries'),
    pteWays: Math.max(1, r.int('iommu.ways')),
    ptesPerEntry: Math.max(1, r.int('iommu.ptesPerEntry')),
    hasCe: r.yesNo('ce.present'),
    ceEngines: r.int('ce.engines'),
    ceRadix: r.int('ce.radix'),
    ceOpPs: r.timePs('ce.op'),
    // the flow level carries transfers below fabric.flowBytes as the coarse level does
    coarseUnits: fabric.fidelity === 'packet' ? 1 : fabric.coarseBytes / maxPayload,
    coarseMinBytes: fabric.coarseBytes,
  };
  if (nic.bteGetBytesPerPs <= 0 && r.string('bte.getBandwidth') !== 'nic') {
    throw new RangeError(`parameter bte.getBandwidth: expected a positive bandwidth or "nic", got "${r.string('bte.getBandwidth')}"`);
  }
  if (nic.hasCe) {
    if (nic.ceEngines < 1) throw new RangeError(`parameter ce.engines: a machine with a collective engine needs at least 1, got ${nic.ceEngines}`);
    if (nic.ceRadix < 2) throw new RangeError(`parameter ce.radix: a reduction tree needs a radix of at least 2, got ${nic.ceRadix}`);
    // a CE packet's data slot holds the operand, the identifier and the op and type codes
    if (maxPayload < 16) throw new RangeError(`parameter packet.maxPayload: the collective engine needs at least 16 bytes, got ${maxPayload}`);
  }
  const rawOf = (family: 'link' | 'optical'): number => r.int(`${family}.lanes`) * r.bytesPerPs(`${family}.laneRate`) * 1000;
  const linkOf = (family: 'link' | 'optical'): LinkParams => ({
    phitPs: phitBits / 8 / (r.int(`${family}.lanes`) * r.bytesPerPs(`${family}.laneRate`) * r.number(`${family}.efficiency`)),
    latencyPs: r.timePs(`${family}.latency`),
    overheadPhits: r.int(`${family}.overheadPhits`),
  });
  const sockets = r.int('cpu.sockets');
  const nicSocket = r.int('cpu.nicSocket');
  if (sockets < 1) throw new RangeError(`parameter cpu.sockets: expected at least 1, got ${sockets}`);
  if (nicSocket >= sockets) throw new RangeError(`parameter cpu.nicSocket: ${nicSocket} is not a socket (0..${sockets - 1})`);
  const rails = r.int('mpi.rails');
  if (rails < 1) throw new RangeError(`parameter mpi.rails: expected at least one stream, got ${rails}`);
  return {
    name: spec.name,
    title: spec.title,
    seed: spec.seed,
    nodes,
    topology,
    topologySummary: describeTopology(topology),
    network,
    links: { link: linkOf('link'), ...(topology.kind === 'dragonfly' ? { optical: linkOf('optical') } : {}) },
    rawLinkGBs: { link: rawOf('link'), ...(topology.kind === 'dragonfly' ? { optical: rawOf('optical') } : {}) },
    linkErrors: resolveLinkErrors(r),
    faults: {
      links: r.has('faults.links') ? r.string('faults.links') : 'none',
      routers: r.has('faults.routers') ? r.string('faults.routers') : 'none',
      lanes: r.has('faults.lanes') ? r.string('faults.lanes') : 'none',
      quiescePausePs: r.has('faults.quiescePause') ? r.timePs('faults.quiescePause') : 0,
    },
    lanes: { link: r.int('link.lanes'), ...(topology.kind === 'dragonfly' ? { optical: r.int('optical.lanes') } : {}) },
    nic,
    nodeFaults: nodeFaultsOf(r, nodes),
    cpu: {
      flopsPerPs: (r.number('cpu.gflops') * 1e9) / 1e12,
      memBytesPerPs: r.bytesPerPs('cpu.memBandwidth'),
      sockets,
      nicSocket,
      socketCrossingPs: r.timePs('cpu.socketCrossing'),
    },
    noise: noiseOf(r),
    mpi: {
      eagerMaxBytes: r.bytes('mpi.eagerMaxBytes'),
      asyncProgress: r.yesNo('mpi.asyncProgress'),
      collectiveEngine: r.yesNo('mpi.collectiveEngine'),
      nodeAwareCollectives: r.yesNo('mpi.nodeAwareCollectives'),
      // a machine file written before the parameter existed keeps MPICH's rules
      collSelector: (r.has('mpi.collSelector') ? r.string('mpi.collSelector') : 'mpich') as CollSelector,
      sendOverheadPs: r.timePs('mpi.sendOverhead'),
      recvOverheadPs: r.timePs('mpi.recvOverhead'),
      copyBytesPerPs: r.bytesPerPs('mpi.copyBandwidth'),
      testOverheadPs: r.timePs('mpi.testOverhead'),
      messageGapPs: r.timePs('mpi.messageGap'),
      matchEntryPs: r.timePs('mpi.matchEntry'),
      requestOverheadPs: r.timePs('mpi.requestOverhead'),
      collectiveOverheadPs: r.timePs('mpi.collectiveOverhead'),
      collectiveStepPs: r.timePs('mpi.collectiveStep'),
      packBlockPs: r.timePs('mpi.packBlock'),
      // the on-node path costs the call overheads unless the machine names its own
      shmSendOverheadPs: r.has('mpi.shmOverhead') ? r.timePs('mpi.shmOverhead') : r.timePs('mpi.sendOverhead'),
      shmRecvOverheadPs: r.has('mpi.shmOverhead') ? r.timePs('mpi.shmOverhead') : r.timePs('mpi.recvOverhead'),
      shmLatencyPs: r.timePs('mpi.shmLatency'),
      shmBytesPerPs: r.bytesPerPs('mpi.shmBandwidth'),
      railThresholdBytes: r.bytes('mpi.railThreshold'),
      rails,
      maxAttach: r.int('mpi.maxAttach'),
    },
    dmapp: {
      bteThresholdBytes: r.bytes('dmapp.bteThreshold'),
      overheadPs: r.timePs('dmapp.overhead'),
      vmdh: r.yesNo('dmapp.vmdh'),
      heapPageBytes: r.bytes('dmapp.heapPage'),
      symmetricSizeBytes: r.bytes('dmapp.symmetricSize'),
    },
    fabric,
  };
}

/** The dead nodes (`faults.nodes`, none when the machine lacks the key) and the NIC timeout that reports them. */
function nodeFaultsOf(r: ParamReader, nodes: number): NodeFaultConfig {
  const deaths = r.has('faults.nodes') ? parseDeadNodes(String(r.raw('faults.nodes'))) : [];
  for (const d of deaths) {
    if (d.node >= nodes) throw new RangeError(`parameter faults.nodes: node ${d.node} is not a node of this ${nodes}-node machine (0..${nodes - 1})`);
  }
  if (deaths.length > 0 && !r.has('nic.timeout')) throw new RangeError('parameter faults.nodes: dead nodes need nic.timeout, the time an initiating NIC waits before failing a transaction');
  return { deaths, timeoutPs: r.has('nic.timeout') ? r.timePs('nic.timeout') : 0 };
}

/** The fidelity parameters; coarse packets hold a whole number of hardware packets, at least one. */
function fabricOf(r: ParamReader, maxPayload: number): FabricParams {
  const fidelity = r.string('fabric.fidelity') as Fidelity;
  if (!(FIDELITY_LEVELS as readonly string[]).includes(fidelity)) throw new RangeError(`parameter fabric.fidelity: "${fidelity}" is not one of ${FIDELITY_LEVELS.join(', ')}`);
  const coarse = r.bytes('fabric.coarseBytes');
  if (coarse < maxPayload || coarse % maxPayload !== 0) {
    throw new RangeError(`parameter fabric.coarseBytes: ${coarse} bytes is not a whole number of ${maxPayload}-byte packets (packet.maxPayload)`);
  }
  if (coarse / maxPayload > 0xffff) throw new RangeError(`parameter fabric.coarseBytes: at most ${0xffff} packets of ${maxPayload} bytes`);
  return { fidelity, coarseBytes: coarse, flowBytes: r.bytes('fabric.flowBytes') };
}

/** SeaStar age-based arbitration parameters (AGE_RR_SELECT as 16 hex digits, bit i for grant i). */
function resolveAge(r: ParamReader): AgeArbitration {
  const text = r.string('arbitration.ageRrSelect');
  if (!/^[0-9a-fA-F]{16}$/.test(text)) throw new RangeError(`parameter arbitration.ageRrSelect: expected 16 hex digits (64 bits), got "${text}"`);
  const bits = BigInt(`0x${text}`);
  const select = new Uint8Array(64);
  for (let i = 0; i < 64; i++) select[i] = Number((bits >> BigInt(i)) & 1n);
  const clockPeriodPs = r.timePs('arbitration.ageClockPeriod');
  if (clockPeriodPs <= 0) throw new RangeError('parameter arbitration.ageClockPeriod: must be positive');
  return { select, clockPeriodPs, requestBias: r.int('arbitration.reqAgeBias'), responseBias: r.int('arbitration.rspAgeBias') };
}

/** A built machine: engine, network and one NIC per node. */
export interface Machine {
  readonly config: MachineConfig;
  readonly engine: Engine;
  readonly graph: PortGraph;
  readonly net: Network;
  readonly nics: readonly Nic[];
  /** The dead nodes of the run and their timeouts. */
  readonly faults: NodeFaults;
  /** The flow level's network (fidelity `flow`), or null. */
  readonly flows: FlowNetwork | null;
  /** Router-to-router hops between the routers of two nodes (shortest path). */
  hops(nodeA: number, nodeB: number): number;
}

/** Link timing of every link class of a built topology, with its errors where `link.ber` gives the class a rate. */
export function linksByClass(config: MachineConfig, graph: PortGraph): LinkParams[] {
  checkBerClasses(config.linkErrors.ber, graph);
  return graph.classNames.map((name) => {
    const family = linkFamily(config.topology, name);
    const l = family === 'optical' ? config.links.optical : config.links.link;
    if (!l) throw new RangeError(`machine ${config.name}: no ${family} link parameters for link class ${name}`);
    const ber = berOfClass(config.linkErrors.ber, name, graph.topology);
    return ber > 0 ? { ...l, errors: linkErrorsOf(config, name, l, ber) } : l;
  });
}

/** The errors of link class `name` (timing `l`, bit-error rate `ber`); refuses a send buffer that does not cover the class's round trip. */
function linkErrorsOf(config: MachineConfig, name: string, l: LinkParams, ber: number): LinkErrorParams {
  const e = config.linkErrors;
  const family = linkFamily(config.topology, name);
  const raw = family === 'optical' ? config.rawLinkGBs.optical : config.rawLinkGBs.link;
  const perHop = e.protocol === 'per-hop';
  const errors: LinkErrorParams = {
    ber,
    wireBitsPerPs: ((raw ?? 0) * 8) / 1000,
    protocol: e.protocol,
    nackRoundTripPs: 2 * l.latencyPs + e.nackPs,
    controlPs: perHop ? e.controlPs : 0,
    controlBits: perHop ? e.controlBits : 0,
    resumePs: perHop ? e.resumePhits * l.phitPs : 0,
  };
  // the send buffer holds a full packet and what follows it until its NACK could be back (the model never stalls a link on it)
  const roundTripPs = errors.nackRoundTripPs + 2 * errors.controlPs + errors.resumePs;
  const need = Math.ceil(roundTripPs / l.phitPs) + putRequestPhits(config.nic.format, config.nic.format.maxPayloadBytes) + l.overheadPhits;
  if (e.sendBufferPhits < need) {
    throw new RangeError(`parameter link.sendBuffer: ${e.sendBufferPhits} phits do not cover the round trip of a ${name} link with errors (${need} phits: a full packet and what follows it for ${(roundTripPs / 1000).toFixed(1)} ns)`);
  }
  return errors;
}

/** Network parameters as the flow level sees them: a link with errors moves full packets at its go-back-N efficiency. */
function flowParams(params: NetworkParams, fullPacketPhits: number): NetworkParams {
  if (!params.links.some((l) => l.errors !== undefined)) return params;
  const links = params.links.map((l) => (l.errors === undefined ? l : { ...l, phitPs: l.phitPs / linkEfficiency(l.errors, (fullPacketPhits + l.overheadPhits) * l.phitPs) }));
  return { ...params, links };
}

/** Raw bandwidth (GB/s per direction) of a link class of a machine. */
export function rawLinkGBs(config: MachineConfig, className: string): number {
  const family = linkFamily(config.topology, className);
  const v = family === 'optical' ? config.rawLinkGBs.optical : config.rawLinkGBs.link;
  if (v === undefined) throw new RangeError(`machine ${config.name}: no ${family} links`);
  return v;
}

/** Builds the simulator objects for a resolved machine. */
export function buildMachine(config: MachineConfig, seed = 1): Machine {
  const engine = new Engine(seed);
  const { graph, route, vcs, nextPort, spreadRoute } = buildTopology(config.topology);
  const what = `routing ${config.topology.routing} on ${config.topologySummary}`;
  // refuse a routing that can deadlock before anything runs (a sample of pairs on large systems)
  assertDeadlockFree(what, graph, route, vcs, { maxPairs: 4096, salts: 2 });
  const lanesByClass = graph.classNames.map((c) => (linkFamily(config.topology, c) === 'optical' ? (config.lanes.optical ?? config.lanes.link) : config.lanes.link));
  const faulty = setupFaults(config.faults, graph, route, vcs, lanesByClass, what, config.network.voq === true);
  // a coarse packet carries the payload of all the hardware packets it stands for
  const pool = new PacketPool(config.nic.format.maxPayloadBytes * config.nic.coarseUnits);
  const links = linksByClass(config, graph);
  // with faults, detours make a packet's next output unknown upstream: crosspoint credits are pooled per input
  const net = faulty
    ? new Network(engine, graph, faulty.route, { ...config.network, vcs: faulty.vcs, classVcs: faulty.classVcs, faults: faulty.faults, links }, pool)
    : new Network(engine, graph, route, { ...config.network, vcs, links }, pool, nextPort);
  const txns = new TxnTable();
  const nics: Nic[] = [];
  for (let n = 0; n < config.nodes; n++) nics.push(new Nic(engine, net, txns, n, config.nic));
  const faults = new NodeFaults(engine, config.nodes, config.nodeFaults);
  for (const nic of nics) {
    nic.peers = nics;
    nic.faults = faults;
    nic.deadPs = faults.deathPs[nic.node]!;
  }
  let flowNet: FlowNetwork | null = null;
  if (config.fabric.fidelity === 'flow') {
    // large block transfers become flows over the same routes (the flow level); with faults, around
    // the faults from the start, without the non-minimal spread (it knows no failed link)
    const flows = new BteFlows(new FlowNetwork({ engine, graph, route: faulty ? faulty.flowRouting.route : route, params: flowParams({ ...net.params, vcs: faulty ? faulty.vcs : vcs },  putRequestPhits(config.nic.format, config.nic.format.maxPayloadBytes)), format: config.nic.format, ...(spreadRoute ? { routeSamples: 32 } : {}), sampleLoads: graph.topology === 'torus', ...(spreadRoute && !faulty ? { spreadRoute } : {}), ...(faulty ? { laneShare: faulty.flowLaneShare, splitGroups: true } : {}) }), config.nodes, config.nic, config.fabric.flowBytes);
    for (const nic of nics) {
      nic.flows = flows;
      nic.peers = nics;
    }
    flowNet = flows.net;
    if (faulty) {
      // a fault set taking effect during the run: new flows route around it, flows over its failed
      // links re-route the rest of their bytes, lanes lost re-solve theirs
      const fr = faulty.flowRouting;
      const fnet = flows.net;
      net.onFault = (st) => {
        fr.setDown(st.ports, st.routers);
        fnet.faultsChanged(st.laneChannels, st.laneKinds.map((k) => faulty.faults.degraded[k]!.share), st.ports);
      };
      net.onQuiesce = (until) => fnet.quiesce(until);
    }
    // the fabric's metrics count what flows carry over the same window as packets
    net.onMetricsReset = () => flows.net.resetCounters();
  }
  if (faulty) {
    // the detour hops per link class count over the metrics window
    const before = net.onMetricsReset;
    const fr = faulty.faults.routing;
    net.onMetricsReset = () => {
      before?.();
      fr.markHops();
    };
  }
  const distances = new Map<number, Int32Array>();
  return {
    config,
    engine,
    graph,
    net,
    nics,
    faults,
    flows: flowNet,
    hops: (a, b) => {
      const ra = graph.nodeRouter[a]!;
      let d = distances.get(ra);
      if (!d) distances.set(ra, (d = routerDistances(graph, ra)));
      return d[graph.nodeRouter[b]!]!;
    },
  };
}

const NOISE_KINDS = ['none', 'periodic', 'random'] as const;

function noiseOf(r: ParamReader): NoiseParams {
  const kind = r.string('noise.kind');
  if (!(NOISE_KINDS as readonly string[]).includes(kind)) throw new RangeError(`parameter noise.kind: "${kind}" is not one of ${NOISE_KINDS.join(', ')}`);
  const periodPs = r.timePs('noise.period');
  const detourPs = r.timePs('noise.detour');
  if (kind !== 'none' && !(detourPs < periodPs)) throw new RangeError(`parameter noise.detour: a detour (${detourPs / 1e6} us) must be shorter than noise.period (${periodPs / 1e6} us)`);
  return { kind: kind as NoiseParams['kind'], periodPs, detourPs, coreSpec: r.yesNo('noise.coreSpec') };
}

/** What `phit topo` reports about a machine's structure (hops between routers, bisection both directions). */
export interface MachineTopology {
  readonly machine: string;
  readonly topology: string;
  readonly routers: number;
  readonly nodes: number;
  readonly linksPerClass: Readonly<Record<string, number>>;
  readonly diameter: number;
  readonly diameterWithNodeLinks: number;
  readonly averageHops: number;
  readonly averageHopsSampled: boolean;
  readonly bisectionLinks: number;
  readonly bisectionUnit: string;
  readonly bisectionGBs: number;
  readonly bisectionIsBound: boolean;
  readonly globalCables: number | null;
  readonly globalGBsPerNode: number | null;
  readonly deadlockFree?: boolean;
  readonly dependencyCycle?: readonly string[] | null;
  readonly routesChecked?: number;
  /** The channel-dependency check, when asked for. */
  readonly deadlock: DeadlockCheck | null;
}

/**
 * Structure of a machine: routers, links, diameter, average hops, bisection, and optionally the
 * channel-dependency check of its routing. Without `nodes`, the full structure the parameters describe.
 */
export function machineTopology(spec: MachineSpec, opts: { nodes?: number; set?: Readonly<Record<string, string>>; checkDeadlock?: boolean } = {}): MachineTopology {
  const set = { ...opts.set };
  let nodes = opts.nodes ?? 0;
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
  return {
    machine: spec.name,
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
    deadlock,
  };
}
