import type { TorusGraph } from '../topology/torus.ts';
import { brokenLinkName, routerName } from './broken-links.ts';
import { SEASTAR_EJECT, SEASTAR_NO_ROUTE, SEASTAR_PROCESSOR_PORT, SEASTAR_TABLES, type SeastarRules } from './seastar-rules.ts';
import type { SeastarTables } from './seastar-tables.ts';

/*
 * The reachability check of a SeaStar fault set (seed 000, S9).
 *
 * Reachability: buildSeastarTables walks the routes and throws a RangeError naming the broken
 * links when a fault set leaves a node isolated or a destination unreachable under the rules. Up
 * to SEASTAR_CHECK_ALL_ROUTERS routers it walks every route; above, only the routes that meet a
 * table entry changed by the faults (the fault-free routing delivers everywhere).
 */

const EJECT = SEASTAR_EJECT;
const NONE = SEASTAR_NO_ROUTE;
const PROC = SEASTAR_PROCESSOR_PORT;

/**
 * Throws a RangeError naming the broken links when a router with nodes has no usable link, or
 * when a route stops or loops. 'all' walks from every router with nodes to every other. Since the
 * fault-free routing delivers everywhere, a route can only fail after the first entry the faults
 * change; entries change only within one hop of a broken link, and in the destination's z column
 * (and next to it) when that column has a broken z link. So 'near-faults' walks, for each
 * destination, from every changed entry there that a fault-free route can reach; when such a walk
 * fails (it may start where no packet goes), it confirms by walking every route to that destination.
 */
export function checkReachable(g: TorusGraph, tables: SeastarTables, rules: SeastarRules, clean: SeastarRules, mode: 'all' | 'near-faults'): void {
  const R = g.routers;
  const hasNodes = new Uint8Array(R);
  for (let n = 0; n < g.nodes; n++) hasNodes[g.nodeRouter[n]!] = 1;
  const hosts: number[] = [];
  for (let r = 0; r < R; r++) if (hasNodes[r]) hosts.push(r);
  const incident: number[][] = Array.from({ length: R }, () => []);
  tables.broken.forEach((b, i) => {
    incident[b.router]!.push(i);
    incident[rules.nbr[b.router * 6 + 2 * b.dim + b.dir]!]!.push(i);
  });
  const names = (routers: Iterable<number>): string => {
    const idx = new Set<number>();
    for (const r of routers) for (const i of incident[r]!) idx.add(i);
    return [...idx].sort((a, b) => a - b).map((i) => brokenLinkName(g, tables.broken[i]!)).join(', ');
  };
  const firstNode = (r: number): number => {
    for (let n = 0; n < g.nodes; n++) if (g.nodeRouter[n] === r) return n;
    return -1;
  };
  if (hosts.length > 1) {
    for (const r of hosts) {
      let any = false;
      for (let o = 0; o < 6; o++) if (rules.usable[r * 6 + o]) any = true;
      if (!any) throw new RangeError(`seastar routing: the broken links ${names([r])} isolate router ${routerName(g, r)} (node ${firstNode(r)})`);
    }
  }
  const okStamp = new Int32Array(R * SEASTAR_TABLES);
  const pathStamp = new Int32Array(R * SEASTAR_TABLES);
  const path: number[] = [];
  let walkId = 0;
  /** Follows the route of a packet for t from input i0 of r0; returns null, or why it fails and the routers involved. */
  const walk = (r0: number, i0: number, t: number, tStamp: number): { why: string; routers: number[] } | null => {
    walkId++;
    path.length = 0;
    let r = r0;
    let i = i0;
    for (;;) {
      const s = r * SEASTAR_TABLES + i;
      if (okStamp[s] === tStamp) break;
      if (pathStamp[s] === walkId) {
        const loop = [...new Set(path.slice(path.indexOf(s)).map((q) => Math.floor(q / SEASTAR_TABLES)))];
        return { why: `its route loops through routers ${loop.map((q) => routerName(g, q)).join(', ')}`, routers: loop };
      }
      pathStamp[s] = walkId;
      path.push(s);
      const e = tables.entryForRouter(r, i, t);
      if (e === EJECT) break;
      if (e === NONE || !rules.usable[r * 6 + e]) {
        const around = [r];
        for (let o = 0; o < 6; o++) if (rules.nbr[r * 6 + o]! >= 0) around.push(rules.nbr[r * 6 + o]!);
        return { why: `the rules leave no way on at router ${routerName(g, r)}`, routers: around };
      }
      i = e ^ 1;
      r = rules.nbr[r * 6 + e]!;
    }
    for (const s of path) okStamp[s] = tStamp;
    return null;
  };
  /** Walks from every router with nodes to t; throws on the first route that fails. */
  const walkAllTo = (t: number, tStamp: number): void => {
    for (const src of hosts) {
      const f = walk(src, PROC, t, tStamp);
      if (f) {
        const list = names(f.routers) || names(Array.from({ length: R }, (_, r) => r));
        throw new RangeError(
          `seastar routing: the broken links ${list} leave no route from router ${routerName(g, src)} to node ${firstNode(t)} (router ${routerName(g, t)}) under the fault rules (seed 000, S9): ${f.why}`,
        );
      }
    }
  };
  if (mode === 'all') {
    hosts.forEach((t, k) => walkAllTo(t, k + 1));
    return;
  }
  // routers within one hop of a broken link
  const near = new Uint8Array(R);
  for (const b of tables.broken) {
    for (const e of [b.router, rules.nbr[b.router * 6 + 2 * b.dim + b.dir]!]) {
      near[e] = 1;
      for (let o = 0; o < 6; o++) if (rules.nbr[e * 6 + o]! >= 0) near[rules.nbr[e * 6 + o]!] = 1;
    }
  }
  const nearList: number[] = [];
  for (let r = 0; r < R; r++) if (near[r]) nearList.push(r);
  const XY = rules.X * rules.Y;
  const colHasBroken = new Uint8Array(XY);
  for (const b of tables.broken) if (b.dim === 2) colHasBroken[b.router % XY] = 1;
  const cleanEntry = (r: number, i: number, t: number): number => {
    const p = tables.routerPartition[t]!;
    return clean.decide(r, i, rules.part[r] !== p ? -1 : t, p, true);
  };
  // Inputs whose fault-free entry stands for every state a fault-free route reaches: the processor
  // port (fault-free routes never need the 180-degree exclusion), and with several partitions the X
  // inputs too (a packet travelling in X keeps its direction).
  const representative = (n: number, j: number): boolean => (j === PROC ? true : tables.partitions > 1 && j < 2 && rules.nbr[n * 6 + j]! >= 0);
  hosts.forEach((t, k) => {
    const cands = nearList.slice();
    if (colHasBroken[t % XY]) {
      const col = new Set<number>();
      for (let z = 0; z < rules.Z; z++) {
        const r = (t % XY) + XY * z;
        col.add(r);
        for (let o = 0; o < 6; o++) if (rules.nbr[r * 6 + o]! >= 0) col.add(rules.nbr[r * 6 + o]!);
      }
      for (const r of col) if (!near[r]) cands.push(r);
    }
    for (const r of cands) {
      for (let i = 0; i < SEASTAR_TABLES; i++) {
        if (i === PROC ? !hasNodes[r] : rules.nbr[r * 6 + i]! < 0) continue;
        const fe = tables.entryForRouter(r, i, t);
        if (fe === cleanEntry(r, i, t)) continue;
        // a candidate for the first changed entry on a route: the processor port, or an input
        // that a fault-free route reaches (the neighbour's fault-free entry leads here)
        let first = i === PROC;
        if (!first && rules.usable[r * 6 + i]) {
          const n = rules.nbr[r * 6 + i]!;
          for (let j = 0; j < SEASTAR_TABLES && !first; j++) first = representative(n, j) && cleanEntry(n, j, t) === (i ^ 1);
        }
        // a failure from a state no packet reaches is no failure: confirm it on every route to t
        if (first && walk(r, i, t, k + 1)) {
          walkAllTo(t, k + 1);
          return;
        }
      }
    }
  });
}
