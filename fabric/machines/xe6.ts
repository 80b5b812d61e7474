import { collSelectorParam } from './coll-selector.ts';
import { mpiCostParams, NO_EXTRA_MPI_COST, packBlockCost } from './mpi-costs.ts';
import { fidelityParams } from './fidelity.ts';
import { hostParams } from './host.ts';
import { faultParams } from './fault-params.ts';
import { linkErrorParams } from './link-error-params.ts';
import { nodeFaultParams } from './node-fault-params.ts';
import type { MachineSpec } from './spec.ts';

const S = 'seed 004';

/**
 * Cray XE6 with the Gemini interconnect (seed 004_c566599512f7712a.txt). Parameters the paper
 * gives carry its section; the rest are marked "assumed" with the reason for the value, most of
 * them calibrated so that the quiet-network latencies of §V.A come out as the paper measures.
 */
export const xe6: MachineSpec = {
  name: 'xe6',
  title: 'Cray XE6 (Gemini 3-D torus)',
  seed: '004_c566599512f7712a.txt',
  params: {
    // --- topology
    'topology.kind': { value: 'torus', help: 'topology builder', source: `${S} §I: 3-D torus` },
    'torus.dims': { value: 'auto', help: 'Geminis along x,y,z ("auto": near-cubic for --nodes)', source: 'assumed: sized to the run' },
    'torus.links': { value: '8,4,8', help: 'parallel links per direction in x,y,z', source: `${S} §I: 10 torus connections of 4 links, 4 in x and z, 2 in y` },
    'torus.wrap': { value: 'true,true,true', help: 'torus (true) or mesh (false) per dimension', source: `${S} §I: 3-D torus` },
    'torus.nodesPerRouter': { value: 2, help: 'nodes (NICs) per Gemini', source: `${S} §I: two NICs per Gemini` },
    'torus.brokenLinks': { value: 'none', help: 'broken links, e.g. "x+@1.2.3" (direction @ router coordinates); needs routing.algorithm=table', source: 'assumed: the SeaStar fault rules of seed 000 (S9); Gemini routing tables are not described in seed 004' },
    'routing.algorithm': { value: 'dor', help: 'routing function (torus: dor, table)', source: `${S} §III: adaptive over parallel links; dimension order assumed` },
    // --- router and links
    'router.latency': { value: '90ns', help: 'head arrival to output eligibility in a Gemini', source: 'assumed: with link.latency gives the 105 ns per hop of §V.A' },
    'router.inputBuffer': { value: 256, help: 'input buffer per port per VC (phits)', source: `assumed: §III "deep enough to account for credit round-trip latency and the maximum packet size"` },
    'router.queues': { value: 'fifo', help: 'queues per input port and VC: fifo (one; only its head is routed) or voq (one per output: a packet waits only behind packets for the same output)', source: 'assumed' },
    'link.lanes': { value: 3, help: 'lanes per link', source: `${S} §IV: 4 groups of 3 lanes per torus connection` },
    'link.laneRate': { value: '6.25Gb/s', help: 'SerDes rate per lane', source: `${S} §V: SerDes 3.125 to 6.25 GHz (XE6 runs 6.25)` },
    'link.phitBits': { value: 24, help: 'bits per phit', source: `${S} §III: 24-bit phits` },
    'link.latency': { value: '15ns', help: 'wire and SerDes latency of a link', source: 'assumed: with router.latency gives 105 ns per hop (§V.A)' },
    'link.efficiency': { value: 1, help: 'link-layer payload efficiency per phit', source: 'assumed: Gemini overheads are counted per packet (link.overheadPhits)' },
    'link.overheadPhits': { value: 2, help: 'link-layer phits per packet (CRC, sideband, ack)', source: `assumed: makes a 64-byte write 64/(34x3 B) = 63 % efficient, §V.A` },
    ...faultParams({
      lanes: 'a Gemini link is a group of 3 lanes: a failed lane\'s data is shunted to the other 2 of its group, so the link runs at (3 - lost) / 3 of its bandwidth',
      lanesSource: `${S} §IV: the failure of a single lane is tolerated by shunting its data to the remaining 2 lanes in the group`,
      quiescePause: '10ms',
      quiesceSource: `${S} §IV: the management software quiesces the network, computes new routing tables and re-enables it; the pause is assumed`,
    }),
    ...linkErrorParams({
      berSource: 'phit: errors off by default; the seed gives no measured rate',
      retry: { value: 'go-back-n', source: `${S} §IV: links deliver reliably with a sliding window protocol; the receiving link checks the CRC as a packet arrives and the sending link retransmits on an error` },
      nackDelay: { value: '100ns', source: 'estimate: the seed gives no figure; about two full packets (43 ns each) for the CRC check and the NACK\'s slot in the reverse stream' },
      sendBuffer: { value: 256, source: `estimate: ${S} §IV: a send buffer of sufficient size to cover the round trip; size not given` },
      controlPacket: { value: '0B', source: `${S} §IV: the error returns in the link's reverse stream` },
      resumePhits: { value: 0, source: 'go-back-n: the replay follows the NACK at once' },
      crcBits: { value: 16, source: `${S} §IV: a 16-bit packet CRC` },
      crcBlock: { value: '96B', source: `${S} §IV: it protects up to 64 bytes of data and the headers, 768 bits at most` },
      crcDistance: { value: 4, source: 'estimate: a 16-bit CRC such as CCITT\'s catches any 3 bit errors in up to 32,751 bits' },
    }),
    'netlink.tiles': { value: 8, help: 'router processor tiles the NICs inject through', source: `${S} §I: 8 tiles for the NICs` },
    'netlink.clock': { value: '800MHz', help: 'processor tile clock: one phit per cycle per tile', source: `${S} §V: router at 800 MHz; §V.A: one 64-byte (32-phit) packet per tile every 32 cycles` },
    'netlink.latency': { value: '5ns', help: 'NIC to router (and back) latency', source: 'assumed' },
    // --- packet format
    'packet.requestHeaderPhits': { value: 7, help: 'write request header', source: `${S} §III` },
    'packet.eopPhits': { value: 1, help: 'end-of-packet phit', source: `${S} §III` },
    'packet.dataGroupBytes': { value: 8, help: 'payload group size', source: `${S} §III: 3 phits per 8 bytes` },
    'packet.dataGroupPhits': { value: 3, help: 'phits per payload group', source: `${S} §III` },
    'packet.responsePhits': { value: 2, help: 'response packet', source: `${S} §III` },
    'packet.errorResponsePhits': { value: 3, help: 'response packet on error', source: `${S} §III` },
    'packet.readRequestPhits': { value: 8, help: 'get request (7 header + EOP)', source: `${S} §III` },
    'packet.readResponseHeaderPhits': { value: 2, help: 'get response header', source: `${S} §III: 27 = 2 + 24 + 1` },
    'packet.maxPayload': { value: '64B', help: 'largest payload per packet', source: `${S} §II.B: up to 64 bytes per put` },
    // --- NIC
    'nic.clock': { value: '650MHz', help: 'NIC clock', source: `${S} §V` },
    'nic.packetCycles': { value: 5, help: 'NIC cycles per 64-byte packet, each direction', source: `${S} §V.A: 64 B every 5 cycles = 8.3 GB/s` },
    'nic.outLatencyCycles': { value: 20, help: 'NIC output pipeline latency', source: 'assumed: calibrates the put latency of §V.A' },
    'nic.inLatencyCycles': { value: 20, help: 'NIC input pipeline latency', source: 'assumed: calibrates the put latency of §V.A' },
    'nic.receiveBuffer': { value: 256, help: 'NIC receive buffer per VC (phits)', source: 'assumed' },
    'nic.maxOutstandingPackets': { value: 1024, help: 'request packets awaiting responses', source: 'assumed: the Aries figure of seed 001' },
    'nic.cqEventBytes': { value: '16B', help: 'completion-queue event size', source: 'assumed' },
    'nic.smsgHeader': { value: '32B', help: 'short-message (mailbox) header', source: 'assumed' },
    'nic.smsgWindow': { value: 0, help: 'packets of one short message in flight before an acknowledgement (0: no limit)', source: 'assumed: the packets of a short message stream' },
    'nic.smsgAckDelay': { value: '0ns', help: 'time from a short-message packet landing to its acknowledgement leaving (the receiver taking it off its queue)', source: 'assumed: the NIC acknowledges at once' },
    ...nodeFaultParams({ value: '1ms', source: 'assumed: 1 ms, as on Aries (seed 001 "Reliability": the initiating NIC times out the transaction), no value in this machine\'s seed' }),
    'host.bandwidth': { value: '9.6GB/s', help: 'host interface (HyperTransport 3) bandwidth per direction', source: `${S} §V.A: 16 bits, double data rate at 2400 MHz (§V: 1600-2600 MHz)` },
    'host.latency': { value: '120ns', help: 'host <-> NIC one-way latency', source: 'assumed: calibrates the put latency of §V.A' },
    'host.writeOverhead': { value: '12B', help: 'overhead per posted write', source: `${S} §V.A: 12 bytes per 64-byte FMA put; BTE 76-byte write` },
    'host.readRequest': { value: '12B', help: 'host read request size', source: `${S} §V.A: BTE 12-byte read request` },
    'host.memoryReadLatency': { value: '80ns', help: 'host memory access for a NIC read', source: 'assumed: get latency under 1.5 us, §V.A' },
    'fma.issue': { value: '10ns', help: 'CPU time per FMA store (64-byte put or get word)', source: 'assumed: one process below the 8 GB/s HT limit, §V.A Fig. 8' },
    'bte.issue': { value: '300ns', help: 'CPU time to post a BTE descriptor', source: 'assumed' },
    'bte.readsInFlight': { value: 64, help: 'host reads a BTE put keeps in flight', source: 'assumed: enough to cover the host read round trip at full rate' },
    'bte.startup': { value: '700ns', help: 'BTE descriptor to first read', source: `assumed: §II.C "BTE transfers take longer to start"` },
    'fma.present': { value: 'yes', help: 'the NIC has FMA windows (PIO puts, gets, AMOs)', source: `${S} §II.B` },
    'fma.descriptors': { value: 127, help: 'FMA descriptors per NIC', source: 'assumed: as Aries (seed 001 A14)' },
    'fma.op': { value: '10ns', help: 'FMA unit time per operation', source: 'assumed' },
    'fma.mdhChange': { value: '5ns', help: 'extra FMA unit time when the MDH changes between operations', source: 'assumed' },
    'bte.channels': { value: 4, help: 'block transfers the BTE runs at once', source: 'assumed: as Aries (seed 001 A14)' },
    'bte.getBandwidth': { value: '4.2GB/s', help: 'data rate one BTE channel asks for on a block-transfer get ("nic": as fast as the NIC pipelines)', source: 'concurrent gets still share the host interface\'s 8 GB/s (seed 004 §V.A, G6) and puts keep the NIC rate (G7, G10); §V.A\'s "5 GB/s or more" for one MPI message is a design claim Hopper\'s measurements do not bear out. Fitted: one MPI message each way at a time (a rendezvous pulls with one get) gives the 8.3 GB/s both ways Worley measured on Hopper (MPICH ticket pmodels/mpich#1534, record hopper-worley-pingping); held out: Kerbyson et al.\'s 3.6 GB/s ping-pong (hopper-kerbyson-pt2pt-bw-large)' },
    'host.readsInFlight': { value: 128, help: 'host-memory reads the NIC keeps in flight', source: 'assumed' },
    'amo.op': { value: '10ns', help: 'AMO unit time per operation', source: `${S} §V: 100 million AMOs/s with cache reuse (G11)` },
    'amo.cacheEntries': { value: 64, help: 'AMO cache entries', source: `assumed size; ${S} §II.E: Gemini maintains an AMO cache` },
    'amo.fill': { value: '20ns', help: 'AMO unit time to bring in a variable that missed the cache', source: 'assumed: over 45 million random AMOs/s (G11)' },
    'iommu.pteEntries': { value: 0, help: 'IOMMU PTE cache entries (0: no IOMMU modelled)', source: 'assumed: Gemini\'s memory relocation table is not modelled' },
    'iommu.ways': { value: 4, help: 'PTE cache associativity', source: 'unused' },
    'iommu.ptesPerEntry': { value: 8, help: 'PTEs per PTE cache entry', source: 'unused' },
    'ce.present': { value: 'no', help: 'the NIC has a collective engine (reduction and barrier offload)', source: `${S} describes no collective offload in Gemini` },
    'ce.engines': { value: 0, help: 'virtual CEs per NIC, each with its own tree and one collective pending', source: 'no collective engine' },
    'ce.radix': { value: 0, help: 'largest branching ratio of a reduction tree', source: 'no collective engine' },
    'ce.op': { value: '0ns', help: 'CE combining-unit time per child input', source: 'no collective engine' },
    // --- processor
    'cpu.gflops': { value: 8.8, help: 'flop rate per core (GFlop/s)', source: 'assumed: 2.2 GHz Opteron, 4 flops/cycle' },
    'cpu.memBandwidth': { value: '5GB/s', help: 'memory bandwidth per core', source: 'assumed' },
    ...hostParams({ sockets: 2, socketCrossing: '100ns', socketSource: 'assumed: two Opteron sockets per node, Gemini on one HyperTransport link', noise: 'none', coreSpec: 'no', noiseSource: 'assumed: a quiet machine, as the seed figures are quoted' }),
    ...fidelityParams(),
    // --- MPI
    'mpi.eagerMaxBytes': { value: '8KiB', help: 'largest eager message; rendezvous above', source: 'assumed: Cray MPT default on Gemini' },
    'mpi.asyncProgress': { value: 'no', help: 'rendezvous transfers and nonblocking collectives progress while the rank computes, in a progress thread (yes), or only inside its MPI calls (no)', source: 'seed 001 "Cray XC Network Software Stack": matching progresses in each call, large messages optionally by a progress thread (off by default, assumed)' },
    'mpi.collectiveEngine': { value: 'no', help: 'allreduce and barrier of one item run on the NIC\'s collective engine without being asked (yes), or only when the program or --coll names it (no)', source: 'Cray MPT: DMAPP-optimised collectives (the Aries collective engine) only with MPICH_USE_DMAPP_COLL set; off by default' },
    'mpi.nodeAwareCollectives': { value: 'yes', help: 'allreduce and barrier combine within each node over shared memory, then across the node leaders (yes), or run flat over all ranks (no)', source: 'MPICH 3.x CVARs MPIR_CVAR_ENABLE_SMP_COLLECTIVES and MPIR_CVAR_ENABLE_SMP_ALLREDUCE, on by default in the MPICH that Cray MPT is built on' },
    ...collSelectorParam('cray', `the XE6 ran Cray MPT (MPICH-based): Cray MPT's rules (MPICH's, with the MPICH_* defaults of its intro_mpi page; selector-cray.ts)`),
    'mpi.sendOverhead': { value: '400ns', help: 'CPU time of a send call', source: 'assumed: small-message latency of §V.A (1.5 us or less)' },
    'mpi.recvOverhead': { value: '400ns', help: 'CPU time to match and complete a receive', source: 'assumed: small-message latency of §V.A' },
    'mpi.copyBandwidth': { value: '5GB/s', help: 'memcpy bandwidth for eager copies', source: 'assumed' },
    'mpi.testOverhead': { value: '50ns', help: 'CPU time of a test/poll call', source: 'assumed' },
    ...mpiCostParams({ ...NO_EXTRA_MPI_COST, packBlock: packBlockCost(2.2, 'the 2.2 GHz Opteron\'s clock (cpu.gflops)') }),
    'mpi.shmLatency': { value: '350ns', help: 'latency of the on-node (shared memory) path', source: 'assumed' },
    'mpi.shmBandwidth': { value: '4GB/s', help: 'bandwidth of the on-node path', source: 'assumed' },
    'mpi.railThreshold': { value: 0, help: 'rendezvous messages of this size and more are pulled over mpi.rails independent paths (0: never)', source: 'assumed: the library sends every message as one stream' },
    'mpi.rails': { value: 1, help: 'streams of a multi-rail message, each on its own path', source: 'assumed: one stream' },
    'mpi.maxAttach': { value: 65536, help: 'regions one rank may have attached to one dynamic window at once (MPI_Win_attach past it fails with MPI_ERR_RMA_ATTACH)', source: 'assumed: MPICH keeps no fixed limit (its dynamic windows list regions without a cap) and nothing published gives Cray MPT\'s; Open MPI\'s osc/rdma takes 64 by default (osc_rdma_max_attach)' },
    // --- DMAPP
    'dmapp.bteThreshold': { value: '4KiB', help: 'puts and gets above this use the BTE', source: 'assumed: §II.C FMA small, BTE large' },
    'dmapp.overhead': { value: '50ns', help: 'CPU time of the library in each DMAPP/SHMEM call', source: 'assumed' },
    'dmapp.vmdh': { value: 'no', help: 'the symmetric heap uses one virtual MDH on every node', source: `${S}: vMDH is an Aries addition (seed 001)` },
    'dmapp.heapPage': { value: '2MiB', help: 'page size of the symmetric heap', source: 'assumed: large pages' },
    'dmapp.symmetricSize': { value: '512MiB', help: 'bound of each PE\'s symmetric heap (SHMEM_SYMMETRIC_SIZE): a malloc past it gives null, a shpalloc errcode -2', source: 'assumed: the default of SHMEM_SYMMETRIC_SIZE in Sandia OpenSHMEM (src/shmem_env_defs.h: 512 MiB)' },
  },
};
