import type { Engine } from '../engine/engine.ts';
import type { NetworkParams } from '../network.ts';
import { PacketPool } from '../packet.ts';
import type { BoundRoute } from '../routing/routing.ts';
import type { PortGraph } from '../topology/port-graph.ts';
import type { FlowResources } from './flow-resources.ts';
import { sampleRoutes, type FlowHop, type FlowRoute, type SampledRoutes } from './flow-route.ts';
import type { FlowNetworkConfig, RoutePath, RouteUse } from './flow-spec.ts';

/**
 * The routes flows take, per (source, destination, VC class, ordered, path): traced once per
 * sample with the network's own routing function (sampleRoutes) and kept, as the resources they
 * use with their shares, until the faults change (clear). Only the resources are kept, not the
 * traced routes: a flow-level all-to-all has a pair per two ranks, and each pair's samples as
 * objects took most of such a run's memory (routesOf traces them again).
 */
export class FlowRouteTable {
  private readonly graph: PortGraph;
  private readonly routeFn: BoundRoute;
  private readonly params: NetworkParams;
  private readonly samples: number;
  private readonly spreadRoute: BoundRoute | undefined;
  private readonly sampleLoads: boolean;
  private readonly splitGroups: boolean;
  private readonly scratchPkts = new PacketPool(8, 1);
  /** By key (see keyOf): a number, so that a hit builds no string. */
  private readonly cache = new Map<number, RouteUse>();

  constructor(
    cfg: FlowNetworkConfig,
    private readonly res: FlowResources,
    private readonly engine: Engine,
  ) {
    const samples = cfg.routeSamples ?? (cfg.sampleLoads ? 8 : 4);
    if (!Number.isInteger(samples) || samples < 1 || samples > 256) throw new RangeError(`routeSamples must be an integer from 1 to 256, got ${samples}`);
    this.graph = cfg.graph;
    this.routeFn = cfg.route;
    this.params = cfg.params;
    this.samples = samples;
    this.spreadRoute = cfg.spreadRoute;
    this.sampleLoads = cfg.sampleLoads ?? false;
    this.splitGroups = cfg.splitGroups ?? false;
  }

  /** Forgets every route traced so far (the routing took a new fault set). */
  clear(): void {
    this.cache.clear();
    this.pathCache.clear();
  }

  /** The cache key of (src, dst, class, ordered, path): below 2^53 up to 2^21 nodes. */
  private keyOf(src: number, dst: number, vcClass: number, ordered: boolean, path: number | undefined): number {
    return ((src * this.graph.nodes + dst) * 4 + vcClass * 2 + (ordered ? 1 : 0)) * 257 + (path ?? -1) + 1;
  }

  private trace(src: number, dst: number, vcClass: number, ordered: boolean, path: number | undefined): SampledRoutes {
    const opts = { graph: this.graph, route: this.routeFn, params: this.params, src, dst, vcClass, ordered, pkts: this.scratchPkts };
    return sampleRoutes(path !== undefined ? { ...opts, path } : opts, this.samples, this.spreadRoute, this.sampleLoads);
  }

  /** The routes (one per sample, duplicates kept) of (src, dst, class), traced again. */
  routesOf(src: number, dst: number, vcClass: number, ordered: boolean, path: number | undefined): readonly FlowRoute[] {
    return this.trace(src, dst, vcClass, ordered, path).routes;
  }

  /** The routes of (src, dst, class), traced once per sample and cached, as resources with shares. */
  use(src: number, dst: number, vcClass: number, ordered: boolean, path: number | undefined): RouteUse {
    const key = this.keyOf(src, dst, vcClass, ordered, path);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const sampled = this.trace(src, dst, vcClass, ordered, path);
    const use: RouteUse = { ...this.res.entries(sampled.hops, this.splitGroups, this.engine.now), latencyPs: sampled.latencyPs };
    this.cache.set(key, use);
    return use;
  }

  /**
   * The distinct routes among the samples of (src, dst, class) when there are several (else
   * none), each as its resources, the part of the route's load each takes (1, or 1/count of a
   * group split into its links), and their overheads: what a multipath flow spreads over. Cached
   * apart from `use`, since only multipath flows ask.
   */
  paths(src: number, dst: number, vcClass: number, ordered: boolean, path: number | undefined): readonly RoutePath[] {
    const key = this.keyOf(src, dst, vcClass, ordered, path);
    const hit = this.pathCache.get(key);
    if (hit) return hit;
    const distinct: (readonly FlowHop[])[] = [];
    for (const rt of this.trace(src, dst, vcClass, ordered, path).routes) if (!distinct.some((d) => sameHops(d, rt.hops))) distinct.push(rt.hops);
    const now = this.engine.now;
    const paths =
      distinct.length < 2
        ? []
        : distinct.map((hops) => {
            const e = this.res.entries(hops.map((h) => ({ ...h, share: 1 })), this.splitGroups, now);
            return { resource: e.resource, part: e.share, overhead: e.overhead };
          });
    this.pathCache.set(key, paths);
    return paths;
  }
  private readonly pathCache = new Map<number, readonly RoutePath[]>();
}

/** Whether two routes cross the same channel groups in the same order. */
function sameHops(a: readonly FlowHop[], b: readonly FlowHop[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.channel !== b[i]!.channel || a[i]!.count !== b[i]!.count) return false;
  return true;
}
