import type { AlgorithmSpecs } from './algorithm.ts';
import type { Request } from '../request.ts';
import { doublingChunks, ringChunks } from './chunks.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, copy, exchange, prefix, recv, send, TAG, type Buf } from './util.ts';

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

/** The allgather's algorithms (n: the whole gathered result). */
export const ALLGATHER: AlgorithmSpecs<'allgather'> = {
  recursiveDoubling: { fn: allgatherRecursiveDoubling, origin: 'MPICH', cost: 'lg p·α + (p-1)/p·nβ', help: 'log2 n exchanges of doubling size, extra ranks folded in' },
  bruck: { fn: allgatherBruck, origin: 'MPICH', cost: 'ceil(lg p)·α + (p-1)/p·nβ', help: 'ceil(log2 n) steps for any n, then a local rotation' },
  ring: { fn: allgatherRing, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·nβ', help: 'n - 1 steps around a ring' },
};

/** The allgatherv's algorithms (n: the whole gathered result). */
export const ALLGATHERV: AlgorithmSpecs<'allgatherv'> = {
  recursiveDoubling: { fn: allgathervRecursiveDoubling, origin: 'MPICH', cost: 'lg p·α + (p-1)/p·nβ', help: 'recursive doubling over packed blocks, then unpacked' },
  ring: { fn: allgathervRing, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·nβ', help: 'n - 1 steps around a ring' },
  linear: { fn: allgathervLinear, origin: 'Open MPI', cost: '(p-1)·α + (p-1)/p·nβ, all at once', help: 'every rank sends to every rank at once' },
};
