import type { AlgorithmSpecs } from './algorithm.ts';
import type { Request } from '../request.ts';
import { ALLGATHER_BRUCK, ALLGATHERV_BRUCK } from './allgather-bruck.ts';
import { bcastBinomial } from './bcast.ts';
import { doublingChunks, ringChunks } from './chunks.ts';
import { gatherBinomial } from './gather.ts';
import { nodeLayout, subTransport } from './nodes.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, chargeCopy, copy, exchange, prefix, recv, send, setAt, TAG, type Buf } from './util.ts';

const self = (v: number): number => v;

/** Recursive-doubling allgather; non-powers of two fold the extra ranks in and out. */
export function* allgatherRecursiveDoubling(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const c = sendBuf.length;
  const what = 'allgather(recursive doubling)';
  yield copy(t, recvBuf, t.rank * c, sendBuf, 0, c);
  yield* doublingChunks(t, recvBuf, t.rank, (v) => v * c, self, TAG.allgather, what);
}

/**
 * Bruck's allgather: ceil(log2 n) steps for any n, each sending to rank - 2^k what has been
 * collected so far, then a local rotation into rank order.
 */
export function* allgatherBruck(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const me = t.rank;
  const c = sendBuf.length;
  const what = 'allgather(bruck)';
  const tmp = alloc(t, sendBuf, n * c);
  yield copy(t, tmp, 0, sendBuf, 0, c);
  let have = 1;
  let pof2 = 1;
  for (; pof2 * 2 <= n; pof2 *= 2) {
    yield exchange(t, tmp, 0, have * c, (me - pof2 + n) % n, tmp, have * c, have * c, (me + pof2) % n, TAG.allgather + 2, what);
    have *= 2;
  }
  const rest = n - pof2;
  if (rest > 0) yield exchange(t, tmp, 0, rest * c, (me - pof2 + n) % n, tmp, have * c, rest * c, (me + pof2) % n, TAG.allgather + 2, what);
  // tmp holds the blocks of ranks me, me+1, ... in that order
  yield copy(t, recvBuf, me * c, tmp, 0, (n - me) * c);
  yield copy(t, recvBuf, 0, tmp, (n - me) * c, me * c);
}

/** Ring allgather: n - 1 steps, each passing one block to the right neighbour. */
export function* allgatherRing(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const c = sendBuf.length;
  const what = 'allgather(ring)';
  yield copy(t, recvBuf, t.rank * c, sendBuf, 0, c);
  yield* ringChunks(t, recvBuf, t.rank, (v) => v * c, () => c, self, TAG.allgather + 3, what);
}

/** Ring allgatherv: as the ring allgather, with each rank's block at `displs[r]`. */
export function* allgathervRing(t: CollTransport, sendBuf: Buf, recvBuf: Buf, counts: ArrayLike<number>, displs: ArrayLike<number>): Coll {
  const what = 'allgatherv(ring)';
  yield copy(t, recvBuf, displs[t.rank]!, sendBuf, 0, counts[t.rank]!);
  yield* ringChunks(t, recvBuf, t.rank, (v) => displs[v]!, (v) => counts[v]!, self, TAG.allgatherv, what);
}

/**
 * Recursive-doubling allgatherv: the blocks are gathered packed in rank order in a scratch
 * buffer (so groups of ranks own contiguous runs), then unpacked to their displacements.
 */
export function* allgathervRecursiveDoubling(t: CollTransport, sendBuf: Buf, recvBuf: Buf, counts: ArrayLike<number>, displs: ArrayLike<number>): Coll {
  const n = t.size;
  const at = prefix(counts);
  const what = 'allgatherv(recursive doubling)';
  const tmp = alloc(t, sendBuf, at[n]!);
  yield copy(t, tmp, at[t.rank]!, sendBuf, 0, counts[t.rank]!);
  yield* doublingChunks(t, tmp, t.rank, (v) => at[v]!, self, TAG.allgatherv + 1, what);
  for (let r = 0; r < n; r++) yield copy(t, recvBuf, displs[r]!, tmp, at[r]!, counts[r]!);
}

/** Linear allgatherv: every rank sends its block to every other rank at once. */
export function* allgathervLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf, counts: ArrayLike<number>, displs: ArrayLike<number>): Coll {
  const n = t.size;
  const me = t.rank;
  const what = 'allgatherv(linear)';
  const reqs: Request[] = [];
  for (let i = 1; i < n; i++) {
    const from = (me - i + n) % n;
    if (counts[from]! > 0) reqs.push(recv(t, recvBuf, displs[from]!, counts[from]!, from, TAG.allgatherv + 3, what));
  }
  const mine = counts[me]!;
  if (mine > 0) for (let i = 1; i < n; i++) reqs.push(send(t, sendBuf, 0, mine, (me + i) % n, TAG.allgatherv + 3, what));
  yield copy(t, recvBuf, displs[me]!, sendBuf, 0, mine);
  yield reqs;
}

/**
 * Neighbor exchange (Chen et al.; Open MPI's ompi_coll_base_allgather_intra_neighborexchange and
 * allgatherv_intra_neighborexchange) for an even number of ranks: in step 0 each even rank and
 * the odd one above swap their blocks; in each of the n/2 - 1 further steps a rank passes the
 * pair of blocks it got last to its other neighbour, alternately left and right. Virtual rank v
 * owns `len(v)` elements at `at(v)` of `buf`; a pair of blocks that is contiguous in `buf`
 * travels as one message, else as two. Odd sizes run the ring, as Open MPI does.
 */
function* neighborChunks(t: CollTransport, buf: Buf, at: (v: number) => number, len: (v: number) => number, tag: number, what: string): Coll {
  const n = t.size;
  const me = t.rank;
  if (n % 2 === 1) {
    yield* ringChunks(t, buf, me, at, len, (v) => v, tag, what);
    return;
  }
  const even = me % 2 === 0;
  const nb = even ? [(me + 1) % n, (me - 1 + n) % n] : [(me - 1 + n) % n, (me + 1) % n];
  const step = even ? [2, -2] : [-2, 2];
  const from = even ? [me, me] : [nb[0]!, nb[0]!];
  yield exchange(t, buf, at(me), len(me), nb[0]!, buf, at(nb[0]!), len(nb[0]!), nb[0]!, tag, what);
  // a pair of blocks v, v + 1 (v even) as the pieces it travels in
  const pieces = (v: number): [number, number][] => (at(v + 1) === at(v) + len(v) ? [[at(v), len(v) + len(v + 1)]] : [[at(v), len(v)], [at(v + 1), len(v + 1)]]);
  let sendFrom = even ? me : from[0]!;
  for (let i = 1; i < n / 2; i++) {
    const p = i % 2;
    from[p] = (from[p]! + step[p]! + n) % n;
    const peer = nb[p]!;
    const reqs: Request[] = [];
    for (const [a, c] of pieces(from[p]!)) if (c > 0) reqs.push(recv(t, buf, a, c, peer, tag, what));
    for (const [a, c] of pieces(sendFrom)) if (c > 0) reqs.push(send(t, buf, a, c, peer, tag, what));
    yield reqs;
    sendFrom = from[p]!;
  }
}

/** Neighbor-exchange allgather (Open MPI); odd sizes run the ring. */
export function* allgatherNeighborExchange(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const c = sendBuf.length;
  yield copy(t, recvBuf, t.rank * c, sendBuf, 0, c);
  yield* neighborChunks(t, recvBuf, (v) => v * c, () => c, TAG.allgather + 4, 'allgather(neighbor exchange)');
}

/** Neighbor-exchange allgatherv (Open MPI); odd sizes run the ring. */
export function* allgathervNeighborExchange(t: CollTransport, sendBuf: Buf, recvBuf: Buf, counts: ArrayLike<number>, displs: ArrayLike<number>): Coll {
  yield copy(t, recvBuf, displs[t.rank]!, sendBuf, 0, counts[t.rank]!);
  yield* neighborChunks(t, recvBuf, (v) => displs[v]!, (v) => counts[v]!, TAG.allgatherv + 4, 'allgatherv(neighbor exchange)');
}

/**
 * Allgather as a gather to rank 0 and a broadcast from it: Open MPI's basic linear allgather
 * (ompi_coll_base_allgather_intra_basic_linear, with the binomial gather and broadcast) and
 * MVAPICH2's MPIR_Allgather_gather_bcast_MV2.
 */
export function* allgatherGatherBcast(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const all = recvBuf.subarray(0, t.size * sendBuf.length);
  yield* gatherBinomial(t, sendBuf, all, 0);
  yield* bcastBinomial(t, all, 0);
}

/**
 * Two-level (SMP-aware) allgather, as MVAPICH2's MPIR_2lvl_Allgather_MV2 (allgather_osu.c): a
 * binomial gather of each node's blocks to its leader, a recursive-doubling allgatherv of the
 * nodes' packed blocks among the leaders, each leader puts the blocks in rank order, a binomial
 * broadcast of the whole result within each node. Nodes may differ in size and hold any ranks.
 */
export function* allgatherHierarchical(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const c = sendBuf.length;
  const what = 'allgather(hierarchical)';
  const layout = nodeLayout(t);
  const mine = layout.nodeIndex[t.rank]!;
  const node = subTransport(t, layout.ranks[mine]!);
  const out = recvBuf.subarray(0, n * c);
  if (node.rank !== 0) {
    yield* gatherBinomial(node, sendBuf, null, 0);
    yield* bcastBinomial(node, out, 0);
    return;
  }
  // node j's blocks packed at start[j] blocks, in the node's rank order
  const start = prefix(layout.ranks.map((g) => g.length));
  let inOrder = true;
  for (let j = 0, at = 0; j < layout.ranks.length; j++) for (const r of layout.ranks[j]!) if (r !== at++) inOrder = false;
  const packed = inOrder ? out : alloc(t, sendBuf, n * c);
  const sz = layout.ranks[mine]!.length;
  yield* gatherBinomial(node, sendBuf, packed.subarray(start[mine]! * c, (start[mine]! + sz) * c), 0);
  const leaders = subTransport(t, layout.leaders);
  yield* doublingChunks(leaders, packed, leaders.rank, (v) => start[v]! * c, (v) => v, TAG.allgather + 5, what);
  if (!inOrder) {
    for (let j = 0; j < layout.ranks.length; j++) layout.ranks[j]!.forEach((r, q) => setAt(t, out, packed.subarray((start[j]! + q) * c, (start[j]! + q + 1) * c), r * c));
    yield chargeCopy(t, sendBuf, n * c);
  }
  yield* bcastBinomial(node, out, 0);
}

/** The allgather's algorithms (n: the whole gathered result). */
export const ALLGATHER: AlgorithmSpecs<'allgather'> = {
  recursiveDoubling: { fn: allgatherRecursiveDoubling, origin: 'MPICH', cost: 'lg p·α + (p-1)/p·nβ', help: 'log2 n exchanges of doubling size, extra ranks folded in' },
  bruck: { fn: allgatherBruck, origin: 'MPICH', cost: 'ceil(lg p)·α + (p-1)/p·nβ', help: 'ceil(log2 n) steps for any n, then a local rotation' },
  ring: { fn: allgatherRing, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·nβ', help: 'n - 1 steps around a ring' },
  neighborExchange: { fn: allgatherNeighborExchange, origin: 'Open MPI', cost: 'p/2·α + (p-1)/p·nβ (odd p: ring)', help: 'n/2 steps of block pairs with the left and right neighbours in turn; odd n: ring' },
  gatherBcast: { fn: allgatherGatherBcast, origin: 'Open MPI', cost: '2·ceil(lg p)·α + (p-1)/p·nβ + ceil(lg p)·nβ', help: 'binomial gather to rank 0 + binomial broadcast (Open MPI basic linear, MVAPICH2 gather_bcast)' },
  ...ALLGATHER_BRUCK,
  hierarchical: {
    fn: allgatherHierarchical,
    origin: 'MVAPICH2',
    cost: '2·ceil(lg(p/P))·α + lg P·α + (P-1)/P·nβ + ceil(lg(p/P))·nβ',
    help: 'node gather to the leader, allgatherv among the leaders, node broadcast (MVAPICH2 two-level)',
  },
};

/** The allgatherv's algorithms (n: the whole gathered result). */
export const ALLGATHERV: AlgorithmSpecs<'allgatherv'> = {
  recursiveDoubling: { fn: allgathervRecursiveDoubling, origin: 'MPICH', cost: 'lg p·α + (p-1)/p·nβ', help: 'recursive doubling over packed blocks, then unpacked' },
  ring: { fn: allgathervRing, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·nβ', help: 'n - 1 steps around a ring' },
  linear: { fn: allgathervLinear, origin: 'Open MPI', cost: '(p-1)·α + (p-1)/p·nβ, all at once', help: 'every rank sends to every rank at once' },
  ...ALLGATHERV_BRUCK,
  neighborExchange: { fn: allgathervNeighborExchange, origin: 'Open MPI', cost: 'p/2·α + (p-1)/p·nβ (odd p: ring)', help: 'n/2 steps of block pairs with the left and right neighbours in turn; odd n: ring' },
};
