/** Checks of the Cray BlackWidow figures, seed 003_ad7045ffbf8f1bf9.txt (ids B1-B8). */
import { machineSpec } from '../../fabric/machine.ts';
import { getResponsePhits, putRequestPhits } from '../../fabric/nic/packet-format.ts';
import { closCapacity, CLOS_R1_PROCESSORS, CLOS_RANKS, type ClosGraph } from '../../fabric/topology/clos.ts';
import type { Check } from './check.ts';
import { runTraffic } from '../../fabric/traffic.ts';
import { appRows, config, hopSlopeNs, metrics, num, topology } from './measure.ts';

const M = 'bw';
const S = '003';
const r2 = (): ReturnType<typeof config> => config(M, 1024);
/** Saturation throughput of input-queued switches with one FIFO per input under uniform traffic (Karol, Hluchyj and Morgan): 2 - sqrt 2. */
const HOL_LIMIT = 2 - Math.SQRT2;
/** Payload rate (GB/s) of the four slices' ports each way in full get responses (MPI's rendezvous pulls the data): 4 x 18.75 Gb/s x payload / wire phits. */
const fourSlicePayloadGBs = (): number => {
  const f = r2().nic.format;
  const wire = getResponsePhits(f, f.maxPayloadBytes);
  return (4 * 18.75) / 8 * (f.maxPayloadBytes / ((wire * f.phitBits) / 8));
};

export const bwChecks: readonly Check[] = [
  {
    id: 'B1', machine: M, quantity: 'port rate each way (3 lanes at 6.25 Gb/s)', source: `${S} §2.2`,
    paper: { relation: 'exact', value: 18.75, unit: 'Gb/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => r2().rawLinkGBs.link * 8,
  },
  {
    id: 'B1', machine: M, quantity: 'YARC ports (processor ports + up ports of one slice at R1)', source: `${S} §3`,
    paper: { relation: 'exact', value: 64, unit: 'ports' }, kind: 'structure', tier: 'quick',
    measure: async () => CLOS_R1_PROCESSORS + (topology(r2()).graph as ClosGraph).blockPorts,
  },
  {
    id: 'B1', machine: M, quantity: 'YARC aggregate bandwidth (64 ports, both ways)', source: `${S} §3`,
    paper: { relation: 'about', value: 2.4, unit: 'Tb/s' }, tolerance: 0.01, toleranceWhy: "the paper's arithmetic (64 ports x 18.75 Gb/s x 2 ways = 2.4 Tb/s), not a measurement: 1 %", kind: 'parameter', tier: 'quick',
    measure: async () => (64 * r2().rawLinkGBs.link * 8 * 2) / 1000,
  },
  {
    id: 'B2', machine: M, quantity: 'zero-load latency through a YARC', source: `${S} §3`,
    paper: { relation: 'exact', value: 31.25, unit: 'ns' }, kind: 'parameter', tier: 'quick',
    measure: async () => r2().network.routerLatencyPs / 1000,
  },
  {
    id: 'B3', machine: M, quantity: 'VCs / input buffer per port (phits)', source: `${S} §4.2`,
    paper: { relation: 'exact', value: '2/256', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => `${topology(r2()).vcs}/${r2().network.inputBufferPhits}`,
  },
  {
    id: 'B4', machine: M, quantity: 'phit bits / phits of a 32 B write / minimum packet', source: `${S} §4.1, §4.3`,
    paper: { relation: 'exact', value: '24/19/4', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const f = r2().nic.format;
      return `${f.phitBits}/${putRequestPhits(f, 32)}/${f.responsePhits}`;
    },
  },
  {
    id: 'B5', machine: M, quantity: 'injection ports per processor / network slices', source: `${S} §2.2`,
    paper: { relation: 'exact', value: '4/4', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => `${String(machineSpec(M).params['netlink.tiles']!.value)}/${(topology(r2()).graph as ClosGraph).slices}`,
  },
  {
    id: 'B6', machine: M, quantity: 'processors of ranks 1 / 1.5 / 2 / 2.5 / 3 / 3.5', source: `${S} §2.2`,
    paper: { relation: 'exact', value: '32/288/1024/4608/16384/32768', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => CLOS_RANKS.map((r) => closCapacity(r)).join('/'),
  },
  {
    id: 'B6', machine: M, quantity: 'router hops across 32 / 288 / 1024 / 4608 / 16384 processors', source: `${S} §2.2`,
    paper: { relation: 'exact', value: '0/1/2/3/4', unit: '' }, paperText: '0/1/2/3/4 (R1, R1.5, R2, R2.5, R3)', kind: 'structure', tier: 'quick',
    measure: async () => [32, 288, 1024, 4608, 16384].map((n) => metrics(M, n).diameter).join('/'),
  },
  {
    id: 'B7', machine: M, quantity: 'ports per slice of an R2/R3 virtual router', source: `${S} §2.2`,
    paper: { relation: 'exact', value: 32, unit: 'ports' }, kind: 'structure', tier: 'quick',
    measure: async () => (topology(r2()).graph as ClosGraph).blockPorts,
  },
  {
    id: 'B8', machine: M, quantity: 'worst-case hops at 32K processors, with the processor links', source: `${S} §2.2`,
    paper: { relation: 'exact', value: 7, unit: 'hops' }, kind: 'structure', tier: 'quick',
    measure: async () => metrics(M, 32768).diameter + 2,
  },
  // emergent performance: simulated, against the bounds the seed's design sets
  {
    id: 'B2', machine: M, quantity: 'one-way latency each router hop adds (8-byte puts, 4,096 processors): at least the YARC pipeline', source: `${S} §3`,
    paper: { relation: 'atLeast', value: 31.25, unit: 'ns' }, kind: 'predicted', tier: 'long',
    measure: async () => (await hopSlopeNs(M, 4096, [1, 40, 600, 2000])).ns,
  },
  {
    id: 'B2', machine: M, quantity: 'uniform random traffic, 512 processors, accepted at full offered load: above the FIFO input-queue limit 2 - sqrt 2 (the row buffers per output column avoid head-of-line blocking)', source: `${S} §3`,
    paper: { relation: 'over', value: Math.round(HOL_LIMIT * 1000) / 1000, unit: 'of injection' }, kind: 'predicted', tier: 'long',
    measure: async () => runTraffic(config(M, 512), { pattern: 'uniform', load: 1, warmupUs: 5, windowUs: 20 }).acceptedFraction,
  },
  {
    id: 'B5', machine: M, quantity: '1 MiB MPI ping-pong bandwidth over the four slices, against their ports\' payload rate (4 x 18.75 Gb/s in full get responses, which carry the rendezvous data)', source: `${S} §2.2, §4.1`,
    paper: { relation: 'about', value: Math.round(fourSlicePayloadGBs() * 100) / 100, unit: 'GB/s' }, kind: 'predicted', tier: 'quick',
    measure: async () => num((await appRows({ app: 'pingpong', machine: M, nodes: 64, params: { peer: '40', minBytes: '1MiB', maxBytes: '1MiB', iterations: '2' } }))[0], 'bandwidthGBs'),
  },
];
