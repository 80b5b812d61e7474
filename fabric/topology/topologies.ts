import type { ParamReader } from '../machines/spec.ts';
import { bindRoute, pickRouting, type BoundRoute, type NextPort } from '../routing/routing.ts';
import { torusRouting } from '../routing/torus-routing.ts';
import { dragonflyRouting } from '../routing/dragonfly-routing.ts';
import { assertKautzRoutable, kautzNextPort, kautzRouting, kautzVcs } from '../routing/kautz-routing.ts';
import { closRouting } from '../routing/clos-routing.ts';
import { parseBrokenLinks, SEASTAR_VCS, seastarTableRoute } from '../routing/seastar-routing.ts';
import { buildSeastarTables } from '../routing/seastar-tables.ts';
import { buildClos, closRank, CLOS_RANKS, type ClosConfig, type ClosRank } from './clos.ts';
import { buildKautz, kautzSize, type KautzConfig } from './kautz.ts';
import { buildDragonfly, resolveDragonfly, type DragonflyConfig } from './dragonfly.ts';
import { checkGraphSize, type PortGraph } from './port-graph.ts';
import { balancedDims, buildTorus, type TorusConfig } from './torus.ts';

/**
 * The topology of a resolved machine: which builder, its validated config and the routing
 * algorithm. One explicit table of topologies (this union and the switches below), no
 * registration by import side effect.
 */
export type TopologySpec =
  | { readonly kind: 'torus'; readonly config: TorusConfig; readonly routing: string; readonly brokenLinks: string }
  | { readonly kind: 'dragonfly'; readonly config: DragonflyConfig; readonly routing: string }
  | { readonly kind: 'kautz'; readonly config: KautzConfig; readonly routing: string }
  | { readonly kind: 'clos'; readonly config: ClosConfig; readonly routing: string };

/** The topology kinds, for messages. */
export const TOPOLOGY_KINDS = ['torus', 'dragonfly', 'kautz', 'clos'] as const;

/**
 * Torus routings: dimension order (torus-routing.ts) and the SeaStar's routing tables per input
 * port with their fault rules (seastar-tables.ts, seastar-rules.ts), which need the graph and the
 * broken links to build, so they are not a plain entry of the torus routing table.
 */
const TORUS_ROUTINGS = [...Object.keys(torusRouting.algorithms), 'table'];

/** The routing algorithms of each topology kind, for validation and messages. */
export const ROUTINGS_BY_TOPOLOGY: Readonly<Record<(typeof TOPOLOGY_KINDS)[number], readonly string[]>> = {
  torus: TORUS_ROUTINGS,
  dragonfly: Object.keys(dragonflyRouting.algorithms),
  kautz: Object.keys(kautzRouting.algorithms),
  clos: Object.keys(closRouting.algorithms),
};

/** Reads the topology parameters of a machine for `nodes` nodes. */
export function resolveTopology(r: ParamReader, nodes: number): TopologySpec {
  const kind = r.string('topology.kind');
  const routing = r.string('routing.algorithm');
  switch (kind) {
    case 'torus': {
      const links = r.ints('torus.links');
      const nodesPerRouter = r.int('torus.nodesPerRouter');
      const dimsText = r.string('torus.dims');
      const dims = dimsText === 'auto' ? balancedDims(Math.ceil(nodes / nodesPerRouter), links.length) : r.ints('torus.dims');
      const wrap = r.string('torus.wrap').split(',').map((s) => {
        if (s !== 'true' && s !== 'false') throw new RangeError(`parameter torus.wrap: expected true/false per dimension, got "${s}"`);
        return s === 'true';
      });
      const routers = dims.reduce((a, b) => a * b, 1);
      checkGraphSize(routers, nodesPerRouter + 2 * links.reduce((a, b) => a + b, 0), `torus.dims=${dimsText === 'auto' ? `auto (${dims.join('x')})` : dimsText}, torus.links=${r.string('torus.links')}, torus.nodesPerRouter=${nodesPerRouter}`);
      const slots = routers * nodesPerRouter;
      if (nodes > slots) throw new RangeError(`nodes=${nodes} does not fit torus ${dims.join('x')} with ${nodesPerRouter} nodes per router (${slots} slots)`);
      if (!TORUS_ROUTINGS.includes(routing)) throw new RangeError(`unknown routing "${routing}" for torus; valid: ${TORUS_ROUTINGS.join(', ')}`);
      const brokenLinks = r.string('torus.brokenLinks');
      if (brokenLinks !== 'none' && routing !== 'table') {
        throw new RangeError(`parameter torus.brokenLinks: broken links need routing "table" (the fault rules of the routing tables), not "${routing}"`);
      }
      return { kind, config: { dims, links, wrap, nodesPerRouter, nodes }, routing, brokenLinks };
    }
    case 'dragonfly': {
      pickRouting(dragonflyRouting, 'dragonfly', routing);
      return { kind, config: resolveDragonfly(r, nodes), routing };
    }
    case 'kautz': {
      pickRouting(kautzRouting, 'kautz', routing);
      const degree = r.int('kautz.degree');
      let diameter: number;
      if (r.string('kautz.diameter') === 'auto') {
        // the smallest Kautz graph that holds the nodes
        diameter = 1;
        while (kautzSize(degree, diameter) < nodes) diameter++;
      } else {
        diameter = r.int('kautz.diameter');
      }
      assertKautzRoutable(degree, diameter);
      const size = kautzSize(degree, diameter);
      checkGraphSize(size, 1 + 2 * degree, `kautz.degree=${degree}, kautz.diameter=${diameter}`);
      if (nodes > size) throw new RangeError(`nodes=${nodes} does not fit a Kautz graph of degree ${degree} and diameter ${diameter} (${size} nodes)`);
      return { kind, config: { degree, diameter, nodes }, routing };
    }
    case 'clos': {
      pickRouting(closRouting, 'clos', routing);
      const rankText = r.string('clos.rank');
      let rank: ClosRank | undefined;
      if (rankText !== 'auto') {
        rank = CLOS_RANKS.find((k) => String(k) === rankText);
        if (rank === undefined) throw new RangeError(`parameter clos.rank: expected auto or one of ${CLOS_RANKS.join(', ')}, got "${rankText}"`);
      }
      return { kind, config: { processors: nodes, slices: r.int('clos.slices'), ...(rank !== undefined ? { rank } : {}) }, routing };
    }
    default:
      throw new RangeError(`parameter topology.kind: unknown topology "${kind}"; valid: ${TOPOLOGY_KINDS.join(', ')}`);
  }
}

/** A built topology: its port graph, the routing bound to it and the VCs it needs. */
export interface BuiltTopology {
  readonly graph: PortGraph;
  readonly route: BoundRoute;
  readonly vcs: number;
  /** Source routes: the port a routed packet takes at the next router (crosspoint credits). */
  readonly nextPort?: NextPort;
  /**
   * Where an adaptive routing sends packets off the minimal path under load (dragonfly adaptive:
   * Valiant), for the flow level's route samples; absent where the routing has no such choice.
   */
  readonly spreadRoute?: BoundRoute;
}

/** Builds the port graph and binds the routing of a topology spec. */
export function buildTopology(t: TopologySpec): BuiltTopology {
  switch (t.kind) {
    case 'torus': {
      const g = buildTorus(t.config);
      if (t.routing === 'table') {
        // the tables route around the broken links of a graph that lacks them
        const tables = buildSeastarTables(g, parseBrokenLinks(t.brokenLinks, g));
        return { graph: tables.graph, route: bindRoute(tables.graph, seastarTableRoute(tables)), vcs: SEASTAR_VCS };
      }
      return { graph: g, route: bindRoute(g, pickRouting(torusRouting, 'torus', t.routing)), vcs: torusRouting.vcs };
    }
    case 'clos': {
      const g = buildClos(t.config);
      return { graph: g, route: bindRoute(g, pickRouting(closRouting, 'clos', t.routing)), vcs: closRouting.vcs };
    }
    case 'dragonfly': {
      const g = buildDragonfly(t.config);
      const spread = t.routing === 'adaptive' ? { spreadRoute: bindRoute(g, pickRouting(dragonflyRouting, 'dragonfly', 'valiant')) } : {};
      return { graph: g, route: bindRoute(g, pickRouting(dragonflyRouting, 'dragonfly', t.routing)), vcs: dragonflyRouting.vcs, ...spread };
    }
    case 'kautz': {
      const g = buildKautz(t.config);
      // the VC count depends on the diameter: floor(k/2) + 1 per class (seed 002, K7)
      return { graph: g, route: bindRoute(g, pickRouting(kautzRouting, 'kautz', t.routing)), vcs: kautzVcs(t.config.diameter), nextPort: (pk, p) => kautzNextPort(g, pk, p) };
    }
  }
}

/** Node slots per router of a topology. */
export function nodesPerRouterOf(t: TopologySpec): number {
  if (t.kind === 'kautz') return 1;
  if (t.kind === 'clos') return 32; // processors per R1 router (seed 003, B6)
  return t.config.nodesPerRouter;
}

/** One line describing a topology spec. */
export function describeTopology(t: TopologySpec): string {
  switch (t.kind) {
    case 'torus': {
      const c = t.config;
      const shape = c.dims.map((k, d) => `${k}${c.wrap?.[d] === false ? '(mesh)' : ''}`).join('x');
      const faults = t.brokenLinks === 'none' ? '' : `, broken links ${t.brokenLinks}`;
      return `torus ${shape}, ${c.links.join('/')} links per direction, ${c.nodesPerRouter} nodes per router, ${t.routing} routing${faults}`;
    }
    case 'kautz': {
      const c = t.config;
      return `Kautz digraph of degree ${c.degree} and diameter ${c.diameter} (${kautzSize(c.degree, c.diameter)} routers), ${t.routing} routing`;
    }
    case 'dragonfly': {
      const c = t.config;
      return `dragonfly ${c.groups} groups of ${c.chassis}x${c.routersPerChassis} routers, ${c.cablesPerPair} cables per group pair, ${c.nodesPerRouter} nodes per router, ${t.routing} routing`;
    }
    case 'clos': {
      const c = t.config;
      return `folded Clos of rank ${c.rank ?? closRank(c.processors)} for ${c.processors} processors, ${c.slices ?? 4} slices, ${t.routing} routing`;
    }
  }
}

/** Which family of link parameters (`link.*` or `optical.*`) a link class uses. */
export function linkFamily(t: TopologySpec, className: string): 'link' | 'optical' {
  return t.kind === 'dragonfly' && className === 'global' ? 'optical' : 'link';
}
