import { newPortArrays, type PortGraph } from './port-graph.ts';

/** Configuration of a k-ary n-cube (torus) or mesh. */
export interface TorusConfig {
  /** Routers along each dimension, e.g. [8, 8, 8]. */
  readonly dims: readonly number[];
  /** Parallel links per direction in each dimension (Gemini: [8, 4, 8]). */
  readonly links: readonly number[];
  /** Whether each dimension wraps around (torus) or not (mesh); default all true. */
  readonly wrap?: readonly boolean[];
  /** Nodes attached to each router (Gemini: 2). */
  readonly nodesPerRouter: number;
  /** Number of nodes to attach; default every slot (routers x nodesPerRouter). */
  readonly nodes?: number;
}

/** A torus port graph with its coordinates and per-dimension layout. */
export interface TorusGraph extends PortGraph {
  readonly topology: 'torus';
  readonly dims: readonly number[];
  readonly links: readonly number[];
  readonly wrap: readonly boolean[];
  readonly nodesPerRouter: number;
  /** Router coordinates, `coords[r * ndims + d]`. */
  readonly coords: Int32Array;
  /** First port of the link group of (dimension d, direction s: 0 = +, 1 = -): `groupPort[2d+s]`. */
  readonly groupPort: readonly number[];
}

/**
 * Port numbering, kept beside the routing that depends on it (torus-routing.ts):
 * ports [0, nodesPerRouter) attach nodes; then for each dimension d and direction s (0 = +,
 * 1 = -) come links[d] ports, in order. Port class = 2 + 2d + s.
 */
export function torusGroupPorts(nodesPerRouter: number, links: readonly number[]): number[] {
  const out: number[] = [];
  let p = nodesPerRouter;
  for (const l of links) {
    out.push(p, p + l);
    p += 2 * l;
  }
  return out;
}

const DIM_NAMES = ['x', 'y', 'z', 'w', 'v', 'u'];

/** Builds a torus or mesh port graph; throws RangeError naming the bad field. */
export function buildTorus(cfg: TorusConfig): TorusGraph {
  const n = cfg.dims.length;
  if (n < 1 || n > DIM_NAMES.length) throw new RangeError(`torus.dims must have 1 to ${DIM_NAMES.length} entries, got ${n}`);
  cfg.dims.forEach((k, d) => {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`torus.dims[${d}] must be a positive integer, got ${k}`);
  });
  if (cfg.links.length !== n) throw new RangeError(`torus.links must have ${n} entries (one per dimension), got ${cfg.links.length}`);
  cfg.links.forEach((l, d) => {
    if (!Number.isInteger(l) || l < 1) throw new RangeError(`torus.links[${d}] must be a positive integer, got ${l}`);
  });
  const wrap = cfg.wrap ?? cfg.dims.map(() => true);
  if (wrap.length !== n) throw new RangeError(`torus.wrap must have ${n} entries, got ${wrap.length}`);
  if (!Number.isInteger(cfg.nodesPerRouter) || cfg.nodesPerRouter < 1) {
    throw new RangeError(`torus.nodesPerRouter must be a positive integer, got ${cfg.nodesPerRouter}`);
  }
  const routers = cfg.dims.reduce((a, b) => a * b, 1);
  const slots = routers * cfg.nodesPerRouter;
  const nodes = cfg.nodes ?? slots;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > slots) {
    throw new RangeError(`torus.nodes must be an integer from 1 to ${slots} (routers x nodesPerRouter), got ${nodes}`);
  }

  const groupPort = torusGroupPorts(cfg.nodesPerRouter, cfg.links);
  const radix = cfg.nodesPerRouter + 2 * cfg.links.reduce((a, b) => a + b, 0);
  const ports = newPortArrays(routers, radix, nodes, cfg.nodesPerRouter);
  const { peerRouter, peerPort, portClass } = ports;
  const coords = new Int32Array(routers * n);
  const strides: number[] = [];
  let stride = 1;
  for (let d = 0; d < n; d++) {
    strides.push(stride);
    stride *= cfg.dims[d]!;
  }
  for (let r = 0; r < routers; r++) {
    for (let d = 0; d < n; d++) coords[r * n + d] = Math.floor(r / strides[d]!) % cfg.dims[d]!;
  }
  for (let r = 0; r < routers; r++) {
    for (let d = 0; d < n; d++) {
      const k = cfg.dims[d]!;
      if (k === 1) continue;
      const c = coords[r * n + d]!;
      for (let s = 0; s < 2; s++) {
        const step = s === 0 ? 1 : -1;
        const nc = c + step;
        if (!wrap[d] && (nc < 0 || nc >= k)) continue;
        const peer = r + (((nc + k) % k) - c) * strides[d]!;
        const first = groupPort[2 * d + s]!;
        const peerFirst = groupPort[2 * d + (1 - s)]!;
        for (let l = 0; l < cfg.links[d]!; l++) {
          const gp = r * radix + first + l;
          peerRouter[gp] = peer;
          peerPort[gp] = peerFirst + l;
          portClass[gp] = 2 + 2 * d + s;
        }
      }
    }
  }
  const classNames = ['node', 'unused'];
  for (let d = 0; d < n; d++) classNames.push(`${DIM_NAMES[d]}+`, `${DIM_NAMES[d]}-`);
  return {
    topology: 'torus',
    routers,
    radix,
    nodes,
    ...ports,
    classNames,
    dims: [...cfg.dims],
    links: [...cfg.links],
    wrap: [...wrap],
    nodesPerRouter: cfg.nodesPerRouter,
    coords,
    groupPort,
  };
}

/** Minimal router hops between routers a and b of a torus (sum over dimensions). */
export function torusDistance(g: TorusGraph, a: number, b: number): number {
  const n = g.dims.length;
  let hops = 0;
  for (let d = 0; d < n; d++) {
    const k = g.dims[d]!;
    const delta = Math.abs(g.coords[a * n + d]! - g.coords[b * n + d]!);
    hops += g.wrap[d] ? Math.min(delta, k - delta) : delta;
  }
  return hops;
}

/**
 * The most cubic dimensions for `routers` routers in `n` dimensions, largest first, like
 * MPI_Dims_create: among all factorizations, the one with the smallest largest dimension, then
 * the largest smallest one.
 */
export function balancedDims(routers: number, n = 3): number[] {
  if (!Number.isInteger(routers) || routers < 1) throw new RangeError(`routers must be a positive integer, got ${routers}`);
  if (n === 1) return [routers];
  let best: number[] | null = null;
  // the first (largest) dimension is at least the n-th root
  for (let a = Math.max(1, Math.floor(Math.pow(routers, 1 / n))); a <= routers; a++) {
    if (routers % a !== 0) continue;
    const rest = balancedDims(routers / a, n - 1);
    if (rest[0]! > a) continue;
    const cand = [a, ...rest];
    if (best === null || better(cand, best)) best = cand;
    if (best[0] === a) break; // larger first dimensions cannot be more cubic
  }
  return best ?? [routers, ...new Array<number>(n - 1).fill(1)];
}

function better(a: readonly number[], b: readonly number[]): boolean {
  if (a[0] !== b[0]) return a[0]! < b[0]!;
  return a[a.length - 1]! > b[b.length - 1]!;
}
