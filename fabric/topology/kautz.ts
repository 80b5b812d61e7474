import { newPortArrays, type PortGraph } from './port-graph.ts';

/** Configuration of a Kautz digraph fabric (seed 002, §5: SiCortex SC5832 is degree 3, diameter 6). */
export interface KautzConfig {
  /** Out-links (and in-links) per router, d. */
  readonly degree: number;
  /** Label length k: the longest shortest path, in router hops. */
  readonly diameter: number;
  /** Routers that get a node attached: the first `nodes` routers, one node each. */
  readonly nodes: number;
}

/** Link classes of a Kautz fabric: a one-way link is an output at one router and an input at the next. */
export const KAUTZ_OUT = 2;
export const KAUTZ_IN = 3;

/** Largest number of routers buildKautz accepts. */
export const KAUTZ_MAX_ROUTERS = 1_000_000;
/** Largest degree buildKautz accepts (labels are stored one letter per byte). */
export const KAUTZ_MAX_DEGREE = 255;

/** A Kautz port graph with the label of every router. */
export interface KautzGraph extends PortGraph {
  readonly topology: 'kautz';
  readonly directed: true;
  readonly degree: number;
  readonly diameter: number;
  /** Router labels, `labels[r * diameter + i]` = letter i (0..degree) of router r's label. */
  readonly labels: Uint8Array;
  /** First out-link port (1) and first in-link port (1 + degree). */
  readonly outBase: number;
  readonly inBase: number;
}

/** Routers of a Kautz digraph of degree d and diameter k: (d+1) d^(k-1). */
export function kautzSize(degree: number, diameter: number): number {
  return (degree + 1) * Math.pow(degree, diameter - 1);
}

/**
 * The seed's lower bound on the bisection width (links) of a Kautz digraph of degree d and
 * diameter k: (d+1) d^k / (2k) (seed 002, §5 and Table 1, which prints it rounded down: 40, 97,
 * 243 for d = 3, k = 4, 5, 6).
 */
export function kautzBisectionBound(degree: number, diameter: number): number {
  return ((degree + 1) * Math.pow(degree, diameter)) / (2 * diameter);
}

/** Rank of letter `x` among the letters different from `prev` (0..d-1). */
export function kautzRank(x: number, prev: number): number {
  return x < prev ? x : x - 1;
}

/**
 * Router numbering: router r is the position of its label in dictionary order, which is the
 * order of the labels read as base-(d+1) numbers. Arithmetically, r = s1 d^(k-1) +
 * sum over i >= 2 of rank(s_i among letters != s_(i-1)) d^(k-i): a mixed-radix number whose
 * first digit has d+1 values and the others d. The VC rule of kautz-routing.ts compares these
 * numbers (seed 002, §4.2: "each node is assigned a number from 0 to N-1").
 *
 * Returns the router of the label `letters[offset .. offset + diameter)`, or -1 if it is not a
 * Kautz label (a letter out of range or two equal neighbours).
 */
export function kautzIndex(degree: number, diameter: number, letters: ArrayLike<number>, offset = 0): number {
  let r = 0;
  for (let i = 0; i < diameter; i++) {
    const x = letters[offset + i]!;
    if (!(x >= 0 && x <= degree && Number.isInteger(x))) return -1;
    if (i === 0) {
      r = x;
    } else {
      const prev = letters[offset + i - 1]!;
      if (x === prev) return -1;
      r = r * degree + kautzRank(x, prev);
    }
  }
  return r;
}

/** Writes router r's label into `out[offset .. offset + diameter)` (the inverse of kautzIndex). */
export function kautzLabel(degree: number, diameter: number, r: number, out: Uint8Array | number[], offset = 0): void {
  let rest = r;
  for (let i = diameter - 1; i >= 1; i--) {
    out[offset + i] = rest % degree; // rank for now; turned into a letter below
    rest = Math.floor(rest / degree);
  }
  out[offset] = rest;
  for (let i = 1; i < diameter; i++) {
    const rank = out[offset + i]!;
    const prev = out[offset + i - 1]!;
    out[offset + i] = rank < prev ? rank : rank + 1;
  }
}

/**
 * Builds a Kautz digraph port graph; throws RangeError naming the bad field.
 *
 * Port numbering, relied on by the source routes of kautz-routing.ts (seed 002, §4.1: three
 * output and three input ports per node, 2 bits of route string per hop):
 * - port 0 attaches the node (routers >= `nodes` leave it unused);
 * - ports 1..d are the out-links: out port 1 + j of router s1..sk goes to s2..sk x, where x is
 *   the j-th smallest letter different from sk (j = kautzRank(x, sk));
 * - ports 1+d..2d are the in-links: in port 1 + d + i of router y1..yk is fed by the
 *   predecessor x y1..y(k-1), where i = kautzRank(x, y1). Links are one-way (`directed`): only
 *   the out port names its peer (router and in port); in ports have peerRouter = peerPort = -1.
 * Port classes: 0 node, 1 unused, 2 'out', 3 'in'.
 */
export function buildKautz(cfg: KautzConfig): KautzGraph {
  const d = cfg.degree;
  const k = cfg.diameter;
  if (!Number.isInteger(d) || d < 2 || d > KAUTZ_MAX_DEGREE) {
    throw new RangeError(`kautz.degree must be an integer from 2 to ${KAUTZ_MAX_DEGREE}, got ${d}`);
  }
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`kautz.diameter must be a positive integer, got ${k}`);
  const routers = kautzSize(d, k);
  if (routers > KAUTZ_MAX_ROUTERS) {
    throw new RangeError(`kautz.diameter ${k} with kautz.degree ${d} gives ${routers} routers, more than ${KAUTZ_MAX_ROUTERS}`);
  }
  const nodes = cfg.nodes;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > routers) {
    throw new RangeError(`kautz.nodes must be an integer from 1 to ${routers} (one per router), got ${nodes}`);
  }

  const radix = 1 + 2 * d;
  const outBase = 1;
  const inBase = 1 + d;
  // one node per router, on port 0
  const ports = newPortArrays(routers, radix, nodes, 1);
  const { peerRouter, peerPort, portClass } = ports;
  const labels = new Uint8Array(routers * k);
  for (let r = 0; r < routers; r++) kautzLabel(d, k, r, labels, r * k);
  const next = new Uint8Array(k);
  for (let r = 0; r < routers; r++) {
    const base = r * k;
    for (let i = 1; i < k; i++) next[i - 1] = labels[base + i]!;
    const first = labels[base]!;
    const last = labels[base + k - 1]!;
    for (let j = 0; j < d; j++) {
      next[k - 1] = j < last ? j : j + 1;
      const succ = kautzIndex(d, k, next);
      const gp = r * radix + outBase + j;
      // in port at the successor: rank of our first letter among letters != its first letter
      const inPort = inBase + kautzRank(first, next[0]!);
      peerRouter[gp] = succ;
      peerPort[gp] = inPort;
      portClass[gp] = KAUTZ_OUT;
      portClass[succ * radix + inPort] = KAUTZ_IN;
    }
  }
  return {
    topology: 'kautz',
    directed: true,
    routers,
    radix,
    nodes,
    ...ports,
    classNames: ['node', 'unused', 'out', 'in'],
    degree: d,
    diameter: k,
    labels,
    outBase,
    inBase,
  };
}
