/**
 * buildDragonfly (seed 001, "Dragonfly Implementation"; SEED-FIGURES A1, A3, A9, A16): the
 * invariants of the built port graph, cables per group pair, and the global links at the real
 * group size.
 */
import { describe, expect, it } from 'vitest';
import { buildDragonfly, DF_BLACK, DF_GLOBAL, DF_GREEN, dragonflyLayout, maxCablesPerPair, NEAR, type DragonflyConfig, type DragonflyGraph } from '../fabric/topology/dragonfly.ts';
import { PORT_NODE, PORT_UNUSED, routerDistances } from '../fabric/topology/port-graph.ts';
import { REAL, SMALL, groupOf, realCfg } from './dragonfly-helpers.ts';

/**
 * Every structural invariant of a built dragonfly; returns the violations (empty if none), at
 * most `limit` of them, so large systems cost no per-port expect() calls.
 */
function builderViolations(g: DragonflyGraph, limit = 20): string[] {
  const c = g.config;
  const bad: string[] = [];
  const fail = (m: string): void => {
    if (bad.length < limit) bad.push(m);
  };
  const G = c.groups;
  const R = c.routersPerChassis;
  const RG = c.chassis * R;
  const lay = dragonflyLayout(c);
  if (g.topology !== 'dragonfly') fail(`topology ${g.topology}`);
  if (g.routers !== G * RG || g.routersPerGroup !== RG) fail(`routers ${g.routers}, per group ${g.routersPerGroup}`);
  if (g.radix !== c.nodesPerRouter + (R - 1) + (c.chassis - 1) * c.blackLinks + c.globalPorts || g.radix !== lay.radix) fail(`radix ${g.radix}`);
  if (g.greenBase !== lay.greenBase || g.blackBase !== lay.blackBase || g.globalBase !== lay.globalBase) fail('layout differs from dragonflyLayout');
  if (g.nodes !== c.nodes || g.nodeRouter.length !== c.nodes || g.nodePort.length !== c.nodes) fail(`nodes ${g.nodes}`);
  const L = G > 1 ? c.cablesPerPair * c.linksPerCable : 0;
  if (g.linksPerPair !== L) fail(`linksPerPair ${g.linksPerPair}, expected ${L}`);
  if (g.gateways.length !== G * G * L) fail(`gateways length ${g.gateways.length}`);
  // links between each ordered pair of groups, as global port ids
  const pairLinks: number[][] = Array.from({ length: G * G }, () => []);
  for (let r = 0; r < g.routers; r++) {
    const gr = groupOf(g, r);
    const lr = r % RG;
    const ch = Math.floor(lr / R);
    const slot = lr % R;
    const greenPeers = new Set<number>();
    const blackPerChassis = new Map<number, number>();
    for (let p = 0; p < g.radix; p++) {
      const gp = r * g.radix + p;
      const peer = g.peerRouter[gp]!;
      const pp = g.peerPort[gp]!;
      const cls = g.portClass[gp]!;
      if ((peer < 0) !== (pp < 0)) fail(`port ${r}.${p}: peer router ${peer} but peer port ${pp}`);
      if (peer >= 0) {
        // symmetric: the peer of the peer is this port, with the same class on both ends
        const back = peer * g.radix + pp;
        if (g.peerRouter[back] !== r || g.peerPort[back] !== p) fail(`port ${r}.${p} -> ${peer}.${pp} -> ${g.peerRouter[back]}.${g.peerPort[back]}`);
        if (g.portClass[back] !== cls) fail(`port ${r}.${p} class ${cls}, peer class ${g.portClass[back]}`);
        if (g.portNode[gp] !== -1) fail(`link port ${r}.${p} has a node`);
        if (peer === r) fail(`port ${r}.${p} loops back`);
      }
      if (p < c.nodesPerRouter) {
        const node = r * c.nodesPerRouter + p;
        if (node < c.nodes) {
          if (cls !== PORT_NODE || g.portNode[gp] !== node || peer !== -1) fail(`node port ${r}.${p}: class ${cls}, node ${g.portNode[gp]}`);
          if (g.nodeRouter[node] !== r || g.nodePort[node] !== p) fail(`node ${node} at ${g.nodeRouter[node]}.${g.nodePort[node]}`);
        } else if (cls !== PORT_UNUSED || g.portNode[gp] !== -1 || peer !== -1) {
          fail(`empty node slot ${r}.${p}: class ${cls}`);
        }
      } else if (p < g.blackBase) {
        if (cls !== DF_GREEN) fail(`green port ${r}.${p} has class ${cls}`);
        if (groupOf(g, peer) !== gr || Math.floor((peer % RG) / R) !== ch) fail(`green port ${r}.${p} leaves the chassis`);
        greenPeers.add(peer);
      } else if (p < g.globalBase) {
        if (cls !== DF_BLACK) fail(`black port ${r}.${p} has class ${cls}`);
        const ch2 = Math.floor((peer % RG) / R);
        if (groupOf(g, peer) !== gr || (peer % RG) % R !== slot || ch2 === ch) fail(`black port ${r}.${p} to router ${peer}`);
        blackPerChassis.set(ch2, (blackPerChassis.get(ch2) ?? 0) + 1);
      } else if (peer >= 0) {
        if (cls !== DF_GLOBAL) fail(`wired global port ${r}.${p} has class ${cls}`);
        const h = groupOf(g, peer);
        if (h === gr) fail(`global port ${r}.${p} stays in group ${gr}`);
        pairLinks[gr * G + h]!.push(gp);
      } else if (cls !== PORT_UNUSED || g.portNode[gp] !== -1) {
        fail(`unwired global port ${r}.${p} has class ${cls}`);
      }
    }
    if (greenPeers.size !== R - 1) fail(`router ${r}: ${greenPeers.size} distinct green peers`);
    if (blackPerChassis.size !== c.chassis - 1 || [...blackPerChassis.values()].some((n) => n !== c.blackLinks)) {
      fail(`router ${r}: black links per other chassis ${[...blackPerChassis.values()].join(',')}`);
    }
  }
  for (let a = 0; a < G; a++) {
    for (let b = 0; b < G; b++) {
      const links = pairLinks[a * G + b]!;
      const gws = [...g.gateways.subarray((a * G + b) * L, (a * G + b + 1) * L)];
      if (a === b) {
        if (links.length !== 0 || gws.some((x) => x !== -1)) fail(`group ${a} links to itself`);
        continue;
      }
      if (links.length !== L) fail(`groups ${a} -> ${b}: ${links.length} global links, expected ${L}`);
      const sorted = [...gws].sort((x, y) => x - y);
      if (sorted.join() !== [...links].sort((x, y) => x - y).join()) fail(`gateways ${a} -> ${b} are not exactly its links`);
    }
  }
  // minimal-route table: for each router and other group, the gateways at the least local distance (up to NEAR)
  const local = (x: number, y: number): number => (x % R !== y % R ? 1 : 0) + (Math.floor((x % RG) / R) !== Math.floor((y % RG) / R) ? 1 : 0);
  for (let r = 0; r < g.routers; r++) {
    const a = Math.floor(r / RG);
    for (let b = 0; b < G; b++) {
      if (b === a) continue;
      const row = r * G + b;
      const n = g.nearCount[row]!;
      const all = [...g.gateways.subarray((a * G + b) * L, (a * G + b + 1) * L)];
      const best = Math.min(...all.map((gw) => local(r, Math.floor(gw / g.radix))));
      const atBest = all.filter((gw) => local(r, Math.floor(gw / g.radix)) === best).length;
      const row8 = [...g.nearGateways.subarray(row * NEAR, (row + 1) * NEAR)];
      if (n !== Math.min(NEAR, atBest)) fail(`router ${r} -> group ${b}: ${n} near gateways, expected ${Math.min(NEAR, atBest)}`);
      if (row8.slice(0, n).some((gw) => !all.includes(gw) || local(r, Math.floor(gw / g.radix)) !== best)) fail(`router ${r} -> group ${b}: a near gateway is not among the nearest`);
      if (row8.slice(n).some((gw) => gw !== -1)) fail(`router ${r} -> group ${b}: entries past the count are set`);
    }
  }
  return bad;
}

/** Wired global links of each router. */
function globalLinksPerRouter(g: DragonflyGraph): number[] {
  const n: number[] = [];
  for (let r = 0; r < g.routers; r++) {
    let k = 0;
    for (let p = g.globalBase; p < g.radix; p++) if (g.portClass[r * g.radix + p] === DF_GLOBAL) k++;
    n.push(k);
  }
  return n;
}

/** Other groups router `r` has a global link to. */
function groupsReached(g: DragonflyGraph, r: number): Set<number> {
  const s = new Set<number>();
  for (let p = g.globalBase; p < g.radix; p++) {
    const gp = r * g.radix + p;
    if (g.portClass[gp] === DF_GLOBAL) s.add(groupOf(g, g.peerRouter[gp]!));
  }
  return s;
}

/** Optical cables of the whole system (each global link counted once, linksPerCable per cable). */
function cables(g: DragonflyGraph): number {
  const ends = globalLinksPerRouter(g).reduce((a, b) => a + b, 0);
  return ends / 2 / g.config.linksPerCable;
}

describe('buildDragonfly', () => {
  it.each(SMALL)('keeps every invariant on $name', ({ cfg }) => {
    const g = buildDragonfly(cfg);
    expect(builderViolations(g)).toEqual([]);
    expect(cables(g)).toBe((cfg.cablesPerPair * cfg.groups * (cfg.groups - 1)) / 2);
    // links spread over the group's routers: each has floor or ceil of the average
    const per = globalLinksPerRouter(g);
    const avg = (g.linksPerPair * (cfg.groups - 1)) / g.routersPerGroup;
    expect(Math.max(...per)).toBeLessThanOrEqual(Math.ceil(avg));
    expect(Math.min(...per)).toBeGreaterThanOrEqual(Math.floor(avg));
  });

  it('lays out ports as nodes, green, black, global (dragonflyLayout)', () => {
    expect(dragonflyLayout(realCfg(6, 48))).toEqual({ greenBase: 4, blackBase: 19, globalBase: 34, radix: 44 });
    const c = SMALL[0]!.cfg;
    expect(dragonflyLayout(c)).toEqual({ greenBase: 2, blackBase: 4, globalBase: 6, radix: 10 });
  });

  it('maxCablesPerPair is floor(cables per group / (groups - 1)) (A16): 48 for 6 groups and 34 for 8 with the real sizes', () => {
    expect(maxCablesPerPair({ ...REAL, groups: 6 })).toBe(48);
    expect(maxCablesPerPair({ ...REAL, groups: 8 })).toBe(34);
    for (let G = 2; G <= 241; G++) expect(maxCablesPerPair({ ...REAL, groups: G })).toBe(Math.floor(240 / (G - 1)));
    expect(maxCablesPerPair({ ...REAL, groups: 242 })).toBe(0); // A1: at most 241 groups
    expect(maxCablesPerPair({ ...REAL, groups: 1 })).toBe(0);
  });

  it('total cables = cablesPerPair * G * (G - 1) / 2 (seed Table 2: 6 groups x 12 -> 180, 8 groups x 12 -> 336)', () => {
    expect(cables(buildDragonfly(realCfg(6, 12, 1)))).toBe(180);
    expect(cables(buildDragonfly(realCfg(8, 12, 1)))).toBe(336);
    expect(cables(buildDragonfly(realCfg(6, 48, 1)))).toBe(720); // Table 3: full 6-group system
    expect(cables(buildDragonfly(realCfg(8, 34, 1)))).toBe(952); // Table 3: full 8-group system
  });

  it.each([
    ['cablesPerPair', { ...realCfg(6, 49) }],
    ['cablesPerPair', { ...realCfg(8, 35) }],
    ['cablesPerPair', { ...realCfg(3, 0) }],
    ['cablesPerPair', { ...realCfg(3, 1.5) }],
    ['groups', { ...realCfg(1, 0), groups: 0 }],
    ['groups', { ...realCfg(2, 1), groups: -1 }],
    ['chassis', { ...realCfg(2, 1, 1), chassis: 0 }],
    ['routersPerChassis', { ...realCfg(2, 1, 1), routersPerChassis: 2.5 }],
    ['blackLinks', { ...realCfg(2, 1, 1), blackLinks: 0 }],
    ['linksPerCable', { ...realCfg(2, 1, 1), linksPerCable: 0 }],
    ['nodesPerRouter', { ...realCfg(2, 1, 1), nodesPerRouter: 0 }],
    ['globalPorts', { ...realCfg(2, 1, 1), globalPorts: -1 }],
    ['nodes', { ...realCfg(2, 1), nodes: 2 * 384 + 1 }],
    ['nodes', { ...realCfg(2, 1), nodes: 0 }],
  ] as [string, DragonflyConfig][])('rejects a bad %s with a RangeError naming it', (field, cfg) => {
    expect(() => buildDragonfly(cfg)).toThrow(RangeError);
    expect(() => buildDragonfly(cfg)).toThrow(new RegExp(`dragonfly\\.${field} `));
  });

  it('accepts the largest cablesPerPair and a single group without cables', () => {
    expect(buildDragonfly(realCfg(6, 48)).linksPerPair).toBe(192);
    expect(buildDragonfly(realCfg(8, 34)).linksPerPair).toBe(136);
    const one = buildDragonfly(realCfg(1, 0));
    expect(one.linksPerPair).toBe(0);
    expect(builderViolations(one)).toEqual([]);
  });
});

describe('buildDragonfly at the real group size (6 x 16 Aries, 3 black links, 10 global ports, 4 links per cable)', () => {
  it('6 groups x 12 cables (partial): invariants, 180 cables, global links spread over the 96 routers', () => {
    const g = buildDragonfly(realCfg(6, 12));
    expect(g.nodes).toBe(6 * 384); // A1: 384 nodes, 96 Aries per group
    expect(g.routersPerGroup).toBe(96);
    expect(builderViolations(g)).toEqual([]);
    expect(g.linksPerPair).toBe(48);
    expect(cables(g)).toBe(180);
    const per = globalLinksPerRouter(g);
    const total = 12 * 4 * 5; // global links per group
    expect(Math.max(...per)).toBeLessThanOrEqual(Math.ceil(total / 96) + 1);
    expect(Math.min(...per)).toBeGreaterThanOrEqual(Math.floor(total / 96));
  });

  it('6 groups x 48 cables (max): every router has all 10 global ports wired, reaching every other group (A9), diameter 3', () => {
    const g = buildDragonfly(realCfg(6, 48));
    expect(builderViolations(g)).toEqual([]);
    expect(cables(g)).toBe(720);
    const per = globalLinksPerRouter(g);
    expect(per.every((n) => n === 10)).toBe(true);
    const missing: number[] = [];
    for (let r = 0; r < g.routers; r++) if (groupsReached(g, r).size !== 5) missing.push(r);
    expect(missing).toEqual([]);
    // a direct global link from every router to every other group: at most 3 router hops between any two routers
    let inGroup = 0;
    let across = 0;
    for (let r = 0; r < g.routers; r++) {
      const dist = routerDistances(g, r);
      for (let t = 0; t < g.routers; t++) {
        const d = dist[t]!;
        if (groupOf(g, t) === groupOf(g, r)) inGroup = Math.max(inGroup, d);
        else across = Math.max(across, d);
      }
    }
    expect(inGroup).toBe(2);
    expect(across).toBe(3);
  });

  it.each([2, 6, 8, 12, 14])('with max cables for %i groups every router reaches min(its global links, G - 1) other groups', (G) => {
    const g = buildDragonfly(realCfg(G, maxCablesPerPair({ ...REAL, groups: G }), 1));
    const per = globalLinksPerRouter(g);
    const short: number[] = [];
    for (let r = 0; r < g.routers; r++) if (groupsReached(g, r).size < Math.min(per[r]!, G - 1)) short.push(r);
    expect(short).toEqual([]);
  });

  // Regression: global links were once placed so that, when G - 1 divides 96, all of a router's
  // links led to one group.
  it.each([3, 4, 5, 7, 9, 10, 11, 13])('with max cables for %i groups every router reaches min(its global links, G - 1) other groups', (G) => {
    const g = buildDragonfly(realCfg(G, maxCablesPerPair({ ...REAL, groups: G }), 1));
    const per = globalLinksPerRouter(g);
    const short: number[] = [];
    for (let r = 0; r < g.routers; r++) if (groupsReached(g, r).size < Math.min(per[r]!, G - 1)) short.push(r);
    expect(short).toEqual([]);
  });
});
