/** Checks of the Cray XT4 (SeaStar) figures, seed 000_33d619e66e39f877.txt (ids S1-S13). */
import { checkDeadlockFreedom } from '../../fabric/deadlock.ts';
import { putRequestPhits } from '../../fabric/nic/packet-format.ts';
import { SEASTAR_GLUT_ENTRIES, SEASTAR_LUT_ENTRIES } from '../../fabric/routing/seastar-routing.ts';
import { buildSeastarTables } from '../../fabric/routing/seastar-tables.ts';
import { buildTorus } from '../../fabric/topology/torus.ts';
import { runTraffic } from '../../fabric/traffic.ts';
import type { Check, Memo } from './check.ts';
import { config, hopSlopeNs, portsByClass, topology, total } from './measure.ts';

const M = 'xt4';
const S = '000';
const cube = (): ReturnType<typeof config> => config(M, 64, { 'torus.dims': '4,4,4' });

/** Shares of nodes 0-6 of the delivered bandwidth, 8-node 1-D mesh, all to node 7 (seed 000 Figure 5). */
const shares = (memo: Memo, select: string): Promise<number[]> =>
  memo(`shares-${select}`, () => {
    const c = config(M, 8, { 'torus.dims': '8,1,1', 'torus.wrap': 'false,true,true', 'arbitration.ageRrSelect': select });
    const r = runTraffic(c, { pattern: 'hotspot', hotspot: 7, load: 1, windowUs: 40, warmupUs: 20, perSource: true });
    return r.sourceShares!.slice(0, 7);
  });
const RR = '0000000000000000';
/** Why S11 is held tighter than 15 %. */
const SHARES_WHY = 'round-robin gives exact shares (1/2, 1/4, ... 1/64): 10 %, as the arbitration test holds them';

export const xt4Checks: readonly Check[] = [
  {
    id: 'S1', machine: M, quantity: 'network ports + processor ports of a SeaStar', source: `${S} §2`,
    paper: { relation: 'exact', value: '6+1', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const c = cube();
      if (c.topology.kind !== 'torus') throw new Error('xt4 is not a torus');
      return `${total(portsByClass(topology(c), 0))}+${c.topology.config.nodesPerRouter}`;
    },
  },
  {
    id: 'S2', machine: M, quantity: 'virtual channels', source: `${S} §2`,
    paper: { relation: 'exact', value: 4, unit: 'VCs' }, kind: 'structure', tier: 'quick',
    measure: async () => topology(cube()).vcs,
  },
  {
    id: 'S3', machine: M, quantity: 'router delay per hop (router + wire latency)', source: `${S} §3`,
    paper: { relation: 'about', value: 50, unit: 'ns' }, kind: 'parameter', tier: 'quick',
    measure: async () => (cube().network.routerLatencyPs + cube().links.link.latencyPs) / 1000,
  },
  {
    id: 'S4', machine: M, quantity: 'link: 12 lanes at 3.2 Gb/s, per direction', source: `${S} §2`,
    paper: { relation: 'exact', value: 4.8, unit: 'GB/s' }, kind: 'parameter', tier: 'quick',
    measure: async () => cube().rawLinkGBs.link,
  },
  {
    id: 'S5', machine: M, quantity: 'input buffer per VC per input port', source: `${S} §2`,
    paper: { relation: 'exact', value: 96, unit: 'flits' }, kind: 'parameter', tier: 'quick',
    measure: async () => cube().network.inputBufferPhits,
  },
  {
    id: 'S7', machine: M, quantity: 'flit bits / flits of a 64-byte packet (header + 8 data)', source: `${S} §2`,
    paper: { relation: 'exact', value: '68/9', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => `${cube().nic.format.phitBits}/${putRequestPhits(cube().nic.format, 64)}`,
  },
  {
    id: 'S8', machine: M, quantity: 'global / local table entries per input port (16x16x17 torus: 2 partitions)', source: `${S} §4`,
    paper: { relation: 'exact', value: '8/4096', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const t = buildSeastarTables(buildTorus({ dims: [16, 16, 17], links: [1, 1, 1], nodesPerRouter: 1 }), [], { store: false });
      // 4,352 nodes: two global partitions, each LUT within the 4096 entries of the hardware
      if (t.partitions < 2 || t.partitions > SEASTAR_GLUT_ENTRIES) throw new Error(`${t.partitions} global partitions`);
      return `${SEASTAR_GLUT_ENTRIES}/${t.lutSize <= SEASTAR_LUT_ENTRIES ? SEASTAR_LUT_ENTRIES : t.lutSize}`;
    },
  },
  {
    id: 'S9', machine: M, quantity: 'dependency cycles of the tables with 3 broken links (4x4x4)', source: `${S} §4`,
    paper: { relation: 'exact', value: 'none', unit: '' }, kind: 'structure', tier: 'quick',
    measure: async () => {
      const c = config(M, 64, { 'torus.brokenLinks': 'x+@1.1.1,y-@2.0.3,z+@0.2.2' });
      const t = topology(c);
      const r = checkDeadlockFreedom(t.graph, t.route, t.vcs, { salts: 2 });
      return r.cycle === null ? 'none' : r.cycle.join(' -> ');
    },
  },
  {
    id: 'S10', machine: M, quantity: 'zero-load latency per hop, T = H t_r (slope of 8-byte puts)', source: `${S} §3`,
    paper: { relation: 'about', value: 50, unit: 'ns' }, kind: 'fitted', fittedParams: ['router.latency', 'link.latency'], tier: 'quick',
    measure: async () => (await hopSlopeNs(M, 64, [1, 2, 3, 5, 21, 42])).ns,
  },
  {
    id: 'S11', machine: M, quantity: "round-robin, all to node 7: node 6's share", source: `${S} §5, Figure 5`,
    paper: { relation: 'about', value: 0.5, unit: '' }, tolerance: 0.1, toleranceWhy: SHARES_WHY, kind: 'predicted', tier: 'quick',
    measure: async (memo) => (await shares(memo, RR))[6]!,
  },
  {
    id: 'S11', machine: M, quantity: "round-robin, all to node 7: node 0's share", source: `${S} §5, Figure 5`,
    paper: { relation: 'about', value: 1 / 64, unit: '' }, paperText: 'about 1/64', tolerance: 0.1, toleranceWhy: SHARES_WHY, kind: 'predicted', tier: 'quick',
    measure: async (memo) => (await shares(memo, RR))[0]!,
  },
  {
    id: 'S12', machine: M, quantity: "worst case L/(2n)^H for node 0 (n = 1, H = 7) beside its share", source: `${S} §5`,
    paper: { relation: 'exact', value: 1 / 128, unit: '' }, paperText: 'L/(2n)^H = 1/128', report: true, kind: 'predicted', tier: 'quick',
    measure: async (memo) => (await shares(memo, RR))[0]!,
  },
  {
    id: 'S13', machine: M, quantity: 'REQ_AGE_BIAS / RSP_AGE_BIAS / AGE_RR_SELECT bits', source: `${S} §5`,
    paper: { relation: 'exact', value: '1/1/64', unit: '' }, kind: 'parameter', tier: 'quick',
    measure: async () => {
      const a = cube().network.age!;
      return `${a.requestBias}/${a.responseBias}/${a.select.length}`;
    },
  },
  {
    id: 'S13', machine: M, quantity: 'AGE_CLOCK_PERIOD', source: `${S} §5`,
    paper: { relation: 'range', value: 2, high: 8e9, unit: 'ns' }, paperText: '2 ns to over 8 s', kind: 'parameter', tier: 'quick',
    measure: async () => cube().network.age!.clockPeriodPs / 1000,
  },
];
