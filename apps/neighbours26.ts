/** The 26 neighbours of a block in a 3-D block decomposition, and the index regions exchanged with them. */
import type { CartComm } from '../runtime/mpi/mpi.ts';

/** An offset (-1, 0 or 1 along each axis) from a block to one of its neighbours. */
export type Offset = readonly [number, number, number];

/** How many axes an offset moves along: 1 for a face, 2 for an edge, 3 for a corner. */
export function offsetRank(o: Offset): number {
  return (o[0] !== 0 ? 1 : 0) + (o[1] !== 0 ? 1 : 0) + (o[2] !== 0 ? 1 : 0);
}

function allOffsets(): Offset[] {
  const out: Offset[] = [];
  for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) if (a !== 0 || b !== 0 || c !== 0) out.push([a, b, c]);
  // faces, then edges, then corners (stable within each)
  return out.sort((x, y) => offsetRank(x) - offsetRank(y));
}

/** The 26 offsets: the 6 faces, then the 12 edges, then the 8 corners. */
export const OFFSETS26: readonly Offset[] = allOffsets();

/** The 6 face offsets (the first six of OFFSETS26). */
export const FACES: readonly Offset[] = OFFSETS26.slice(0, 6);

/** The offset opposite `k` (the index in OFFSETS26 of -o). */
export function opposite(k: number): number {
  const o = OFFSETS26[k]!;
  return OFFSETS26.findIndex((p) => p[0] === -o[0] && p[1] === -o[1] && p[2] === -o[2]);
}

/** Whether an offset points "up": its first non-zero entry is positive (the neighbour's rank in the row-major grid is higher). */
export function isUp(o: Offset): boolean {
  return o[0] > 0 || (o[0] === 0 && (o[1] > 0 || (o[1] === 0 && o[2] > 0)));
}

/** The rank of the neighbour at each of `offsets` on a non-periodic 3-D Cartesian communicator, or PROC_NULL off the grid. */
export function neighbourRanks(cart: CartComm, offsets: readonly Offset[], procNull: number): number[] {
  return offsets.map((o) => {
    const c = cart.coords.map((v, d) => v + o[d]!);
    return c.every((v, d) => v >= 0 && v < cart.dims[d]!) ? cart.cartRank(c) : procNull;
  });
}

/**
 * Offsets (row-major, the last axis fastest) into an array of `extent` points per axis, of the
 * points whose index along axis d lies in `range(d, o[d])` = [lo, hi]: the region exchanged with
 * the neighbour at offset o. Both sides of an exchange list their points in the same global order.
 */
export function region(extent: readonly number[], o: Offset, range: (d: number, od: number) => readonly [number, number]): Int32Array {
  const [r0, r1, r2] = [range(0, o[0]), range(1, o[1]), range(2, o[2])];
  const out = new Int32Array((r0[1] - r0[0] + 1) * (r1[1] - r1[0] + 1) * (r2[1] - r2[0] + 1));
  let n = 0;
  for (let i = r0[0]; i <= r0[1]; i++) for (let j = r1[0]; j <= r1[1]; j++) for (let k = r2[0]; k <= r2[1]; k++) out[n++] = (i * extent[1]! + j) * extent[2]! + k;
  return out;
}
