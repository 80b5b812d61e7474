/** Checks of the SiCortex SC5832 figures, seed 002_d5d3150c0192c56e.txt (ids K1-K18). */
import { Prng } from '../../fabric/engine/prng.ts';
import { errorProbability } from '../../fabric/link-errors.ts';
import { buildMachine, machineSpec } from '../../fabric/machine.ts';
import { parseBytes } from '../../fabric/units.ts';
import { putRequestPhits } from '../../fabric/nic/packet-format.ts';
import { KAUTZ_ROUTE_MAX_DEGREE, kautzNextPort } from '../../fabric/routing/kautz-routing.ts';
import type { KautzGraph } from '../../fabric/topology/kautz.ts';
import { PORT_NODE } from '../../fabric/topology/port-graph.ts';
import type { Check, CheckKind, Memo } from './check.ts';
import { appRows, config, metrics, num, rowWhere, topology } from './measure.ts';

const M = 'sc5832';
const S = '002';
const full = (): ReturnType<typeof config> => config(M, 972);
/** Processors per node (seed 002 §1: 972 nodes x 6). */
const PPN = 6;

/** A node's out-bound payload bandwidth (GB/s): 3 links x raw x line-code efficiency x payload words / packet words. */
const nodeOutGBs = (): number => {
  const c = full();
  const f = c.nic.format;
  const lineEfficiency = f.phitBits / 8 / c.links.link.phitPs / (c.rawLinkGBs.link / 1000);
  const t = c.topology;
  if (t.kind !== 'kautz') throw new Error('sc5832 is not a Kautz graph');
  return t.config.degree * c.rawLinkGBs.link * lineEfficiency * (f.maxPayloadBytes / f.dataGroupBytes / putRequestPhits(f, f.maxPayloadBytes));
};

/** Mean router hops of the 972-node graph. */
const averageHops = (memo: Memo): Promise<number> => memo('hops972', () => metrics(M, 972).averageHops);
/** C = p s / (3N) for p = 5,000 processes (seed 002 §6.1). */
const contention = async (memo: Memo): Promise<number> => (5000 * (await averageHops(memo))) / (3 * 972);

/** randpairs rows: MB/s per process under load and the mean hops of the pairs. */
const randpairs = async (nodes: number, params: Record<string, string>, placement?: 'round-robin'): Promise<{ mbs: number; hops: number; ranks: number }> => {
  const [row] = await appRows({ app: 'randpairs', machine: M, nodes, ppn: PPN, params, ...(placement ? { placement } : {}) });
  return { mbs: num(row, 'mbsMean'), hops: num(row, 'hops'), ranks: num(row, 'ranks') };
};
/** The seed's model for a run: a processor's 670 MB/s share over C = p s / (3N). */
const model = (p: number, s: number, nodes: number): number => 670 / ((p * s) / (3 * nodes));

/** Why the figures measured under random-pair load are held to 25 %, not 15 %. */
const UNDER_LOAD_WHY = 'measured under random-pair load and read off the curves of Figure 5: 25 %, as the SiCortex contention figures are held (the sc5832 calibration test too)';
/** Why the 108-node runs against the seed's own contention model are held to 25 %. */
const SEED_MODEL_WHY = "against the seed's rough contention model 670 MB/s / C (its 80 MB/s beside the 85 it measured): 25 %, as the SiCortex contention figures are held (the sc5832 calibration test too)";
/** K13's kind: 128 KiB goes multi-rail at mpi.railThreshold, which was placed at 128 KiB because Figure 5 drops there. */
const k13Kind = (bytes: string): CheckKind => (bytes === '128KiB' ? { kind: 'fitted', fittedParams: ['mpi.railThreshold'] } : { kind: 'predicted' });

const allreduceUs = async (memo: Memo, ranks: number): Promise<number> =>
  memo(`ar${ranks}`, async () => num((await appRows({ app: 'allreduce', machine: M, nodes: 16, params: { ranks: String(ranks), minBytes: '256KiB', maxBytes: '256KiB', type: 'int32', op: 'min', iterations: '2', warmup: '0' } }))[0], 'latencyUs'));

/** Allreduce of 4 MiB int32 MIN on `ranks` ranks, one per node (us). */
const allreduce4MiBUs = async (ranks: number): Promise<number> =>
  num((await appRows({ app: 'allreduce', machine: M, nodes: ranks, params: { ranks: String(ranks), minBytes: '4MiB', maxBytes: '4MiB', type: 'int32', op: 'min' } }))[0], 'latencyUs');

/** The full machine under random-pair load: about 5,000 of the 5,832 processes, spread round-robin. */
const fullLoad = (bytes: string): Promise<{ mbs: number; hops: number; ranks: number }> => randpairs(972, { bytes, rounds: '2', warmup: '1', active: '5000' }, 'round-robin');

/**
 * K6: 40 DMA puts of 64 KiB between random pairs of a 108-node machine, all at once. Every hop
 * is compared with the output the switch before it read off the packet's route string (the
 * crosspoint credits use that reading), and every packet's offset with the last one of its
 * transfer to arrive.
 */
export async function sourceRoutedPuts(routing = 'shortest', set: Record<string, string> = {}): Promise<PutsResult> {
  const m = buildMachine(config(M, 108, { 'routing.algorithm': routing, ...set }));
  const g = m.graph as KautzGraph;
  const pk = m.net.pkts;
  const expected = new Map<number, number>(); // packet -> port it must take at its next switch
  const lastOffset = new Map<number, number>(); // transfer -> offset of its last packet delivered
  let offRoute = 0;
  let outOfOrder = 0;
  let packets = 0;
  let expectedRetransmissions = 0;
  const links = m.net.params.links;
  m.net.onHop = (p, chan) => {
    if (chan >= g.routers * g.radix) return; // a NIC's injection channel
    const e = links[g.portClass[chan]!]?.errors;
    if (e !== undefined && g.portClass[chan] !== PORT_NODE) {
      // a hardware packet errs with q = 1 - (1 - ber)^bits and is sent 1 / (1 - q) times on average (a coarse packet stands for `units` of them)
      const units = pk.units[p]!;
      const q = errorProbability(e.ber, (pk.phits[p]! / units) * links[g.portClass[chan]!]!.phitPs * e.wireBitsPerPs);
      expectedRetransmissions += (units * q) / (1 - q);
    }
    const want = expected.get(p);
    if (want !== undefined && chan % g.radix !== want) offRoute++;
    if (g.portClass[chan] === PORT_NODE) {
      expected.delete(p);
      if (pk.bytes[p]! === 0) return; // an acknowledgement
      packets++;
      const last = lastOffset.get(pk.txn[p]!);
      if (last !== undefined && pk.offset[p]! < last) outOfOrder++;
      lastOffset.set(pk.txn[p]!, pk.offset[p]!);
    } else {
      expected.set(p, kautzNextPort(g, pk, p));
    }
  };
  const rng = new Prng(6);
  const bytes = 64 * 1024;
  let done = 0;
  const pairs: [Uint8Array, Uint8Array][] = [];
  for (let k = 0; k < 40; k++) {
    const src = rng.int(g.nodes);
    const dst = (src + 1 + rng.int(g.nodes - 1)) % g.nodes;
    const local = Uint8Array.from({ length: bytes }, (_, i) => (i * 31 + k * 17 + 1) & 0xff);
    const remote = new Uint8Array(bytes);
    pairs.push([local, remote]);
    const h = m.nics[dst]!.register(remote);
    m.nics[src]!.post({ op: 'put', mode: 'bte', local, remoteNode: dst, remoteHandle: h, remoteOffset: 0, onComplete: () => done++ });
  }
  m.engine.drain();
  if (done !== 40) throw new Error(`${40 - done} of the 40 transfers did not complete`);
  let wrongBytes = 0;
  for (const [local, remote] of pairs) for (let i = 0; i < bytes; i++) if (local[i] !== remote[i]) wrongBytes++;
  const r = m.net.retry?.counters;
  const sum = (a: Float64Array | undefined): number => (a === undefined ? 0 : a.reduce((x, y) => x + y, 0));
  return { offRoute, outOfOrder, packets, wrongBytes, retransmissions: sum(r?.retransmissions), expectedRetransmissions, controlErrors: sum(r?.controlErrors) };
}

/** What the 40 puts of sourceRoutedPuts show. */
export interface PutsResult {
  /** Hops off the port the switch before read off the route string. */
  readonly offRoute: number;
  /** Packets delivered before one of their transfer that left earlier. */
  readonly outOfOrder: number;
  readonly packets: number;
  /** Bytes of the 40 target buffers that differ from their source after the run. */
  readonly wrongBytes: number;
  /** Replays of corrupted packets (link.ber above 0), and the count the packets' bits predict: the sum over packet-hops of q / (1 - q). */
  readonly retransmissions: number;
  readonly expectedRetransmissions: number;
  /** Control packets corrupted (the next one carried the error). */
  readonly controlErrors: number;
}

/** The 40 puts with BER 1e-5 on every link: about 1,100 retransmissions. */
const K8_SET = { 'link.ber': '1e-5' };

export const sc5832Checks: readonly Check[] = [
  {
    id: 'K1', machine: M, quantity: 'nodes of the Kautz fabric (x 6 processors = 5,832)', source: `${S} §1`,
    paper: { relation: 'exact', value: 972, unit: 'nodes' }, kind: 'structure', tier: 'quick',
    measure: async () => topology(full()).graph.routers,
  },
  {
    id: 'K2', machine: M, quantity: 'out-links per node / diameter', source: `${S} §1, §5`,
    paper: { relation: 'exact', value: '3/6', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const t = metrics(M, 972);
      return `${t.linksPerClass.out! / t.nodes}/${t.diameter}`;
    },
  },
  {
    id: 'K3', machine: M, quantity: 'link: 8 lanes x 2 Gb/s raw / after 8b/10b', source: `${S} §3`,
    paper: { relation: 'exact', value: '2/1.6', unit: '' }, paperText: '2 GB/s raw, 8b/10b: 1.6', kind: 'parameter', tier: 'quick',
    measure: async () => {
      const c = full();
      return `${c.rawLinkGBs.link}/${Number(((c.nic.format.phitBits / 8 / c.links.link.phitPs) * 1000).toFixed(6))}`;
    },
  },
  {
    id: 'K5', machine: M, quantity: 'full packets a crosspoint buffer (one input, one output) holds over its VCs', source: `${S} §4`,
    paper: { relation: 'exact', value: 16, unit: 'packets' }, kind: 'parameter', tier: 'quick',
    measure: async () => (full().network.inputBufferPhits * topology(full()).vcs) / putRequestPhits(full().nic.format, full().nic.format.maxPayloadBytes),
  },
  {
    id: 'K7', machine: M, quantity: 'VCs per class for diameter 6: floor(D/2) + 1', source: `${S} §5`,
    paper: { relation: 'exact', value: 4, unit: 'VCs' }, kind: 'structure', tier: 'quick',
    measure: async () => topology(full()).vcs / 2,
  },
  ...([[4, 108, '4/40'], [5, 324, '5/97'], [6, 972, '6/243']] as const).map(([k, n, v]): Check => ({
    id: 'K9', machine: M, quantity: `Table 1, Kautz d=3, ${n} nodes: diameter / bisection bound (links)`, source: `${S} §5, Table 1`,
    paper: { relation: 'exact', value: v, unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const t = metrics(M, n, { 'kautz.diameter': String(k) });
      return `${t.diameter}/${t.bisectionLinks}`;
    },
  })),
  ...([[108, '2-D 11/10, 3-D 7/23', [12, 9, 1], [6, 6, 3]], [324, '2-D 18/18, 3-D 10/47', [18, 18, 1], [9, 6, 6]], [972, '2-D 32/31, 3-D 15/98', [36, 27, 1], [12, 9, 9]]] as const).map(
    ([n, paper, two, three]): Check => ({
      id: 'K9', machine: M, quantity: `Table 1 torus columns, ${n} nodes: diameter / bisection (real xt4 tori ${two.slice(0, 2).join('x')}, ${three.join('x')})`, source: `${S} §5, Table 1`,
      paper: { relation: 'exact', value: paper, unit: '' }, report: true, kind: 'structure', tier: 'quick',
      measure: async () => {
        const t = (dims: readonly number[]): string => {
          const m = metrics('xt4', n, { 'torus.dims': dims.join(',') });
          return `${m.diameter}/${m.bisectionLinks}`;
        };
        return `2-D ${t(two)}, 3-D ${t(three)}`;
      },
    }),
  ),
  {
    id: 'K6', machine: M, quantity: 'route string: bits per hop / hops off what the switch before read there (40 random 64 KiB puts, 108 nodes)', source: `${S} §4.1`,
    paper: { relation: 'exact', value: '2/0', unit: '' }, paperText: 'low 2 bits per hop, built by software (model: by the first switch)', kind: 'predicted', tier: 'quick',
    measure: async (memo) => `${Math.log2(KAUTZ_ROUTE_MAX_DEGREE)}/${(await memo('k6', () => sourceRoutedPuts())).offRoute}`,
  },
  {
    id: 'K6', machine: M, quantity: 'packets delivered out of order within a transfer (the same 40 puts)', source: `${S} §2, §4.3`,
    paper: { relation: 'exact', value: 0, unit: 'packets' }, paperText: 'in-order delivery of all packets', kind: 'predicted', tier: 'quick',
    measure: async (memo) => (await memo('k6', () => sourceRoutedPuts())).outOfOrder,
  },
  {
    id: 'K8', machine: M, quantity: 'control packet on the reverse lane: bytes (link.controlPacket) / its time at 2 Gb/s with 8b/10b', source: `${S} §3.3`,
    paper: { relation: 'exact', value: '15/75', unit: '' }, paperText: '15 bytes ending in a 4-byte CRC (75 ns at 2 Gb/s, 8b/10b)', kind: 'parameter', tier: 'quick',
    measure: async () => {
      const c = config(M, 108, K8_SET);
      return `${parseBytes(String(machineSpec(M).params['link.controlPacket']!.value))}/${c.linkErrors.controlPs / 1000}`;
    },
  },
  {
    id: 'K8', machine: M, quantity: 'BER 1e-5 on every link, the 40 puts of K6: packets out of order / bytes wrong after per-hop retry', source: `${S} §4.3`,
    paper: { relation: 'exact', value: '0/0', unit: '' }, paperText: 'all packets delivered in order, even with errors', kind: 'predicted', tier: 'quick',
    measure: async (memo) => {
      const r = await memo('k8', () => sourceRoutedPuts('shortest', K8_SET));
      return `${r.outOfOrder}/${r.wrongBytes}`;
    },
  },
  {
    id: 'K8', machine: M, quantity: 'retransmissions of those puts against the sum of q / (1 - q) over their packet-hops', source: `${S} §4.3`,
    paper: { relation: 'about', value: 0, unit: 'replays' }, paperText: 'per-hop retry of every corrupted packet', tolerance: 0.1,
    toleranceWhy: 'the errors are random: about 1,100 expected, 3 standard deviations are 9 %', kind: 'predicted', tier: 'quick',
    measure: async (memo) => {
      const r = await memo('k8', () => sourceRoutedPuts('shortest', K8_SET));
      return { value: r.retransmissions, reference: r.expectedRetransmissions, note: `${r.controlErrors} control packets lost` };
    },
  },
  {
    id: 'K10', machine: M, quantity: 'out-links one 64 KiB transfer uses with multipath routing (108 nodes, 0 to 100)', source: `${S} §5`,
    paper: { relation: 'exact', value: 3, unit: 'routes' }, paperText: 'd = 3 independent routes', kind: 'predicted', tier: 'quick',
    measure: async () => {
      const m = buildMachine(config(M, 108, { 'routing.algorithm': 'multipath' }));
      const g = m.graph as KautzGraph;
      const first = g.nodeRouter[0]! * g.radix + g.outBase;
      const used = new Set<number>();
      m.net.onHop = (p, chan) => {
        if (chan >= first && chan < first + g.degree && m.net.pkts.dst[p] === 100) used.add(chan);
      };
      const bytes = 64 * 1024;
      const h = m.nics[100]!.register(new Uint8Array(bytes));
      let ok = false;
      m.nics[0]!.post({ op: 'put', mode: 'bte', local: new Uint8Array(bytes), remoteNode: 100, remoteHandle: h, remoteOffset: 0, onComplete: () => (ok = true) });
      m.engine.drain();
      if (!ok) throw new Error('the transfer did not complete');
      return used.size;
    },
  },
  {
    id: 'K11', machine: M, quantity: '4 MiB ping-pong on a quiet machine (DMA engine limit)', source: `${S} §6.1`,
    paper: { relation: 'about', value: 1.4, unit: 'GB/s' }, kind: 'fitted', fittedParams: ['nic.packetCycles'], tier: 'quick',
    measure: async () => num((await appRows({ app: 'pingpong', machine: M, nodes: 12, params: { peer: '7', minBytes: '4MiB', maxBytes: '4MiB', iterations: '2' } }))[0], 'bandwidthGBs'),
  },
  {
    id: 'K12', machine: M, quantity: 'eager limit / payload per packet', source: `${S} §6.1`,
    paper: { relation: 'exact', value: '1024/128', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => `${full().mpi.eagerMaxBytes}/${full().nic.format.maxPayloadBytes}`,
  },
  // the seed's eager model BW = l / (t_ohd ceil((l-128)/128)), measured as K13 is: 5,000 processes
  // exchanging with random partners on the whole machine
  ...([[512, '512 B'], [1024, '1 KiB']] as const).map(([l, bytes]): Check => ({
    id: 'K12', machine: M, quantity: `t_ohd = l / (BW ceil((l-128)/128)), ${bytes} random pairs under load, 972 x 6 (5,000 exchanging)`, source: `${S} §6.1, Figure 5`,
    paper: { relation: 'about', value: 3, unit: 'us' }, tolerance: 0.25, toleranceWhy: UNDER_LOAD_WHY, kind: 'fitted', fittedParams: ['nic.smsgAckDelay', 'nic.smsgWindow'], tier: 'quick',
    measure: async (memo) => l / ((await memo(`load${l}`, () => fullLoad(String(l)))).mbs * Math.ceil((l - 128) / 128)),
  })),
  {
    id: 'K12', machine: M, quantity: 'bandwidth under load, 4 KiB (rendezvous) over 1 KiB (eager), 972 x 6 (5,000 exchanging)', source: `${S} §6.1, Figure 5`,
    paper: { relation: 'about', value: 1.9, unit: 'x' }, paperText: '85 MB/s at 4 KB, almost double the 1 KB rate', tolerance: 0.25, toleranceWhy: UNDER_LOAD_WHY, kind: 'fitted', fittedParams: ['nic.smsgAckDelay'], tier: 'long',
    measure: async (memo) => (await fullLoad('4KiB')).mbs / (await memo('load1024', () => fullLoad('1024'))).mbs,
  },
  ...([['4KiB', 85], ['64KiB', 85], ['128KiB', 60]] as const).map(([bytes, mbs]): Check => ({
    id: 'K13', machine: M, quantity: `random pairs under load, ${bytes}, 972 x 6 (5,000 exchanging)`, source: `${S} §6.1, Figure 5`,
    paper: { relation: 'about', value: mbs, unit: 'MB/s' }, tolerance: 0.25, toleranceWhy: UNDER_LOAD_WHY, ...k13Kind(bytes), tier: 'long',
    measure: async () => (await fullLoad(bytes)).mbs,
  })),
  {
    id: 'K14', machine: M, quantity: "a node's out-bound bandwidth: 3 x 2 GB/s x 0.8 x payload share", source: `${S} §6.1`,
    paper: { relation: 'about', value: 4, unit: 'GB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => nodeOutGBs(),
  },
  {
    id: 'K14', machine: M, quantity: 'the share of one of 6 processors', source: `${S} §6.1`,
    paper: { relation: 'about', value: 670, unit: 'MB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => (nodeOutGBs() * 1000) / PPN,
  },
  {
    id: 'K15', machine: M, quantity: 'average path of the 972-node fabric', source: `${S} §6.1`,
    paper: { relation: 'about', value: 5, unit: 'hops' }, kind: 'structure', tier: 'quick',
    measure: async (memo) => averageHops(memo),
  },
  {
    id: 'K15', machine: M, quantity: 'streams per link C = p s / (3N), p = 5,000', source: `${S} §6.1`,
    paper: { relation: 'about', value: 8.6, unit: '' }, kind: 'structure', tier: 'quick',
    measure: async (memo) => contention(memo),
  },
  {
    id: 'K15', machine: M, quantity: "the model's bandwidth per process, 670 MB/s / C", source: `${S} §6.1`,
    paper: { relation: 'about', value: 80, unit: 'MB/s' }, kind: 'structure', tier: 'quick',
    measure: async (memo) => 670 / (await contention(memo)),
  },
  ...([['4KiB', '3'], ['64KiB', '2']] as const).map(([bytes, rounds]): Check => ({
    id: 'K15', machine: M, quantity: `random pairs, ${bytes}, 108 x 6, against 670 MB/s / C (C from the run's hops)`, source: `${S} §6.1`,
    paper: { relation: 'about', value: 0, unit: 'MB/s' }, paperText: '670/C', tolerance: 0.25, toleranceWhy: SEED_MODEL_WHY, kind: 'predicted', tier: 'quick',
    measure: async () => {
      const r = await randpairs(108, { bytes, rounds, warmup: '1' });
      return { value: r.mbs, reference: model(r.ranks, r.hops, 108) };
    },
  })),
  {
    id: 'K16', machine: M, quantity: 'HPCC random ring bandwidth, 64 KiB, 972 x 6', source: `${S} §6`,
    paper: { relation: 'about', value: 50, unit: 'MB/s' }, kind: 'predicted', tier: 'long',
    measure: async () => num(rowWhere(await appRows({ app: 'randomring', machine: M, nodes: 972, ppn: PPN, params: { measure: 'bandwidth', patterns: '1', bytes: '64KiB' } }), 'ring', 'random'), 'bandwidthMBs'),
  },
  {
    // HPCC sizes the matrix to fill memory; n = 12,288 keeps the run to minutes and 6 GB. The seed
    // does not give the order of its nodes: ranks in the order of the model's node labels make the
    // transpose's fixed partners share links (190.8 GB/s against 221.3 at this n), so the ranks are placed at random
    id: 'K16', machine: M, quantity: 'HPCC PTRANS, n = 12,288, 972 x 6, ranks placed at random', source: `${S} §6`,
    paper: { relation: 'over', value: 210, unit: 'GB/s' }, kind: 'predicted', tier: 'long',
    measure: async () => num((await appRows({ app: 'ptrans', machine: M, nodes: 972, ppn: PPN, placement: 'random', params: { n: '12288' } }))[0], 'bandwidthGBs'),
  },
  {
    id: 'K16', machine: M, quantity: 'RandomAccess, optimised (bucket routing), 972 x 6', source: `${S} §6`,
    paper: { relation: 'over', value: 5, unit: 'GUPS' }, kind: 'predicted', tier: 'long',
    measure: async () => num((await appRows({ app: 'gups', machine: M, nodes: 972, ppn: PPN, params: { mode: 'bucket', updates: '1024', stages: '3' } }))[0], 'gups'),
  },
  {
    id: 'K17', machine: M, quantity: 'allreduce int32 MIN 256 KiB: 12 ranks over the slower of 8 and 16', source: `${S} §6.2`,
    paper: { relation: 'over', value: 1, unit: 'x' }, paperText: 'non-powers of two slower: over 1 x', kind: 'predicted', tier: 'quick',
    measure: async (memo) => (await allreduceUs(memo, 12)) / Math.max(await allreduceUs(memo, 8), await allreduceUs(memo, 16)),
  },
  {
    id: 'K17', machine: M, quantity: 'the same, 16 ranks over 8 (flat over powers of two)', source: `${S} §6.2`,
    paper: { relation: 'atMost', value: 1.5, unit: 'x' }, paperText: 'flat: 120-138 ms (test bound 1.5 x)', kind: 'predicted', tier: 'quick',
    measure: async (memo) => (await allreduceUs(memo, 16)) / (await allreduceUs(memo, 8)),
  },
  {
    // the README's 4 MiB series, one rank per node on as many nodes as ranks: 18.2 and 24.7 ms, 10 minutes
    id: 'K17', machine: M, quantity: 'allreduce int32 MIN 4 MiB: 128 ranks over 16, as many nodes as ranks', source: `${S} §6.2`,
    paper: { relation: 'atMost', value: 1.5, unit: 'x' }, paperText: 'flat: 120-138 ms (test bound 1.5 x)', kind: 'predicted', tier: 'long',
    measure: async () => (await allreduce4MiBUs(128)) / (await allreduce4MiBUs(16)),
  },
  {
    id: 'K18', machine: M, quantity: 'time between bit errors: 2,916 links x 9 lanes at 2 Gb/s, BER 1e-15', source: `${S} §3`,
    paper: { relation: 'exact', value: 1200, unit: 's' }, paperText: 'every 20 minutes', report: true, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const c = full();
      const g = topology(c).graph as KautzGraph;
      const links = g.routers * g.degree;
      const laneGbs = (c.rawLinkGBs.link * 8) / 8; // 8 data lanes
      return 1 / (links * 9 * laneGbs * 1e9 * 1e-15);
    },
  },
];
