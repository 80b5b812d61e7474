import type { Selector, SelectorQuery } from './selectors.ts';
import { isPof2 } from './util.ts';

/**
 * Open MPI's fixed decision rules (the `tuned` component's `*_intra_dec_fixed` functions,
 * ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, the same from Open MPI 1.6 to 4.0; measured on
 * the Grig cluster at UTK over MX), in bytes or ranks. Segment sizes the rules also pick (1 KiB,
 * 8-128 KiB) are not part of a name; `tuned` is not node-aware.
 */
export const OMPI_THRESHOLDS = Object.freeze({
  /** allreduce: recursive doubling below this (`intermediate_message`). */
  allreduceIntermediateBytes: 10000,
  /** allreduce: ring segments (`segment_size`, 1 MB); the segmented ring once bytes exceed ranks x this. */
  allreduceSegmentBytes: 1 << 20,
  /** bcast: binomial below this (`small_message_size`). */
  bcastSmallBytes: 2048,
  /** bcast: split binary tree with 1 KiB segments below this (`intermediate_message_size`). */
  bcastIntermediateBytes: 370728,
  /** bcast: pipeline with 128 KiB segments while ranks < a_p128 x bytes + b_p128. */
  bcastA128: 1.6134e-6,
  bcastB128: 2.1102,
  /** bcast: split binary tree with 8 KiB segments below this many ranks (large messages). */
  bcastSplitMaxProcs: 13,
  /** reduce, commutative: linear below this many ranks and bytes. */
  reduceLinearProcs: 8,
  reduceLinearBytes: 512,
  /** reduce: binomial below this many bytes on fewer than 8 ranks, or below 2048 on any. */
  reduceBinomialSmallCommBytes: 20480,
  reduceBinomialBytes: 2048,
  /** reduce, commutative: segmented binomial while ranks > a1 x bytes + b1 (a in 1/B). */
  reduceA1: 0.6016 / 1024,
  reduceB1: 1.3496,
  /** ... pipeline (1 KiB segments) while ranks > a2 x bytes + b2 ... */
  reduceA2: 0.041 / 1024,
  reduceB2: 9.7128,
  /** ... binary tree (32 KiB segments) while ranks > a3 x bytes + b3, pipeline beyond. */
  reduceA3: 0.0422 / 1024,
  reduceB3: 1.1614,
  /** reduce, non-commutative: linear below this many ranks and bytes, in-order binary tree otherwise. */
  reduceNoncommProcs: 12,
  reduceNoncommBytes: 2048,
  /** allgather(v): recursive doubling (powers of two) or Bruck below this many bytes gathered. */
  allgatherSmallBytes: 50000,
  /** alltoall: Bruck below this many bytes per block ... */
  alltoallSmallBytes: 200,
  /** ... on more than this many ranks. */
  alltoallBruckMinProcs: 12,
  /** alltoall: linear below this many bytes per block, pairwise from it. */
  alltoallIntermediateBytes: 3000,
  /** reduce_scatter: recursive halving up to this many bytes ... */
  reduceScatterSmallBytes: 12 * 1024,
  /** ... or up to this many on a power of two ... */
  reduceScatterLargeBytes: 256 * 1024,
  /** ... or while ranks >= a x bytes + b; ring otherwise. */
  reduceScatterA: 0.0012,
  reduceScatterB: 8,
  /** gather: linear with synchronisation above this many bytes per block (`intermediate_block_size`). */
  gatherIntermediateBlockBytes: 6000,
  /** gather: binomial on more ranks than this ... */
  gatherLargeProcs: 60,
  /** ... or on more than this many with blocks below `gatherSmallBlockBytes`; linear otherwise. */
  gatherSmallProcs: 10,
  gatherSmallBlockBytes: 1024,
  /** scatter: binomial for blocks below this on more than `scatterSmallProcs` ranks, else linear. */
  scatterSmallBlockBytes: 300,
  scatterSmallProcs: 10,
});

/** Open MPI's choice for one collective call (its `tuned` component's fixed rules). */
function chooseOmpi(q: SelectorQuery): string {
  const T = OMPI_THRESHOLDS;
  const { size, bytes, commutative } = q;
  switch (q.collective) {
    case 'barrier':
      // two processes: a single exchange, which recursive doubling is at p = 2; Bruck's is the dissemination barrier
      return isPof2(size) ? 'recursiveDoubling' : 'dissemination';
    case 'bcast':
      if (bytes < T.bcastSmallBytes) return 'binomial';
      if (bytes < T.bcastIntermediateBytes) return 'splitBinaryTree';
      if (size < T.bcastA128 * bytes + T.bcastB128) return 'pipeline';
      // 8 KiB split binary tree on small communicators, else the pipeline with 64, 16 or 8 KiB segments
      return size < T.bcastSplitMaxProcs ? 'splitBinaryTree' : 'pipeline';
    case 'reduce': {
      if (!commutative) return size < T.reduceNoncommProcs && bytes < T.reduceNoncommBytes ? 'linear' : 'inOrderBinary';
      if (size < T.reduceLinearProcs && bytes < T.reduceLinearBytes) return 'linear';
      if ((size < T.reduceLinearProcs && bytes < T.reduceBinomialSmallCommBytes) || bytes < T.reduceBinomialBytes) return 'binomial';
      // Binomial_1K: the binomial tree with 1 KiB segments
      if (size > T.reduceA1 * bytes + T.reduceB1) return 'binomial';
      if (size > T.reduceA2 * bytes + T.reduceB2) return 'pipeline';
      if (size > T.reduceA3 * bytes + T.reduceB3) return 'binaryTree';
      return 'pipeline';
    }
    case 'allreduce': {
      if (bytes < T.allreduceIntermediateBytes) return 'recursiveDoubling';
      const count = q.count ?? Math.floor(bytes / 8);
      if (commutative && count > size) return size * T.allreduceSegmentBytes >= bytes ? 'ring' : 'segmentedRing';
      // the non-overlapping algorithm: reduce to rank 0, then broadcast
      return 'reduceBcast';
    }
    case 'allgather':
      // two processes: one exchange, recursive doubling at p = 2
      if (size === 2) return 'recursiveDoubling';
      if (bytes < T.allgatherSmallBytes) return isPof2(size) ? 'recursiveDoubling' : 'bruck';
      return size % 2 === 1 ? 'ring' : 'neighborExchange';
    case 'allgatherv':
      if (size === 2) return 'recursiveDoubling';
      if (bytes < T.allgatherSmallBytes) return 'bruck';
      return size % 2 === 1 ? 'ring' : 'neighborExchange';
    case 'alltoall':
      // two processes: one exchange, which the pairwise algorithm is at p = 2
      if (size === 2) return 'pairwise';
      if (bytes < T.alltoallSmallBytes && size > T.alltoallBruckMinProcs) return 'bruck';
      return bytes < T.alltoallIntermediateBytes ? 'linear' : 'pairwise';
    case 'alltoallv':
      return 'pairwise';
    case 'reduceScatter': {
      // non-commutative: the non-overlapping algorithm, reduce then scatterv
      if (!commutative) return 'reduceScatterv';
      const halving = bytes <= T.reduceScatterSmallBytes || (bytes <= T.reduceScatterLargeBytes && isPof2(size)) || size >= T.reduceScatterA * bytes + T.reduceScatterB;
      return halving ? 'recursiveHalving' : 'ring';
    }
    case 'reduceScatterBlock':
      // tuned has no rule of its own: the basic component's reduce then scatter
      return 'reduceScatterv';
    case 'gather': {
      const block = bytes / size;
      if (block > T.gatherIntermediateBlockBytes) return 'linearSync';
      if (size > T.gatherLargeProcs || (size > T.gatherSmallProcs && block < T.gatherSmallBlockBytes)) return 'binomial';
      return 'linear';
    }
    case 'scatter':
      return bytes / size < T.scatterSmallBlockBytes && size > T.scatterSmallProcs ? 'binomial' : 'linear';
    case 'gatherv':
    case 'scatterv':
    case 'scan':
    case 'exscan':
      // no tuned rule: the basic component's linear forms
      return 'linear';
  }
}

/** Open MPI's `tuned` fixed decisions; not node-aware, so no SMP path. */
export const OMPI: Selector = Object.freeze({
  name: 'ompi',
  source: 'Open MPI 1.6-4.0 ompi/mca/coll/tuned/coll_tuned_decision_fixed.c (basic component where tuned has no rule)',
  choose: chooseOmpi,
  smpPath: () => false,
});
