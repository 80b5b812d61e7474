/**
 * Adaptive dragonfly routing (seed 001, "Cray XC Routing"): non-minimal under load on every
 * minimal first hop, minimal when idle, and why the xc30 preset's adaptiveBias is 4.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { PacketPool } from '../fabric/packet.ts';
import type { LoadView, RouteChoice } from '../fabric/routing/routing.ts';
import { buildDragonfly, type DragonflyConfig, type DragonflyGraph } from '../fabric/topology/dragonfly.ts';
import { IDLE, MULTI, SMALL, groupOf, routeOf, walk, walkViolation } from './dragonfly-helpers.ts';

/**
 * First-hop global ports (router * radix + port) of every minimal route from router `cur` to the
 * router of node `dst`, over every gateway between the two groups: the minimal routing function
 * run with its gateway preset in rGate.
 */
function minimalFirstHops(g: DragonflyGraph, pool: PacketPool, cur: number, dst: number): Set<number> {
  const minimal = routeOf('minimal');
  const gc = groupOf(g, cur);
  const gd = groupOf(g, g.nodeRouter[dst]!);
  const gates = gc === gd ? [-1] : [...g.gateways.subarray((gc * g.config.groups + gd) * g.linksPerPair, (gc * g.config.groups + gd + 1) * g.linksPerPair)];
  const firsts = new Set<number>();
  const out: RouteChoice = { port: -1, count: -1, vc: -1 };
  const p = pool.alloc();
  for (const gw of gates) {
    pool.src[p] = 0;
    pool.dst[p] = dst;
    pool.vcClass[p] = 0;
    pool.startRoute(p, 0);
    pool.rGate[p] = gw;
    pool.ordered[p] = 0;
    minimal(g, cur, pool, p, out, IDLE);
    firsts.add(cur * g.radix + out.port);
  }
  pool.free(p);
  return firsts;
}

describe('adaptive routing and load', () => {
  it.each(MULTI)('goes non-minimal when every minimal first hop is loaded, on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    const pool = new PacketPool(8, 16);
    const scratch = new PacketPool(8, 16);
    const rng = new Prng(99);
    const bad: string[] = [];
    let nonMinimal = 0;
    let candidates = 0;
    let avoided = 0;
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        const src = g.nodeRouter[s]!;
        const hot = minimalFirstHops(g, scratch, src, d);
        const load: LoadView = { groupLoad: (first) => (hot.has(first) ? 1e6 : 0) };
        const w = walk(g, routeOf('adaptive'), pool, s, d, 0, { salt: rng.nextU32(), load });
        const v = walkViolation(g, w, s, d, 0, 'adaptive');
        if (v && bad.length < 5) bad.push(v);
        if (src === g.nodeRouter[d]) {
          // ejecting at the source router is minimal whatever the load
          if ((w.firstPhase !== 2 || w.inter !== -1) && bad.length < 5) bad.push(`${s} -> ${d}: same router, not minimal`);
          continue;
        }
        candidates++;
        const first = w.hops[0]!;
        if (!hot.has(src * g.radix + first.port)) avoided++;
        if (w.firstPhase === 1) nonMinimal++;
        else if (!hot.has(src * g.radix + first.port) && bad.length < 5) bad.push(`${s} -> ${d}: minimal route avoids every minimal first hop`);
      }
    }
    expect(bad).toEqual([]);
    expect(nonMinimal).toBeGreaterThan(0);
    // In small groups the minimal first hops over all gateways cover most ports, so the
    // non-minimal candidates often share a loaded first hop (then the shorter route wins); some
    // packets escape the load all the same.
    expect(avoided).toBeGreaterThan(0);
    expect(avoided).toBeLessThanOrEqual(nonMinimal);
    // far more than on an idle network (a few per cent, see below)
    expect(nonMinimal).toBeGreaterThan(candidates / 4);
  });

  /** Walks every pair with adaptive routing on an idle network; returns the non-minimal walks. */
  function idleNonMinimal(cfg: DragonflyConfig, sameGroup: boolean | null): string[] {
    const g = buildDragonfly(cfg);
    const pool = new PacketPool(8, 16);
    const rng = new Prng(2024);
    const found: string[] = [];
    for (let cls = 0; cls < 2; cls++) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          const same = groupOf(g, g.nodeRouter[s]!) === groupOf(g, g.nodeRouter[d]!);
          if (sameGroup !== null && same !== sameGroup) continue;
          const w = walk(g, routeOf('adaptive'), pool, s, d, cls, { salt: rng.nextU32() });
          if (w.phase !== 2 || w.inter !== -1) found.push(`${s} -> ${d} class ${cls}: via router ${w.inter}, ${w.hops.length} hops`);
        }
      }
    }
    return found;
  }

  it.each(SMALL)('with all loads 0 stays minimal within a group (rPhase 2, rInter -1), on $name', ({ cfg }) => {
    expect(idleNonMinimal(cfg, true)).toEqual([]);
  });

  it.each(MULTI)('with all loads 0 and adaptiveBias 4 stays minimal between groups too, on $name', ({ cfg }) => {
    // a minimal route has at most 5 hops and a non-minimal one between groups at least 2, so a
    // bias above 3 makes every non-minimal candidate dearer on an idle network
    expect(idleNonMinimal({ ...cfg, adaptiveBias: 4 }, null)).toEqual([]);
  });

  // Why the xc30 preset's adaptiveBias is 4: with no bias an idle network still sends a few
  // packets non-minimally (a Valiant candidate through a router that holds a gateway can cost
  // less than a minimal route with local hops at both ends). Seed "Cray XC Routing": "packets will
  // take a minimal path until the load on these paths increases".
  it.fails.each(MULTI.slice(0, 2).map(({ name, cfg }) => ({ name, bias: '0', cfg: { ...cfg, adaptiveBias: 0 } })))('with all loads 0 and adaptiveBias $bias stays minimal between groups, on $name', ({ cfg }) => {
    expect(idleNonMinimal(cfg, false)).toEqual([]);
  });
});
