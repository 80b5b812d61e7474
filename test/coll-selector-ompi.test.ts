import { describe, expect, it } from 'vitest';
import { query, SELECTORS, type Collective } from '../runtime/mpi/coll/index.ts';

/**
 * Open MPI's fixed rules at the edges of each rule. The numbers are those of Open MPI 1.6-4.0
 * ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, written here from that file (not from
 * OMPI_THRESHOLDS), so a changed constant fails.
 */
const ompi = (c: Collective, size: number, bytes: number, commutative = true, count?: number): string => SELECTORS.ompi.choose({ ...query(c, size, bytes, commutative), ...(count !== undefined ? { count } : {}) });

describe('the ompi selector follows coll_tuned_decision_fixed.c', () => {
  it.each([
    // allreduce: recursive doubling below 10000 bytes; ring while p * 1 MiB >= bytes; segmented ring beyond; non-commutative or count <= p: reduce + bcast
    ['allreduce', 8, 9999, true, 'recursiveDoubling'],
    ['allreduce', 8, 10000, true, 'ring'],
    ['allreduce', 8, 8 << 20, true, 'ring'],
    ['allreduce', 8, (8 << 20) + 8, true, 'segmentedRing'],
    ['allreduce', 8, 10000, false, 'reduceBcast'],
    ['allreduce', 8, 9999, false, 'recursiveDoubling'],
    // bcast: binomial below 2048, split binary tree below 370728, then pipeline or (p < 13) split binary tree
    ['bcast', 16, 2047, true, 'binomial'],
    ['bcast', 16, 2048, true, 'splitBinaryTree'],
    ['bcast', 16, 370727, true, 'splitBinaryTree'],
    ['bcast', 16, 370728, true, 'pipeline'],
    ['bcast', 12, 370728, true, 'splitBinaryTree'],
    ['bcast', 13, 370728, true, 'pipeline'],
    // large enough that p < 1.6134e-6 * n + 2.1102 with p = 12: n > 6.13 MB
    ['bcast', 12, 7_000_000, true, 'pipeline'],
    // reduce, commutative: linear below p 8 and 512 bytes; binomial below 20480 on p < 8 or below 2048 on any
    ['reduce', 7, 511, true, 'linear'],
    ['reduce', 7, 512, true, 'binomial'],
    ['reduce', 8, 511, true, 'binomial'],
    ['reduce', 7, 20479, true, 'binomial'],
    ['reduce', 16, 2047, true, 'binomial'],
    // p = 16 at 2048 bytes: 16 > 0.6016/1024 * 2048 + 1.3496 = 2.55 -> segmented binomial
    ['reduce', 16, 2048, true, 'binomial'],
    // p = 7 at 20480 bytes: 7 > 13.38? no; 7 > 0.82 + 9.71? no; 7 > 0.84 + 1.16 = 2.00 -> binary tree
    ['reduce', 7, 20480, true, 'binaryTree'],
    // p = 16 at 64 KiB: 16 > 39.85? no; 16 > 2.62 + 9.71 = 12.34 -> pipeline
    ['reduce', 16, 65536, true, 'pipeline'],
    // reduce, non-commutative: linear below 12 ranks and 2048 bytes, in-order binary tree otherwise
    ['reduce', 11, 2047, false, 'linear'],
    ['reduce', 12, 2047, false, 'inOrderBinary'],
    ['reduce', 11, 2048, false, 'inOrderBinary'],
    // allgather: two ranks exchange; below 50000 bytes recursive doubling (2^k) or Bruck; ring (odd p) or neighbour exchange (even p)
    ['allgather', 2, 1 << 20, true, 'recursiveDoubling'],
    ['allgather', 16, 49999, true, 'recursiveDoubling'],
    ['allgather', 12, 49999, true, 'bruck'],
    ['allgather', 12, 50000, true, 'neighborExchange'],
    ['allgather', 13, 50000, true, 'ring'],
    ['allgatherv', 16, 49999, true, 'bruck'],
    ['allgatherv', 16, 50000, true, 'neighborExchange'],
    ['allgatherv', 15, 50000, true, 'ring'],
    // alltoall: Bruck below 200 bytes per block on more than 12 ranks; linear below 3000; pairwise
    ['alltoall', 13, 199, true, 'bruck'],
    ['alltoall', 12, 199, true, 'linear'],
    ['alltoall', 13, 200, true, 'linear'],
    ['alltoall', 13, 2999, true, 'linear'],
    ['alltoall', 13, 3000, true, 'pairwise'],
    ['alltoall', 2, 10, true, 'pairwise'],
    ['alltoallv', 13, 10, true, 'pairwise'],
    // barrier: recursive doubling on powers of two, Bruck (dissemination) otherwise
    ['barrier', 16, 0, true, 'recursiveDoubling'],
    ['barrier', 12, 0, true, 'dissemination'],
    ['barrier', 2, 0, true, 'recursiveDoubling'],
    // reduce_scatter: non-commutative reduce + scatterv; halving up to 12 KiB, up to 256 KiB on 2^k, or p >= 0.0012 n + 8
    ['reduceScatter', 12, 1 << 20, false, 'reduceScatterv'],
    ['reduceScatter', 12, 12 * 1024, true, 'recursiveHalving'],
    ['reduceScatter', 7, 12 * 1024 + 1, true, 'ring'],
    ['reduceScatter', 16, 256 * 1024, true, 'recursiveHalving'],
    ['reduceScatter', 12, 256 * 1024, true, 'ring'],
    // p = 60: 60 >= 0.0012 n + 8 while n <= 43333
    ['reduceScatter', 60, 43333, true, 'recursiveHalving'],
    ['reduceScatter', 60, 43334, true, 'ring'],
    // gather (bytes = the whole gathered result, block = bytes / p): linear-sync above 6000 per block; binomial on p > 60, or p > 10 with blocks < 1024
    ['gather', 8, 8 * 6001, true, 'linearSync'],
    ['gather', 8, 8 * 6000, true, 'linear'],
    ['gather', 61, 61 * 6000, true, 'binomial'],
    ['gather', 11, 11 * 1023, true, 'binomial'],
    ['gather', 11, 11 * 1024, true, 'linear'],
    ['gather', 10, 10 * 10, true, 'linear'],
    // scatter: binomial for blocks below 300 bytes on more than 10 ranks, linear otherwise
    ['scatter', 11, 11 * 299, true, 'binomial'],
    ['scatter', 11, 11 * 300, true, 'linear'],
    ['scatter', 10, 10 * 299, true, 'linear'],
  ] as const)('%s on %i ranks, %i bytes, commutative %s -> %s', (c, size, bytes, commutative, want) => {
    expect(ompi(c, size, bytes, commutative)).toBe(want);
  });

  it('allreduce counts elements against ranks: a commutative op of no more items than ranks goes to reduce + bcast', () => {
    expect(ompi('allreduce', 16, 16000, true, 16)).toBe('reduceBcast');
    expect(ompi('allreduce', 16, 16000, true, 17)).toBe('ring');
  });

  it('is not node-aware: the choice ignores nodes and ranks per node, and it takes no SMP path', () => {
    expect(SELECTORS.ompi.choose(query('allreduce', 16, 64, true, 4, 4))).toBe('recursiveDoubling');
    expect(SELECTORS.ompi.smpPath('allreduce', 8)).toBe(false);
    expect(SELECTORS.ompi.smpPath('barrier', 0)).toBe(false);
  });
});
