import type { AlgorithmSpecs } from './algorithm.ts';
import type { Request } from '../request.ts';
import { BCAST_TREES } from './bcast-tree.ts';
import { doublingChunks, ringChunks, scatterChunks } from './chunks.ts';
import { bcastHierarchical } from './hierarchical.ts';
import type { Coll, CollTransport } from './transport.ts';
import { partOffset, recv, send, TAG, type Buf } from './util.ts';

/**
 * Binomial-tree broadcast: log2 n rounds, the whole buffer on every edge. A parent sends to its
 * children one after another, the largest subtree first, each send complete before the next (as
 * MPICH's blocking sends): sent at once they would share the parent's injection bandwidth and
 * hold back the subtree that forwards longest.
 */
export function* bcastBinomial(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const vr = (t.rank - root + n) % n;
  const what = `bcast(binomial, root ${root})`;
  let mask = 1;
  while (mask < n) {
    if (vr & mask) {
      yield recv(t, buf, 0, buf.length, (vr - mask + root) % n, TAG.bcast, what);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (vr + mask < n) yield send(t, buf, 0, buf.length, (vr + mask + root) % n, TAG.bcast, what);
  }
}

/** Linear broadcast: the root sends the whole buffer to every other rank at once. */
export function* bcastLinear(t: CollTransport, buf: Buf, root: number): Coll {
  const what = `bcast(linear, root ${root})`;
  if (t.rank !== root) {
    yield recv(t, buf, 0, buf.length, root, TAG.bcast + 1, what);
    return;
  }
  const reqs: Request[] = [];
  for (let r = 0; r < t.size; r++) if (r !== root) reqs.push(send(t, buf, 0, buf.length, r, TAG.bcast + 1, what));
  yield reqs;
}

/**
 * Van de Geijn's broadcast: a binomial scatter of n chunks, then a recursive-doubling allgather
 * of them (MPICH's choice for medium messages on power-of-two sizes; other sizes fold in).
 */
export function* bcastScatterRecursiveDoubling(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const vr = (t.rank - root + n) % n;
  const off = (v: number): number => partOffset(buf.length, n, v, 1);
  const real = (v: number): number => (v + root) % n;
  const what = `bcast(scatter + recursive doubling, root ${root})`;
  yield* scatterChunks(t, buf, vr, off, real, TAG.bcast + 2, what);
  yield* doublingChunks(t, buf, vr, off, real, TAG.bcast + 3, what);
}

/** Van de Geijn's broadcast with a ring allgather (MPICH's choice for long messages). */
export function* bcastScatterRing(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const vr = (t.rank - root + n) % n;
  const off = (v: number): number => partOffset(buf.length, n, v, 1);
  const real = (v: number): number => (v + root) % n;
  const what = `bcast(scatter + ring, root ${root})`;
  yield* scatterChunks(t, buf, vr, off, real, TAG.bcast + 5, what);
  yield* ringChunks(t, buf, vr, off, (v) => off(v + 1) - off(v), real, TAG.bcast + 6, what);
}

/** The broadcast's algorithms. */
export const BCAST: AlgorithmSpecs<'bcast'> = {
  binomial: { fn: bcastBinomial, origin: 'MPICH', cost: 'ceil(lg p)·(α + nβ)', help: 'binomial tree, whole buffer per edge' },
  scatterRecursiveDoubling: { fn: bcastScatterRecursiveDoubling, origin: 'MPICH', cost: '2·lg p·α + 2·(p-1)/p·nβ', help: 'van de Geijn: binomial scatter + recursive-doubling allgather' },
  scatterRing: { fn: bcastScatterRing, origin: 'MPICH', cost: '(lg p + p - 1)·α + 2·(p-1)/p·nβ', help: 'van de Geijn: binomial scatter + ring allgather' },
  linear: { fn: bcastLinear, origin: 'Open MPI', cost: '(p-1)·(α + nβ)', help: 'the root sends to every rank' },
  ...BCAST_TREES,
  hierarchical: {
    fn: bcastHierarchical,
    origin: 'Cray MPT',
    cost: '(ceil(lg P) + ceil(lg(p/P)) + 1)·(α + nβ)',
    help: "root to its node's leader, binomial tree among the leaders, binomial tree within each node",
  },
};
