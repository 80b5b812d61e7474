import { collSelectorParam } from './coll-selector.ts';
import { mpiCostParams, NO_EXTRA_MPI_COST, packBlockCost } from './mpi-costs.ts';
import { fidelityParams } from './fidelity.ts';
import { hostParams } from './host.ts';
import { faultParams } from './fault-params.ts';
import { linkErrorParams } from './link-error-params.ts';
import { nodeFaultParams } from './node-fault-params.ts';
import type { MachineSpec } from './spec.ts';

const S = 'seed 002';

/**
 * SiCortex SC5832 with its Kautz fabric (seed 002_d5d3150c0192c56e.txt). The fabric follows the
 * paper; the DMA engine (NIC), host and MPI figures are first approximations (marked assumed)
 * that the MPI calibration refines.
 */
export const sc5832: MachineSpec = {
  name: 'sc5832',
  title: 'SiCortex SC5832 (Kautz digraph)',
  seed: '002_d5d3150c0192c56e.txt',
  params: {
    // --- topology
    'topology.kind': { value: 'kautz', help: 'topology builder', source: `${S} §5: Kautz digraph` },
    'kautz.degree': { value: 3, help: 'out-links (and in-links) per node', source: `${S} §1: three input and three output ports (K2)` },
    'kautz.diameter': { value: 'auto', help: 'label length k ("auto": the smallest graph holding --nodes; 6 gives the 972-node SC5832)', source: `${S} §1: diameter 6 for 972 nodes (K2)` },
    'routing.algorithm': { value: 'shortest', help: 'routing function (kautz: shortest, multipath)', source: `${S} §4: source routing, in-order delivery (K6); multipath: the d independent routes (K10)` },
    // --- switch and links
    'router.latency': { value: '20ns', help: 'cut-through latency of the node switch', source: 'assumed: a few 200 MHz switch cycles (K4: 50 ns of rate matching would be 20 % of a 5-hop path)' },
    'router.inputBuffer': { value: 36, help: 'buffer per input port and VC (phits); with voq on source routes, per input port, VC and output (a crosspoint buffer\'s share)', source: `${S} §4: crosspoint buffers of 16 packets per input and output, at least one entry per VC (K5); assumed: split evenly over the 8 VCs (2 classes x 4), two 18-word packets each` },
    'router.queues': { value: 'voq', help: 'queues per input port and VC: fifo (one; only its head is routed) or voq (one per output: a packet waits only behind packets for the same output)', source: `${S} §4: crosspoint buffers hold packets per input and output port (K5); the switch upstream reads a packet's next output off its source route and holds credits per crosspoint buffer (§3.2, buffer allocation fields)` },
    'link.phitBits': { value: 64, help: 'bits per phit (one 64-bit word)', source: `${S} §3: packets are counted in 64-bit words` },
    'link.lanes': { value: 8, help: 'data lanes per link', source: `${S} §3: 8 data lanes and a reverse control lane (K3)` },
    'link.laneRate': { value: '2Gb/s', help: 'serial rate per lane', source: `${S} §3: 2 Gb/s per lane (K3)` },
    'link.efficiency': { value: 0.8, help: 'payload efficiency of the line code', source: `${S} §3: 8b/10b coding (K3)` },
    'link.latency': { value: '10ns', help: 'wire and SerDes latency', source: 'assumed' },
    'link.overheadPhits': { value: 0, help: 'link-layer words per packet', source: `${S} §3: header and trailer are counted in the packet format` },
    ...faultParams({
      lanes: 'a link of 8 data lanes loses width: (8 - lost) / 8 of its bandwidth',
      lanesSource: `assumed: 8 data lanes (${S} §3, K3) degrade in width`,
      quiescePause: '10ms',
      quiesceSource: `assumed: ${S} gives no reroute time`,
    }),
    ...linkErrorParams({
      berSource: `phit: errors off by default; ${S} §6.3: isolated bit errors so rare that the rate is far below 1e-18`,
      retry: { value: 'per-hop', source: `${S} §3.1, §4.3: the receiver flags a bad CRC in its next control packet and drops data until the sender acknowledges; the sender replays from the packet after the last good sequence number` },
      nackDelay: { value: '5ns', source: `estimate: one 200 MHz switch clock to compare the CRC when the trailer arrives (${S} §4.3)` },
      sendBuffer: { value: 320, source: `${S} §3.2: sequence numbers 0-15 are not reused until acknowledged: 16 packets of at most 20 words` },
      controlPacket: { value: '15B', source: `${S} §3.3: control packets are fifteen bytes, ending with four bytes of CRC (K8)` },
      resumePhits: { value: 2, source: `estimate: ${S} §4.3 names "a special short data packet": a header and a trailer word` },
      crcBits: { value: 32, source: `${S} §3.2: each packet ends with a 32-bit CRC` },
      crcBlock: { value: '160B', source: `${S} §3.2: a packet of at most 20 words (header, 2 to 18 payload words, trailer)` },
      crcDistance: { value: 5, source: 'estimate: the seed names no polynomial; the IEEE CRC-32 catches any 4 bit errors in up to 2,974 bits' },
    }),
    'netlink.tiles': { value: 1, help: 'injection channels of the DMA engine', source: 'assumed' },
    'netlink.clock': { value: '250MHz', help: 'injection channel: one word per cycle', source: 'assumed: 2 GB/s into the switch' },
    'netlink.latency': { value: '5ns', help: 'DMA engine to switch latency', source: 'assumed' },
    // --- packet format
    'packet.requestHeaderPhits': { value: 1, help: 'header word', source: `${S} §3: a 64-bit header` },
    'packet.eopPhits': { value: 1, help: 'trailer word (CRC, type)', source: `${S} §3: trailer with end marker and 32-bit CRC` },
    'packet.dataGroupBytes': { value: 8, help: 'payload bytes per word', source: `${S} §3: payload in 64-bit words` },
    'packet.dataGroupPhits': { value: 1, help: 'phits per payload word', source: `${S} §3` },
    'packet.responsePhits': { value: 2, help: 'acknowledgement packet', source: 'assumed: header and trailer' },
    'packet.errorResponsePhits': { value: 2, help: 'acknowledgement on error', source: 'assumed' },
    'packet.readRequestPhits': { value: 3, help: 'get request', source: 'assumed: header, address word, trailer' },
    'packet.readResponseHeaderPhits': { value: 1, help: 'get response header', source: 'assumed' },
    'packet.maxPayload': { value: '128B', help: 'largest payload per packet', source: `${S} §6.1: payload up to 128 B per packet (K12)` },
    // --- DMA engine (NIC), approximate until the calibration
    'nic.clock': { value: '250MHz', help: 'DMA engine clock', source: 'assumed' },
    'nic.packetCycles': { value: 23, help: 'DMA engine cycles per full (128-byte) packet', source: `assumed: 128 B every 92 ns = 1.4 GB/s, the DMA limit of ${S} §6.1 (K11)` },
    'nic.outLatencyCycles': { value: 25, help: 'DMA engine output latency', source: 'assumed' },
    'nic.inLatencyCycles': { value: 25, help: 'DMA engine input latency', source: 'assumed' },
    'nic.receiveBuffer': { value: 288, help: 'receive buffer per VC (phits)', source: 'assumed' },
    'nic.maxOutstandingPackets': { value: 1024, help: 'packets awaiting acknowledgement', source: 'assumed' },
    'nic.cqEventBytes': { value: '16B', help: 'completion event size', source: 'assumed' },
    'nic.smsgHeader': { value: '32B', help: 'message header', source: 'assumed' },
    'nic.smsgWindow': { value: 1, help: 'packets of one short message in flight before an acknowledgement (0: no limit)', source: `assumed: ${S} §6.1 reads the eager curve as a round trip per packet, the cost per packet constant (K12)` },
    'nic.smsgAckDelay': { value: '700ns', help: 'time from a short-message packet landing to its acknowledgement leaving (the receiver taking it off its queue)', source: `assumed: fitted to ${S} §6.1 under load (K12): t_ohd about 3 us per eager packet at 512 B and 1 KiB, and 4 KiB almost twice the 1 KiB rate; the seed gives no figure for the receiver's time per packet` },
    ...nodeFaultParams({ value: '1ms', source: 'assumed: 1 ms, as on Aries (seed 001 "Reliability": the initiating NIC times out the transaction), no value in this machine\'s seed' }),
    'host.bandwidth': { value: '6.4GB/s', help: 'node memory to DMA engine bandwidth', source: 'assumed: on-chip DMA engine' },
    'host.latency': { value: '60ns', help: 'processor <-> DMA engine latency', source: 'assumed: on-chip' },
    'host.writeOverhead': { value: '8B', help: 'overhead per memory write', source: 'assumed' },
    'host.readRequest': { value: '8B', help: 'memory read request size', source: 'assumed' },
    'host.memoryReadLatency': { value: '100ns', help: 'memory access for a DMA read', source: 'assumed' },
    'fma.issue': { value: '20ns', help: 'CPU time per programmed packet', source: 'assumed' },
    'bte.issue': { value: '500ns', help: 'CPU time to start a DMA transfer', source: 'assumed' },
    'bte.startup': { value: '1us', help: 'DMA descriptor to first read', source: 'assumed' },
    'bte.readsInFlight': { value: 32, help: 'memory reads the DMA engine keeps in flight', source: 'assumed' },
    'fma.present': { value: 'yes', help: 'programmed (PIO) packets to the DMA engine', source: 'assumed' },
    'fma.descriptors': { value: 127, help: 'command queues per node', source: 'assumed' },
    'fma.op': { value: '20ns', help: 'time per programmed operation', source: 'assumed' },
    'fma.mdhChange': { value: '0ns', help: 'extra time when the memory handle changes', source: 'assumed' },
    'bte.channels': { value: 3, help: 'block transfers the DMA engine runs at once', source: `assumed: ${S} §6.1 streams large messages over three paths` },
    'bte.getBandwidth': { value: 'nic', help: 'data rate one DMA channel asks for on a DMA get ("nic": as fast as the DMA engine\'s pipelines)', source: 'assumed: the engine clock already sets the DMA limit (K11)' },
    'host.readsInFlight': { value: 32, help: 'memory reads the DMA engine keeps in flight', source: 'assumed' },
    'amo.op': { value: '20ns', help: 'time per atomic operation', source: 'assumed' },
    'amo.cacheEntries': { value: 0, help: 'AMO cache entries', source: 'no AMO cache on SiCortex' },
    'amo.fill': { value: '0ns', help: 'time to bring in a variable (no cache: every AMO reads memory)', source: 'assumed' },
    'iommu.pteEntries': { value: 0, help: 'IOMMU PTE cache entries (0: no IOMMU modelled)', source: 'assumed' },
    'iommu.ways': { value: 4, help: 'PTE cache associativity', source: 'unused' },
    'iommu.ptesPerEntry': { value: 8, help: 'PTEs per PTE cache entry', source: 'unused' },
    'ce.present': { value: 'no', help: 'the NIC has a collective engine (reduction and barrier offload)', source: `${S} describes no collective offload in the SiCortex fabric` },
    'ce.engines': { value: 0, help: 'virtual CEs per NIC, each with its own tree and one collective pending', source: 'no collective engine' },
    'ce.radix': { value: 0, help: 'largest branching ratio of a reduction tree', source: 'no collective engine' },
    'ce.op': { value: '0ns', help: 'CE combining-unit time per child input', source: 'no collective engine' },
    // --- processor
    'cpu.gflops': { value: 1, help: 'flop rate per core (GFlop/s)', source: 'assumed: 500 MHz 64-bit MIPS, 2 flops/cycle' },
    'cpu.memBandwidth': { value: '1GB/s', help: 'memory bandwidth per core', source: 'assumed' },
    ...hostParams({ sockets: 1, socketCrossing: '0ns', socketSource: 'seed 002: one six-core chip per node', noise: 'none', coreSpec: 'no', noiseSource: 'assumed: a quiet machine, as the seed figures are quoted' }),
    ...fidelityParams(),
    // --- MPI (approximate until the MPI calibration)
    'mpi.eagerMaxBytes': { value: '1KiB', help: 'largest eager message; rendezvous above', source: `${S} §6.1: eager up to 1024 bytes (K12)` },
    'mpi.asyncProgress': { value: 'no', help: 'rendezvous transfers and nonblocking collectives progress while the rank computes, in a progress thread (yes), or only inside its MPI calls (no)', source: 'seed 001 "Cray XC Network Software Stack": matching progresses in each call, large messages optionally by a progress thread (off by default, assumed)' },
    'mpi.collectiveEngine': { value: 'no', help: 'allreduce and barrier of one item run on the NIC\'s collective engine without being asked (yes), or only when the program or --coll names it (no)', source: 'Cray MPT: DMAPP-optimised collectives (the Aries collective engine) only with MPICH_USE_DMAPP_COLL set; off by default' },
    'mpi.nodeAwareCollectives': { value: 'no', help: 'allreduce and barrier combine within each node over shared memory, then across the node leaders (yes), or run flat over all ranks (no)', source: 'assumed: the seed figures were checked with flat algorithms; what the MPI of this machine did is not documented here' },
    ...collSelectorParam('mpich', `seed 002 §6.2 "The SC5832 MPI library, based on MPICH": MPICH's rules`),
    'mpi.sendOverhead': { value: '1us', help: 'CPU time of a send call', source: 'assumed' },
    'mpi.recvOverhead': { value: '1us', help: 'CPU time to match and complete a receive', source: 'assumed' },
    'mpi.copyBandwidth': { value: '1GB/s', help: 'memcpy bandwidth for eager copies', source: 'assumed' },
    'mpi.testOverhead': { value: '100ns', help: 'CPU time of a test/poll call', source: 'assumed' },
    ...mpiCostParams({ ...NO_EXTRA_MPI_COST, packBlock: packBlockCost(0.5, 'the 500 MHz MIPS core\'s clock (cpu.gflops)') }),
    'mpi.shmLatency': { value: '1us', help: 'latency of the on-node path', source: 'assumed' },
    'mpi.shmBandwidth': { value: '1GB/s', help: 'bandwidth of the on-node path', source: 'assumed' },
    'mpi.railThreshold': { value: '128KiB', help: 'rendezvous messages of this size and more are pulled over mpi.rails independent paths (0: never)', source: `${S} §6.1: messages over 128K go multi-rail; the drop of Figure 5 is already at 128 KB (K13, K15)` },
    'mpi.rails': { value: 3, help: 'streams of a multi-rail message, each on its own path (first hop)', source: `${S} §6.1: three separate streams over completely independent paths (K15)` },
    'mpi.maxAttach': { value: 65536, help: 'regions one rank may have attached to one dynamic window at once (MPI_Win_attach past it fails with MPI_ERR_RMA_ATTACH)', source: 'assumed: MPICH keeps no fixed limit (its dynamic windows list regions without a cap) and nothing published gives Cray MPT\'s; Open MPI\'s osc/rdma takes 64 by default (osc_rdma_max_attach)' },
    'dmapp.bteThreshold': { value: '1KiB', help: 'puts and gets above this use the DMA engine in block mode', source: 'assumed' },
    'dmapp.overhead': { value: '100ns', help: 'CPU time of the library in each one-sided call', source: 'assumed' },
    'dmapp.vmdh': { value: 'no', help: 'one virtual MDH on every node', source: 'assumed' },
    'dmapp.heapPage': { value: '64KiB', help: 'page size of the symmetric heap', source: 'assumed' },
    'dmapp.symmetricSize': { value: '512MiB', help: 'bound of each PE\'s symmetric heap (SHMEM_SYMMETRIC_SIZE): a malloc past it gives null, a shpalloc errcode -2', source: 'assumed: the default of SHMEM_SYMMETRIC_SIZE in Sandia OpenSHMEM (src/shmem_env_defs.h: 512 MiB)' },
  },
};
