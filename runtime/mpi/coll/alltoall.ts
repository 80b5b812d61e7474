import type { AlgorithmSpecs } from './algorithm.ts';
import { ALLTOALL_WINDOWED, ALLTOALLV_WINDOWED, scatteredWith } from './alltoall-windowed.ts';
import { gatherBinomial } from './gather.ts';
import { nodeLayout, subTransport } from './nodes.ts';
import { scatterBinomial } from './scatter.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, chargeCopy, copy, exchange, isPof2, isSkeleton, moveElems, prefix, setAt, TAG, type Buf } from './util.ts';

/**
 * Bruck's alltoall: rotate the blocks locally, then in step k send every block whose index has
 * bit k set to rank + 2^k (packed into one message), then rotate back: ceil(log2 n) messages per
 * rank for any n, each carrying about half the data (MPICH's short-message choice). MPICH packs
 * and unpacks each step's blocks through an indexed derived datatype (alltoall_intra_brucks.c),
 * so every block costs `mpi.packBlock` at each end besides its bytes; its last phase rotates the
 * blocks into a scratch buffer and copies them back one call per block, n more blocks. The
 * creation, commit and free of each step's indexed datatype are not charged (no published cost).
 */
export function* alltoallBruck(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const me = t.rank;
  const c = sendBuf.length / n;
  const what = 'alltoall(bruck)';
  // tmp[i] = my block for rank me + i
  const tmp = alloc(t, sendBuf, n * c);
  yield copy(t, tmp, 0, sendBuf, me * c, (n - me) * c);
  yield copy(t, tmp, (n - me) * c, sendBuf, 0, me * c);
  const pack = alloc(t, sendBuf, Math.ceil(n / 2) * c);
  const unpack = alloc(t, sendBuf, Math.ceil(n / 2) * c);
  // tmp, pack and unpack are skeleton buffers when sendBuf is: then no bytes move, only the time
  // is charged (the loops are n per step per rank: n^2 log n over a run, without a view per block)
  const real = !isSkeleton(t, sendBuf);
  for (let pof2 = 1; pof2 < n; pof2 *= 2) {
    const k = withBit(n, pof2);
    if (real) for (let i = pof2, j = 0; i < n; i = (i + 1) | pof2, j++) moveElems(pack, j * c, tmp, i * c, c);
    yield chargeCopy(t, sendBuf, k * c) + k * (t.packBlockPs ?? 0);
    yield exchange(t, pack, 0, k * c, (me + pof2) % n, unpack, 0, k * c, (me - pof2 + n) % n, TAG.alltoall, what);
    if (real) for (let i = pof2, j = 0; i < n; i = (i + 1) | pof2, j++) moveElems(tmp, i * c, unpack, j * c, c);
    yield chargeCopy(t, sendBuf, k * c) + k * (t.packBlockPs ?? 0);
  }
  // now tmp[i] is the block from rank me - i; MPICH rotates the blocks into its scratch buffer
  // (two copies of n blocks in all), then copies them back one MPIR_Localcopy per block in
  // reverse order: n blocks, each a copy of its own
  if (real && !isSkeleton(t, recvBuf)) for (let i = 0; i < n; i++) moveElems(recvBuf, ((me - i + n) % n) * c, tmp, i * c, c);
  yield chargeCopy(t, sendBuf, 2 * n * c) + n * (t.packBlockPs ?? 0);
}

/** How many of 0 .. n-1 have bit `bit` (a power of two) set. */
export function withBit(n: number, bit: number): number {
  return Math.floor(n / (2 * bit)) * bit + Math.max(0, (n % (2 * bit)) - bit);
}

/**
 * Pairwise-exchange alltoall: n - 1 steps, one send and one receive each (partners by xor on
 * powers of two, else rank +- i); MPICH's long-message choice.
 */
export function* alltoallPairwise(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const c = sendBuf.length / n;
  yield* alltoallvPairwiseWith(t, sendBuf, (r) => r * c, () => c, recvBuf, (r) => r * c, () => c, 'alltoall(pairwise)', TAG.alltoall + 1);
}

/**
 * MPICH's pairwise exchange (alltoall_intra_pairwise.c, MPIR_Alltoall_intra_pairwise): partners
 * rank xor i on powers of two, else rank + i and rank - i. The same exchanges as `pairwise`,
 * under the name the selectors of other libraries use for MPICH's form.
 */
export function* alltoallPairwiseXor(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const c = sendBuf.length / n;
  yield* alltoallvPairwiseWith(t, sendBuf, (r) => r * c, () => c, recvBuf, (r) => r * c, () => c, 'alltoall(pairwise xor)', TAG.alltoall + 5);
}

/**
 * Ring-shifted exchanges: in step i each rank sends to rank + i and receives from rank - i, on
 * every size (never xor). Open MPI's pairwise alltoall (coll_base_alltoall.c,
 * ompi_coll_base_alltoall_intra_pairwise) and the STAR-MPI ring SimGrid ships (alltoall-ring.cpp).
 */
export function* alltoallRing(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const c = sendBuf.length / n;
  yield* alltoallvPairwiseWith(t, sendBuf, (r) => r * c, () => c, recvBuf, (r) => r * c, () => c, 'alltoall(ring)', TAG.alltoall + 6, false);
}

/**
 * Two-level (SMP-aware) alltoall, as Cray MPT's and MVAPICH2's node-leader forms: each node's
 * ranks gather their whole send buffers to the leader (binomial), the leaders pack for each
 * node the blocks its ranks are owed and exchange them pairwise (one message per pair of
 * nodes), and each leader unpacks and scatters (binomial) every local rank its n blocks. Nodes
 * may differ in size and hold any ranks.
 */
export function* alltoallHierarchical(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const c = sendBuf.length / n;
  const layout = nodeLayout(t);
  const mine = layout.nodeIndex[t.rank]!;
  const local = layout.ranks[mine]!;
  const node = subTransport(t, local);
  const out = recvBuf.subarray(0, n * c);
  if (node.rank !== 0) {
    yield* gatherBinomial(node, sendBuf.subarray(0, n * c), null, 0);
    yield* scatterBinomial(node, null, out, 0);
    return;
  }
  const a = local.length;
  const nodes = layout.ranks;
  const gathered = alloc(t, sendBuf, a * n * c);
  yield* gatherBinomial(node, sendBuf.subarray(0, n * c), gathered, 0);
  // to node j: for each local rank q, the blocks for j's ranks in their order
  const sendCounts = nodes.map((g) => a * g.length * c);
  const sendDispls = prefix(sendCounts);
  const packed = alloc(t, sendBuf, a * n * c);
  nodes.forEach((g, j) => {
    let at = sendDispls[j]!;
    for (let q = 0; q < a; q++) for (const d of g) setAt(t, packed, gathered.subarray((q * n + d) * c, (q * n + d + 1) * c), (at += c) - c);
  });
  yield chargeCopy(t, sendBuf, a * n * c);
  // from node j: for each of j's ranks, the blocks for my ranks in their order
  const recvCounts = nodes.map((g) => g.length * a * c);
  const recvDispls = prefix(recvCounts);
  const got = alloc(t, sendBuf, a * n * c);
  yield* alltoallvPairwise(subTransport(t, layout.leaders), packed, sendCounts, sendDispls, got, recvCounts, recvDispls);
  const blocks = alloc(t, sendBuf, a * n * c);
  nodes.forEach((g, j) => {
    g.forEach((s, qs) => {
      for (let q = 0; q < a; q++) setAt(t, blocks, got.subarray(recvDispls[j]! + (qs * a + q) * c, recvDispls[j]! + (qs * a + q + 1) * c), (q * n + s) * c);
    });
  });
  yield chargeCopy(t, sendBuf, a * n * c);
  yield* scatterBinomial(node, blocks, out, 0);
}

/** Linear alltoall: every receive and send posted at once, then one wait for all (MPICH's scattered form without a throttle). */
export function* alltoallLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const n = t.size;
  const c = sendBuf.length / n;
  yield* scatteredWith(t, sendBuf, (r) => r * c, () => c, recvBuf, (r) => r * c, () => c, n, 'alltoall(linear)', TAG.alltoall + 2);
}

/** Pairwise-exchange alltoallv (counts and displacements in elements). */
export function* alltoallvPairwise(
  t: CollTransport,
  sendBuf: Buf,
  sendCounts: ArrayLike<number>,
  sendDispls: ArrayLike<number>,
  recvBuf: Buf,
  recvCounts: ArrayLike<number>,
  recvDispls: ArrayLike<number>,
): Coll {
  yield* alltoallvPairwiseWith(t, sendBuf, (r) => sendDispls[r]!, (r) => sendCounts[r]!, recvBuf, (r) => recvDispls[r]!, (r) => recvCounts[r]!, 'alltoallv(pairwise)', TAG.alltoallv);
}

/** Linear alltoallv: every receive and send posted at once (MPICH's scattered form without a throttle). */
export function* alltoallvLinear(
  t: CollTransport,
  sendBuf: Buf,
  sendCounts: ArrayLike<number>,
  sendDispls: ArrayLike<number>,
  recvBuf: Buf,
  recvCounts: ArrayLike<number>,
  recvDispls: ArrayLike<number>,
): Coll {
  yield* scatteredWith(t, sendBuf, (r) => sendDispls[r]!, (r) => sendCounts[r]!, recvBuf, (r) => recvDispls[r]!, (r) => recvCounts[r]!, t.size, 'alltoallv(linear)', TAG.alltoallv + 1);
}

type At = (r: number) => number;

function* alltoallvPairwiseWith(t: CollTransport, sendBuf: Buf, sAt: At, sLen: At, recvBuf: Buf, rAt: At, rLen: At, what: string, tag: number, xorOnPof2 = true): Coll {
  const n = t.size;
  const me = t.rank;
  yield copy(t, recvBuf, rAt(me), sendBuf, sAt(me), sLen(me));
  const xor = xorOnPof2 && isPof2(n);
  for (let i = 1; i < n; i++) {
    const dst = xor ? me ^ i : (me + i) % n;
    const src = xor ? me ^ i : (me - i + n) % n;
    yield exchange(t, sendBuf, sAt(dst), sLen(dst), dst, recvBuf, rAt(src), rLen(src), src, tag, what);
  }
}

/** The alltoall's algorithms (n: one block, to one rank). */
export const ALLTOALL: AlgorithmSpecs<'alltoall'> = {
  bruck: { fn: alltoallBruck, origin: 'MPICH', cost: 'ceil(lg p)·(α + p/2·nβ)', help: 'ceil(log2 n) packed messages per rank' },
  pairwise: { fn: alltoallPairwise, origin: 'MPICH', cost: '(p-1)·(α + nβ)', help: 'n - 1 pairwise exchanges' },
  linear: { fn: alltoallLinear, origin: 'MPICH', cost: '(p-1)·(α + nβ), all at once', help: 'all receives and sends posted at once' },
  ...ALLTOALL_WINDOWED,
  pairwiseXor: { fn: alltoallPairwiseXor, origin: 'MPICH', cost: '(p-1)·(α + nβ)', help: 'n - 1 pairwise exchanges, partners by xor on powers of two (as pairwise)' },
  ring: { fn: alltoallRing, origin: 'Open MPI', cost: '(p-1)·(α + nβ)', help: 'n - 1 exchanges with rank + i and rank - i on every size' },
  hierarchical: {
    fn: alltoallHierarchical,
    origin: 'Cray MPT',
    cost: '2·ceil(lg(p/P))·α + (P-1)·α + (p/P)·p·nβ·(2 + (P-1)/P)',
    help: 'node ranks gather to the leader, leaders exchange one packed message per node pair, leaders scatter back',
  },
};

/** The alltoallv's algorithms (n: the bytes a rank sends to one rank). */
export const ALLTOALLV: AlgorithmSpecs<'alltoallv'> = {
  pairwise: { fn: alltoallvPairwise, origin: 'Open MPI', cost: '(p-1)·(α + nβ)', help: 'n - 1 pairwise exchanges' },
  linear: { fn: alltoallvLinear, origin: 'MPICH', cost: '(p-1)·(α + nβ), all at once', help: 'all receives and sends posted at once' },
  ...ALLTOALLV_WINDOWED,
};
