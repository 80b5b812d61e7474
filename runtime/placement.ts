import { Prng, shuffle } from '../fabric/engine/prng.ts';

/** How ranks are laid out on nodes. */
export const PLACEMENTS = ['contiguous', 'round-robin', 'random'] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** Node and index on its node (its core, NIC instance and mailbox) of every rank. */
export interface Layout {
  readonly node: Int32Array;
  readonly inst: Int32Array;
}

/**
 * Places `nodes * ppn` ranks: `contiguous` fills each node with ppn consecutive ranks (rank r on
 * node r / ppn, the launcher's default), `round-robin` deals ranks to nodes in turn (rank r on
 * node r % nodes), and `random` shuffles the slots with a generator of its own seeded by the run
 * (same seed, same layout). On its node, a rank's index follows the rank order.
 */
export function placeRanks(placement: Placement, nodes: number, ppn: number, seed: number): Layout {
  if (!(PLACEMENTS as readonly string[]).includes(placement)) throw new RangeError(`placement "${String(placement)}": valid: ${PLACEMENTS.join(', ')}`);
  const size = nodes * ppn;
  const node = new Int32Array(size);
  const inst = new Int32Array(size);
  if (placement === 'random') {
    const slots = new Int32Array(size);
    for (let i = 0; i < size; i++) slots[i] = i;
    shuffle(slots, new Prng((seed ^ 0x5bd1e995) >>> 0));
    for (let r = 0; r < size; r++) node[r] = Math.floor(slots[r]! / ppn);
  } else {
    for (let r = 0; r < size; r++) node[r] = placement === 'contiguous' ? Math.floor(r / ppn) : r % nodes;
  }
  const used = new Int32Array(nodes);
  for (let r = 0; r < size; r++) inst[r] = used[node[r]!]!++;
  return { node, inst };
}
