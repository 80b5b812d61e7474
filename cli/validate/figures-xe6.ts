/** Checks of the Cray XE6 (Gemini) figures, seed 004_c566599512f7712a.txt (ids G1-G14). */
import { buildMachine } from '../../fabric/machine.ts';
import { machineSpec } from '../../fabric/machine.ts';
import { putRequestPhits, getResponsePhits } from '../../fabric/nic/packet-format.ts';
import type { Check } from './check.ts';
import { appRows, config, hopSlopeNs, num, portsByClass, topology, total } from './measure.ts';

const M = 'xe6';
const S = '004';
/** A 4x4x4 torus of Geminis (128 nodes): every direction has a neighbour of its own. */
const CUBE = { 'torus.dims': '4,4,4' };
const base = (): ReturnType<typeof config> => config(M, 128, CUBE);
const param = (key: string): string => String(machineSpec(M).params[key]!.value);

/** 8-byte put or get latency (us) between the two nodes of one Gemini. */
const latency8 = async (op: 'put' | 'get'): Promise<number> => num((await appRows({ app: 'putget', machine: M, nodes: 2, params: { target: '1', minBytes: '8', maxBytes: '8', ops: op } }))[0], 'latencyUs');

export const xe6Checks: readonly Check[] = [
  {
    id: 'G1', machine: M, quantity: 'network ports of a Gemini router (10 torus connections x 4 links)', source: `${S} §I`,
    paper: { relation: 'exact', value: 40, unit: 'ports' }, kind: 'structure', tier: 'quick',
    measure: async () => total(portsByClass(topology(base()), 0)),
  },
  {
    id: 'G1', machine: M, quantity: 'router tiles the two NICs inject through', source: `${S} §I`,
    paper: { relation: 'exact', value: 8, unit: 'tiles' }, kind: 'parameter', tier: 'quick',
    measure: async () => Number(param('netlink.tiles')),
  },
  {
    id: 'G2', machine: M, quantity: 'links per direction in x / y / z', source: `${S} §I`,
    paper: { relation: 'exact', value: '8/4/8', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const p = portsByClass(topology(base()), 0);
      return `${p['x+']}/${p['y+']}/${p['z+']}`;
    },
  },
  {
    id: 'G3', machine: M, quantity: 'NIC clock', source: `${S} §V`,
    paper: { relation: 'about', value: 650, unit: 'MHz' }, tolerance: 0.001, toleranceWhy: 'a clock read back: the cycle is a whole number of picoseconds (1538 ps), 650.2 MHz', kind: 'parameter', tier: 'quick',
    measure: async () => 1e6 / base().nic.cyclePs,
  },
  {
    id: 'G3', machine: M, quantity: 'router clock (one phit per tile per cycle)', source: `${S} §V`,
    paper: { relation: 'exact', value: 800, unit: 'MHz' }, kind: 'parameter', tier: 'quick',
    measure: async () => 1e6 / (base().network.injectPhitPs * Number(param('netlink.tiles'))),
  },
  {
    id: 'G3', machine: M, quantity: 'SerDes lane rate', source: `${S} §V`,
    paper: { relation: 'range', value: 3.125, high: 6.25, unit: 'Gb/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => (base().rawLinkGBs.link * 8) / Number(param('link.lanes')),
  },
  {
    id: 'G3', machine: M, quantity: 'HyperTransport clock (16 bits, double data rate)', source: `${S} §V, §V.A`,
    paper: { relation: 'range', value: 1600, high: 2600, unit: 'MHz' }, kind: 'parameter', tier: 'quick',
    measure: async () => (base().nic.hostBytesPerPs * 1e12) / 4 / 1e6,
  },
  {
    id: 'G4', machine: M, quantity: '8-byte put, two nodes of one Gemini', source: `${S} §V.A`,
    paper: { relation: 'under', value: 0.7, unit: 'us' }, kind: 'fitted', fittedParams: ['host.latency', 'nic.outLatencyCycles', 'nic.inLatencyCycles'], tier: 'quick',
    measure: async () => latency8('put'),
  },
  {
    id: 'G4', machine: M, quantity: '8-byte get, two nodes of one Gemini', source: `${S} §V.A`,
    paper: { relation: 'under', value: 1.5, unit: 'us' }, kind: 'fitted', fittedParams: ['host.memoryReadLatency', 'host.latency', 'nic.outLatencyCycles', 'nic.inLatencyCycles'], tier: 'quick',
    measure: async () => latency8('get'),
  },
  {
    id: 'G4', machine: M, quantity: '8-byte MPI message one way, one hop (pingpong, 4 nodes, peer 2)', source: `${S} §V.A`,
    paper: { relation: 'atMost', value: 1.5, unit: 'us' }, kind: 'fitted', fittedParams: ['mpi.sendOverhead', 'mpi.recvOverhead'], tier: 'quick',
    measure: async () => num((await appRows({ app: 'pingpong', machine: M, nodes: 4, params: { peer: '2', minBytes: '8', maxBytes: '8' } }))[0], 'latencyUs'),
  },
  {
    id: 'G4', machine: M, quantity: 'one-way latency per router hop (slope of 8-byte puts, 64 nodes)', source: `${S} §V.A`,
    paper: { relation: 'about', value: 105, unit: 'ns' }, tolerance: 0.1, toleranceWhy: 'router.latency and link.latency were set to this figure: held to the 95-115 ns of the xe6 calibration test', kind: 'fitted', fittedParams: ['router.latency', 'link.latency'], tier: 'quick',
    measure: async () => (await hopSlopeNs(M, 64, [1, 2, 4, 10, 26, 42])).ns,
  },
  {
    id: 'G5', machine: M, quantity: 'NIC bandwidth: 64 B every 5 cycles at 650 MHz', source: `${S} §V.A`,
    paper: { relation: 'about', value: 8.3, unit: 'GB/s' }, tolerance: 0.01, toleranceWhy: "the paper's arithmetic (64 B x 650 MHz / 5 = 8.32 GB/s), not a measurement: 1 % for its rounding", kind: 'parameter', tier: 'quick',
    measure: async () => (base().nic.format.maxPayloadBytes / base().nic.packetPs) * 1000,
  },
  {
    id: 'G6', machine: M, quantity: 'HyperTransport bandwidth each way at 2400 MHz', source: `${S} §V.A`,
    paper: { relation: 'exact', value: 9.6, unit: 'GB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => base().nic.hostBytesPerPs * 1000,
  },
  {
    id: 'G6', machine: M, quantity: 'FMA put peak over HT: 64 B payload per 64 + 12 B', source: `${S} §V.A`,
    paper: { relation: 'about', value: 8, unit: 'GB/s' }, tolerance: 0.02, toleranceWhy: "the paper's arithmetic (9.6 GB/s x 64 / 76 = 8.08), not a measurement: 2 % for its rounding to 8", kind: 'parameter', tier: 'quick',
    measure: async () => {
      const n = base().nic;
      return (n.hostBytesPerPs * 1000 * 64) / (64 + n.hostWriteOverheadBytes);
    },
  },
  {
    id: 'G6', machine: M, quantity: 'FMA put bandwidth, 4 KiB puts from 4 processes per node', source: `${S} §V.A Fig. 8`,
    paper: { relation: 'about', value: 8, unit: 'GB/s' }, kind: 'predicted', tier: 'quick',
    measure: async () => num((await appRows({ app: 'putget', machine: M, nodes: 8, ppn: 4, params: { target: '8', minBytes: '4KiB', maxBytes: '4KiB', pairs: 'node' } }))[0], 'bandwidthGBs'),
  },
  {
    id: 'G7', machine: M, quantity: 'symmetric BTE puts of 1 MiB, each way', source: `${S} §V.A`,
    paper: { relation: 'about', value: 7, unit: 'GB/s' }, kind: 'predicted', tier: 'quick',
    measure: async () => {
      const bytes = 1 << 20;
      const m = buildMachine(config(M, 4));
      const done: number[] = [];
      for (const [a, b] of [[0, 2], [2, 0]] as const) {
        const h = m.nics[b]!.register(new Uint8Array(bytes));
        m.nics[a]!.post({ op: 'put', mode: 'bte', local: new Uint8Array(bytes), remoteNode: b, remoteHandle: h, remoteOffset: 0, onComplete: () => done.push(m.engine.now) });
      }
      m.engine.drain();
      if (done.length !== 2) throw new Error(`${done.length} of 2 transfers completed`);
      return bytes / (Math.max(...done) / 1000);
    },
  },
  {
    id: 'G8', machine: M, quantity: 'tile cycles per 64-byte packet (one phit per cycle)', source: `${S} §V.A`,
    paper: { relation: 'exact', value: 32, unit: 'cycles' }, kind: 'parameter', tier: 'quick',
    measure: async () => putRequestPhits(base().nic.format, 64),
  },
  {
    id: 'G9', machine: M, quantity: 'torus connection raw bandwidth (4 links x 3 lanes at 6.25 Gb/s)', source: `${S} §V.A`,
    paper: { relation: 'exact', value: 9.375, unit: 'GB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => 4 * base().rawLinkGBs.link,
  },
  {
    id: 'G9', machine: M, quantity: 'link efficiency on 64-byte writes', source: `${S} §V.A`,
    paper: { relation: 'about', value: 0.63, unit: '' }, tolerance: 0.01, toleranceWhy: "the paper's arithmetic (64 B in 34 phits of 3 B = 0.627), not a measurement: 1 % for its rounding to 63 %", kind: 'parameter', tier: 'quick',
    measure: async () => {
      const c = base();
      return 64 / ((putRequestPhits(c.nic.format, 64) + c.links.link.overheadPhits) * (c.nic.format.phitBits / 8));
    },
  },
  {
    id: 'G10', machine: M, quantity: '1 MiB put to an x-neighbour (one transfer over the parallel links)', source: `${S} §V.A`,
    paper: { relation: 'atLeast', value: 5, unit: 'GB/s' }, kind: 'predicted', tier: 'quick',
    measure: async () => num((await appRows({ app: 'putget', machine: M, nodes: 4, params: { target: '2', minBytes: '1MiB', maxBytes: '1MiB', ops: 'put', window: '2' } }))[0], 'bandwidthGBs'),
  },
  {
    id: 'G11', machine: M, quantity: 'AMOs on 8192 random variables (8 nodes x 8 to rank 0)', source: `${S} §V`,
    paper: { relation: 'over', value: 45, unit: 'M/s' }, kind: 'fitted', fittedParams: ['amo.fill'], tier: 'quick',
    measure: async () => num((await appRows({ app: 'amorate', machine: M, nodes: 8, ppn: 8, params: { vars: '8192', amos: '200', warmup: '50' } }))[0], 'rateMps'),
  },
  {
    id: 'G11', machine: M, quantity: 'AMOs with cache reuse (one variable)', source: `${S} §V`,
    paper: { relation: 'about', value: 100, unit: 'M/s' }, kind: 'fitted', fittedParams: ['amo.op'], tier: 'quick',
    measure: async () => num((await appRows({ app: 'amorate', machine: M, nodes: 8, ppn: 8, params: { vars: '1', amos: '200', warmup: '50' } }))[0], 'rateMps'),
  },
  {
    id: 'G12', machine: M, quantity: 'phits: 8 B write / 64 B write / response / error response / get request / 64 B get response', source: `${S} §III`,
    paper: { relation: 'exact', value: '11/32/2/3/8/27', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const f = base().nic.format;
      return [putRequestPhits(f, 8), putRequestPhits(f, 64), f.responsePhits, f.errorResponsePhits, f.readRequestPhits, getResponsePhits(f, 64)].join('/');
    },
  },
  {
    id: 'G13', machine: M, quantity: 'largest packet one 16-bit CRC covers', source: `${S} §III`,
    paper: { relation: 'atMost', value: 768, unit: 'bits' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const f = base().nic.format;
      return Math.max(putRequestPhits(f, f.maxPayloadBytes), getResponsePhits(f, f.maxPayloadBytes)) * f.phitBits;
    },
  },
];
