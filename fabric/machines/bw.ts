import { collSelectorParam } from './coll-selector.ts';
import { mpiCostParams, NO_EXTRA_MPI_COST, packBlockCost } from './mpi-costs.ts';
import { fidelityParams } from './fidelity.ts';
import { hostParams } from './host.ts';
import { faultParams } from './fault-params.ts';
import { linkErrorParams } from './link-error-params.ts';
import { nodeFaultParams } from './node-fault-params.ts';
import type { MachineSpec } from './spec.ts';

const S = 'seed 003';

/**
 * Cray BlackWidow with its high-radix folded Clos (seed 003_ad7045ffbf8f1bf9.txt). The network
 * (YARC routers, ranks, sidelinks, slices, phits, buffers) follows the paper; `--nodes` counts
 * processors, each a network endpoint with one injection port per slice. The paper describes no
 * NIC or MPI figures: those are first approximations, marked assumed.
 */
export const bw: MachineSpec = {
  name: 'bw',
  title: 'Cray BlackWidow (high-radix folded Clos)',
  seed: '003_ad7045ffbf8f1bf9.txt',
  params: {
    // --- topology
    'topology.kind': { value: 'clos', help: 'topology builder', source: `${S} §2.2: folded Clos with sidelinks` },
    'clos.rank': { value: 'auto', help: 'rank: 1, 1.5, 2, 2.5, 3 or 3.5 ("auto": the smallest that holds --nodes processors)', source: `${S} §2.2: 32, 288, 1,024, 4.5K, 16K and 32K processors (B6)` },
    'clos.slices': { value: 4, help: 'network slices, each a separate network; one injection port per processor per slice', source: `${S} §2.2: four injection ports, one per slice (B5)` },
    'routing.algorithm': { value: 'adaptive', help: 'routing function (clos: adaptive = adaptive upward routing, hash = one hashed path per source and destination)', source: `${S} §1: adaptive and deterministic hash-based routing` },
    // --- router and links
    'router.latency': { value: '31.25ns', help: 'zero-load latency through a YARC', source: `${S} §3: 25 pipeline stages, 31.25 ns (B2)` },
    'router.inputBuffer': { value: 256, help: 'input buffer per port per VC (phits)', source: `${S} §4.2: 256 phits per input buffer (B3)` },
    'router.queues': { value: 'voq', help: 'queues per input port and VC: fifo (one; only its head is routed) or voq (one per output: a packet waits only behind packets for the same output)', source: '003 §3: a packet leaves the input buffer for the row buffer of its output column (8 per input), so it waits only behind packets bound for the same column, not behind the head of the input queue' },
    'link.phitBits': { value: 24, help: 'bits per phit', source: `${S} §4.1: 24-bit phits (B4)` },
    'link.lanes': { value: 3, help: 'lanes per link direction', source: `${S} §2.2: ports three bits wide in each direction (B1)` },
    'link.laneRate': { value: '6.25Gb/s', help: 'lane rate', source: `${S}: 6.25 Gb/s differential signals, 18.75 Gb/s per port (B1)` },
    'link.efficiency': { value: 1, help: 'payload efficiency per phit', source: `${S} §4.1: the data-link layer's sideband bits and EOP phit are counted in the packet format` },
    'link.latency': { value: '10ns', help: 'cable and SerDes latency', source: 'assumed' },
    'link.overheadPhits': { value: 0, help: 'link-layer phits per packet', source: `${S} §4.1: the EOP phit is in packet.eopPhits` },
    ...faultParams({
      lanes: 'a port three lanes wide loses width: (3 - lost) / 3 of its bandwidth',
      lanesSource: `assumed: ports three bits wide (${S} §2.2, B1) degrade in width as Aries links do`,
      quiescePause: '10ms',
      quiesceSource: `assumed: ${S} gives no reroute time`,
    }),
    ...linkErrorParams({
      berSource: 'phit: errors off by default; the seed gives no measured rate',
      retry: { value: 'go-back-n', source: `${S} §4.3: the LCB sends with a sliding window go-back-N protocol, send buffer and retry per packet` },
      nackDelay: { value: '300ns', source: `estimate: the 256-phit input buffers cover the round trip across the channel (${S} §4.2): 256 x 1.28 ns = 328 ns, less the wire both ways` },
      sendBuffer: { value: 512, source: 'estimate: the seed gives no size; covers a full packet and the 320 ns round trip (269 phits)' },
      controlPacket: { value: '0B', source: `${S} §4.3: sequence numbers and acknowledgements ride in 2 sideband bits of every phit` },
      resumePhits: { value: 0, source: 'go-back-n: the replay follows the NACK at once' },
      crcBits: { value: 16, source: `estimate: ${S} §4.1, §4.3: the CRC sits in the 24-bit EOP phit beside its ok field; its width is not given` },
      crcBlock: { value: '57B', source: `${S} §4.3: one CRC per packet; a 32-byte write is 19 24-bit phits (B4)` },
      crcDistance: { value: 4, source: 'estimate: a 16-bit CRC such as CCITT\'s catches any 3 bit errors in up to 32,751 bits' },
    }),
    'netlink.tiles': { value: 4, help: 'injection ports of a processor, one per slice', source: `${S} §2.2: four injection ports (B5)` },
    'netlink.clock': { value: '781.25MHz', help: 'phit rate of one injection port', source: `${S}: 18.75 Gb/s / 24-bit phits (B1)` },
    'netlink.latency': { value: '10ns', help: 'processor to R1 router latency', source: 'assumed: midplane links' },
    // --- packet format (seed 003 §4.1: a 32 B write is 19 phits: 6 header, 12 data, 1 EOP)
    'packet.requestHeaderPhits': { value: 6, help: 'write request header phits', source: `${S} §4.3: 6 header phits (B4)` },
    'packet.eopPhits': { value: 1, help: 'end-of-packet phit', source: `${S} §4.3: 1 EOP phit (B4)` },
    'packet.dataGroupBytes': { value: 8, help: 'payload bytes per group of data phits', source: `${S} §4.3: 32 bytes in 12 data phits (B4)` },
    'packet.dataGroupPhits': { value: 3, help: 'phits per payload group', source: `${S} §4.3 (B4)` },
    'packet.responsePhits': { value: 4, help: 'write response', source: `assumed: the minimum packet of 4 phits (${S} §4.1, B4)` },
    'packet.errorResponsePhits': { value: 4, help: 'response on error', source: 'assumed: a minimum packet' },
    'packet.readRequestPhits': { value: 7, help: 'read request: header and EOP', source: 'assumed: a write request without data' },
    'packet.readResponseHeaderPhits': { value: 3, help: 'read response header phits', source: 'assumed' },
    'packet.maxPayload': { value: '32B', help: 'largest payload per packet (a cache line)', source: `${S} §4.3: 32 B cache-line writes (B4)` },
    // --- processor-network interface (not described in the seed)
    'nic.clock': { value: '800MHz', help: 'network interface clock', source: 'assumed: the YARC clock (B1)' },
    'nic.packetCycles': { value: 4, help: 'interface cycles per full (32-byte) packet', source: 'assumed: 6.4 GB/s, below the four ports' },
    'nic.outLatencyCycles': { value: 20, help: 'interface output latency', source: 'assumed' },
    'nic.inLatencyCycles': { value: 20, help: 'interface input latency', source: 'assumed' },
    'nic.receiveBuffer': { value: 256, help: 'receive buffer per VC (phits)', source: 'assumed: like a router input' },
    'nic.maxOutstandingPackets': { value: 4096, help: 'requests awaiting responses', source: `${S} §2.1: "thousands of outstanding global memory references"` },
    'nic.cqEventBytes': { value: '16B', help: 'completion event size', source: 'assumed' },
    'nic.smsgHeader': { value: '16B', help: 'message header', source: 'assumed' },
    'nic.smsgWindow': { value: 0, help: 'packets of one short message in flight before an acknowledgement (0: no limit)', source: 'assumed: the packets of a short message stream' },
    'nic.smsgAckDelay': { value: '0ns', help: 'time from a short-message packet landing to its acknowledgement leaving (the receiver taking it off its queue)', source: 'assumed: the NIC acknowledges at once' },
    ...nodeFaultParams({ value: '1ms', source: 'assumed: 1 ms, as on Aries (seed 001 "Reliability": the initiating NIC times out the transaction), no value in this machine\'s seed' }),
    'host.bandwidth': { value: '16GB/s', help: 'local memory to network interface bandwidth', source: 'assumed' },
    'host.latency': { value: '100ns', help: 'processor <-> interface latency', source: 'assumed' },
    'host.writeOverhead': { value: '8B', help: 'overhead per memory write', source: 'assumed' },
    'host.readRequest': { value: '8B', help: 'memory read request size', source: 'assumed' },
    'host.memoryReadLatency': { value: '100ns', help: 'memory access for a remote read', source: 'assumed' },
    'fma.issue': { value: '5ns', help: 'processor time per remote store', source: 'assumed: vector global stores' },
    'bte.issue': { value: '300ns', help: 'processor time to start a block transfer', source: 'assumed' },
    'bte.startup': { value: '500ns', help: 'block transfer start-up', source: 'assumed' },
    'bte.readsInFlight': { value: 128, help: 'memory reads a block transfer keeps in flight', source: `assumed: ${S} §2.1, thousands of outstanding references` },
    'fma.present': { value: 'yes', help: 'processor global stores and loads (PIO)', source: `${S} §2.1: vector global memory references` },
    'fma.descriptors': { value: 127, help: 'issue contexts', source: 'assumed' },
    'fma.op': { value: '2ns', help: 'time per global memory reference', source: 'assumed' },
    'fma.mdhChange': { value: '0ns', help: 'extra time when the memory handle changes', source: 'assumed' },
    'bte.channels': { value: 4, help: 'block transfers at once', source: 'assumed' },
    'bte.getBandwidth': { value: 'nic', help: 'data rate one BTE channel asks for on a block-transfer get ("nic": as fast as the interface pipelines)', source: 'assumed' },
    'host.readsInFlight': { value: 512, help: 'memory reads in flight', source: `assumed: ${S} §2.1, thousands of outstanding references` },
    'amo.op': { value: '5ns', help: 'time per atomic operation at the memory', source: 'assumed' },
    'amo.cacheEntries': { value: 0, help: 'AMO cache entries', source: 'assumed: atomics execute at the memory' },
    'amo.fill': { value: '0ns', help: 'time to bring in a variable (no cache)', source: 'assumed' },
    'iommu.pteEntries': { value: 0, help: 'IOMMU PTE cache entries (0: no IOMMU modelled)', source: 'assumed' },
    'iommu.ways': { value: 4, help: 'PTE cache associativity', source: 'unused' },
    'iommu.ptesPerEntry': { value: 8, help: 'PTEs per PTE cache entry', source: 'unused' },
    'ce.present': { value: 'no', help: 'the NIC has a collective engine (reduction and barrier offload)', source: `${S} describes no collective offload in BlackWidow` },
    'ce.engines': { value: 0, help: 'virtual CEs per NIC, each with its own tree and one collective pending', source: 'no collective engine' },
    'ce.radix': { value: 0, help: 'largest branching ratio of a reduction tree', source: 'no collective engine' },
    'ce.op': { value: '0ns', help: 'CE combining-unit time per child input', source: 'no collective engine' },
    // --- processor
    'cpu.gflops': { value: 20, help: 'flop rate per processor (GFlop/s)', source: 'assumed: 8 vector pipes' },
    'cpu.memBandwidth': { value: '20GB/s', help: 'memory bandwidth per processor', source: 'assumed' },
    ...hostParams({ sockets: 1, socketCrossing: '0ns', socketSource: 'assumed: one processor per injection port', noise: 'none', coreSpec: 'no', noiseSource: 'assumed: a quiet machine, as the seed figures are quoted' }),
    ...fidelityParams(),
    // --- MPI (approximate)
    'mpi.eagerMaxBytes': { value: '8KiB', help: 'largest eager message; rendezvous above', source: 'assumed' },
    'mpi.asyncProgress': { value: 'no', help: 'rendezvous transfers and nonblocking collectives progress while the rank computes, in a progress thread (yes), or only inside its MPI calls (no)', source: 'seed 001 "Cray XC Network Software Stack": matching progresses in each call, large messages optionally by a progress thread (off by default, assumed)' },
    'mpi.collectiveEngine': { value: 'no', help: 'allreduce and barrier of one item run on the NIC\'s collective engine without being asked (yes), or only when the program or --coll names it (no)', source: 'Cray MPT: DMAPP-optimised collectives (the Aries collective engine) only with MPICH_USE_DMAPP_COLL set; off by default' },
    'mpi.nodeAwareCollectives': { value: 'no', help: 'allreduce and barrier combine within each node over shared memory, then across the node leaders (yes), or run flat over all ranks (no)', source: 'assumed: the seed figures were checked with flat algorithms; what the MPI of this machine did is not documented here' },
    ...collSelectorParam('cray', `the BlackWidow ran Cray MPT (MPICH-based): Cray MPT's rules (MPICH's, with the MPICH_* defaults of its intro_mpi page; selector-cray.ts)`),
    'mpi.sendOverhead': { value: '500ns', help: 'CPU time of a send call', source: 'assumed' },
    'mpi.recvOverhead': { value: '500ns', help: 'CPU time to match and complete a receive', source: 'assumed' },
    'mpi.copyBandwidth': { value: '8GB/s', help: 'memcpy bandwidth for eager copies', source: 'assumed' },
    'mpi.testOverhead': { value: '50ns', help: 'CPU time of a test/poll call', source: 'assumed' },
    ...mpiCostParams({ ...NO_EXTRA_MPI_COST, packBlock: packBlockCost(2, 'an assumed 2 GHz (the seed gives no processor clock)') }),
    'mpi.shmLatency': { value: '500ns', help: 'latency of the on-node path', source: 'assumed' },
    'mpi.shmBandwidth': { value: '8GB/s', help: 'bandwidth of the on-node path', source: 'assumed' },
    'mpi.railThreshold': { value: 0, help: 'rendezvous messages of this size and more are pulled over mpi.rails independent paths (0: never)', source: 'assumed: the library sends every message as one stream' },
    'mpi.rails': { value: 1, help: 'streams of a multi-rail message, each on its own path', source: 'assumed: one stream' },
    'mpi.maxAttach': { value: 65536, help: 'regions one rank may have attached to one dynamic window at once (MPI_Win_attach past it fails with MPI_ERR_RMA_ATTACH)', source: 'assumed: MPICH keeps no fixed limit (its dynamic windows list regions without a cap) and nothing published gives Cray MPT\'s; Open MPI\'s osc/rdma takes 64 by default (osc_rdma_max_attach)' },
    'dmapp.bteThreshold': { value: '4KiB', help: 'puts and gets above this use block transfers', source: 'assumed' },
    'dmapp.overhead': { value: '50ns', help: 'CPU time of the library in each one-sided call', source: 'assumed' },
    'dmapp.vmdh': { value: 'no', help: 'one virtual MDH on every node', source: 'assumed' },
    'dmapp.heapPage': { value: '64KiB', help: 'page size of the symmetric heap', source: 'assumed' },
    'dmapp.symmetricSize': { value: '512MiB', help: 'bound of each PE\'s symmetric heap (SHMEM_SYMMETRIC_SIZE): a malloc past it gives null, a shpalloc errcode -2', source: 'assumed: the default of SHMEM_SYMMETRIC_SIZE in Sandia OpenSHMEM (src/shmem_env_defs.h: 512 MiB)' },
  },
};
