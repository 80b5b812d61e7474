import type { PacketPool } from '../packet.ts';
import type { PortGraph } from '../topology/port-graph.ts';

/** Where a routing function sends a packet: a group of parallel ports and the VC to use. */
export interface RouteChoice {
  /** First local output port of the group. */
  port: number;
  /** Number of parallel ports in the group (the router picks one by load, or by hash). */
  count: number;
  /** Virtual channel on the chosen link. */
  vc: number;
}

/** Live load of output channels, for adaptive routing (the network provides it). */
export interface LoadView {
  /** Load of the least-loaded of `count` parallel channels from global port `first` (0 = idle). */
  groupLoad(first: number, count: number): number;
}

/**
 * A routing function: decides, at `router`, the output group and VC of packet `p` and may update
 * the packet's typed routing state. Reads the topology (and, if adaptive, the load view) only;
 * no module state.
 */
export type RouteFn<G extends PortGraph = PortGraph> = (
  g: G,
  router: number,
  pkts: PacketPool,
  p: number,
  out: RouteChoice,
  load: LoadView,
) => void;

/**
 * The port a packet just routed at one router will take at the next (source routes carry it), so
 * that the upstream router can hold credits per crosspoint buffer of the next router.
 */
export type NextPort = (pkts: PacketPool, p: number) => number;

/** A routing function bound to its topology, as the network calls it. */
export type BoundRoute = (router: number, pkts: PacketPool, p: number, out: RouteChoice, load: LoadView) => void;

/** Binds a routing function to its port graph (once per network, not per packet). */
export function bindRoute<G extends PortGraph>(g: G, fn: RouteFn<G>): BoundRoute {
  return (router, pkts, p, out, load) => fn(g, router, pkts, p, out, load);
}

/** Routing functions of one topology, with its VC layout. */
export interface RoutingTable<G extends PortGraph = PortGraph> {
  /** VCs per port the topology's routing needs. */
  readonly vcs: number;
  readonly algorithms: Readonly<Record<string, RouteFn<G>>>;
}

/** Looks up a routing algorithm; throws RangeError listing the valid names. */
export function pickRouting<G extends PortGraph>(table: RoutingTable<G>, topology: string, name: string): RouteFn<G> {
  const fn = table.algorithms[name];
  if (!fn) {
    throw new RangeError(`unknown routing "${name}" for ${topology}; valid: ${Object.keys(table.algorithms).join(', ')}`);
  }
  return fn;
}

/** A 32-bit integer hash of two values: routing draws its salted and hashed choices from it. */
export function mix(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b + 0x9e3779b9, 0x27d4eb2d), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * `u % n` for an unsigned 32-bit `u` (a hash, a salt) and a whole `n` from 1 to 2^21: the same
 * value, but the remainder of a number above 2^31 compiles to a slow floating-point remainder
 * where this takes one division (the quotient's floor is exact while n < 2^21).
 */
export function modU32(u: number, n: number): number {
  return u - Math.floor(u / n) * n;
}
