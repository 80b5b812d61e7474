/**
 * miniFE's decomposition of its box of hexahedral elements (Mantevo miniFE, BoxPartition.cpp and
 * simple_mesh_description.hpp): recursive coordinate bisection of the elements over the ranks, the
 * nodes each rank owns, and which nodes of other ranks its 27-point matrix rows reach.
 */

/** A box of grid points, [lo[d], hi[d]) along each axis d (x, y, z). */
export interface Box {
  readonly lo: readonly [number, number, number];
  readonly hi: readonly [number, number, number];
}

/** Points in a box (0 if it is empty along any axis). */
export function volume(b: Box): number {
  let v = 1;
  for (let d = 0; d < 3; d++) v *= Math.max(0, b.hi[d]! - b.lo[d]!);
  return v;
}

/**
 * miniFE's box_partition: the box of `elems` elements split over `ranks` ranks by recursive
 * bisection, starting with z and cycling z, y, x (the next axis is (axis + 2) mod 3); the lower
 * half gets floor(np/2) ranks and n - floor(n * upper ranks / np) elements. Rank r gets boxes[r].
 */
export function boxPartition(ranks: number, elems: readonly [number, number, number]): Box[] {
  const out = new Array<Box>(ranks);
  const split = (ip: number, up: number, axis: number, lo: [number, number, number], hi: [number, number, number]): void => {
    const np = up - ip;
    if (np === 1) {
      out[ip] = { lo, hi };
      return;
    }
    const n = hi[axis]! - lo[axis]!;
    const npLow = Math.floor(np / 2);
    const npUpp = np - npLow;
    const nUpp = Math.floor((n * npUpp) / np);
    const nLow = n - nUpp;
    const next = (axis + 2) % 3;
    const midHi: [number, number, number] = [...hi];
    midHi[axis] = lo[axis]! + nLow;
    const midLo: [number, number, number] = [...lo];
    midLo[axis] = lo[axis]! + nLow;
    if (npLow > 0) split(ip, ip + npLow, next, [...lo], midHi);
    split(ip + npLow, up, next, midLo, [...hi]);
  };
  split(0, ranks, 2, [0, 0, 0], [...elems]);
  return out;
}

/**
 * The nodes a rank owns (simple_mesh_description): the nodes at the low corners of its elements,
 * plus the last layer along an axis where its elements reach the global box's end.
 */
export function nodeBox(elems: Box, global: readonly [number, number, number]): Box {
  const hi: [number, number, number] = [...elems.hi];
  for (let d = 0; d < 3; d++) if (elems.hi[d]! > elems.lo[d]! && elems.hi[d] === global[d]) hi[d]!++;
  return { lo: elems.lo, hi };
}

/** Intersection of two boxes (possibly empty). */
export function intersect(a: Box, b: Box): Box {
  const lo: [number, number, number] = [0, 0, 0];
  const hi: [number, number, number] = [0, 0, 0];
  for (let d = 0; d < 3; d++) {
    lo[d] = Math.max(a.lo[d]!, b.lo[d]!);
    hi[d] = Math.max(lo[d]!, Math.min(a.hi[d]!, b.hi[d]!));
  }
  return { lo, hi };
}

/** A box grown by `g` points on every side, clipped to [0, limit[d]). */
export function grow(b: Box, g: number, limit: readonly number[]): Box {
  const lo: [number, number, number] = [0, 0, 0];
  const hi: [number, number, number] = [0, 0, 0];
  for (let d = 0; d < 3; d++) {
    lo[d] = Math.max(0, b.lo[d]! - g);
    hi[d] = Math.min(limit[d]!, b.hi[d]! + g);
  }
  return { lo, hi };
}

/** One neighbour of a rank in miniFE's exchange: its rank and how many values go each way. */
export interface Neighbour {
  readonly rank: number;
  /** Values of the neighbour's nodes this rank's rows reach (received each exchange). */
  readonly recv: number;
  /** Values of this rank's nodes the neighbour's rows reach (sent each exchange). */
  readonly send: number;
}

/**
 * The neighbours of rank `me` given every rank's node box, in the order miniFE's
 * make_local_matrix lists them: by the first appearance of one of their nodes among the column
 * indices of this rank's rows, scanned row by row (x fastest, then y, then z) and within a row in
 * the stencil's order (z, y, x offsets from -1 to 1). Worked out from the boxes alone (the first
 * row reaching a box is the low corner of the box grown by one and clipped to this rank's nodes),
 * so a skeleton run, which builds no matrix, gets the order of the real one.
 */
export function neighbours(me: number, nodes: readonly Box[], global: readonly [number, number, number]): Neighbour[] {
  const limit = [global[0] + 1, global[1] + 1, global[2] + 1];
  const mine = nodes[me]!;
  const nx = mine.hi[0] - mine.lo[0];
  const ny = mine.hi[1] - mine.lo[1];
  const reach = grow(mine, 1, limit);
  const found: { n: Neighbour; row: number; col: number }[] = [];
  for (let q = 0; q < nodes.length; q++) {
    if (q === me || volume(nodes[q]!) === 0) continue;
    const theirs = intersect(reach, nodes[q]!);
    const recv = volume(theirs);
    if (recv === 0) continue;
    const send = volume(intersect(grow(nodes[q]!, 1, limit), mine));
    // the first of my rows reaching `theirs`, and its first column inside it
    const r = intersect(grow(theirs, 1, limit), mine).lo;
    const c = intersect(grow({ lo: r, hi: [r[0] + 1, r[1] + 1, r[2] + 1] }, 1, limit), theirs).lo;
    const row = ((r[2] - mine.lo[2]) * ny + (r[1] - mine.lo[1])) * nx + (r[0] - mine.lo[0]);
    const col = (c[2] * limit[1]! + c[1]) * limit[0]! + c[0];
    found.push({ n: { rank: q, recv, send }, row, col });
  }
  found.sort((a, b) => a.row - b.row || a.col - b.col);
  return found.map((f) => f.n);
}
