import type { ClosGraph } from './clos.ts';
import type { DragonflyGraph } from './dragonfly.ts';
import { kautzBisectionBound, type KautzGraph } from './kautz.ts';
import { routerDistances, type PortGraph } from './port-graph.ts';
import type { TorusGraph } from './torus.ts';

/** Structural figures of a built topology (what `phit topo` prints). */
export interface TopologyMetrics {
  readonly routers: number;
  readonly nodes: number;
  /** Router-to-router links per link class (a bidirectional link counts once; torus x+/x- count as x). */
  readonly linksPerClass: Readonly<Record<string, number>>;
  /** Largest router-to-router hop count between two nodes (shortest paths). */
  readonly diameter: number;
  /** Mean router-to-router hops over all ordered pairs of distinct nodes. */
  readonly averageHops: number;
  /** True when averageHops comes from a deterministic sample of source routers (large systems). */
  readonly averageHopsSampled: boolean;
  /** What crosses the bisection, counted as the seed counts it (links, or optical cables). */
  readonly bisectionLinks: number;
  readonly bisectionUnit: 'links' | 'cables';
  /** Bisection bandwidth, both directions (GB/s). */
  readonly bisectionGBs: number;
  /** True when the bisection figures are a bound rather than the exact minimum cut. */
  readonly bisectionIsBound: boolean;
  /** Dragonfly: optical cables in the global network (seed 001 Table 2). */
  readonly globalCables: number | null;
  /** Dragonfly: peak global bandwidth per node (seed 001, A20). */
  readonly globalGBsPerNode: number | null;
}

const SAMPLE_ABOVE = 4096;
const SAMPLES = 512;

/** Raw bandwidth of a link (GB/s per direction, before link-layer efficiency). */
export type RawLinkGBs = (className: string) => number;

/** Computes the metrics of a port graph; `rawGBs` gives each link class's raw bandwidth. */
export function topologyMetrics(g: PortGraph, rawGBs: RawLinkGBs): TopologyMetrics {
  const linksPerClass: Record<string, number> = {};
  for (let gp = 0; gp < g.routers * g.radix; gp++) {
    if (g.peerRouter[gp]! < 0) continue;
    const name = g.classNames[g.portClass[gp]!]!.replace(/[+-]$/, '');
    // a two-way link is seen from both ends; a one-way link only from its output
    linksPerClass[name] = (linksPerClass[name] ?? 0) + (g.directed ? 1 : 0.5);
  }
  const nodesAt = new Int32Array(g.routers);
  for (let n = 0; n < g.nodes; n++) nodesAt[g.nodeRouter[n]!]!++;
  const sources: number[] = [];
  const occupied: number[] = [];
  for (let r = 0; r < g.routers; r++) if (nodesAt[r]! > 0) occupied.push(r);
  const sampled = occupied.length > SAMPLE_ABOVE;
  if (sampled) {
    for (let i = 0; i < SAMPLES; i++) sources.push(occupied[Math.floor((i * occupied.length) / SAMPLES)]!);
  } else {
    sources.push(...occupied);
  }
  let diameter = 0;
  let sum = 0;
  let pairs = 0;
  for (const s of sources) {
    const d = routerDistances(g, s);
    const ns = nodesAt[s]!;
    for (const t of occupied) {
      const dist = d[t]!;
      if (dist < 0) throw new Error(`topology is disconnected: router ${t} is unreachable from router ${s}`);
      const nt = nodesAt[t]!;
      const count = s === t ? ns * (ns - 1) : ns * nt;
      if (count === 0) continue;
      if (dist > diameter) diameter = dist;
      sum += dist * count;
      pairs += count;
    }
  }
  const base = { routers: g.routers, nodes: g.nodes, linksPerClass, diameter, averageHops: pairs ? sum / pairs : 0, averageHopsSampled: sampled };
  if (g.topology === 'dragonfly') return { ...base, ...dragonflyBisection(g as DragonflyGraph, rawGBs) };
  if (g.topology === 'kautz') {
    // seed 002 Table 1 gives the best known lower bound on the bisection width, (d+1) d^k / 2k directed links
    const k = g as KautzGraph;
    const links = Math.floor(kautzBisectionBound(k.degree, k.diameter));
    return { ...base, bisectionLinks: links, bisectionUnit: 'links', bisectionGBs: links * rawGBs('out'), bisectionIsBound: true, globalCables: null, globalGBsPerNode: null };
  }
  if (g.topology === 'torus') return { ...base, ...torusBisection(g as TorusGraph, rawGBs), globalCables: null, globalGBsPerNode: null };
  if (g.topology === 'clos') return { ...base, ...closBisection(g as ClosGraph, rawGBs), globalCables: null, globalGBsPerNode: null };
  return { ...base, bisectionLinks: 0, bisectionUnit: 'links', bisectionGBs: 0, bisectionIsBound: true, globalCables: null, globalGBsPerNode: null };
}

/**
 * Torus bisection: cutting a dimension of even size k in half cuts 2 (torus) or 1 (mesh) rings'
 * worth of links per line; the minimum over the dimensions that can be halved is exact for a
 * torus or mesh. With no even dimension the smallest near-half cut is reported as a bound.
 */
function torusBisection(g: TorusGraph, rawGBs: RawLinkGBs): Pick<TopologyMetrics, 'bisectionLinks' | 'bisectionUnit' | 'bisectionGBs' | 'bisectionIsBound'> {
  let best = Infinity;
  let exact = false;
  for (let d = 0; d < g.dims.length; d++) {
    const k = g.dims[d]!;
    if (k < 2) continue;
    const lines = g.routers / k;
    const cut = (g.wrap[d] && k > 2 ? 2 : 1) * lines * g.links[d]!;
    if (cut < best || (cut === best && k % 2 === 0)) {
      best = cut;
      exact = k % 2 === 0;
    }
  }
  if (!Number.isFinite(best)) return { bisectionLinks: 0, bisectionUnit: 'links', bisectionGBs: 0, bisectionIsBound: false };
  return { bisectionLinks: best, bisectionUnit: 'links', bisectionGBs: 2 * best * rawGBs('x+'), bisectionIsBound: !exact };
}

/**
 * Dragonfly bisection as seed 001 computes it ("Configuration", Table 3): the cables between
 * the two halves of the groups, each carrying linksPerCable global links in each direction.
 * One group: the smaller of the green and black cuts (A19: 384 green links, 432 black).
 */
function dragonflyBisection(g: DragonflyGraph, rawGBs: RawLinkGBs): Omit<TopologyMetrics, 'routers' | 'nodes' | 'linksPerClass' | 'diameter' | 'averageHops' | 'averageHopsSampled'> {
  const c = g.config;
  const G = c.groups;
  const cableGBs = c.linksPerCable * rawGBs('global');
  const nodesPerGroup = c.chassis * c.routersPerChassis * c.nodesPerRouter;
  const totalCables = (c.cablesPerPair * G * (G - 1)) / 2;
  if (G === 1) {
    const R = c.routersPerChassis;
    const green = c.chassis * Math.floor(R / 2) * Math.ceil(R / 2);
    const black = Math.floor(c.chassis / 2) * Math.ceil(c.chassis / 2) * R * c.blackLinks;
    const links = Math.min(green, black);
    const cls = links === green ? 'green' : 'black';
    const exact = R % 2 === 0 && c.chassis % 2 === 0;
    return { bisectionLinks: links, bisectionUnit: 'links', bisectionGBs: 2 * links * rawGBs(cls), bisectionIsBound: !exact, globalCables: 0, globalGBsPerNode: 0 };
  }
  const cables = Math.floor(G / 2) * Math.ceil(G / 2) * c.cablesPerPair;
  return {
    bisectionLinks: cables,
    bisectionUnit: 'cables',
    bisectionGBs: 2 * cables * cableGBs,
    // the seed takes the group-level cut; the electrical cuts inside groups are far larger
    bisectionIsBound: G % 2 !== 0,
    globalCables: totalCables,
    globalGBsPerNode: (c.cablesPerPair * (G - 1) * cableGBs) / nodesPerGroup,
  };
}

/**
 * Folded-Clos bisection (seed 003, §2.2), per slice times the slices. A full fat tree (ranks 2
 * and 3) carries half its processors' bandwidth across any halving: floor(N / 2) links, exact
 * when the R1 routers are full and even in number. Where subtrees are joined by sidelinks
 * (ranks 1.5, 2.5, 3.5), splitting the subtrees in halves cuts floor(S/2) ceil(S/2) x links per
 * peer x routers per subtree at that level; the smaller of that and floor(N / 2) is a bound (a
 * cut that splits subtrees could be smaller). Rank 1, one router: the processor links of half.
 */
function closBisection(g: ClosGraph, rawGBs: RawLinkGBs): Pick<TopologyMetrics, 'bisectionLinks' | 'bisectionUnit' | 'bisectionGBs' | 'bisectionIsBound'> {
  const half = Math.floor(g.processors / 2);
  let perSlice = half;
  let exact = g.rank === 1;
  let cls = 'r1-r2';
  const cut = (subtrees: number, links: number, routers: number): number => Math.floor(subtrees / 2) * Math.ceil(subtrees / 2) * links * routers;
  if (g.rank === 1.5) {
    perSlice = Math.min(half, cut(g.r1Count, g.side1Links, 1));
    cls = 'side1';
  } else if (g.rank === 2.5) {
    perSlice = Math.min(half, cut(g.r2Subtrees, g.side2Links, g.r2Count / g.r2Subtrees));
    cls = 'side2';
  } else if (g.rank === 3.5) {
    perSlice = Math.min(half, cut(g.r3Subtrees, g.side3Links, g.r3Count / g.r3Subtrees));
    cls = 'side3';
  } else if (g.rank === 2 || g.rank === 3) {
    exact = g.processors % 32 === 0 && g.r1Count % 2 === 0;
  }
  const links = perSlice * g.slices;
  return { bisectionLinks: links, bisectionUnit: 'links', bisectionGBs: 2 * links * rawGBs(g.rank === 1 ? 'node' : cls), bisectionIsBound: !exact };
}
