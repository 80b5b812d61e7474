/** Helpers shared by the test suites. */
import { resolveParams } from '../apps/app.ts';
import { main } from '../cli/main.ts';
import { putget } from '../apps/putget.ts';
import { simulate } from '../runtime/simulate.ts';
import type { NetworkAccess } from '../fabric/network.ts';
import type { PacketPool } from '../fabric/packet.ts';
import type { LoadView, RouteChoice, RouteFn } from '../fabric/routing/routing.ts';
import type { TorusGraph } from '../fabric/topology/torus.ts';

/**
 * The long tier: simulations that take minutes of one core (full traffic studies, large
 * calibration runs) run only with PHIT_LONG=1 (`npm run test:long`), so that `npm test` stays
 * within 10 minutes on two cores. Their figures are the same checks, only run less often.
 */
export const LONG = process.env.PHIT_LONG === '1';

/** Awaits `p` and returns what it rejected with; fails if it resolved. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof Error)) throw new Error(`rejected with a non-Error: ${String(e)}`, { cause: e });
    return e;
  }
  throw new Error('expected the run to reject, but it resolved');
}

/**
 * Kahn's topological sort of a dependency graph given as successor sets: `cyclic` counts the
 * vertices left unsorted (0 when the graph is acyclic; Dally and Seitz: an acyclic channel
 * dependency graph means deadlock freedom).
 */
export function sortDependencies(succ: ReadonlyMap<number, ReadonlySet<number>>): { cyclic: number; channels: number; edges: number } {
  const indeg = new Map<number, number>();
  for (const [a, bs] of succ) {
    if (!indeg.has(a)) indeg.set(a, 0);
    for (const b of bs) indeg.set(b, (indeg.get(b) ?? 0) + 1);
  }
  const ready = [...indeg].filter(([, v]) => v === 0).map(([c]) => c);
  let sorted = 0;
  let edges = 0;
  while (ready.length > 0) {
    const c = ready.pop()!;
    sorted++;
    for (const b of succ.get(c) ?? []) {
      edges++;
      const v = indeg.get(b)! - 1;
      indeg.set(b, v);
      if (v === 0) ready.push(b);
    }
  }
  return { cyclic: indeg.size - sorted, channels: indeg.size, edges };
}

/** One hop of a walked route: the router, the first port of the chosen group, its size and the VC. */
export interface Hop {
  router: number;
  port: number;
  count: number;
  vc: number;
}

/** One hop of a walked torus route, with the local input port the packet arrived on. */
export interface TorusHop extends Hop {
  inPort: number;
}

/**
 * Walks a packet from node src to node dst over graph g (the faulty graph for table routes), as the
 * network does: `at` is the global input port. Returns the router-to-router hops and the ejection.
 */
export function walkTorus(g: TorusGraph, route: RouteFn<TorusGraph>, pool: PacketPool, src: number, dst: number, cls: number, load: LoadView): { hops: TorusHop[]; eject: TorusHop } {
  const p = pool.alloc();
  pool.src[p] = src;
  pool.dst[p] = dst;
  pool.vcClass[p] = cls;
  const out: RouteChoice = { port: -1, count: -1, vc: -1 };
  const hops: TorusHop[] = [];
  let r = g.nodeRouter[src]!;
  let inPort = g.nodePort[src]!;
  try {
    for (;;) {
      pool.at[p] = r * g.radix + inPort;
      route(g, r, pool, p, out, load);
      const h: TorusHop = { router: r, inPort, port: out.port, count: out.count, vc: out.vc };
      if (out.port < g.nodesPerRouter) return { hops, eject: h };
      const gp = r * g.radix + out.port;
      if (g.peerRouter[gp]! < 0) throw new Error(`route ${src} -> ${dst} leaves router ${r} by unwired port ${out.port}`);
      hops.push(h);
      if (hops.length > 4 * g.routers) throw new Error(`route ${src} -> ${dst} does not terminate`);
      inPort = g.peerPort[gp]!;
      r = g.peerRouter[gp]!;
    }
  } finally {
    pool.free(p);
  }
}


/** One row of the putget app. */
export interface PutGetRow {
  op: string;
  bytes: number;
  hops: number;
  latencyUs: number;
  bandwidthGBs: number;
}

/** Runs the putget app from rank 0 to `target` on `machine` and returns its rows. */
export async function putgetOn(machine: string, nodes: number, target: number, params: Record<string, string>): Promise<PutGetRow[]> {
  const p = resolveParams(putget, { target: String(target), ...params });
  const r = await simulate({ machine, nodes, program: (ctx) => putget.main(ctx, p) });
  return (r.result as unknown as { rows: PutGetRow[] }).rows;
}

/** Least-squares slope of y over x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  return points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0) / points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
}

/** What one command line printed and its exit code. */
export interface Captured {
  code: number;
  out: string[];
  err: string[];
}

/** Runs the phit command line in-process, capturing its output. */
export async function phit(...argv: string[]): Promise<Captured> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out, err };
}

/** Allocates a request packet of `phits` from node `src` to node `dst`, hands it to `net` now and returns it. */
export function injectPacket(net: NetworkAccess, src: number, dst: number, phits: number): number {
  const pk = net.pkts;
  const p = pk.alloc();
  pk.src[p] = src;
  pk.dst[p] = dst;
  pk.phits[p] = phits;
  pk.vcClass[p] = 0;
  pk.bytes[p] = 0;
  net.inject(src, p);
  return p;
}

/** Index of the first element where a and b differ (NaN-safe, bit-exact for floats), or -1. */
export function firstMismatch(a: ArrayLike<number>, b: ArrayLike<number>, n = Math.max(a.length, b.length)): number {
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** Deterministic bytes, different for every (n, salt). */
export function u8Pattern(n: number, salt: number): Uint8Array {
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) a[i] = (i * 31 + salt * 17 + (i >> 8)) & 255;
  return a;
}
