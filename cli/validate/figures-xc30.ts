/** Checks of the Cray XC (Aries) figures, seed 001_68348b17bd328203.txt (ids A1-A28). */
import { machineSpec, rawLinkGBs } from '../../fabric/machine.ts';
import { undetectedErrorsPerSecond } from '../../fabric/link-errors.ts';
import { buildCeTree } from '../../fabric/nic/collective-engine.ts';
import { getResponsePhits, putRequestPhits } from '../../fabric/nic/packet-format.ts';
import { maxCablesPerPair, type DragonflyConfig, type DragonflyGraph } from '../../fabric/topology/dragonfly.ts';
import { routerDistances } from '../../fabric/topology/port-graph.ts';
import type { Check } from './check.ts';
import { appRows, config, hopSlopeNs, metrics, num, portsByClass, rowWhere, topology } from './measure.ts';

const M = 'xc30';
const S = '001';
const PERF = `${S} "Aries Performance"`;
const CONF = `${S} "Configuration"`;
/** Node 4 sits on the Aries next to node 0's, one green hop away (as the calibration tests measure). */
const GREEN = '4';
const group = (): ReturnType<typeof config> => config(M, 384);
const dragonfly = (): DragonflyConfig => {
  const t = group().topology;
  if (t.kind !== 'dragonfly') throw new Error('xc30 is not a dragonfly');
  return t.config;
};
const param = (key: string): string => String(machineSpec(M).params[key]!.value);
/** `phit topo xc30 --groups G [--cables-per-pair C]` figures. */
const topo = (groups: number, cables?: number): ReturnType<typeof metrics> =>
  metrics(M, groups * 384, { 'dragonfly.groups': String(groups), ...(cables === undefined ? {} : { 'dragonfly.cablesPerPair': String(cables) }) });
/** Payload efficiency of a 64-byte put on an Aries link: payload over request and response flits, times the LCB efficiency. */
const payloadEfficiency = (): number => {
  const c = group();
  const f = c.nic.format;
  return (64 / ((putRequestPhits(f, 64) + f.responsePhits) * (f.phitBits / 8))) * (f.phitBits / 8 / c.links.link.phitPs / (c.rawLinkGBs.link / 1000));
};

/** Seconds in a year (365.25 days). */
const YEAR_S = 365.25 * 86400;

/** Why A27's range of random-AMO rates is widened. */
const AMO_RANGE_WHY = 'a range of measured rates: its ends widened by the 15 % SEED-FIGURES.md gives a measured figure';

const putget = async (nodes: number, ppn: number, params: Record<string, string>, set: Record<string, string> = {}): Promise<ReturnType<typeof appRows>> =>
  appRows({ app: 'putget', machine: M, nodes, ppn, params, set });
const rate = async (app: string, nodes: number, ppn: number, params: Record<string, string>, set: Record<string, string> = {}): Promise<number> =>
  num((await appRows({ app, machine: M, nodes, ppn, params, set }))[0], 'rateMps');
const allreduceUs = async (algorithm: string): Promise<number> =>
  num((await appRows({ app: 'allreduce', machine: M, nodes: 750, ppn: 16, params: { minBytes: '8', maxBytes: '8', algorithm, iterations: '1', warmup: '0' } }))[0], 'latencyUs');

export const xc30Checks: readonly Check[] = [
  {
    id: 'A1', machine: M, quantity: 'Aries / nodes in a group (6 chassis x 16 blades x 4 nodes)', source: `${S} "Dragonfly Implementation"`,
    paper: { relation: 'exact', value: '96/384', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const t = topo(1);
      return `${t.routers}/${t.nodes}`;
    },
  },
  {
    id: 'A1', machine: M, quantity: 'most groups (a pair of groups needs one cable)', source: CONF,
    paper: { relation: 'exact', value: 241, unit: 'groups' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const d = dragonfly();
      let g = 2;
      while (maxCablesPerPair({ ...d, groups: g + 1 }) >= 1) g++;
      return g;
    },
  },
  {
    id: 'A2', machine: M, quantity: 'network ports of an Aries (40 network tiles)', source: `${S} "Aries"`,
    paper: { relation: 'exact', value: 40, unit: 'ports' }, kind: 'structure', tier: 'quick',
    // every port of the router but the NIC ports: green, black and global (wired or not)
    measure: async () => topology(group()).graph.radix - dragonfly().nodesPerRouter,
  },
  {
    id: 'A2', machine: M, quantity: 'processor tiles a NIC injects through (4 shared by NIC0/1)', source: `${S} "Aries"`,
    paper: { relation: 'exact', value: 4, unit: 'tiles' }, kind: 'parameter', tier: 'quick',
    measure: async () => Number(param('netlink.tiles')),
  },
  {
    id: 'A3', machine: M, quantity: 'green / black / global links per Aries', source: `${S} "Dragonfly Implementation"`,
    paper: { relation: 'exact', value: '15/15/10', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const p = portsByClass(topology(group()), 0);
      return `${p.green}/${p.black}/${dragonfly().globalPorts}`;
    },
  },
  {
    id: 'A4', machine: M, quantity: 'electrical link: 3 lanes at 14 Gb/s, per direction', source: `${S} "Aries"`,
    paper: { relation: 'exact', value: 5.25, unit: 'GB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => group().rawLinkGBs.link,
  },
  {
    id: 'A4', machine: M, quantity: 'optical cable (4 links of 3 lanes at 12.5 Gb/s), per direction', source: `${S} "Aries"`,
    paper: { relation: 'exact', value: 18.75, unit: 'GB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => config(M, 768).rawLinkGBs.optical! * dragonfly().linksPerCable,
  },
  {
    id: 'A5', machine: M, quantity: 'processor tile: a 48-bit flit per clock at 875 MHz', source: `${S} "Aries"`,
    paper: { relation: 'exact', value: 5.25, unit: 'GB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const c = group();
      return (c.nic.format.phitBits / 8 / (c.network.injectPhitPs * Number(param('netlink.tiles')))) * 1000;
    },
  },
  {
    id: 'A6', machine: M, quantity: 'NIC: one 64 B read or write every 5 cycles at 800 MHz', source: `${S} "Aries"`,
    paper: { relation: 'about', value: 10.2, unit: 'GB/s' }, tolerance: 0.01, toleranceWhy: "the paper's arithmetic (64 B x 800 MHz / 5 = 10.24 GB/s), not a measurement: 1 % for its rounding", kind: 'parameter', tier: 'quick',
    measure: async () => (64 / group().nic.packetPs) * 1000,
  },
  {
    id: 'A7', machine: M, quantity: 'PCIe Gen3 x16 peak / overhead per transfer', source: `${S} "Aries"`,
    paper: { relation: 'exact', value: '16 GB/s, 24 B', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => `${group().nic.hostBytesPerPs * 1000} GB/s, ${group().nic.hostWriteOverheadBytes} B`,
  },
  {
    id: 'A7', machine: M, quantity: 'symmetric bulk puts (1 MiB both ways), per direction', source: `${S} "Aries"`,
    paper: { relation: 'about', value: 8, unit: 'GB/s' }, kind: 'predicted', tier: 'quick',
    measure: async (memo) => memo('bidir', async () => num((await putget(8, 1, { target: GREEN, minBytes: '1MiB', maxBytes: '1MiB', bidirectional: '1' }))[0], 'bandwidthGBs') / 2),
  },
  {
    id: 'A8', machine: M, quantity: 'flits: 64 B put request / response / 64 B get request / response', source: PERF,
    paper: { relation: 'exact', value: '14/1/3/12', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const f = group().nic.format;
      return [putRequestPhits(f, 64), f.responsePhits, f.readRequestPhits, getResponsePhits(f, 64)].join('/');
    },
  },
  {
    id: 'A8', machine: M, quantity: 'payload efficiency of 64-byte puts (with 1 LCB flit in 10)', source: PERF,
    paper: { relation: 'about', value: 0.64, unit: '' }, tolerance: 0.01, toleranceWhy: "the paper's arithmetic (64 B in 15 flits of 6 B, x 0.9 = 0.64), not a measurement: 1 % for its rounding", kind: 'parameter', tier: 'quick',
    measure: async () => payloadEfficiency(),
  },
  {
    id: 'A9', machine: M, quantity: 'longest minimal path, full 6-group system (48 cables per pair)', source: `${S} "Cray XC Routing"`,
    paper: { relation: 'exact', value: 3, unit: 'hops' }, kind: 'structure', tier: 'quick',
    measure: async () => topo(6).diameter,
  },
  {
    id: 'A10', machine: M, quantity: "adaptive routing: one node's 1 MiB puts over its minimal link's payload rate", source: `${S} "Cray XC Routing"`,
    paper: { relation: 'over', value: 1, unit: 'x' }, paperText: 'lightest of 2 minimal + 2 non-minimal: over 1 x', kind: 'fitted', fittedParams: ['routing.adaptiveBias'], tier: 'quick',
    measure: async () => {
      const bw = num((await putget(8, 1, { target: GREEN, minBytes: '1MiB', maxBytes: '1MiB', ops: 'put' }))[0], 'bandwidthGBs');
      return bw / (group().rawLinkGBs.link * payloadEfficiency());
    },
  },
  {
    id: 'A11', machine: M, quantity: 'virtual channels (request + response)', source: `${S} "Cray XC Routing"`,
    paper: { relation: 'exact', value: 8, unit: 'VCs' }, kind: 'structure', tier: 'quick',
    measure: async () => topology(group()).vcs,
  },
  {
    id: 'A12', machine: M, quantity: 'bits of a node id on the largest system (241 groups x 384 nodes)', source: `${S} "Address Translation"`,
    paper: { relation: 'atMost', value: 18, unit: 'bits' }, kind: 'structure', tier: 'quick',
    measure: async () => Math.ceil(Math.log2(241 * dragonfly().chassis * dragonfly().routersPerChassis * dragonfly().nodesPerRouter)),
  },
  {
    id: 'A13', machine: M, quantity: 'IOMMU PTE cache', source: `${S} "Address Translation"`,
    paper: { relation: 'exact', value: '128 entries x 8 PTEs, 4-way', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const n = group().nic;
      return `${n.pteEntries} entries x ${n.ptesPerEntry} PTEs, ${n.pteWays}-way`;
    },
  },
  {
    id: 'A14', machine: M, quantity: 'FMA descriptors / BTE transfers at once / outstanding packets / AMO cache / cycles per AMO', source: `${S} "Remote Memory Access"`,
    paper: { relation: 'exact', value: '127/4/1024/64/2', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const n = group().nic;
      return [n.fmaDescriptors, n.bteChannels, n.maxOutstandingPackets, n.amoCacheEntries, n.amoOpPs / n.cyclePs].join('/');
    },
  },
  {
    id: 'A15', machine: M, quantity: 'collective engine: virtual CEs per NIC / tree radix', source: `${S} "Reductions and Barriers"`,
    paper: { relation: 'exact', value: '4/32', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => `${group().nic.ceEngines}/${group().nic.ceRadix}`,
  },
  {
    id: 'A15', machine: M, quantity: 'nodes a CE tree of radix 32 reaches at depth 3', source: `${S} "Reductions and Barriers"`,
    paper: { relation: 'exact', value: 3, unit: 'levels' }, paperText: 'depth 3 covers most systems', report: true, kind: 'structure', tier: 'quick', modelUnit: 'nodes',
    measure: async () => {
      // the largest node count whose tree has depth 3 (binary search: depth grows with the count)
      const depth = (n: number): number => buildCeTree(Array.from({ length: n }, (_, i) => i), group().nic.ceRadix).depth;
      let lo = 1;
      let hi = 1 << 20;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (depth(mid) <= 3) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
  },
  {
    id: 'A16', machine: M, quantity: 'optical cables per group (960 global links / 4)', source: CONF,
    paper: { relation: 'exact', value: 240, unit: 'cables' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const d = dragonfly();
      return Math.floor((d.chassis * d.routersPerChassis * d.globalPorts) / d.linksPerCable);
    },
  },
  {
    id: 'A16', machine: M, quantity: 'most cables per pair of groups, 6 / 8 groups', source: CONF,
    paper: { relation: 'exact', value: '48/34', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => `${maxCablesPerPair({ ...dragonfly(), groups: 6 })}/${maxCablesPerPair({ ...dragonfly(), groups: 8 })}`,
  },
  ...([[6, 12, 180], [8, 12, 336]] as const).map(([g, c, total]): Check => ({
    id: 'A17', machine: M, quantity: `Table 2: optical cables, ${g} groups x ${c} cables per pair`, source: `${CONF}, Table 2`,
    paper: { relation: 'exact', value: total, unit: 'cables' }, kind: 'structure', tier: 'quick',
    measure: async () => topo(g, c).globalCables ?? -1,
  })),
  ...([[6, 12, '180/108/4050'], [6, 48, '720/432/16200'], [8, 12, '336/192/7200'], [8, 34, '952/544/20400']] as const).map(([g, c, row]): Check => ({
    id: 'A18', machine: M, quantity: `Table 3, ${g} groups x ${c}: cables / crossing the bisection / GB/s`, source: `${CONF}, Table 3`,
    paper: { relation: 'exact', value: row, unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const t = topo(g, c);
      return `${t.globalCables}/${t.bisectionLinks}/${Number(t.bisectionGBs.toFixed(3))}`;
    },
  })),
  {
    id: 'A19', machine: M, quantity: 'green bisection of a group: 384 links x 5.25 GB/s x 2', source: CONF,
    paper: { relation: 'exact', value: 4032, unit: 'GB/s' }, kind: 'structure', tier: 'quick',
    measure: async () => topo(1).bisectionGBs,
  },
  {
    id: 'A19', machine: M, quantity: 'black links crossing a group cut between chassis 0-2 and 3-5', source: CONF,
    paper: { relation: 'exact', value: 432, unit: 'links' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const g = topology(group()).graph as DragonflyGraph;
      let n = 0;
      for (let gp = 0; gp < g.routers * g.radix; gp++) {
        const peer = g.peerRouter[gp]!;
        if (peer < 0 || g.classNames[g.portClass[gp]!] !== 'black') continue;
        const r = Math.floor(gp / g.radix);
        if (g.routerChassis[r]! < 3 && g.routerChassis[peer]! >= 3) n++;
      }
      return n;
    },
  },
  {
    id: 'A20', machine: M, quantity: 'peak global bandwidth per node, full 6-group system', source: CONF,
    paper: { relation: 'about', value: 11.7, unit: 'GB/s' }, tolerance: 0.01, toleranceWhy: "the paper's arithmetic on the cabling (global links per node x 4.69 GB/s), not a measurement: 1 % for its rounding", kind: 'structure', tier: 'quick',
    measure: async (memo) => memo('g6', () => topo(6).globalGBsPerNode ?? -1),
  },
  {
    id: 'A20', machine: M, quantity: 'the same after payload efficiency', source: CONF,
    paper: { relation: 'about', value: 7.5, unit: 'GB/s' }, tolerance: 0.01, toleranceWhy: "the paper's arithmetic (11.7 GB/s x 0.64), not a measurement: 1 % for its rounding", kind: 'structure', tier: 'quick',
    measure: async (memo) => (await memo('g6', () => topo(6).globalGBsPerNode ?? -1)) * payloadEfficiency(),
  },
  {
    id: 'A21', machine: M, quantity: '8-byte put, one green hop', source: PERF,
    paper: { relation: 'about', value: 0.8, unit: 'us' }, kind: 'fitted', fittedParams: ['host.latency'], tier: 'quick',
    measure: async (memo) => num(rowWhere(await memo('put', () => putget(8, 1, { target: GREEN, minBytes: '8', maxBytes: '128', ops: 'put' })), 'bytes', 8), 'latencyUs'),
  },
  {
    id: 'A21', machine: M, quantity: '128-byte put over 8-byte put ("little extra")', source: PERF,
    paper: { relation: 'atMost', value: 1.1, unit: 'x' }, paperText: 'little extra (test bound 1.1 x)', kind: 'predicted', tier: 'quick',
    measure: async (memo) => {
      const rows = await memo('put', () => putget(8, 1, { target: GREEN, minBytes: '8', maxBytes: '128', ops: 'put' }));
      return num(rowWhere(rows, 'bytes', 128), 'latencyUs') / num(rowWhere(rows, 'bytes', 8), 'latencyUs');
    },
  },
  {
    id: 'A21', machine: M, quantity: '8-byte get, one green hop', source: PERF,
    paper: { relation: 'about', value: 1.6, unit: 'us' }, kind: 'fitted', fittedParams: ['host.memoryReadLatency', 'host.latency'], tier: 'quick',
    measure: async () => num((await putget(8, 1, { target: GREEN, minBytes: '8', maxBytes: '8', ops: 'get' }))[0], 'latencyUs'),
  },
  {
    id: 'A21', machine: M, quantity: '8-byte MPI message one way, one green hop', source: `${PERF}, Figure 14`,
    paper: { relation: 'about', value: 1.3, unit: 'us' }, kind: 'predicted', tier: 'quick',
    measure: async () => num((await appRows({ app: 'pingpong', machine: M, nodes: 8, params: { peer: GREEN, minBytes: '8', maxBytes: '8' } }))[0], 'latencyUs'),
  },
  {
    id: 'A22', machine: M, quantity: 'one-way latency per router hop (slope of 8-byte puts, 2 groups)', source: PERF,
    paper: { relation: 'about', value: 100, unit: 'ns' }, kind: 'fitted', fittedParams: ['router.latency', 'link.latency'], tier: 'quick',
    measure: async (memo) => (await memo('slope', () => hopSlopeNs(M, 768, [1, 4, 64, 68, 400, 700]))).ns,
  },
  {
    id: 'A22', machine: M, quantity: 'router hops of the longest minimal route measured x per-hop latency', source: PERF,
    paper: { relation: 'atMost', value: 500, unit: 'ns' }, kind: 'fitted', fittedParams: ['router.latency', 'link.latency', 'optical.latency'], tier: 'quick',
    measure: async (memo) => {
      const s = await memo('slope', () => hopSlopeNs(M, 768, [1, 4, 64, 68, 400, 700]));
      return s.ns * s.maxHops;
    },
  },
  {
    id: 'A22', machine: M, quantity: '8-byte MPI latency to the farthest node, 6 groups x 12 cables', source: PERF,
    paper: { relation: 'under', value: 2, unit: 'us' }, kind: 'fitted', fittedParams: ['router.latency', 'link.latency', 'optical.latency'], tier: 'quick',
    measure: async () => {
      const c = config(M, 2304, { 'dragonfly.groups': '6', 'dragonfly.cablesPerPair': '12' });
      const g = topology(c).graph;
      const d = routerDistances(g, g.nodeRouter[0]!);
      let far = 1;
      for (let n = 1; n < g.nodes; n++) if (d[g.nodeRouter[n]!]! > d[g.nodeRouter[far]!]!) far = n;
      return num((await appRows({ app: 'pingpong', machine: M, nodes: 2304, set: { 'dragonfly.groups': '6', 'dragonfly.cablesPerPair': '12' }, params: { peer: String(far), minBytes: '8', maxBytes: '8', iterations: '2' } }))[0], 'latencyUs');
    },
  },
  {
    id: 'A23', machine: M, quantity: '1 MiB puts to the green neighbour, one direction', source: `${PERF}, Figure 12`,
    paper: { relation: 'about', value: 10, unit: 'GB/s' }, kind: 'fitted', fittedParams: ['routing.adaptiveBias', 'bte.readsInFlight'], tier: 'quick',
    measure: async () => num((await putget(8, 1, { target: GREEN, minBytes: '1MiB', maxBytes: '1MiB', ops: 'put' }))[0], 'bandwidthGBs'),
  },
  {
    id: 'A23', machine: M, quantity: '1 MiB puts both ways at once, total', source: `${PERF}, Figure 12`,
    paper: { relation: 'over', value: 15, unit: 'GB/s' }, kind: 'fitted', fittedParams: ['routing.adaptiveBias', 'bte.readsInFlight'], tier: 'quick',
    measure: async () => num((await putget(8, 1, { target: GREEN, minBytes: '1MiB', maxBytes: '1MiB', bidirectional: '1' }))[0], 'bandwidthGBs'),
  },
  {
    id: 'A23', machine: M, quantity: '128-byte puts, 6 processes per node (half of the 10 GB/s peak)', source: `${PERF}, Figure 12`,
    paper: { relation: 'about', value: 5, unit: 'GB/s' }, kind: 'predicted', tier: 'quick',
    measure: async () => num(rowWhere(await putget(8, 6, { target: '24', minBytes: '128', maxBytes: '128', pairs: 'node' }), 'bytes', 128), 'bandwidthGBs'),
  },
  {
    id: 'A24', machine: M, quantity: '8-byte put rate per node, vMDH (24 processes)', source: `${PERF}, Figure 13`,
    paper: { relation: 'about', value: 120, unit: 'M/s' }, kind: 'fitted', fittedParams: ['fma.op'], tier: 'quick',
    measure: async () => rate('putrate', 4, 24, { puts: '200', warmup: '50' }),
  },
  {
    id: 'A24', machine: M, quantity: 'the same when the MDH changes per request', source: `${PERF}, Figure 13`,
    paper: { relation: 'about', value: 80, unit: 'M/s' }, kind: 'fitted', fittedParams: ['fma.mdhChange', 'fma.op'], tier: 'quick',
    measure: async () => rate('putrate', 4, 24, { puts: '200', warmup: '50' }, { 'dmapp.vmdh': 'no' }),
  },
  {
    id: 'A24', machine: M, quantity: '8-byte put rate of one process', source: `${PERF}, Figure 13`,
    paper: { relation: 'about', value: 7.5, unit: 'M/s' }, kind: 'fitted', fittedParams: ['dmapp.overhead'], tier: 'quick',
    measure: async () => rate('putrate', 4, 1, { puts: '200', warmup: '50' }),
  },
  {
    id: 'A25', machine: M, quantity: 'IMB ping-pong bandwidth, 4 MiB', source: `${PERF}, Figure 14`,
    paper: { relation: 'about', value: 8.5, unit: 'GB/s' }, kind: 'fitted', fittedParams: ['bte.getBandwidth'], tier: 'quick',
    measure: async () => num((await appRows({ app: 'pingpong', machine: M, nodes: 8, params: { peer: GREEN, minBytes: '4MiB', maxBytes: '4MiB', iterations: '2' } }))[0], 'bandwidthGBs'),
  },
  {
    id: 'A25', machine: M, quantity: 'streaming bandwidth (OSU style, window 8), 1 MiB', source: `${PERF}, Figure 14`,
    paper: { relation: 'about', value: 9.7, unit: 'GB/s' }, kind: 'fitted', fittedParams: ['bte.getBandwidth'], tier: 'quick',
    measure: async () => num((await appRows({ app: 'pingpong', machine: M, nodes: 8, params: { peer: GREEN, mode: 'stream', window: '8', minBytes: '1MiB', maxBytes: '1MiB', iterations: '1' } }))[0], 'bandwidthGBs'),
  },
  {
    id: 'A26', machine: M, quantity: '8-byte allreduce, 750 nodes x 16, collective engine', source: `${S} "Reductions and Barriers", Figure 15`,
    paper: { relation: 'under', value: 10, unit: 'us' }, kind: 'fitted', fittedParams: ['ce.op'], tier: 'quick',
    measure: async (memo) => memo('ce', () => allreduceUs('collectiveEngine')),
  },
  {
    id: 'A26', machine: M, quantity: 'the same with the library\'s software algorithm (node-aware, over the engine)', source: `${S} Figure 15`,
    paper: { relation: 'over', value: 1, unit: 'x' }, paperText: 'slower: over 1 x', kind: 'predicted', tier: 'long',
    measure: async (memo) => (await memo('sw', () => allreduceUs('auto'))) / (await memo('ce', () => allreduceUs('collectiveEngine'))),
  },
  {
    id: 'A26', machine: M, quantity: 'the library\'s software allreduce within the axis of Figure 15', source: `${S} Figure 15`,
    paper: { relation: 'atMost', value: 35, unit: 'us' }, kind: 'fitted', fittedParams: ['mpi.collectiveStep'], tier: 'long',
    measure: async (memo) => memo('sw', () => allreduceUs('auto')),
  },
  {
    id: 'A27', machine: M, quantity: 'AMOs on one cached variable (63 ranks to rank 0)', source: PERF,
    paper: { relation: 'about', value: 400, unit: 'M/s' }, kind: 'fitted', fittedParams: ['amo.op'], tier: 'quick',
    measure: async () => rate('amorate', 8, 8, { vars: '1', amos: '200', warmup: '50' }),
  },
  {
    id: 'A27', machine: M, quantity: 'AMOs on 8192 random variables, 2 MiB pages', source: PERF,
    paper: { relation: 'range', value: 50, high: 120, unit: 'M/s' }, tolerance: 0.15, toleranceWhy: AMO_RANGE_WHY, kind: 'fitted', fittedParams: ['amo.fill'], tier: 'quick',
    measure: async () => rate('amorate', 8, 8, { vars: '8192', amos: '200', warmup: '50' }),
  },
  {
    id: 'A27', machine: M, quantity: 'AMOs on 8192 random variables over 64 MiB, 4 KiB pages', source: PERF,
    paper: { relation: 'range', value: 50, high: 120, unit: 'M/s' }, tolerance: 0.15, toleranceWhy: AMO_RANGE_WHY, kind: 'predicted', tier: 'quick',
    measure: async () => rate('amorate', 8, 8, { vars: '8192', amos: '200', warmup: '50', arrayBytes: '64MiB' }, { 'dmapp.heapPage': '4KiB' }),
  },
  {
    // the seed's formula over the model's links: every lane of every router-to-router link of a
    // 25,000-node machine sends 60-byte CRC blocks all the time; a block with 4 or more bit
    // errors (link.crcDistance) passes its 20-bit CRC with probability 2^-20
    id: 'A28', machine: M, quantity: 'years between undetected link errors, 25,000 nodes at BER 1e-7 (20-bit CRC per 60 B)', source: `${S} "Network Reliability"`,
    paper: { relation: 'atLeast', value: 7250, unit: 'years' }, paperText: 'under one undetected error in 7,250 years', kind: 'fitted', fittedParams: ['link.crcDistance'], tier: 'quick',
    measure: async () => {
      const c = config(M, 25000, { 'link.ber': '1e-7' });
      return 1 / (undetectedErrorsPerSecond(c.linkErrors, topology(c).graph, (cls) => rawLinkGBs(c, cls)) * YEAR_S);
    },
  },
];
