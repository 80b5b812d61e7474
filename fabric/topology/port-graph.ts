/**
 * A topology as plain data: routers with a uniform number of ports, each port either wired to a
 * port of another router, attached to a node (an endpoint with a NIC), or unused. No simulator
 * object lives here; builders are pure functions that return one of these.
 */
export interface PortGraph {
  /** Which builder made it; selects the routing table. */
  readonly topology: string;
  readonly routers: number;
  /** Ports per router; global port id = router * radix + port. */
  readonly radix: number;
  readonly nodes: number;
  /** Peer router of each global port, or -1 (node port or unused). */
  readonly peerRouter: Int32Array;
  /** Peer port (local index at the peer router), or -1. */
  readonly peerPort: Int32Array;
  /** Node attached to each global port, or -1. */
  readonly portNode: Int32Array;
  /** Link class of each global port (PORT_NODE, PORT_UNUSED or a topology-defined class >= 2). */
  readonly portClass: Uint8Array;
  /** Router and local port of each node. */
  readonly nodeRouter: Int32Array;
  readonly nodePort: Int32Array;
  /** Names of the link classes, indexed by class. */
  readonly classNames: readonly string[];
  /**
   * True when links are one-way (Kautz): a wired port is then an output whose peer port is an
   * input, and input ports have no peer of their own. Otherwise every link is a pair of ports
   * that name each other.
   */
  readonly directed?: boolean;
}

/** Port class of a port attached to a node. */
export const PORT_NODE = 0;
/** Port class of a port that is not wired. */
export const PORT_UNUSED = 1;

/** Most routers of a topology: one per node of the largest run (MAX_NODES), checked before anything is built. */
export const MAX_ROUTERS = 1_000_000;
/** Most ports of one router (the seed routers have at most 64; 4096 keeps a router's queues countable). */
export const MAX_RADIX = 4096;

/** Throws a RangeError naming `from` (the parameters that give the size) if a graph of `routers` routers of `radix` ports is beyond the caps. */
export function checkGraphSize(routers: number, radix: number, from: string): void {
  if (routers > MAX_ROUTERS) throw new RangeError(`${from}: ${routers} routers; at most ${MAX_ROUTERS}`);
  if (radix > MAX_RADIX) throw new RangeError(`${from}: ${radix} ports per router; at most ${MAX_RADIX}`);
}

/** The port and node arrays every builder fills. */
export type PortArrays = Pick<PortGraph, 'peerRouter' | 'peerPort' | 'portNode' | 'portClass' | 'nodeRouter' | 'nodePort'>;

/**
 * Fresh port arrays: every port unwired and unused, then `nodes` nodes attached in order, node n
 * on router floor(n / nodesPerRouter) at port n mod nodesPerRouter.
 */
export function newPortArrays(routers: number, radix: number, nodes: number, nodesPerRouter: number): PortArrays {
  const total = routers * radix;
  const a = {
    peerRouter: new Int32Array(total).fill(-1),
    peerPort: new Int32Array(total).fill(-1),
    portNode: new Int32Array(total).fill(-1),
    portClass: new Uint8Array(total).fill(PORT_UNUSED),
    nodeRouter: new Int32Array(nodes),
    nodePort: new Int32Array(nodes),
  };
  for (let node = 0; node < nodes; node++) {
    const r = Math.floor(node / nodesPerRouter);
    const p = node % nodesPerRouter;
    a.nodeRouter[node] = r;
    a.nodePort[node] = p;
    a.portNode[r * radix + p] = node;
    a.portClass[r * radix + p] = PORT_NODE;
  }
  return a;
}

/** Breadth-first router hop counts from `src` over router-to-router links. */
export function routerDistances(g: PortGraph, src: number): Int32Array {
  const dist = new Int32Array(g.routers).fill(-1);
  const queue = new Int32Array(g.routers);
  let head = 0;
  let tail = 0;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    const r = queue[head++]!;
    for (let p = 0; p < g.radix; p++) {
      const peer = g.peerRouter[r * g.radix + p]!;
      if (peer >= 0 && dist[peer] === -1) {
        dist[peer] = dist[r]! + 1;
        queue[tail++] = peer;
      }
    }
  }
  return dist;
}
