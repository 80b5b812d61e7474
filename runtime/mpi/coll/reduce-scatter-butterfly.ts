/**
 * Reduce-scatters by recursive vector halving with distance doubling: Open MPI's butterfly
 * (ompi/mca/coll/base/coll_base_reduce_scatter.c, ompi_coll_base_reduce_scatter_intra_butterfly)
 * and MPICH's form for non-commutative ops (src/mpi/coll/reduce_scatter/
 * reduce_scatter_intra_noncommutative.c, MPIR_Reduce_scatter_intra_noncommutative).
 */
import type { AlgorithmSpecs } from './algorithm.ts';
import type { Op } from '../ops.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, chargeCopy, checkUnits, combine, copy, exchange, Fold, prefix, recv, send, setAt, TAG, type Buf } from './util.ts';

/** `x` with its low `bits` bits in reverse order (the mirror permutation of both libraries). */
function mirror(x: number, bits: number): number {
  let y = 0;
  for (let i = 0; i < bits; i++) y |= ((x >> i) & 1) << (bits - 1 - i);
  return y;
}

/**
 * The butterfly over the Fold of the ranks: the extra ranks fold in (the odd one of a pair takes
 * the even one's vector, lower ranks' data on the left), then in step j = 0, 1, ... each new rank
 * swaps half of its current piece range with new rank xor 2^j and combines the half it keeps,
 * the partner's data on the left when the partner is lower: after step j a rank's data stands
 * for 2^(j+1) contiguous new ranks, so every combine keeps rank order. New rank r ends with piece
 * mirror(r) of the range. `premirrored` lays the pieces out in mirror order first (MPICH), so
 * each rank ends with its own piece; otherwise ranks swap pieces with their mirror at the end
 * (Open MPI). A piece is the blocks of the one or two ranks a new rank stands for.
 */
function* butterflyWith(t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: ArrayLike<number>, op: Op, premirrored: boolean, tag: number, what: string): Coll {
  const n = t.size;
  const me = t.rank;
  for (let i = 0; i < n; i++) checkUnits(`reduceScatter: recvCounts[${i}]`, op, recvCounts[i]!);
  const at = prefix(recvCounts);
  const total = at[n]!;
  const f = new Fold(me, n);
  if (f.out) {
    yield send(t, sendBuf, 0, total, me + 1, tag, what);
    if (recvCounts[me]! > 0) yield recv(t, recvBuf, 0, recvCounts[me]!, me + 1, tag + 2, what);
    return;
  }
  const p2 = f.p2;
  let bits = 0;
  while (1 << bits < p2) bits++;
  const pieceAt = (i: number): number => at[f.first(i)]!;
  const pieceLen = (i: number): number => pieceAt(i + 1) - pieceAt(i);
  let acc = alloc(t, sendBuf, total);
  yield copy(t, acc, 0, sendBuf, 0, total);
  const tmp = alloc(t, sendBuf, total);
  if (f.absorbs) {
    yield recv(t, tmp, 0, total, me - 1, tag, what);
    yield combine(t, op, acc, tmp, true);
  }
  // pos(k): where position k starts; position k holds piece k, or piece mirror(k) when premirrored
  let pos = pieceAt;
  if (premirrored) {
    const starts = prefix(Array.from({ length: p2 }, (_, k) => pieceLen(mirror(k, bits))));
    pos = (k: number): number => starts[k]!;
    const laid = alloc(t, sendBuf, total);
    for (let k = 0; k < p2; k++) setAt(t, laid, acc.subarray(pieceAt(mirror(k, bits)), pieceAt(mirror(k, bits) + 1)), pos(k));
    yield chargeCopy(t, sendBuf, total);
    acc = laid;
  }
  const nr = f.newrank;
  let lo = 0;
  let len = p2;
  for (let mask = 1; mask < p2; mask <<= 1) {
    const peer = nr ^ mask;
    const half = len / 2;
    const keep = (nr & mask) === 0 ? lo : lo + half;
    const give = (nr & mask) === 0 ? lo + half : lo;
    const ka = pos(keep);
    const kc = pos(keep + half) - ka;
    const who = f.oldRank(peer);
    yield exchange(t, acc, pos(give), pos(give + half) - pos(give), who, tmp, ka, kc, who, tag + 1, what);
    yield combine(t, op, acc.subarray(ka, ka + kc), tmp.subarray(ka, ka + kc), peer < nr);
    lo = keep;
    len = half;
  }
  // now position lo = mirror(nr) is fully combined
  let mineAt = pos(lo);
  if (!premirrored) {
    const m = lo;
    if (m !== nr) {
      const who = f.oldRank(m);
      yield exchange(t, acc, pieceAt(m), pieceLen(m), who, acc, pieceAt(nr), pieceLen(nr), who, tag + 3, what);
    }
    mineAt = pieceAt(nr);
  }
  // the piece holds the blocks of ranks first(nr) .. me
  const mineStart = mineAt - pieceAt(nr);
  if (f.absorbs && recvCounts[me - 1]! > 0) yield send(t, acc, mineStart + at[me - 1]!, recvCounts[me - 1]!, me - 1, tag + 2, what);
  yield copy(t, recvBuf, 0, acc, mineStart + at[me]!, recvCounts[me]!);
}

/**
 * Open MPI's butterfly reduce-scatter: recursive vector halving with distance doubling over the
 * largest power of two (extra ranks folded in), then each rank swaps the piece it ended with for
 * its own with its mirror rank. Open MPI uses it for commutative ops only.
 */
export function* reduceScatterButterfly(t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: ArrayLike<number>, op: Op): Coll {
  yield* butterflyWith(t, sendBuf, recvBuf, recvCounts, op, false, TAG.reduceScatter + 5, `reduceScatter(butterfly, ${op.name})`);
}

/**
 * MPICH's reduce-scatter for non-commutative ops: the pieces laid out in mirror (bit-reversed)
 * order, then recursive vector halving with distance doubling, each combine in rank order, so
 * each rank ends with its own piece. MPICH's needs a power of two and equal counts; here the
 * extra ranks fold in as pairs of contiguous ranks, so any size and any counts work.
 */
export function* reduceScatterNoncommutative(t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: ArrayLike<number>, op: Op): Coll {
  yield* butterflyWith(t, sendBuf, recvBuf, recvCounts, op, true, TAG.reduceScatter + 9, `reduceScatter(noncommutative, ${op.name})`);
}

/** The butterfly reduce-scatters, spread into the reduce-scatter's table. */
export const REDUCE_SCATTER_BUTTERFLY: AlgorithmSpecs<'reduceScatter'> = {
  butterfly: {
    fn: reduceScatterButterfly,
    commutativeOnly: true,
    origin: 'Open MPI',
    cost: '(lg p + 1)·α + (p-1)/p·n(β + γ) + nβ/p',
    help: 'recursive vector halving with distance doubling, then a swap with the mirror rank',
  },
  noncommutative: {
    fn: reduceScatterNoncommutative,
    origin: 'MPICH',
    cost: 'lg p·α + (p-1)/p·n(β + γ) + nβ/p (local permutation)',
    help: 'pieces in bit-reversed order, then recursive halving with distance doubling in rank order',
  },
};
