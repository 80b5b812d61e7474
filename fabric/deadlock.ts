import { Prng } from './engine/prng.ts';
import { PacketPool } from './packet.ts';
import type { BoundRoute, LoadView, RouteChoice } from './routing/routing.ts';
import { PORT_NODE, type PortGraph } from './topology/port-graph.ts';

/** Outcome of a channel-dependency check. */
export interface DeadlockCheck {
  /** Channels (global port x VC) the routes use. */
  readonly channels: number;
  /** Dependencies between consecutive channels of a route. */
  readonly dependencies: number;
  /** Routes walked. */
  readonly routes: number;
  /** A dependency cycle, as readable channel names, or null when the graph is acyclic. */
  readonly cycle: readonly string[] | null;
}

/** Options of the check: how many random draws per pair, and a cap on the work. */
export interface DeadlockCheckOptions {
  /** Salts (random routing choices) tried per source/destination pair and class (default 4). */
  readonly salts?: number;
  /** Largest number of router pairs walked (default: all). */
  readonly maxPairs?: number;
  readonly seed?: number;
  /** VCs of the topology's routing when escape VCs sit above them (fault detours): a class starts at class * classVcs / 2. Default: vcs. */
  readonly classVcs?: number;
}

/**
 * Checks that a routing cannot deadlock (Dally and Seitz): walks the route of every pair of
 * routers that carry nodes, for both VC classes and several random draws, on an idle network and
 * under random loads (so adaptive routing takes its non-minimal choices too), and looks for a cycle
 * in the channel dependency graph. Every parallel port of a group counts, since the network may
 * pick any of them.
 */
export function checkDeadlockFreedom(g: PortGraph, route: BoundRoute, vcs: number, opts: DeadlockCheckOptions = {}): DeadlockCheck {
  const salts = opts.salts ?? 4;
  const rng = new Prng(opts.seed ?? 12345);
  const idle: LoadView = { groupLoad: () => 0 };
  const random: LoadView = { groupLoad: () => rng.int(8) };
  const pool = new PacketPool(8, 4);
  const out: RouteChoice = { port: 0, count: 1, vc: 0 };
  const succ = new Map<number, Set<number>>();
  const firstNode = new Int32Array(g.routers).fill(-1);
  for (let n = g.nodes - 1; n >= 0; n--) firstNode[g.nodeRouter[n]!] = n;
  const sources: number[] = [];
  for (let r = 0; r < g.routers; r++) if (firstNode[r]! >= 0) sources.push(r);
  const pairs = sources.length * sources.length;
  const stride = opts.maxPairs !== undefined && pairs > opts.maxPairs ? Math.ceil(pairs / opts.maxPairs) : 1;
  const prev: number[] = [];
  const cur: number[] = [];
  let routes = 0;
  let dependencies = 0;
  const limit = 4 * g.routers + 16;
  for (let i = 0; i < pairs; i += stride) {
    const src = firstNode[sources[Math.floor(i / sources.length)]!]!;
    const dst = firstNode[sources[i % sources.length]!]!;
    for (let cls = 0; cls < 2; cls++) {
      for (let s = 0; s < salts; s++) {
        const p = pool.alloc();
        pool.src[p] = src;
        pool.dst[p] = dst;
        pool.vcClass[p] = cls;
        pool.vc[p] = cls * ((opts.classVcs ?? vcs) >> 1);
        pool.startRoute(p, rng.nextU32());
        const load = s % 2 === 0 ? idle : random;
        let r = g.nodeRouter[src]!;
        pool.at[p] = r * g.radix + g.nodePort[src]!; // input port, for routing by table per input port
        prev.length = 0;
        for (let hop = 0; ; hop++) {
          if (hop > limit) throw new Error(`routing loops: no arrival from node ${src} to node ${dst} after ${limit} hops`);
          route(r, pool, p, out, load);
          const base = r * g.radix + out.port;
          if (g.portClass[base] === PORT_NODE) break;
          cur.length = 0;
          for (let k = 0; k < out.count; k++) cur.push((base + k) * vcs + out.vc);
          for (const a of prev) {
            let set = succ.get(a);
            if (!set) succ.set(a, (set = new Set()));
            for (const b of cur) if (!set.has(b)) {
              set.add(b);
              dependencies++;
            }
          }
          prev.length = 0;
          prev.push(...cur);
          pool.vc[p] = out.vc;
          r = g.peerRouter[base]!;
          if (r < 0) throw new Error(`routing sent a packet from node ${src} to node ${dst} out of unwired port ${out.port}`);
          pool.at[p] = r * g.radix + g.peerPort[base]!;
        }
        pool.free(p);
        routes++;
      }
    }
  }
  const cycle = findCycle(succ);
  const name = (ch: number): string => {
    const gp = Math.floor(ch / vcs);
    return `router ${Math.floor(gp / g.radix)} port ${gp % g.radix} (${g.classNames[g.portClass[gp]!]}) vc ${ch % vcs}`;
  };
  const seen = new Set<number>();
  for (const [a, bs] of succ) {
    seen.add(a);
    for (const b of bs) seen.add(b);
  }
  return { channels: seen.size, dependencies, routes, cycle: cycle ? cycle.map(name) : null };
}

/** Throws RangeError naming a dependency cycle if the routing of a topology can deadlock. */
export function assertDeadlockFree(what: string, g: PortGraph, route: BoundRoute, vcs: number, opts: DeadlockCheckOptions = {}): DeadlockCheck {
  const r = checkDeadlockFreedom(g, route, vcs, opts);
  if (r.cycle) {
    throw new RangeError(`${what} can deadlock: its channel dependencies form a cycle: ${r.cycle.join(' -> ')}`);
  }
  return r;
}

/** One cycle of a directed graph, or null (iterative depth-first search). */
function findCycle(succ: ReadonlyMap<number, ReadonlySet<number>>): number[] | null {
  const state = new Map<number, number>(); // 1 = on the stack, 2 = done
  for (const start of succ.keys()) {
    if (state.has(start)) continue;
    const stack: { v: number; it: Iterator<number> }[] = [{ v: start, it: (succ.get(start) ?? new Set<number>()).values() }];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const nx = top.it.next();
      if (nx.done) {
        state.set(top.v, 2);
        stack.pop();
        continue;
      }
      const w = nx.value;
      const st = state.get(w);
      if (st === 1) {
        const from = stack.findIndex((f) => f.v === w);
        return [...stack.slice(from).map((f) => f.v), w];
      }
      if (st === undefined) {
        state.set(w, 1);
        stack.push({ v: w, it: (succ.get(w) ?? new Set<number>()).values() });
      }
    }
  }
  return null;
}
