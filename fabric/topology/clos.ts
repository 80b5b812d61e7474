import { newPortArrays, type PortGraph } from './port-graph.ts';

/**
 * Ranks of the BlackWidow folded Clos (seed 003, §2.2, B6): 1 (one R1 router), 1.5 (R1 subtrees
 * joined by sidelinks), 2 (R1 subtrees under R2 routers), 2.5 (R2 subtrees joined by sidelinks),
 * 3 (R2 subtrees under R3 routers), 3.5 (R3 subtrees joined by sidelinks).
 */
export type ClosRank = 1 | 1.5 | 2 | 2.5 | 3 | 3.5;

/** The ranks, smallest first. */
export const CLOS_RANKS: readonly ClosRank[] = [1, 1.5, 2, 2.5, 3, 3.5];

/** Configuration of a BlackWidow network (seed 003, §2.2). */
export interface ClosConfig {
  /** Processors attached, filling R1 routers in order (32 per R1). */
  readonly processors: number;
  /** Network slices, each a completely separate network (seed 003, B5: 4). */
  readonly slices?: number;
  /** Rank to build; by default the smallest that holds `processors` (closRank). */
  readonly rank?: ClosRank;
}

/** Ports of one slice of a router: an R1 YARC has 32 down + 32 up, an R2/R3 virtual router 32 (seed 003, B1, B7). */
export const CLOS_BLOCK_PORTS = 32;
/** Processors per R1 router (seed 003, B6). */
export const CLOS_R1_PROCESSORS = 32;
/** Largest system: the seed's maximum BlackWidow is 32K processors (seed 003, B6). */
export const CLOS_MAX_PROCESSORS = 32768;
/** Slices of the real machine: one per injection port of a processor (seed 003, B5). */
export const CLOS_DEFAULT_SLICES = 4;
/** Largest slice count: PacketPool.rPlane holds the slice in a byte, 0xff meaning "not chosen". */
export const CLOS_MAX_SLICES = 255;

/** Link classes of a BlackWidow network (both ends of a link have the same class). */
export const CLOS_R1_R2 = 2;
export const CLOS_R2_R3 = 3;
export const CLOS_SIDE1 = 4;
export const CLOS_SIDE2 = 5;
export const CLOS_SIDE3 = 6;

/** Router levels (ClosGraph.routerLevel). */
export const CLOS_LEVEL_R1 = 1;
export const CLOS_LEVEL_R2 = 2;
export const CLOS_LEVEL_R3 = 3;

/** R1 routers of an R2 subtree at ranks 2.5 and above (512 processors, seed 003 §2.2). */
const R2_SUBTREE_R1S = 16;
/** R2 routers of an R2 subtree: one per uplink of an R1. */
const R2_ROUTERS = 32;
/** R3 routers of an R3 subtree: 32 planes (one per R2 router index) of 16. */
const R3_PLANE = 16;
const R3_ROUTERS = R2_ROUTERS * R3_PLANE;
/** R2 subtrees of an R3 subtree at rank 3.5 (8K processors: the seed's 72K "in theory" is nine of them). */
const R3_SUBTREE_R2S = 16;
/** Peer subtrees that sidelinks can join: nine at every rank (seed 003, B6: 288, 4.5K, 72K). */
const SIDE_SUBTREES = 9;

/** Processors a rank holds (seed 003, B6), capped at the 32K maximum. */
export function closCapacity(rank: ClosRank): number {
  switch (rank) {
    case 1:
      return CLOS_R1_PROCESSORS;
    case 1.5:
      return SIDE_SUBTREES * CLOS_R1_PROCESSORS; // 288
    case 2:
      return R2_ROUTERS * CLOS_R1_PROCESSORS; // 1,024
    case 2.5:
      return SIDE_SUBTREES * R2_SUBTREE_R1S * CLOS_R1_PROCESSORS; // 4,608
    case 3:
      return R2_ROUTERS * R2_SUBTREE_R1S * CLOS_R1_PROCESSORS; // 16,384
    case 3.5:
      // nine 8K R3 subtrees would give 72K "in theory"; the largest system built is 32K
      return Math.min(SIDE_SUBTREES * R3_SUBTREE_R2S * R2_SUBTREE_R1S * CLOS_R1_PROCESSORS, CLOS_MAX_PROCESSORS);
  }
}

function checkProcessors(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > CLOS_MAX_PROCESSORS) {
    throw new RangeError(`clos.processors must be an integer from 1 to ${CLOS_MAX_PROCESSORS} (the seed's 32K maximum BlackWidow system), got ${n}`);
  }
}

/** The smallest rank that holds `processors` (seed 003, B6); throws RangeError naming the field. */
export function closRank(processors: number): ClosRank {
  checkProcessors(processors);
  for (const r of CLOS_RANKS) if (processors <= closCapacity(r)) return r;
  return 3.5; // unreachable: the 32K maximum fits rank 3.5
}

/**
 * A BlackWidow port graph. Each graph router is the stack of the `slices` routers at one position
 * of the network (seed 003, B5: every slice is a separate network of its own YARCs), so one
 * position has one router id and its ports are laid out slice by slice.
 *
 * Router ids: the R1 routers first (R1 i serves processors 32i..32i+31), then the R2 routers
 * (R2 subtree t, index j: r2Base + 32t + j), then the R3 routers (R3 subtree q, plane j, index u:
 * r3Base + 512q + 16j + u).
 *
 * Port layout, kept beside the routing that depends on it (clos-routing.ts): an R1 stack has the
 * processors on ports [0, 32) (one port per processor, its four injection ports aggregated) and
 * slice s's 32 up or side ports on [32 + 32s, 64 + 32s); an R2 or R3 stack has slice s's 32 ports
 * on [32s, 32s + 32), the down ports first. `radix` = 32 + 32 slices; ports an R2/R3 stack or a
 * partly filled system does not use stay PORT_UNUSED. Inside one slice block:
 * - R1, rank 1.5: sidelinks, `side1Links` to each other R1 in R1 order (self skipped);
 * - R1, ranks >= 2: uplink j to R2 router j of its R2 subtree;
 * - R2: down port i to R1 i of its subtree (`r1sPerR2Subtree` ports), then at rank 2.5
 *   `side2Links` sidelinks to R2 router j of each other R2 subtree (subtree order, self skipped),
 *   at ranks 3 and 3.5 uplink u to R3 router (j, u) of its R3 subtree;
 * - R3: down port t' to R2 subtree t' of its R3 subtree (`r2SubtreesPerR3Subtree` ports), then at
 *   rank 3.5 `side3Links` sidelinks to R3 router (j, u) of each other R3 subtree.
 */
export interface ClosGraph extends PortGraph {
  readonly topology: 'clos';
  readonly rank: ClosRank;
  readonly slices: number;
  readonly processors: number;
  /** R1, R2 and R3 routers, and the first id of the R2 and R3 routers. */
  readonly r1Count: number;
  readonly r2Count: number;
  readonly r3Count: number;
  readonly r2Base: number;
  readonly r3Base: number;
  /** R2 subtrees and R3 subtrees present (0 at ranks that have none). */
  readonly r2Subtrees: number;
  readonly r3Subtrees: number;
  /** R1 routers per R2 subtree: the down ports of an R2 router (32 at rank 2, 16 above; 0 below rank 2). */
  readonly r1sPerR2Subtree: number;
  /** R2 subtrees per R3 subtree: the down ports of an R3 router (32 at rank 3, 16 at 3.5; 0 below rank 3). */
  readonly r2SubtreesPerR3Subtree: number;
  /** First up/side port of slice 0 at an R1 stack (slice s: r1UpBase + 32 s). */
  readonly r1UpBase: number;
  /** Ports per slice block (32). */
  readonly blockPorts: number;
  /** Parallel sidelinks from a router to each peer: between R1s (rank 1.5), R2s (2.5), R3s (3.5); 0 where there are none. */
  readonly side1Links: number;
  readonly side2Links: number;
  readonly side3Links: number;
  /** Level of each router: 1, 2 or 3. */
  readonly routerLevel: Uint8Array;
  /** R2 subtree of each R1 and R2 router (ranks >= 2); -1 for R3 routers and below rank 2. */
  readonly r2Subtree: Int32Array;
  /** R3 subtree of each router (ranks >= 3; a single subtree 0 at rank 3); -1 below rank 3. */
  readonly r3Subtree: Int32Array;
}

/** Slice of local port `port` of router `r` (-1 for a processor port). */
export function closPortSlice(g: ClosGraph, r: number, port: number): number {
  const base = g.routerLevel[r] === CLOS_LEVEL_R1 ? g.r1UpBase : 0;
  return port < base ? -1 : Math.floor((port - base) / g.blockPorts);
}

/** Sidelinks from a router to its peer in each of the other `subtrees - 1` subtrees: an even spread of `ports` (leftovers unused). */
function sideLinks(ports: number, subtrees: number): number {
  return subtrees > 1 ? Math.floor(ports / (subtrees - 1)) : 0;
}

/** Index of peer `b` among the peers of `a` (a itself skipped). */
function peerIndex(a: number, b: number): number {
  return b < a ? b : b - 1;
}

/** Builds a BlackWidow port graph (seed 003, §2.2, B5-B7); throws RangeError naming the bad field. */
export function buildClos(cfg: ClosConfig): ClosGraph {
  const N = cfg.processors;
  checkProcessors(N);
  const S = cfg.slices ?? CLOS_DEFAULT_SLICES;
  if (!Number.isInteger(S) || S < 1 || S > CLOS_MAX_SLICES) {
    throw new RangeError(`clos.slices must be an integer from 1 to ${CLOS_MAX_SLICES}, got ${S}`);
  }
  let rank: ClosRank;
  if (cfg.rank === undefined) {
    rank = closRank(N);
  } else {
    if (!CLOS_RANKS.includes(cfg.rank)) throw new RangeError(`clos.rank must be one of ${CLOS_RANKS.join(', ')}, got ${cfg.rank}`);
    rank = cfg.rank;
    const cap = closCapacity(rank);
    if (N > cap) throw new RangeError(`clos.rank ${rank} holds at most ${cap} processors, got clos.processors ${N}`);
  }

  const B = CLOS_BLOCK_PORTS;
  const r1Count = Math.ceil(N / CLOS_R1_PROCESSORS);
  const r1sPerR2Subtree = rank < 2 ? 0 : rank === 2 ? R2_ROUTERS : R2_SUBTREE_R1S;
  const r2Subtrees = rank < 2 ? 0 : Math.ceil(r1Count / r1sPerR2Subtree);
  const r2SubtreesPerR3Subtree = rank < 3 ? 0 : rank === 3 ? B : R3_SUBTREE_R2S;
  const r3Subtrees = rank < 3 ? 0 : Math.ceil(r2Subtrees / r2SubtreesPerR3Subtree);
  const r2Count = r2Subtrees * R2_ROUTERS;
  const r3Count = r3Subtrees * R3_ROUTERS;
  const r2Base = r1Count;
  const r3Base = r2Base + r2Count;
  const routers = r3Base + r3Count;
  const r1UpBase = CLOS_R1_PROCESSORS;
  const radix = r1UpBase + S * B;
  // the down ports of an R2 (R3) router take the first half of its block from rank 2.5 (3.5) on
  const side1Links = rank === 1.5 ? sideLinks(B, r1Count) : 0;
  const side2Links = rank === 2.5 ? sideLinks(B - R2_SUBTREE_R1S, r2Subtrees) : 0;
  const side3Links = rank === 3.5 ? sideLinks(B - R3_SUBTREE_R2S, r3Subtrees) : 0;

  const ports = newPortArrays(routers, radix, N, CLOS_R1_PROCESSORS);
  const { peerRouter, peerPort, portClass } = ports;
  const wire = (ra: number, pa: number, rb: number, pb: number, cls: number): void => {
    const a = ra * radix + pa;
    const b = rb * radix + pb;
    peerRouter[a] = rb;
    peerPort[a] = pb;
    portClass[a] = cls;
    peerRouter[b] = ra;
    peerPort[b] = pa;
    portClass[b] = cls;
  };
  /**
   * Sidelinks between `subtrees` subtrees of `per` routers from router `base`: router k of subtree
   * a joins router k of every other subtree b by `links` links from port `first`, peers in subtree
   * order (self skipped); link m of a toward b pairs with link m of b toward a.
   */
  const sidelinks = (subtrees: number, per: number, base: number, first: number, links: number, cls: number): void => {
    for (let a = 0; a < subtrees && links > 0; a++) {
      for (let b = a + 1; b < subtrees; b++) {
        for (let k = 0; k < per; k++) {
          for (let m = 0; m < links; m++) {
            wire(base + a * per + k, first + peerIndex(a, b) * links + m, base + b * per + k, first + peerIndex(b, a) * links + m, cls);
          }
        }
      }
    }
  };

  const routerLevel = new Uint8Array(routers);
  const r2Subtree = new Int32Array(routers).fill(-1);
  const r3Subtree = new Int32Array(routers).fill(-1);
  for (let r = 0; r < routers; r++) {
    if (r < r2Base) {
      routerLevel[r] = CLOS_LEVEL_R1;
      if (rank >= 2) r2Subtree[r] = Math.floor(r / r1sPerR2Subtree);
    } else if (r < r3Base) {
      routerLevel[r] = CLOS_LEVEL_R2;
      r2Subtree[r] = Math.floor((r - r2Base) / R2_ROUTERS);
    } else {
      routerLevel[r] = CLOS_LEVEL_R3;
      r3Subtree[r] = Math.floor((r - r3Base) / R3_ROUTERS);
    }
    if (rank >= 3 && r < r3Base) r3Subtree[r] = Math.floor(r2Subtree[r]! / r2SubtreesPerR3Subtree);
  }

  for (let s = 0; s < S; s++) {
    const up1 = r1UpBase + s * B; // slice s's block at an R1 stack
    const blk = s * B; // slice s's block at an R2 or R3 stack
    // rank 1.5: R1 sidelinks
    sidelinks(r1Count, 1, 0, up1, side1Links, CLOS_SIDE1);
    // ranks >= 2: R1 uplink j -> R2 router j of its subtree, at the R1's down port
    if (rank >= 2) {
      for (let i = 0; i < r1Count; i++) {
        const t = r2Subtree[i]!;
        for (let j = 0; j < R2_ROUTERS; j++) wire(i, up1 + j, r2Base + t * R2_ROUTERS + j, blk + (i - t * r1sPerR2Subtree), CLOS_R1_R2);
      }
    }
    // rank 2.5: R2 router j of subtree t to R2 router j of every other subtree
    sidelinks(r2Subtrees, R2_ROUTERS, r2Base, blk + R2_SUBTREE_R1S, side2Links, CLOS_SIDE2);
    // ranks >= 3: R2 router j of subtree t, uplink u -> R3 router (j, u) of its R3 subtree, down port t
    if (rank >= 3) {
      for (let t = 0; t < r2Subtrees; t++) {
        const q = Math.floor(t / r2SubtreesPerR3Subtree);
        for (let j = 0; j < R2_ROUTERS; j++) {
          for (let u = 0; u < R3_PLANE; u++) {
            wire(r2Base + t * R2_ROUTERS + j, blk + R2_SUBTREE_R1S + u, r3Base + q * R3_ROUTERS + j * R3_PLANE + u, blk + (t - q * r2SubtreesPerR3Subtree), CLOS_R2_R3);
          }
        }
      }
    }
    // rank 3.5: R3 router (j, u) of subtree q to R3 router (j, u) of every other R3 subtree
    sidelinks(r3Subtrees, R3_ROUTERS, r3Base, blk + R3_SUBTREE_R2S, side3Links, CLOS_SIDE3);
  }

  return {
    topology: 'clos',
    routers,
    radix,
    nodes: N,
    ...ports,
    classNames: ['node', 'unused', 'r1-r2', 'r2-r3', 'side1', 'side2', 'side3'],
    rank,
    slices: S,
    processors: N,
    r1Count,
    r2Count,
    r3Count,
    r2Base,
    r3Base,
    r2Subtrees,
    r3Subtrees,
    r1sPerR2Subtree,
    r2SubtreesPerR3Subtree,
    r1UpBase,
    blockPorts: B,
    side1Links,
    side2Links,
    side3Links,
    routerLevel,
    r2Subtree,
    r3Subtree,
  };
}

/**
 * Router hops of a shortest path between R1 routers `a` and `b` (closed form): 0 on one R1, 1 by
 * a sidelink (rank 1.5), 2 through a shared R2 router, 3 across R2 sidelinks (rank 2.5), 4
 * through an R3 router, 5 across R3 sidelinks (rank 3.5: seed 003, B8's 7 hops counting the two
 * processor links).
 */
export function closRouterDistance(g: ClosGraph, a: number, b: number): number {
  if (!(a >= 0 && a < g.r1Count && b >= 0 && b < g.r1Count)) {
    throw new RangeError(`closRouterDistance takes R1 routers (0 to ${g.r1Count - 1}), got ${a} and ${b}`);
  }
  if (a === b) return 0;
  if (g.rank < 2) return 1;
  if (g.r2Subtree[a] === g.r2Subtree[b]) return 2;
  if (g.rank === 2.5) return 3;
  if (g.r3Subtree[a] === g.r3Subtree[b]) return 4;
  return 5;
}
