/**
 * What the request tests share: MPI's empty status and UNDEFINED, payloads, the two placements of
 * a pair and the message sizes.
 */

/** MPI's empty status: what waits and tests return for an inactive request. */
export const EMPTY = { source: -2, tag: -1, count: 0, bytes: 0 };
/** MPI_UNDEFINED. */
export const UNDEFINED = -32766;

/** A payload that differs per element, per message and per sender. */
export function pattern(n: number, salt: number): Uint8Array {
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) a[i] = (i * 29 + salt * 53 + (i >> 7)) & 255;
  return a;
}

/** Index of the first differing element, or -1. */
export function mismatch(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Two ranks over the network (ranks 0 and 3 of 4 nodes) and two ranks of one node. */
export const placements = [
  { name: 'over the network', nodes: 4, ppn: 1, a: 0, b: 3 },
  { name: 'within a node', nodes: 1, ppn: 2, a: 0, b: 1 },
] as const;

/** Sizes: eager, and above xe6's 8 KiB eager limit (rendezvous over the network). */
export const SIZES = [24, 20000];
