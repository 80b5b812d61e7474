import type { AlgorithmSpecs } from './algorithm.ts';
import type { Op } from '../ops.ts';
import { ALLREDUCE_KNOMIAL } from './allreduce-knomial.ts';
import { ALLREDUCE_SEGMENTED } from './allreduce-segmented.ts';
import { bcastBinomial, bcastLinear } from './bcast.ts';
import { nodeLayout, subTransport } from './nodes.ts';
import { halve, reduceBinomial, reduceLinear } from './reduce.ts';
import { THRESHOLDS } from './selector-mpich.ts';
import type { Coll, CollTransport } from './transport.ts';
import type { Request } from '../request.ts';
import { alloc, bytes, combine, copy, exchange, exchangeViews, Fold, partOffset, recv, send, TAG, type Buf } from './util.ts';

/**
 * Recursive-doubling allreduce: log2 p2 exchanges of the whole buffer, extra ranks folded in
 * and out (MPICH's short-message and non-commutative choice). Keeps rank order: every group of
 * new ranks stands for a contiguous run of ranks, and the lower group's data is the left operand.
 */
export function* allreduceRecursiveDoubling(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const count = sendBuf.length;
  const what = `allreduce(recursive doubling, ${op.name})`;
  const acc = recvBuf.length === count ? recvBuf : recvBuf.subarray(0, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const f = new Fold(t.rank, t.size);
  const tag = TAG.allreduce;
  if (f.out) {
    yield send(t, acc, 0, count, f.me + 1, tag, what);
    yield recv(t, acc, 0, count, f.me + 1, tag + 2, what);
    return;
  }
  const tmp = alloc(t, sendBuf, count);
  if (f.absorbs) {
    yield recv(t, tmp, 0, count, f.me - 1, tag, what);
    yield combine(t, op, acc, tmp, true);
  }
  // every step moves the whole of acc and tmp: one byte view of each, and one array of a step's
  // two requests, serve them all (made with its two slots: a first write would reserve 17)
  const accBytes = bytes(acc);
  const tmpBytes = bytes(tmp);
  const pair: Request[] = [null!, null!];
  for (let mask = 1; mask < f.p2; mask <<= 1) {
    const peer = f.newrank ^ mask;
    const who = f.oldRank(peer);
    yield exchangeViews(t, accBytes, who, tmpBytes, who, tag + 1, what, pair);
    yield combine(t, op, acc, tmp, peer < f.newrank);
  }
  if (f.absorbs) yield send(t, acc, 0, count, f.me - 1, tag + 2, what);
}

/**
 * Rabenseifner's allreduce: reduce-scatter by recursive halving, then allgather by recursive
 * doubling, over the largest power of two with the extra ranks folded in and out (MPICH's
 * long-message choice). Needs a commutative op.
 */
export function* allreduceRabenseifner(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const count = sendBuf.length;
  const what = `allreduce(rabenseifner, ${op.name})`;
  const acc = recvBuf.subarray(0, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const f = new Fold(t.rank, t.size);
  const tag = TAG.allreduce + 3;
  if (f.out) {
    yield send(t, acc, 0, count, f.me + 1, tag, what);
    yield recv(t, acc, 0, count, f.me + 1, tag + 3, what);
    return;
  }
  const tmp = alloc(t, sendBuf, count);
  if (f.absorbs) {
    yield recv(t, tmp, 0, count, f.me - 1, tag, what);
    yield combine(t, op, acc, tmp, true);
  }
  const off = (i: number): number => partOffset(count, f.p2, i, op.unit);
  yield* halve(t, op, acc, tmp, f, off, tag + 1, what);
  const nr = f.newrank;
  for (let mask = 1; mask < f.p2; mask <<= 1) {
    const peer = nr ^ mask;
    const mine = nr & ~(mask - 1);
    const theirs = peer & ~(mask - 1);
    const who = f.oldRank(peer);
    yield exchange(t, acc, off(mine), off(mine + mask) - off(mine), who, acc, off(theirs), off(theirs + mask) - off(theirs), who, tag + 2, what);
  }
  if (f.absorbs) yield send(t, acc, 0, count, f.me - 1, tag + 3, what);
}

/**
 * Ring allreduce: a ring reduce-scatter of n pieces, then a ring allgather; each rank sends
 * 2 (n - 1) / n of the buffer. Needs a commutative op (pieces are combined in ring order).
 */
export function* allreduceRing(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `allreduce(ring, ${op.name})`;
  const acc = recvBuf.subarray(0, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const off = (i: number): number => partOffset(count, n, i, op.unit);
  const tmp = alloc(t, sendBuf, off(1) + op.unit);
  const right = (me + 1) % n;
  const left = (me - 1 + n) % n;
  for (let s = 0; s < n - 1; s++) {
    const sc = (me - s + n) % n;
    const rc = (me - s - 1 + 2 * n) % n;
    const ra = off(rc);
    const rn = off(rc + 1) - ra;
    yield exchange(t, acc, off(sc), off(sc + 1) - off(sc), right, tmp, 0, rn, left, TAG.allreduce + 7, what);
    yield combine(t, op, acc.subarray(ra, ra + rn), tmp.subarray(0, rn), true);
  }
  for (let s = 0; s < n - 1; s++) {
    const sc = (me + 1 - s + n) % n;
    const rc = (me - s + n) % n;
    yield exchange(t, acc, off(sc), off(sc + 1) - off(sc), right, acc, off(rc), off(rc + 1) - off(rc), left, TAG.allreduce + 8, what);
  }
}

/** Allreduce as a binomial reduce to rank 0 and a binomial broadcast (keeps rank order). */
export function* allreduceReduceBcast(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const acc = recvBuf.subarray(0, sendBuf.length);
  yield* reduceBinomial(t, sendBuf, acc, op, 0);
  yield* bcastBinomial(t, acc, 0);
}

/**
 * Open MPI's basic linear allreduce (ompi_coll_base_allreduce_intra_basic_linear): a linear
 * reduce to rank 0, which combines in rank order, then a linear broadcast from rank 0.
 */
export function* allreduceLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const acc = recvBuf.subarray(0, sendBuf.length);
  yield* reduceLinear(t, sendBuf, acc, op, 0);
  yield* bcastLinear(t, acc, 0);
}

/**
 * Two-level (SMP-aware) allreduce, as Cray MPT's and MVAPICH2's (MPIR_Allreduce_two_level_MV2
 * in allreduce_osu.c): a binomial reduce within each node to its leader (the node's lowest
 * rank), an allreduce among the leaders (recursive doubling up to MPICH's 2 KiB short-message
 * size, Rabenseifner's above), a binomial broadcast within each node. A node's ranks need not be
 * contiguous, so it needs a commutative op.
 */
export function* allreduceHierarchical(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const count = sendBuf.length;
  const acc = recvBuf.subarray(0, count);
  const layout = nodeLayout(t);
  const node = subTransport(t, layout.ranks[layout.nodeIndex[t.rank]!]!);
  yield* reduceBinomial(node, sendBuf, acc, op, 0);
  if (node.rank === 0) {
    const leaders = subTransport(t, layout.leaders);
    const short = count * sendBuf.BYTES_PER_ELEMENT <= THRESHOLDS.allreduceShortBytes;
    yield* (short ? allreduceRecursiveDoubling : allreduceRabenseifner)(leaders, acc, acc, op);
  }
  yield* bcastBinomial(node, acc, 0);
}

/** The allreduce's algorithms. */
export const ALLREDUCE: AlgorithmSpecs<'allreduce'> = {
  recursiveDoubling: { fn: allreduceRecursiveDoubling, origin: 'MPICH', cost: 'ceil(lg p)·(α + nβ + nγ)', help: 'whole-buffer exchanges over the largest power of two' },
  rabenseifner: { fn: allreduceRabenseifner, commutativeOnly: true, origin: 'MPICH', cost: '2·lg p·α + 2·(p-1)/p·nβ + (p-1)/p·nγ', help: 'reduce-scatter by recursive halving + recursive-doubling allgather' },
  ring: { fn: allreduceRing, commutativeOnly: true, origin: 'Open MPI', cost: '2·(p-1)·α + 2·(p-1)/p·nβ + (p-1)/p·nγ', help: 'ring reduce-scatter + ring allgather' },
  reduceBcast: { fn: allreduceReduceBcast, origin: 'Open MPI', cost: '2·ceil(lg p)·(α + nβ) + ceil(lg p)·nγ', help: 'binomial reduce to rank 0 + binomial broadcast' },
  ...ALLREDUCE_SEGMENTED,
  linear: { fn: allreduceLinear, origin: 'Open MPI', cost: '2·(p-1)·(α + nβ) + (p-1)·nγ', help: 'linear reduce to rank 0 + linear broadcast' },
  hierarchical: {
    fn: allreduceHierarchical,
    commutativeOnly: true,
    origin: 'MVAPICH2',
    cost: '2·ceil(lg(p/P))·(α + nβ) + lg P·(α + nβ + nγ) + ceil(lg(p/P))·nγ',
    help: 'node reduce to the leader, allreduce among the leaders, node broadcast (Cray MPT, MVAPICH2 two-level)',
  },
  ...ALLREDUCE_KNOMIAL,
};
