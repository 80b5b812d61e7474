/**
 * Bruck's allgather in MPICH's radix-k form (src/mpi/coll/allgather/allgather_intra_k_brucks.c,
 * MPIR_Allgather_intra_k_brucks) and MPICH's Bruck allgatherv (allgatherv_intra_brucks.c,
 * MPIR_Allgatherv_intra_brucks).
 */
import type { AlgorithmSpecs } from './algorithm.ts';
import type { Request } from '../request.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, chargeCopy, copy, exchange, prefix, setAt, TAG, type Buf } from './util.ts';

/**
 * The radix of the k-Bruck allgather. MPICH 4's MPIR_CVAR_ALLGATHER_BRUCKS_KVAL is a tuning
 * knob; phit runs it at 4.
 */
export const ALLGATHER_BRUCK_RADIX = 4;

/**
 * Bruck's exchanges in radix k over blocks held in relative order (block i of `tmp`, at element
 * `relAt(i)`, is rank me + i's): in the phase of distance d = k^i each rank sends its first d
 * blocks to ranks me - j·d and receives as many from me + j·d, j = 1..k-1, all at once.
 */
function* brucks(t: CollTransport, tmp: Buf, relAt: (i: number) => number, k: number, tag: number, what: string): Coll {
  const n = t.size;
  const me = t.rank;
  for (let d = 1; d < n; d *= k) {
    const reqs: Request[] = [];
    for (let j = 1; j < k && j * d < n; j++) {
      const dist = j * d;
      const blocks = Math.min(d, n - dist);
      reqs.push(...exchange(t, tmp, 0, relAt(blocks), (me - dist + n) % n, tmp, relAt(dist), relAt(dist + blocks) - relAt(dist), (me + dist) % n, tag, what));
    }
    yield reqs;
  }
}

/**
 * k-Bruck allgather: ceil(log_k n) phases for any n, each with k - 1 messages of the blocks
 * gathered so far, then a local rotation into rank order (k = 4).
 */
export function* allgatherKBruck(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const me = t.rank;
  const c = sendBuf.length;
  const tmp = alloc(t, sendBuf, n * c);
  yield copy(t, tmp, 0, sendBuf, 0, c);
  yield* brucks(t, tmp, (i) => i * c, ALLGATHER_BRUCK_RADIX, TAG.allgather + 6, 'allgather(k-bruck)');
  yield copy(t, recvBuf, me * c, tmp, 0, (n - me) * c);
  yield copy(t, recvBuf, 0, tmp, (n - me) * c, me * c);
}

/**
 * Bruck allgatherv: Bruck's ceil(log2 n) exchanges over the blocks packed in relative order
 * (each rank knows every count, so sender and receiver agree on every message's size), then the
 * blocks are unpacked to their displacements.
 */
export function* allgathervBruck(t: CollTransport, sendBuf: Buf, recvBuf: Buf, counts: ArrayLike<number>, displs: ArrayLike<number>): Coll {
  const n = t.size;
  const me = t.rank;
  const rel = prefix(Array.from({ length: n }, (_, i) => counts[(me + i) % n]!));
  const tmp = alloc(t, sendBuf, rel[n]!);
  yield copy(t, tmp, 0, sendBuf, 0, counts[me]!);
  yield* brucks(t, tmp, (i) => rel[i]!, 2, TAG.allgatherv + 5, 'allgatherv(bruck)');
  for (let i = 0; i < n; i++) setAt(t, recvBuf, tmp.subarray(rel[i]!, rel[i + 1]!), displs[(me + i) % n]!);
  yield chargeCopy(t, sendBuf, rel[n]!);
}

/** The k-Bruck allgather, spread into the allgather's table. */
export const ALLGATHER_BRUCK: AlgorithmSpecs<'allgather'> = {
  kBruck: { fn: allgatherKBruck, origin: 'MPICH', cost: 'ceil(log_4 p)·α + (p-1)/p·nβ', help: `Bruck in radix k = ${ALLGATHER_BRUCK_RADIX}: k - 1 messages per phase, ceil(log_k n) phases` },
};

/** The Bruck allgatherv, spread into the allgatherv's table. */
export const ALLGATHERV_BRUCK: AlgorithmSpecs<'allgatherv'> = {
  bruck: { fn: allgathervBruck, origin: 'MPICH', cost: 'ceil(lg p)·α + (p-1)/p·nβ', help: 'Bruck over the blocks packed in relative order, then unpacked' },
};
