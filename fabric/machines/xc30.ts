import type { MachineSpec } from './spec.ts';

const S = 'seed 001';

/**
 * Cray XC with the Aries dragonfly (seed 001_68348b17bd328203.txt). The topology and packet
 * format follow the paper; the NIC, host-interface and MPI figures are first approximations
 * (marked assumed) that the NIC calibration refines.
 */
export const xc30: MachineSpec = {
  name: 'xc30',
  title: 'Cray XC (Aries dragonfly)',
  seed: '001_68348b17bd328203.txt',
  params: {
    // --- topology
    'topology.kind': { value: 'dragonfly', help: 'topology builder', source: `${S} "Dragonfly Implementation"` },
    'dragonfly.groups': { value: 'auto', help: 'groups ("auto": as few full groups as hold --nodes)', source: 'assumed: sized to the run' },
    'dragonfly.cablesPerPair': { value: 'max', help: 'optical cables between each pair of groups ("max": floor(cables per group / (groups - 1)))', source: `${S} "Configuration" (A16)` },
    'dragonfly.chassis': { value: 6, help: 'chassis per group (black dimension)', source: `${S}: two-cabinet groups of 6 chassis (A1)` },
    'dragonfly.routersPerChassis': { value: 16, help: 'Aries per chassis (green dimension)', source: `${S}: 16 blades per chassis (A1)` },
    'dragonfly.blackLinks': { value: 3, help: 'links from an Aries to its peer in each other chassis', source: `${S}: "three links from each Aries to its peer" (A3)` },
    'dragonfly.globalPorts': { value: 10, help: 'global ports per Aries', source: `${S}: "Each Aries provides 10 global links" (A3)` },
    'dragonfly.linksPerCable': { value: 4, help: 'global links per optical cable', source: `${S}: links "combined in sets of four"; a 12X AOC carries 4 three-lane links` },
    'dragonfly.nodesPerRouter': { value: 4, help: 'nodes (NICs) per Aries', source: `${S}: four NICs per Aries (A1, A2)` },
    'routing.algorithm': { value: 'adaptive', help: 'routing function (dragonfly: minimal, valiant, adaptive, hash)', source: `${S} "Cray XC Routing": adaptive by default (A10)` },
    'routing.adaptiveBias': { value: 2, help: 'extra cost of a non-minimal candidate (loaded hops); larger favours minimal', source: `assumed: keeps an idle 2- and 6-group network minimal (every route checked) while one node's puts spread over non-minimal paths to 10 GB/s (A23); ${S} "Load metrics can be biased towards minimal"` },
    // --- router and links
    'router.latency': { value: '85ns', help: 'head arrival to output eligibility in an Aries', source: `assumed: with link.latency about 100 ns per hop (A22)` },
    'router.inputBuffer': { value: 256, help: 'input buffer per port per VC (flits)', source: 'assumed' },
    'link.phitBits': { value: 48, help: 'bits per flit', source: `${S} "Aries Performance": 48-bit flits (A8)` },
    'link.lanes': { value: 3, help: 'lanes per electrical link', source: `${S}: links three lanes wide (A4)` },
    'link.laneRate': { value: '14Gb/s', help: 'electrical lane rate', source: `${S}: 14 Gbps per lane, 5.25 GB/s raw (A4)` },
    'link.efficiency': { value: 0.9, help: 'link-layer payload efficiency per flit', source: `${S}: LCB overhead 1 flit in 10 (A8)` },
    'link.latency': { value: '15ns', help: 'wire and SerDes latency of an electrical link', source: 'assumed: about 100 ns per hop with router.latency (A22)' },
    'link.overheadPhits': { value: 0, help: 'link-layer flits per packet', source: `${S}: LCB overhead is per flit (link.efficiency)` },
    'optical.lanes': { value: 3, help: 'lanes per optical (global) link', source: `${S}: a 12-lane AOC carries 4 links` },
    'optical.laneRate': { value: '12.5Gb/s', help: 'optical lane rate', source: `${S}: AOCs at 12.5 Gbps, 18.75 GB/s per cable (A4)` },
    'optical.efficiency': { value: 0.9, help: 'link-layer payload efficiency per flit', source: `${S}: LCB overhead 1 flit in 10 (A8)` },
    'optical.latency': { value: '15ns', help: 'latency of a global link', source: 'assumed: minimal routes within 500 ns (A22)' },
    'optical.overheadPhits': { value: 0, help: 'link-layer flits per packet', source: `${S}: per-flit overhead only` },
    'netlink.tiles': { value: 4, help: 'processor tiles a NIC injects through', source: `${S}: 4 processor tiles shared by NIC0/NIC1 (A2)` },
    'netlink.clock': { value: '875MHz', help: 'processor tile clock: one flit per cycle', source: `${S}: a 48-bit flit per clock at 875 MHz (A5)` },
    'netlink.latency': { value: '5ns', help: 'NIC to router latency', source: 'assumed' },
    // --- packet format
    'packet.requestHeaderPhits': { value: 3, help: 'put request header flits', source: `${S}: 64-byte put = 14 request flits (A8)` },
    'packet.eopPhits': { value: 0, help: 'end-of-packet flits', source: `${S}: 14 = 3 + 11 (A8)` },
    'packet.dataGroupBytes': { value: 6, help: 'payload bytes per flit', source: `${S}: 48-bit flits` },
    'packet.dataGroupPhits': { value: 1, help: 'flits per payload group', source: `${S}` },
    'packet.responsePhits': { value: 1, help: 'put response', source: `${S}: 1 response flit (A8)` },
    'packet.errorResponsePhits': { value: 2, help: 'response on error', source: 'assumed' },
    'packet.readRequestPhits': { value: 3, help: 'get request', source: `${S}: 64-byte get = 3 request flits (A8)` },
    'packet.readResponseHeaderPhits': { value: 1, help: 'get response header', source: `${S}: 12 response flits = 1 + 11 (A8)` },
    'packet.maxPayload': { value: '64B', help: 'largest payload per packet', source: `${S}: 64-byte puts and gets` },
    // --- NIC (approximate until the NIC calibration)
    'nic.clock': { value: '800MHz', help: 'NIC clock', source: `${S}: 10.2 GB/s at 800 MHz (A6)` },
    'nic.packetCycles': { value: 5, help: 'NIC cycles per 64-byte packet, each direction', source: `${S}: a 64-byte read or write every five cycles (A6)` },
    'nic.outLatencyCycles': { value: 20, help: 'NIC output pipeline latency', source: 'assumed' },
    'nic.inLatencyCycles': { value: 20, help: 'NIC input pipeline latency', source: 'assumed' },
    'nic.receiveBuffer': { value: 256, help: 'NIC receive buffer per VC (flits)', source: 'assumed' },
    'nic.maxOutstandingPackets': { value: 1024, help: 'request packets awaiting responses', source: `${S}: up to 1,024 outstanding packets (A14)` },
    'nic.cqEventBytes': { value: '16B', help: 'completion-queue event size', source: 'assumed' },
    'nic.smsgHeader': { value: '32B', help: 'short-message (mailbox) header', source: 'assumed' },
    'host.bandwidth': { value: '16GB/s', help: 'host interface (PCIe Gen3 x16) bandwidth per direction', source: `${S}: 16 GB/s peak (A7)` },
    'host.latency': { value: '150ns', help: 'host <-> NIC one-way latency', source: 'assumed' },
    'host.writeOverhead': { value: '24B', help: 'overhead per transfer', source: `${S}: PCIe overheads are 24 bytes on every transfer (A7)` },
    'host.readRequest': { value: '24B', help: 'host read request size', source: 'assumed: one PCIe transfer overhead' },
    'host.memoryReadLatency': { value: '490ns', help: 'host memory read for the NIC: PCIe read through the root complex, IOMMU and DRAM', source: 'assumed: calibrated to the 1.6 us 8-byte get of seed 001 (A21); a PCIe read costs far more than a posted write' },
    'fma.issue': { value: '10ns', help: 'CPU time per FMA store', source: 'assumed' },
    'bte.issue': { value: '300ns', help: 'CPU time to post a BTE descriptor', source: 'assumed' },
    'bte.startup': { value: '700ns', help: 'BTE descriptor to first read', source: 'assumed' },
    'bte.readsInFlight': { value: 128, help: 'host reads a BTE put keeps in flight', source: 'assumed: enough to cover the 0.8 us PCIe read round trip at 10 GB/s' },
    // --- processor
    'cpu.gflops': { value: 20.8, help: 'flop rate per core (GFlop/s)', source: `assumed: ${S} Sandy Bridge at 2600 MHz, 8 flops/cycle` },
    'cpu.memBandwidth': { value: '5GB/s', help: 'memory bandwidth per core', source: 'assumed' },
    // --- MPI (approximate until the MPI calibration)
    'mpi.eagerMax': { value: '8KiB', help: 'largest eager message; rendezvous above', source: 'assumed' },
    'mpi.sendOverhead': { value: '400ns', help: 'CPU time of a send call', source: 'assumed' },
    'mpi.recvOverhead': { value: '400ns', help: 'CPU time to match and complete a receive', source: 'assumed' },
    'mpi.copyBandwidth': { value: '8GB/s', help: 'memcpy bandwidth for eager copies', source: 'assumed' },
    'mpi.testOverhead': { value: '50ns', help: 'CPU time of a test/poll call', source: 'assumed' },
    'mpi.shmLatency': { value: '300ns', help: 'latency of the on-node path', source: 'assumed' },
    'mpi.shmBandwidth': { value: '6GB/s', help: 'bandwidth of the on-node path', source: 'assumed' },
    'dmapp.bteThreshold': { value: '4KiB', help: 'puts and gets above this use the BTE', source: 'assumed' },
  },
};
