import type { Engine } from '../engine/engine.ts';
import type { NetworkParams } from '../network.ts';
import { PacketPool } from '../packet.ts';
import type { BoundRoute } from '../routing/routing.ts';
import type { PortGraph } from '../topology/port-graph.ts';
import type { FlowResources } from './flow-resources.ts';
import { sampleRoutes } from './flow-route.ts';
import type { FlowNetworkConfig, RouteUse } from './flow-spec.ts';

/**
 * The routes flows take, per (source, destination, VC class, ordered, path): traced once per
 * sample with the network's own routing function (sampleRoutes) and kept, as the resources they
 * use with their shares, until the faults change (clear).
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
  private readonly cache = new Map<string, RouteUse>();

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
  }

  /** The routes of (src, dst, class), traced once per sample and cached, as resources with shares. */
  use(src: number, dst: number, vcClass: number, ordered: boolean, path: number | undefined): RouteUse {
    const key = `${src},${dst},${vcClass},${ordered ? 1 : 0},${path ?? -1}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const opts = { graph: this.graph, route: this.routeFn, params: this.params, src, dst, vcClass, ordered, pkts: this.scratchPkts };
    const sampled = sampleRoutes(path !== undefined ? { ...opts, path } : opts, this.samples, this.spreadRoute, this.sampleLoads);
    const paths: { resource: Int32Array; part: Float64Array; overhead: Float64Array }[] = [];
    const seen = new Set<string>();
    for (const rt of sampled.routes) {
      const id = rt.hops.map((h) => `${h.channel}x${h.count}`).join(' ');
      if (seen.has(id)) continue;
      seen.add(id);
      const e = this.res.entries(rt.hops.map((h) => ({ ...h, share: 1 })), this.splitGroups, this.engine.now);
      paths.push({ resource: e.resource, part: e.share, overhead: e.overhead });
    }
    const use: RouteUse = { paths, routes: sampled.routes, ...this.res.entries(sampled.hops, this.splitGroups, this.engine.now), latencyPs: sampled.latencyPs };
    this.cache.set(key, use);
    return use;
  }
}
