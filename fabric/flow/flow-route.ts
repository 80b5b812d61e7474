import type { NetworkParams } from '../network.ts';
import { PacketPool } from '../packet.ts';
import { mix, type BoundRoute, type LoadView, type RouteChoice } from '../routing/routing.ts';
import { PORT_NODE, type PortGraph } from '../topology/port-graph.ts';

/**
 * One hop of a flow's route: a group of `count` parallel channels from `channel`, in the
 * Network's channel numbering (router output ports router * radix + port, then NIC injection
 * channels routers * radix + node). A transfer's packets spread over the group by load, so the
 * flow model treats the group as one resource of `count` links.
 */
export interface FlowHop {
  readonly channel: number;
  readonly count: number;
}

/** The route packets from one node to another take on an idle network, with its zero-load latency. */
export interface FlowRoute {
  readonly src: number;
  readonly dst: number;
  readonly vcClass: number;
  /** The NIC injection channel, every router output group on the way, and the destination's node port (ejection). */
  readonly hops: readonly FlowHop[];
  /** Router-to-router links on the route (hops minus injection and ejection). */
  readonly routerHops: number;
  /** Wire latency of every channel of the route: injection, links, ejection (ps). */
  readonly wireLatencyPs: number;
  /** Router pipeline latency of every router the route crosses (ps). */
  readonly routerLatencyPs: number;
  /** wireLatencyPs + routerLatencyPs: a packet head's zero-load trip, without serialization (ps). */
  readonly latencyPs: number;
}

/** What flowRoute reads of a network: its VCs and latencies. */
export type FlowRouteParams = Pick<NetworkParams, 'vcs' | 'routerLatencyPs' | 'links' | 'injectLatencyPs' | 'ejectLatencyPs'>;

/** What channelTiming reads of a network. */
export type ChannelTimingParams = Pick<NetworkParams, 'links' | 'injectPhitPs' | 'ejectPhitPs'>;

/** A channel group of sampled routes, with the fraction of the samples that cross it (a sample crossing it twice counts twice). */
export interface SampledHop extends FlowHop {
  readonly share: number;
}

/** Routes of one pair traced with several salts, and their channel groups merged. */
export interface SampledRoutes {
  /** One route per sample, in sample order (duplicates kept). */
  readonly routes: readonly FlowRoute[];
  /** Every channel group the routes cross, in order of first use. */
  readonly hops: readonly SampledHop[];
  /** Zero-load latency of the slowest route (ps). */
  readonly latencyPs: number;
}

/** Where and how to trace a flow's route. */
export interface FlowRouteOptions {
  readonly graph: PortGraph;
  readonly route: BoundRoute;
  readonly params: FlowRouteParams;
  readonly src: number;
  readonly dst: number;
  /** 0: requests, 1: responses. */
  readonly vcClass: number;
  /** The packet's random routing bits (PacketPool.rSalt); default flowSalt(src, dst, 0). */
  readonly salt?: number;
  /** Hashed, in-order routing (PacketPool.ordered). */
  readonly ordered?: boolean;
  /** Independent path asked for by the source (PacketPool.path), or absent for the routing's choice. */
  readonly path?: number;
  /** Scratch packet pool to reuse (any pool with a free slot); default a fresh one. */
  readonly pkts?: PacketPool;
  /** The load adaptive routing sees (default an idle network: minimal choices). */
  readonly load?: LoadView;
}

/**
 * The routing salt of sample `sample` of the flows from `src` to `dst`: a hash of the pair plus
 * the sample number. The hash spreads different pairs over a routing's random choices (Clos
 * slices, dragonfly gateways) as per-packet salts would; consecutive samples take consecutive
 * salts, so a choice made as `salt mod n` (Clos slice, Kautz multipath first hop) visits all n
 * options once in any n samples.
 */
export function flowSalt(src: number, dst: number, sample: number): number {
  return (mix(src, dst ^ 0x3c6ef372) + sample) >>> 0;
}

/** The idle network the route is traced on: every group reports load 0, so adaptive routings take their minimal choice. */
const IDLE: LoadView = { groupLoad: () => 0 };

/**
 * The route a packet from node `src` to node `dst` takes on an idle network, traced by the
 * network's own routing function hop by hop (as the deadlock check does): each hop's group of
 * parallel channels, and the zero-load latency pieces. The packet starts as the network injects
 * it (VC class times half the VCs, routing state cleared with the given salt), so adaptive
 * routings see zero load everywhere and make their idle choice (minimal, ties as the routing
 * breaks them), and salted choices (Valiant intermediates, gateways, slices) follow the salt.
 */
export function flowRoute(o: FlowRouteOptions): FlowRoute {
  const g = o.graph;
  const { src, dst, vcClass } = o;
  if (!Number.isInteger(src) || src < 0 || src >= g.nodes) throw new RangeError(`flow source ${src}: not a node (0..${g.nodes - 1})`);
  if (!Number.isInteger(dst) || dst < 0 || dst >= g.nodes) throw new RangeError(`flow destination ${dst}: not a node (0..${g.nodes - 1})`);
  if (vcClass !== 0 && vcClass !== 1) throw new RangeError(`flow VC class ${vcClass}: expected 0 (requests) or 1 (responses)`);
  const P = o.params;
  const pool = o.pkts ?? new PacketPool(8, 1);
  const p = pool.alloc();
  try {
    pool.src[p] = src;
    pool.dst[p] = dst;
    pool.vcClass[p] = vcClass;
    pool.vc[p] = vcClass * (P.vcs >> 1);
    pool.ordered[p] = o.ordered ? 1 : 0;
    pool.path[p] = o.path ?? 0xff;
    pool.startRoute(p, o.salt ?? flowSalt(src, dst, 0));
    const radix = g.radix;
    const hops: FlowHop[] = [{ channel: g.routers * radix + src, count: 1 }];
    let wire = P.injectLatencyPs;
    let routers = 0;
    let r = g.nodeRouter[src]!;
    pool.at[p] = r * radix + g.nodePort[src]!;
    const out: RouteChoice = { port: 0, count: 1, vc: 0 };
    const limit = 4 * g.routers + 16;
    for (;;) {
      routers++;
      if (routers > limit) throw new Error(`routing loops: no arrival from node ${src} to node ${dst} after ${limit} hops`);
      o.route(r, pool, p, out, o.load ?? IDLE);
      const base = r * radix + out.port;
      hops.push({ channel: base, count: out.count });
      pool.vc[p] = out.vc;
      if (g.portClass[base] === PORT_NODE) {
        if (g.portNode[base] !== dst) throw new Error(`routing delivered a packet from node ${src} to node ${g.portNode[base]}, not ${dst}`);
        wire += P.ejectLatencyPs;
        break;
      }
      const link = P.links[g.portClass[base]!];
      if (!link) throw new RangeError(`no link parameters for link class ${g.classNames[g.portClass[base]!]}`);
      wire += link.latencyPs;
      const next = g.peerRouter[base]!;
      if (next < 0) throw new Error(`routing sent a packet from node ${src} to node ${dst} out of unwired port ${out.port} of router ${r}`);
      pool.hops[p]!++;
      pool.at[p] = next * radix + g.peerPort[base]!;
      r = next;
    }
    const routerLatencyPs = routers * P.routerLatencyPs;
    return { src, dst, vcClass, hops, routerHops: routers - 1, wireLatencyPs: wire, routerLatencyPs, latencyPs: wire + routerLatencyPs };
  } finally {
    pool.free(p);
  }
}

/**
 * A made-up load for sample `sample` of a pair's routes: a hash of the channel group and the
 * sample, 0 to 7 (as the deadlock check's random loads). The first sample sees an idle network;
 * the others see these loads, so adaptive routings spread a flow over their choices (both ways
 * round a torus ring half way, a dragonfly's non-minimal paths) as a transfer's packets under
 * load would.
 */
function sampleLoad(src: number, dst: number, sample: number): LoadView {
  if (sample === 0) return IDLE;
  const seed = flowSalt(src, dst, sample);
  return { groupLoad: (first) => mix(first, seed) & 7 };
}

/**
 * The routes of `samples` salts, flowSalt(src, dst, 0..samples - 1), merged into their channel
 * groups with the share of samples through each: a transfer whose packets draw random salts
 * spreads over them so; with `loads`, all but the first are traced with made-up loads (sampleLoad). With a
 * `spread` routing (an adaptive routing's non-minimal alternative), the second half of the
 * samples take it: a transfer's packets under load go both ways.
 */
export function sampleRoutes(o: Omit<FlowRouteOptions, 'salt'>, samples: number, spread?: BoundRoute, loads = false): SampledRoutes {
  const routes: FlowRoute[] = [];
  const channel: number[] = [];
  const count: number[] = [];
  const times: number[] = [];
  let latencyPs = 0;
  // one options record for every sample, its route, salt and load set per sample (flowRoute keeps none of it)
  const so: { -readonly [K in keyof FlowRouteOptions]: FlowRouteOptions[K] } = { ...o, salt: 0, load: IDLE };
  for (let s = 0; s < samples; s++) {
    so.route = spread !== undefined && s >= samples >> 1 ? spread : o.route;
    so.salt = flowSalt(o.src, o.dst, s);
    so.load = o.load ?? (loads ? sampleLoad(o.src, o.dst, s) : IDLE);
    const rt = flowRoute(so);
    routes.push(rt);
    latencyPs = Math.max(latencyPs, rt.latencyPs);
    for (const h of rt.hops) {
      const i = channel.indexOf(h.channel);
      if (i >= 0 && count[i] === h.count) times[i]!++;
      else {
        channel.push(h.channel);
        count.push(h.count);
        times.push(1);
      }
    }
  }
  return { routes, hops: channel.map((c, i) => ({ channel: c, count: count[i]!, share: times[i]! / samples })), latencyPs };
}

/** Phit time (ps) and link-layer overhead phits per packet of channel `c` (Network numbering), by its kind: NIC injection, ejection (a node port), or a link class. */
export function channelTiming(g: PortGraph, params: ChannelTimingParams, c: number): { phitPs: number; overheadPhits: number } {
  if (c >= g.routers * g.radix) return { phitPs: params.injectPhitPs, overheadPhits: 0 };
  const cls = g.portClass[c]!;
  if (cls === PORT_NODE) return { phitPs: params.ejectPhitPs, overheadPhits: 0 };
  const l = params.links[cls];
  if (!l) throw new RangeError(`no link parameters for link class ${g.classNames[cls]}`);
  return { phitPs: l.phitPs, overheadPhits: l.overheadPhits };
}
