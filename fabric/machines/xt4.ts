import { collSelectorParam } from './coll-selector.ts';
import { mpiCostParams, NO_EXTRA_MPI_COST, packBlockCost } from './mpi-costs.ts';
import { fidelityParams } from './fidelity.ts';
import { hostParams } from './host.ts';
import { faultParams } from './fault-params.ts';
import { linkErrorParams } from './link-error-params.ts';
import { nodeFaultParams } from './node-fault-params.ts';
import type { MachineSpec } from './spec.ts';

const S = 'seed 000';

/**
 * Cray XT4 with the SeaStar router (seed 000_33d619e66e39f877.txt). The router, links, flits and
 * arbitration follow the paper; routing is table-driven (a global and a local table per input
 * port, filled by a generator that follows the paper's deadlock and fault rules); the NIC, host and MPI
 * figures are first approximations, marked assumed.
 */
export const xt4: MachineSpec = {
  name: 'xt4',
  title: 'Cray XT4 (SeaStar 3-D torus)',
  seed: '000_33d619e66e39f877.txt',
  params: {
    // --- topology
    'topology.kind': { value: 'torus', help: 'topology builder', source: `${S}: k-ary n-cube or mesh (S1)` },
    'torus.dims': { value: 'auto', help: 'routers along x,y,z ("auto": near-cubic for --nodes)', source: 'assumed: sized to the run' },
    'torus.links': { value: '1,1,1', help: 'links per direction in x,y,z', source: `${S}: 6 network ports, +x -x +y -y +z -z (S1)` },
    'torus.wrap': { value: 'true,true,true', help: 'torus (true) or mesh (false) per dimension', source: `${S}: any dimension torus or mesh (S1)` },
    'torus.nodesPerRouter': { value: 1, help: 'nodes per SeaStar', source: `${S}: one processor port (S1)` },
    'routing.algorithm': { value: 'table', help: 'routing function (torus: table = routing tables per input port with the fault rules, dor = plain dimension order)', source: `${S}: table-driven routing, a global and a local table per input port (S8, S9)` },
    'torus.brokenLinks': { value: 'none', help: 'broken links, e.g. "x+@1.2.3,y-@0.0.0" (direction @ router coordinates); the tables route around them', source: `${S}: fault rules for broken X, Y and Z links (S9)` },
    // --- router and links
    'router.latency': { value: '45ns', help: 'head arrival to output eligibility', source: `assumed: with link.latency the 50 ns per hop of ${S} (S3)` },
    'router.inputBuffer': { value: 96, help: 'input buffer per port per VC (flits)', source: `${S}: four 96-entry buffers per input port (S5)` },
    'router.queues': { value: 'fifo', help: 'queues per input port and VC: fifo (one; only its head is routed) or voq (one per output: a packet waits only behind packets for the same output)', source: 'assumed' },
    'link.phitBits': { value: 68, help: 'bits per flit', source: `${S}: 68-bit flits (S7)` },
    'link.lanes': { value: 12, help: 'lanes per link direction', source: `${S}: 12 lanes at 3.2 Gb/s, 4.8 GB/s (S4)` },
    'link.laneRate': { value: '3.2Gb/s', help: 'lane rate', source: `${S} (S4)` },
    'link.efficiency': { value: 1, help: 'payload efficiency per flit', source: 'assumed: flits carry their own framing' },
    'link.latency': { value: '5ns', help: 'wire latency', source: `assumed: with router.latency 50 ns per hop (S3)` },
    'link.overheadPhits': { value: 0, help: 'link-layer flits per packet', source: 'assumed' },
    ...faultParams({
      lanes: 'a link of 12 lanes loses width: (12 - lost) / 12 of its bandwidth',
      lanesSource: `assumed: 12 lanes (${S}, S4) degrade in width`,
      quiescePause: '10ms',
      quiesceSource: `assumed: ${S} gives no reroute time`,
    }),
    ...linkErrorParams({
      berSource: 'phit: errors off by default; the seed gives no measured rate',
      retry: { value: 'go-back-n', source: `${S} "SeaStar Router Microarchitecture": the LCB implements a sliding window go-back-N link-layer protocol` },
      nackDelay: { value: '160ns', source: `estimate: the 96-flit input buffers cover the link's round trip at 3.2 Gb/s (${S} S5): 96 x 1.77 ns = 170 ns, less the wire both ways` },
      sendBuffer: { value: 128, source: 'estimate: the seed gives no size; covers a full packet and the 170 ns round trip (105 flits)' },
      controlPacket: { value: '0B', source: `assumed: ${S} "Flow Control": credits ride in the flit stream (idle flits); acknowledgements are taken to as well` },
      resumePhits: { value: 0, source: 'go-back-n: the replay follows the NACK at once' },
      crcBits: { value: 16, source: 'estimate: the seed names no CRC; a 16-bit packet CRC as on its successor Gemini (seed 004 §IV)' },
      crcBlock: { value: '77B', source: `estimate: one CRC per packet, at most 9 68-bit flits (${S}, S7)` },
      crcDistance: { value: 4, source: 'estimate: a 16-bit CRC such as CCITT\'s catches any 3 bit errors in up to 32,751 bits' },
    }),
    'netlink.tiles': { value: 1, help: 'processor ports', source: `${S}: one processor port (S1)` },
    'netlink.clock': { value: '800MHz', help: 'processor port: one flit per cycle', source: 'assumed: faster than a link so a node can fill one' },
    'netlink.latency': { value: '5ns', help: 'NIC to router latency', source: 'assumed' },
    // --- arbitration
    'arbitration.ageRrSelect': { value: '0000000000000000', help: 'AGE_RR_SELECT, 64 bits as 16 hex digits (bit i for grant i mod 64): 0 round-robin, 1 oldest first', source: `${S}: "all 0s will select round-robin ... all 1s age-based" (S13)` },
    'arbitration.ageClockPeriod': { value: '5ns', help: 'AGE_CLOCK_PERIOD: network time per age step', source: `${S}: 2 ns to over 8 s (S13); assumed 5 ns: keeps ages below 255 in saturated 8-node merging traffic` },
    'arbitration.reqAgeBias': { value: 1, help: 'REQ_AGE_BIAS: age added per hop on VC0/VC1', source: `${S}: default 1 (S13)` },
    'arbitration.rspAgeBias': { value: 1, help: 'RSP_AGE_BIAS: age added per hop on VC2/VC3', source: `${S}: default 1 (S13)` },
    // --- packet format
    'packet.requestHeaderPhits': { value: 1, help: 'header flit', source: `${S}: header flit + up to 8 data flits (S7)` },
    'packet.eopPhits': { value: 0, help: 'end-of-packet flits', source: `${S} (S7)` },
    'packet.dataGroupBytes': { value: 8, help: 'payload bytes per flit', source: `${S}: 8 data flits carry 64 bytes (S7)` },
    'packet.dataGroupPhits': { value: 1, help: 'flits per payload group', source: `${S} (S7)` },
    'packet.responsePhits': { value: 1, help: 'response packet', source: 'assumed: one header flit' },
    'packet.errorResponsePhits': { value: 1, help: 'response on error', source: 'assumed' },
    'packet.readRequestPhits': { value: 2, help: 'get request', source: 'assumed: header and address flits' },
    'packet.readResponseHeaderPhits': { value: 1, help: 'get response header', source: 'assumed' },
    'packet.maxPayload': { value: '64B', help: 'largest payload per packet', source: `${S}: up to 8 data flits (S7)` },
    // --- NIC (approximate)
    'nic.clock': { value: '500MHz', help: 'NIC clock', source: 'assumed' },
    'nic.packetCycles': { value: 16, help: 'NIC cycles per 64-byte packet', source: "fitted: 2.0 GB/s, the sustained rate of SeaStar 2.1 (Brightwell, Underwood, Vaughan, 'Performance Impact of the Red Storm Upgrade', abstract; record redstorm-seastar21-nic-sustained of cli/validate/measured/xt4.json; was 6, 5.3 GB/s, assumed)" },
    'nic.outLatencyCycles': { value: 50, help: 'NIC output latency', source: 'assumed' },
    'nic.inLatencyCycles': { value: 50, help: 'NIC input latency', source: 'assumed' },
    'nic.receiveBuffer': { value: 192, help: 'NIC receive buffer per VC (flits)', source: 'assumed' },
    'nic.maxOutstandingPackets': { value: 1024, help: 'request packets awaiting responses', source: 'assumed' },
    'nic.cqEventBytes': { value: '16B', help: 'completion event size', source: 'assumed' },
    'nic.smsgHeader': { value: '32B', help: 'message header', source: 'assumed' },
    'nic.smsgWindow': { value: 0, help: 'packets of one short message in flight before an acknowledgement (0: no limit)', source: 'assumed: the packets of a short message stream' },
    'nic.smsgAckDelay': { value: '0ns', help: 'time from a short-message packet landing to its acknowledgement leaving (the receiver taking it off its queue)', source: 'assumed: the NIC acknowledges at once' },
    ...nodeFaultParams({ value: '1ms', source: 'assumed: 1 ms, as on Aries (seed 001 "Reliability": the initiating NIC times out the transaction), no value in this machine\'s seed' }),
    'host.bandwidth': { value: '6.4GB/s', help: 'HyperTransport bandwidth per direction', source: 'assumed' },
    'host.latency': { value: '150ns', help: 'host <-> NIC latency', source: 'assumed' },
    'host.writeOverhead': { value: '12B', help: 'overhead per write', source: 'assumed' },
    'host.readRequest': { value: '12B', help: 'read request size', source: 'assumed' },
    'host.memoryReadLatency': { value: '100ns', help: 'memory access for a NIC read', source: 'assumed' },
    'fma.issue': { value: '10ns', help: 'CPU time per programmed put', source: 'assumed' },
    'bte.issue': { value: '500ns', help: 'CPU time to start a DMA transfer', source: 'assumed' },
    'bte.startup': { value: '1us', help: 'DMA start-up', source: 'assumed' },
    'bte.readsInFlight': { value: 32, help: 'host reads the DMA engine keeps in flight', source: 'assumed' },
    'fma.present': { value: 'no', help: 'the NIC has FMA windows', source: `${S}: SeaStar moves data with its DMA engine (no FMA); FMA-mode transfers use it` },
    'fma.descriptors': { value: 127, help: 'FMA descriptors per NIC', source: 'unused without FMA' },
    'fma.op': { value: '10ns', help: 'FMA unit time per operation', source: 'unused without FMA' },
    'fma.mdhChange': { value: '0ns', help: 'extra FMA unit time when the MDH changes', source: 'unused without FMA' },
    'bte.channels': { value: 1, help: 'transfers the DMA engine runs at once', source: 'assumed' },
    'bte.getBandwidth': { value: 'nic', help: 'data rate one DMA channel asks for on a DMA get ("nic": as fast as the NIC pipelines)', source: 'assumed' },
    'host.readsInFlight': { value: 32, help: 'host-memory reads the NIC keeps in flight', source: 'assumed' },
    'amo.op': { value: '200ns', help: 'time per atomic operation', source: 'assumed: SeaStar has no AMO unit; its embedded processor performs atomics' },
    'amo.cacheEntries': { value: 0, help: 'AMO cache entries', source: `${S}: no AMO cache` },
    'amo.fill': { value: '0ns', help: 'time to bring in a variable (no cache: every AMO reads memory)', source: 'assumed' },
    'iommu.pteEntries': { value: 0, help: 'IOMMU PTE cache entries (0: no IOMMU modelled)', source: 'assumed' },
    'iommu.ways': { value: 4, help: 'PTE cache associativity', source: 'unused' },
    'iommu.ptesPerEntry': { value: 8, help: 'PTEs per PTE cache entry', source: 'unused' },
    'ce.present': { value: 'no', help: 'the NIC has a collective engine (reduction and barrier offload)', source: `${S} describes no collective offload in SeaStar` },
    'ce.engines': { value: 0, help: 'virtual CEs per NIC, each with its own tree and one collective pending', source: 'no collective engine' },
    'ce.radix': { value: 0, help: 'largest branching ratio of a reduction tree', source: 'no collective engine' },
    'ce.op': { value: '0ns', help: 'CE combining-unit time per child input', source: 'no collective engine' },
    // --- processor
    'cpu.gflops': { value: 4.2, help: 'flop rate per core (GFlop/s)', source: 'assumed: 2.1 GHz Opteron, 2 flops/cycle' },
    'cpu.memBandwidth': { value: '3GB/s', help: 'memory bandwidth per core', source: 'assumed' },
    ...hostParams({ sockets: 1, socketCrossing: '0ns', socketSource: 'assumed: one Opteron socket per XT4 node', noise: 'none', coreSpec: 'no', noiseSource: 'assumed: a quiet machine, as the seed figures are quoted' }),
    ...fidelityParams(),
    // --- MPI (approximate)
    'mpi.eagerMaxBytes': { value: '128KiB', help: 'largest eager message', source: 'assumed: Portals MPI eager limit' },
    'mpi.asyncProgress': { value: 'no', help: 'rendezvous transfers and nonblocking collectives progress while the rank computes, in a progress thread (yes), or only inside its MPI calls (no)', source: 'seed 001 "Cray XC Network Software Stack": matching progresses in each call, large messages optionally by a progress thread (off by default, assumed)' },
    'mpi.collectiveEngine': { value: 'no', help: 'allreduce and barrier of one item run on the NIC\'s collective engine without being asked (yes), or only when the program or --coll names it (no)', source: 'Cray MPT: DMAPP-optimised collectives (the Aries collective engine) only with MPICH_USE_DMAPP_COLL set; off by default' },
    'mpi.nodeAwareCollectives': { value: 'yes', help: 'allreduce and barrier combine within each node over shared memory, then across the node leaders (yes), or run flat over all ranks (no)', source: 'MPICH 3.x CVARs MPIR_CVAR_ENABLE_SMP_COLLECTIVES and MPIR_CVAR_ENABLE_SMP_ALLREDUCE, on by default in the MPICH that Cray MPT is built on' },
    ...collSelectorParam('cray', `the XT4 ran Cray MPT (MPICH-based): Cray MPT's rules (MPICH's, with the MPICH_* defaults of its intro_mpi page; selector-cray.ts)`),
    'mpi.sendOverhead': { value: '1.5us', help: 'CPU time of a send call', source: 'assumed' },
    'mpi.recvOverhead': { value: '1.5us', help: 'CPU time to match and complete a receive', source: 'assumed' },
    'mpi.copyBandwidth': { value: '3GB/s', help: 'memcpy bandwidth', source: 'assumed' },
    'mpi.testOverhead': { value: '100ns', help: 'CPU time of a test/poll call', source: 'assumed' },
    ...mpiCostParams({ ...NO_EXTRA_MPI_COST, packBlock: packBlockCost(2.1, 'the 2.1 GHz Opteron\'s clock (cpu.gflops)') }),
    'mpi.shmLatency': { value: '500ns', help: 'on-node path latency', source: 'assumed' },
    'mpi.shmBandwidth': { value: '3GB/s', help: 'on-node path bandwidth', source: 'assumed' },
    'mpi.railThreshold': { value: 0, help: 'rendezvous messages of this size and more are pulled over mpi.rails independent paths (0: never)', source: 'assumed: the library sends every message as one stream' },
    'mpi.rails': { value: 1, help: 'streams of a multi-rail message, each on its own path', source: 'assumed: one stream' },
    'mpi.maxAttach': { value: 65536, help: 'regions one rank may have attached to one dynamic window at once (MPI_Win_attach past it fails with MPI_ERR_RMA_ATTACH)', source: 'assumed: MPICH keeps no fixed limit (its dynamic windows list regions without a cap) and nothing published gives Cray MPT\'s; Open MPI\'s osc/rdma takes 64 by default (osc_rdma_max_attach)' },
    'dmapp.bteThreshold': { value: '4KiB', help: 'puts and gets above this use the DMA engine', source: 'assumed' },
    'dmapp.overhead': { value: '100ns', help: 'CPU time of the library in each one-sided call', source: 'assumed' },
    'dmapp.vmdh': { value: 'no', help: 'one virtual MDH on every node', source: 'no vMDH on SeaStar' },
    'dmapp.heapPage': { value: '4KiB', help: 'page size of the symmetric heap', source: 'assumed' },
    'dmapp.symmetricSize': { value: '512MiB', help: 'bound of each PE\'s symmetric heap (SHMEM_SYMMETRIC_SIZE): a malloc past it gives null, a shpalloc errcode -2', source: 'assumed: the default of SHMEM_SYMMETRIC_SIZE in Sandia OpenSHMEM (src/shmem_env_defs.h: 512 MiB)' },
  },
};
