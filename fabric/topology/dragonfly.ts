import type { ParamReader } from '../machines/spec.ts';
import { checkGraphSize, newPortArrays, type PortGraph } from './port-graph.ts';

/** Configuration of a Cray XC style dragonfly (seed 001, "Dragonfly Implementation"). */
export interface DragonflyConfig {
  readonly groups: number;
  /** Chassis per group (the black, rank-2 dimension). */
  readonly chassis: number;
  /** Routers per chassis (the green, rank-1 dimension). */
  readonly routersPerChassis: number;
  /** Parallel black links from a router to its peer in each other chassis. */
  readonly blackLinks: number;
  /** Global ports per router. */
  readonly globalPorts: number;
  /** Cables between each pair of groups. */
  readonly cablesPerPair: number;
  /** Global links per cable (a 12X cable carries 4 three-lane links). */
  readonly linksPerCable: number;
  readonly nodesPerRouter: number;
  /** Nodes attached (the first `nodes` node slots, group by group). */
  readonly nodes: number;
  /** Adaptive routing: extra cost of a non-minimal candidate (in loaded hops); larger favours minimal. */
  readonly adaptiveBias: number;
}

/** Most gateways kept per (router, group) in the minimal-route table. */
export const NEAR = 8;

/** Link classes of a dragonfly. */
export const DF_GREEN = 2;
export const DF_BLACK = 3;
export const DF_GLOBAL = 4;

/** A dragonfly port graph with its layout. */
export interface DragonflyGraph extends PortGraph {
  readonly topology: 'dragonfly';
  readonly config: DragonflyConfig;
  readonly routersPerGroup: number;
  /** First port of the green, black and global port ranges. */
  readonly greenBase: number;
  readonly blackBase: number;
  readonly globalBase: number;
  /** Global links between each ordered pair of groups. */
  readonly linksPerPair: number;
  /**
   * Minimal-route table (the seed's "global minimal" route tables): for router r and group h,
   * the gateways of r's group toward h with the fewest local hops from r (all of them, up to
   * NEAR), `nearGateways[(r * groups + h) * NEAR + i]`, -1 where there are fewer.
   */
  readonly nearGateways: Int32Array;
  /** How many entries of each (router, group) row of nearGateways are set: `nearCount[r * groups + h]`. */
  readonly nearCount: Uint8Array;
  /** Group, chassis and slot of each router (precomputed for routing). */
  readonly routerGroup: Int32Array;
  readonly routerChassis: Int32Array;
  readonly routerSlot: Int32Array;
  /**
   * Global ports (router * radix + port) of group g that lead to group h:
   * `gateways[(g * groups + h) * linksPerPair + m]`, m < linksPerPair.
   */
  readonly gateways: Int32Array;
}

/**
 * Port numbering, kept beside the routing that depends on it (dragonfly-routing.ts): ports
 * [0, nodesPerRouter) attach nodes; then routersPerChassis - 1 green ports (one per other router
 * of the chassis, in slot order); then blackLinks ports to each other chassis (in chassis order);
 * then the global ports.
 */
export function dragonflyLayout(c: DragonflyConfig): { greenBase: number; blackBase: number; globalBase: number; radix: number } {
  const greenBase = c.nodesPerRouter;
  const blackBase = greenBase + c.routersPerChassis - 1;
  const globalBase = blackBase + (c.chassis - 1) * c.blackLinks;
  return { greenBase, blackBase, globalBase, radix: globalBase + c.globalPorts };
}

/** Largest number of cables between each pair of groups (seed 001, Configuration: floor(cables per group / (groups - 1))). */
export function maxCablesPerPair(c: Pick<DragonflyConfig, 'groups' | 'chassis' | 'routersPerChassis' | 'globalPorts' | 'linksPerCable'>): number {
  const cablesPerGroup = Math.floor((c.chassis * c.routersPerChassis * c.globalPorts) / c.linksPerCable);
  return c.groups > 1 ? Math.floor(cablesPerGroup / (c.groups - 1)) : 0;
}

/** Builds a dragonfly port graph; throws RangeError naming the bad field. */
export function buildDragonfly(c: DragonflyConfig): DragonflyGraph {
  for (const k of ['groups', 'chassis', 'routersPerChassis', 'blackLinks', 'linksPerCable', 'nodesPerRouter'] as const) {
    if (!Number.isInteger(c[k]) || c[k] < 1) throw new RangeError(`dragonfly.${k} must be a positive integer, got ${c[k]}`);
  }
  if (!Number.isInteger(c.globalPorts) || c.globalPorts < 0) throw new RangeError(`dragonfly.globalPorts must be a non-negative integer, got ${c.globalPorts}`);
  const G = c.groups;
  const RG = c.chassis * c.routersPerChassis;
  const maxPairs = maxCablesPerPair(c);
  if (G > 1 && (!Number.isInteger(c.cablesPerPair) || c.cablesPerPair < 1 || c.cablesPerPair > maxPairs)) {
    throw new RangeError(`dragonfly.cablesPerPair must be an integer from 1 to ${maxPairs} for ${G} groups (${(RG * c.globalPorts) / c.linksPerCable} cables per group), got ${c.cablesPerPair}`);
  }
  const routers = G * RG;
  const slots = routers * c.nodesPerRouter;
  if (!Number.isInteger(c.nodes) || c.nodes < 1 || c.nodes > slots) {
    throw new RangeError(`dragonfly.nodes must be an integer from 1 to ${slots} (${G} groups of ${RG * c.nodesPerRouter}), got ${c.nodes}`);
  }
  const { greenBase, blackBase, globalBase, radix } = dragonflyLayout(c);
  const ports = newPortArrays(routers, radix, c.nodes, c.nodesPerRouter);
  const { peerRouter, peerPort, portClass } = ports;
  const wire = (ra: number, pa: number, rb: number, pb: number, cls: number): void => {
    peerRouter[ra * radix + pa] = rb;
    peerPort[ra * radix + pa] = pb;
    portClass[ra * radix + pa] = cls;
  };
  const R = c.routersPerChassis;
  const C = c.chassis;
  const routerGroup = new Int32Array(routers);
  const routerChassis = new Int32Array(routers);
  const routerSlot = new Int32Array(routers);
  for (let r = 0; r < routers; r++) {
    routerGroup[r] = Math.floor(r / RG);
    routerChassis[r] = Math.floor((r % RG) / R);
    routerSlot[r] = r % R;
  }
  for (let r = 0; r < routers; r++) {
    const g = Math.floor(r / RG);
    const lr = r % RG;
    const ch = Math.floor(lr / R);
    const s = lr % R;
    // green: all-to-all within the chassis
    for (let s2 = 0; s2 < R; s2++) {
      if (s2 === s) continue;
      const r2 = g * RG + ch * R + s2;
      wire(r, greenBase + (s2 < s ? s2 : s2 - 1), r2, greenBase + (s < s2 ? s : s - 1), DF_GREEN);
    }
    // black: blackLinks to the router in the same slot of every other chassis
    for (let c2 = 0; c2 < C; c2++) {
      if (c2 === ch) continue;
      const r2 = g * RG + c2 * R + s;
      for (let l = 0; l < c.blackLinks; l++) {
        wire(r, blackBase + (c2 < ch ? c2 : c2 - 1) * c.blackLinks + l, r2, blackBase + (ch < c2 ? ch : ch - 1) * c.blackLinks + l, DF_BLACK);
      }
    }
  }
  // global: every group gives each other group L = cablesPerPair x linksPerCable links. Port j of
  // router lr serves the group at offset k = (lr + j) mod (G-1), so a router's links reach
  // different groups; each offset takes its L ports round by round (port 0 of every router, then
  // port 1, ...) so links spread evenly over routers. Should an offset find too few such ports,
  // it takes free ports of routers that do not reach it yet, then any free port. The m-th link of
  // group g to offset k pairs with the m-th link of the peer group back.
  const L = G > 1 ? c.cablesPerPair * c.linksPerCable : 0;
  const gateways = new Int32Array(G * G * L).fill(-1);
  if (G > 1) {
    const K = G - 1;
    const P = RG * c.globalPorts;
    const place = new Int32Array(G * K * L); // global port of link (g, k, m)
    const taken = new Uint8Array(P);
    const reaches = new Uint8Array(RG * K);
    for (let g = 0; g < G; g++) {
      const used = new Int32Array(K);
      taken.fill(0);
      reaches.fill(0);
      const take = (pos: number, k: number): void => {
        const j = Math.floor(pos / RG);
        const lr = pos % RG;
        taken[pos] = 1;
        reaches[lr * K + k] = 1;
        place[(g * K + k) * L + used[k]!++] = (g * RG + lr) * radix + globalBase + j;
      };
      for (let pos = 0; pos < P; pos++) {
        const k = ((pos % RG) + Math.floor(pos / RG)) % K;
        if (used[k]! < L) take(pos, k);
      }
      for (let k = 0; k < K; k++) {
        for (let pos = 0; pos < P && used[k]! < L; pos++) if (!taken[pos] && !reaches[(pos % RG) * K + k]) take(pos, k);
        for (let pos = 0; pos < P && used[k]! < L; pos++) if (!taken[pos]) take(pos, k);
      }
    }
    for (let g = 0; g < G; g++) {
      for (let k = 0; k < K; k++) {
        const h = (g + 1 + k) % G;
        const kBack = (g - h - 1 + 2 * G) % G;
        for (let m = 0; m < L; m++) {
          const a = place[(g * K + k) * L + m]!;
          const b = place[(h * K + kBack) * L + m]!;
          wire(Math.floor(a / radix), a % radix, Math.floor(b / radix), b % radix, DF_GLOBAL);
          gateways[(g * G + h) * L + m] = a;
        }
      }
    }
  }
  // minimal-route table: per router and target group, the gateways fewest local hops away
  const nearGateways = new Int32Array(routers * G * NEAR).fill(-1);
  const nearCount = new Uint8Array(routers * G);
  if (G > 1) {
    const localHops = (a: number, b: number): number => (routerSlot[a] !== routerSlot[b] ? 1 : 0) + (routerChassis[a] !== routerChassis[b] ? 1 : 0);
    for (let r = 0; r < routers; r++) {
      const g = routerGroup[r]!;
      for (let h = 0; h < G; h++) {
        if (h === g) continue;
        const base = (r * G + h) * NEAR;
        let found = 0;
        for (let want = 0; want <= 2 && found === 0; want++) {
          // start the scan at a router-dependent link so routers share the load of equal choices
          for (let i = 0; i < L && found < NEAR; i++) {
            const gw = gateways[(g * G + h) * L + ((i + r) % L)]!;
            if (localHops(r, Math.floor(gw / radix)) === want) nearGateways[base + found++] = gw;
          }
        }
        nearCount[r * G + h] = found;
      }
    }
  }
  return {
    topology: 'dragonfly',
    routers,
    radix,
    nodes: c.nodes,
    ...ports,
    classNames: ['node', 'unused', 'green', 'black', 'global'],
    config: c,
    routersPerGroup: RG,
    greenBase,
    blackBase,
    globalBase,
    linksPerPair: L,
    gateways,
    nearGateways,
    nearCount,
    routerGroup,
    routerChassis,
    routerSlot,
  };
}

/** Reads a dragonfly's parameters for `nodes` nodes: groups and cables per pair default to the smallest full system. */
export function resolveDragonfly(r: ParamReader, nodes: number): DragonflyConfig {
  const base = {
    chassis: r.int('dragonfly.chassis'),
    routersPerChassis: r.int('dragonfly.routersPerChassis'),
    blackLinks: r.int('dragonfly.blackLinks'),
    globalPorts: r.int('dragonfly.globalPorts'),
    linksPerCable: r.int('dragonfly.linksPerCable'),
    nodesPerRouter: r.int('dragonfly.nodesPerRouter'),
    adaptiveBias: r.number('routing.adaptiveBias'),
  };
  const perGroup = base.chassis * base.routersPerChassis * base.nodesPerRouter;
  const groupsText = r.string('dragonfly.groups');
  const groups = groupsText === 'auto' ? Math.ceil(nodes / perGroup) : r.int('dragonfly.groups');
  const sizes = `dragonfly.groups=${groupsText === 'auto' ? `auto (${groups})` : groups}, dragonfly.chassis=${base.chassis}, dragonfly.routersPerChassis=${base.routersPerChassis}, dragonfly.blackLinks=${base.blackLinks}, dragonfly.globalPorts=${base.globalPorts}, dragonfly.nodesPerRouter=${base.nodesPerRouter}`;
  checkGraphSize(groups * base.chassis * base.routersPerChassis, dragonflyLayout({ ...base, groups: 1, cablesPerPair: 0, nodes }).radix, sizes);
  if (groups < 1) throw new RangeError(`parameter dragonfly.groups: expected at least 1, got ${groups}`);
  if (nodes > groups * perGroup) throw new RangeError(`nodes=${nodes} does not fit ${groups} dragonfly groups of ${perGroup} nodes`);
  const cablesText = r.string('dragonfly.cablesPerPair');
  const max = maxCablesPerPair({ ...base, groups });
  if (groupsText === 'auto' && groups > 1 && max < 1) {
    // the global ports connect at most this many groups, one cable each way
    let most = groups;
    while (most > 1 && maxCablesPerPair({ ...base, groups: most }) < 1) most--;
    throw new RangeError(`nodes=${nodes} needs ${groups} dragonfly groups of ${perGroup} nodes, but their global ports connect at most ${most} groups: at most ${most * perGroup} nodes`);
  }
  const cablesPerPair = cablesText === 'max' ? max : r.int('dragonfly.cablesPerPair');
  if (groups > 1 && (cablesPerPair < 1 || cablesPerPair > max)) {
    throw new RangeError(`parameter dragonfly.cablesPerPair: ${groups} groups allow 1 to ${max} cables per pair, got ${cablesPerPair}`);
  }
  return { ...base, groups, cablesPerPair, nodes };
}
