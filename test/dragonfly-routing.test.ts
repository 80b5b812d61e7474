/**
 * Dragonfly routing (seed 001, "Cray XC Routing"; SEED-FIGURES A9, A11, A22): the routing table,
 * route walks of every algorithm, hashed and salted gateways, minimal route lengths on the real
 * system.
 */
import { describe, expect, it } from 'vitest';
import { Prng } from '../fabric/engine/prng.ts';
import { PacketPool } from '../fabric/packet.ts';
import { DRAGONFLY_VCS, dragonflyRouting } from '../fabric/routing/dragonfly-routing.ts';
import { pickRouting } from '../fabric/routing/routing.ts';
import { buildDragonfly } from '../fabric/topology/dragonfly.ts';
import { ALGORITHMS, SMALL, groupOf, realCfg, routeOf, walk, walkViolation, type Walk } from './dragonfly-helpers.ts';

/** Route of a walk as text, for comparing paths. */
const pathText = (w: Walk): string => [...w.hops, w.eject].map((h) => `${h.router}.${h.port}/${h.vc}`).join(' ');

describe('dragonfly routing table', () => {
  it('has 8 VCs (A11: 4 request + 4 response) and the four algorithms; unknown names throw a RangeError', () => {
    expect(dragonflyRouting.vcs).toBe(8);
    expect(DRAGONFLY_VCS).toBe(8);
    expect(Object.keys(dragonflyRouting.algorithms).sort()).toEqual(['adaptive', 'hash', 'minimal', 'valiant']);
    expect(() => pickRouting(dragonflyRouting, 'dragonfly', 'dor')).toThrow(RangeError);
    expect(() => pickRouting(dragonflyRouting, 'dragonfly', 'dor')).toThrow(/unknown routing "dor" for dragonfly; valid: minimal, valiant, adaptive, hash/);
  });
});

describe.each(SMALL)('dragonfly route walks on $name', ({ cfg }) => {
  const g = buildDragonfly(cfg);

  it.each(ALGORITHMS)('%s: every pair, both classes, first and last parallel port: reaches the node, hop and VC rules hold', (alg) => {
    const route = routeOf(alg);
    const pool = new PacketPool(8, 16);
    const rng = new Prng(0xdf + alg.length);
    const bad: string[] = [];
    let nonMinimal = 0;
    let walks = 0;
    for (const last of [false, true]) {
      for (let cls = 0; cls < 2; cls++) {
        for (let s = 0; s < g.nodes; s++) {
          for (let d = 0; d < g.nodes; d++) {
            const w = walk(g, route, pool, s, d, cls, { salt: rng.nextU32(), last });
            walks++;
            if (w.inter !== -1) nonMinimal++;
            const v = walkViolation(g, w, s, d, cls, alg);
            if (v && bad.length < 10) bad.push(v);
          }
        }
      }
    }
    expect(bad).toEqual([]);
    expect(walks).toBe(4 * g.nodes * g.nodes);
    if (alg === 'valiant') expect(nonMinimal).toBeGreaterThan(walks / 2); // the intermediate is rarely an end router
    if (alg === 'minimal' || alg === 'hash') expect(nonMinimal).toBe(0);
  });

  it('minimal takes exactly the hops a direct route needs: within a group one green if the slots differ, one black if the chassis do', () => {
    const pool = new PacketPool(8, 16);
    const R = cfg.routersPerChassis;
    const RG = g.routersPerGroup;
    const bad: string[] = [];
    for (let s = 0; s < g.nodes; s++) {
      for (let d = 0; d < g.nodes; d++) {
        const a = g.nodeRouter[s]!;
        const b = g.nodeRouter[d]!;
        if (groupOf(g, a) !== groupOf(g, b)) continue;
        const want = ((a % RG) % R !== (b % RG) % R ? 1 : 0) + (Math.floor((a % RG) / R) !== Math.floor((b % RG) / R) ? 1 : 0);
        const w = walk(g, routeOf('minimal'), pool, s, d, 0, { salt: s * 977 + d });
        if (w.hops.length !== want && bad.length < 5) bad.push(`${s} -> ${d}: ${w.hops.length} hops, expected ${want}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('hash: the same path for the same (src, dst) whatever rSalt', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(7);
    const bad: string[] = [];
    for (let cls = 0; cls < 2; cls++) {
      for (let s = 0; s < g.nodes; s++) {
        for (let d = 0; d < g.nodes; d++) {
          const ref = pathText(walk(g, routeOf('hash'), pool, s, d, cls, { salt: rng.nextU32() }));
          for (let k = 0; k < 3; k++) {
            const other = pathText(walk(g, routeOf('hash'), pool, s, d, cls, { salt: rng.nextU32() }));
            if (other !== ref && bad.length < 5) bad.push(`${s} -> ${d}: ${ref} vs ${other}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('hashed and salted gateways', () => {
  const g = buildDragonfly(SMALL[1]!.cfg); // 5 groups, 6 links per pair

  it('minimal spreads packets of one (src, dst) pair over the gateways by rSalt; hash keeps one, also for minimal with ordered set', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(11);
    const s = 0;
    const d = g.nodes - 1; // another group
    expect(groupOf(g, g.nodeRouter[s]!)).not.toBe(groupOf(g, g.nodeRouter[d]!));
    const minimal = new Set<string>();
    const ordered = new Set<string>();
    const hash = new Set<string>();
    for (let k = 0; k < 64; k++) {
      const salt = rng.nextU32();
      minimal.add(pathText(walk(g, routeOf('minimal'), pool, s, d, 0, { salt })));
      ordered.add(pathText(walk(g, routeOf('minimal'), pool, s, d, 0, { salt, ordered: 1 })));
      hash.add(pathText(walk(g, routeOf('hash'), pool, s, d, 0, { salt })));
    }
    expect(minimal.size).toBeGreaterThan(1);
    expect(hash.size).toBe(1);
    expect([...ordered]).toEqual([...hash]);
  });

  // Regression: ordered packets take the hashed minimal path whatever the algorithm.
  it.each(["adaptive", "valiant"] as const)('%s routes a packet with ordered = 1 over the one hashed path', (alg) => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(12);
    const bad: string[] = [];
    for (let s = 0; s < g.nodes; s += 3) {
      for (let d = 0; d < g.nodes; d += 5) {
        const hash = pathText(walk(g, routeOf('hash'), pool, s, d, 0, { salt: 1 }));
        for (let k = 0; k < 4; k++) {
          const w = pathText(walk(g, routeOf(alg), pool, s, d, 0, { salt: rng.nextU32(), ordered: 1 }));
          if (w !== hash && bad.length < 3) bad.push(`${s} -> ${d}: ${w} vs hashed ${hash}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('minimal routes on the real full 6-group system', () => {
  const g = buildDragonfly(realCfg(6, 48));

  it('a minimal route between groups is at most 5 hops (A22: at most 500 ns at about 100 ns per hop)', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(6);
    let longest = 0;
    for (let a = 0; a < g.routers; a += 5) {
      for (let b = 3; b < g.routers; b += 7) {
        const w = walk(g, routeOf('minimal'), pool, a * 4, b * 4, 0, { salt: rng.nextU32() });
        expect(w.eject.router).toBe(b);
        longest = Math.max(longest, w.hops.length);
      }
    }
    expect(longest).toBeLessThanOrEqual(5);
  });

  // Regression (seed A9): minimal routes use the nearest gateway, so a full 6-group system, where
  // every Aries links to every other group, has minimal paths of at most 3 hops.
  it('a minimal route between groups is at most 3 hops (A9)', () => {
    const pool = new PacketPool(8, 16);
    const rng = new Prng(6);
    let longest = 0;
    for (let a = 0; a < g.routers; a += 5) {
      for (let b = 3; b < g.routers; b += 7) {
        if (groupOf(g, a) === groupOf(g, b)) continue;
        const w = walk(g, routeOf('minimal'), pool, a * 4, b * 4, 0, { salt: rng.nextU32() });
        longest = Math.max(longest, w.hops.length);
      }
    }
    expect(longest).toBeLessThanOrEqual(3);
  });
});
