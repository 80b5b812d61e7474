/**
 * Emergent performance of the BlackWidow network (seed 003_ad7045ffbf8f1bf9.txt): simulated
 * latency by router hops, bandwidth per network slice, and uniform and adversarial traffic
 * against the bounds the folded Clos sets. The seed publishes no measured performance (its text
 * stops in §4), so each row compares a simulation with a bound or a ratio the seed's design
 * states; nothing was fitted to these rows.
 */
import { putRequestPhits, getResponsePhits } from '../../fabric/nic/packet-format.ts';
import type { ClosGraph } from '../../fabric/topology/clos.ts';
import { runTraffic, type Pattern } from '../../fabric/traffic.ts';
import type { Check } from './check.ts';
import { appRows, config, num, topology } from './measure.ts';

const M = 'bw';
const S = '003';
/** Saturation throughput of input-queued switches with one FIFO per input under uniform traffic (Karol, Hluchyj and Morgan): 2 - sqrt 2. */
const HOL_LIMIT = 2 - Math.SQRT2;
/** Processors of an R1 subtree (seed 003 §2.2, B6). */
const R1_PROCESSORS = 32;

/** Settings of a network of `slices` slices, each processor injecting into every one (B5). */
const sliceSet = (slices: number): Record<string, string> => ({ 'clos.slices': String(slices), 'netlink.tiles': String(slices) });

/** 1 MiB MPI ping-pong bandwidth (GB/s) between processors 0 and 40 of 64 (two R1 subtrees) over `slices` slices. */
async function pingpongGBs(slices: number): Promise<number> {
  const rows = await appRows({ app: 'pingpong', machine: M, nodes: 64, set: sliceSet(slices), params: { peer: '40', minBytes: '1MiB', maxBytes: '1MiB', iterations: '2' } });
  return num(rows[0], 'bandwidthGBs');
}

/** Payload rate (GB/s) of one slice's port in full get responses (the rendezvous pulls MPI's data): 18.75 Gb/s x payload / wire phits. */
function sliceGetPayloadGBs(): number {
  const f = config(M, 64).nic.format;
  return (config(M, 64).rawLinkGBs.link * f.maxPayloadBytes) / ((getResponsePhits(f, f.maxPayloadBytes) * f.phitBits) / 8);
}

/**
 * The Clos bound of a traffic run as a fraction of the processors' port capacity: packets one
 * processor's `slices` ports carry per second (one full write packet each, B4), against which
 * the accepted load is measured. `traffic` returns the accepted load in those units.
 */
async function trafficShare(nodes: number, pattern: Pattern, windowUs: number): Promise<number> {
  const c = config(M, nodes);
  const f = c.nic.format;
  const wireBytes = (putRequestPhits(f, f.maxPayloadBytes) * f.phitBits) / 8;
  const slices = (topology(c).graph as ClosGraph).slices;
  // packets per ps: the NIC's peak injection, and the processor's ports (every slice's link)
  const nicRate = 1 / c.nic.packetPs;
  const portRate = (slices * c.rawLinkGBs.link) / 1000 / wireBytes;
  const row = runTraffic(c, { pattern, load: 1, warmupUs: 5, windowUs, nodesPerGroup: R1_PROCESSORS });
  return (row.acceptedFraction * nicRate) / portRate;
}

/** Sidelinks between two R1 subtrees per slice at rank 1.5 over the links of one R1 slice block: the adversarial bound. */
function sidelinkShare(nodes: number): number {
  const g = topology(config(M, nodes)).graph as ClosGraph;
  return g.side1Links / g.blockPorts;
}

/** One-way latency (ns) each router hop adds: 8-byte puts (a round trip, halved) from processor 0 to one in its own R1 subtree and one a sidelink away, at 288 processors (rank 1.5). */
async function sidelinkHopNs(): Promise<number> {
  const put = async (target: number): Promise<{ hops: number; us: number }> => {
    const [r] = await appRows({ app: 'putget', machine: M, nodes: 288, params: { target: String(target), minBytes: '8', maxBytes: '8', ops: 'put', iterations: '2' } });
    return { hops: num(r, 'hops'), us: num(r, 'latencyUs') };
  };
  const near = await put(5);
  const far = await put(40);
  if (far.hops - near.hops !== 1) throw new Error(`expected one more router hop to processor 40, got ${near.hops} and ${far.hops}`);
  return ((far.us - near.us) / 2) * 1000;
}

const within = (bound: number): { relation: 'range'; value: number; high: number; unit: string } => ({
  relation: 'range', value: Math.round(bound * 0.85 * 1000) / 1000, high: Math.round(bound * 1000) / 1000, unit: 'of port capacity',
});
/** The adversarial rows' slack over the bound. */
const EDGE = {
  tolerance: 0.01,
  toleranceWhy: 'the window counts the packets delivered in it, whenever they were offered: a packet already on each sidelink when the window opens adds about 0.1 % over the bound (one in some 800 per link in 20 us), held to 1 %',
};

export const bwPerfChecks: readonly Check[] = [
  {
    id: 'B2', machine: M, quantity: 'latency by hops: one-way time a sidelink hop adds (8-byte puts, 288 processors, rank 1.5): at least the YARC pipeline', source: `${S} §3`,
    paper: { relation: 'atLeast', value: 31.25, unit: 'ns' }, kind: 'predicted', tier: 'long',
    measure: async () => sidelinkHopNs(),
  },
  {
    id: 'B5', machine: M, quantity: 'bandwidth per slice: 1 MiB MPI ping-pong over one slice, against one port\'s payload rate in full get responses', source: `${S} §2.2, §4.1`,
    paper: { relation: 'about', value: Math.round(sliceGetPayloadGBs() * 1000) / 1000, unit: 'GB/s' }, kind: 'predicted', tier: 'quick',
    measure: async (memo) => memo('slices1', () => pingpongGBs(1)),
  },
  {
    id: 'B5', machine: M, quantity: '1 MiB ping-pong bandwidth with one R1 router module (2 slices) over two (4 slices): "the port bandwidth of each processor is reduced in half"', source: `${S} §2.2`,
    paper: { relation: 'about', value: 0.5, unit: '' }, kind: 'predicted', tier: 'quick',
    measure: async (memo) => (await memo('slices2', () => pingpongGBs(2))) / (await memo('slices4', () => pingpongGBs(4))),
  },
  {
    id: 'B6', machine: M, quantity: 'uniform random traffic, 96 processors (rank 1.5), accepted at full load: between the FIFO input-queue limit 2 - sqrt 2 and the Clos bound 1 (no taper)', source: `${S} §2.2, §3`,
    paper: { relation: 'range', value: Math.round(HOL_LIMIT * 1000) / 1000, high: 1, unit: 'of port capacity' }, kind: 'predicted', tier: 'quick',
    measure: async () => trafficShare(96, 'uniform', 10),
  },
  {
    id: 'B6', machine: M, quantity: `adversarial traffic, 96 processors (3 R1 subtrees, each sending to the next): within 15 % below the sidelink bound (${sidelinkShare(96) * R1_PROCESSORS} sidelinks per pair per slice for 32 processors)`, source: `${S} §2.2`,
    paper: within(sidelinkShare(96)), ...EDGE, kind: 'predicted', tier: 'quick',
    measure: async () => trafficShare(96, 'worstcase', 10),
  },
  {
    id: 'B6', machine: M, quantity: 'uniform random traffic, 288 processors (rank 1.5, 9 R1 subtrees), accepted at full load: between 2 - sqrt 2 and the Clos bound 1', source: `${S} §2.2, §3`,
    paper: { relation: 'range', value: Math.round(HOL_LIMIT * 1000) / 1000, high: 1, unit: 'of port capacity' }, kind: 'predicted', tier: 'long',
    measure: async () => trafficShare(288, 'uniform', 20),
  },
  {
    id: 'B6', machine: M, quantity: `adversarial traffic, 288 processors (9 R1 subtrees, each sending to the next): within 15 % below the sidelink bound (${sidelinkShare(288) * R1_PROCESSORS} sidelinks per pair per slice)`, source: `${S} §2.2`,
    paper: within(sidelinkShare(288)), ...EDGE, kind: 'predicted', tier: 'long',
    measure: async () => trafficShare(288, 'worstcase', 20),
  },
];
