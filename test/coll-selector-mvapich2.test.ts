import { describe, expect, it } from 'vitest';
import { query, SELECTORS, type Collective } from '../runtime/mpi/coll/index.ts';

/**
 * MVAPICH2's default rules at their edges. The numbers are MVAPICH2 2.3's defaults, written here
 * from src/include/mv2_mpir.h and src/mpi/coll/ch3_shmem_coll.c (not from MVAPICH2_THRESHOLDS):
 * two-level allreduce to 1 << 18, two-level reduce to 1 << 14, MPIR_REDUCE_SHORT_MSG 8192,
 * MPIR_ALLREDUCE_SHORT_MSG 2048, MPIR_BCAST_SHORT_MSG 16384, k-nomial 2-level bcast up to 2048
 * bytes on more than 64 ranks, MPIR_ALLTOALL_SHORT_MSG 2048 and MEDIUM 16384.
 */
const mv2 = (c: Collective, size: number, bytes: number, commutative: boolean, ppn: number): string => SELECTORS.mvapich2.choose(query(c, size, bytes, commutative, Math.ceil(size / ppn), ppn));

describe('the mvapich2 selector follows its default tuning', () => {
  it.each([
    // allreduce: two-level (hierarchical) with several ranks per node up to 256 KiB, commutative ops only
    ['allreduce', 64, 1 << 18, true, 8, 'hierarchical'],
    ['allreduce', 64, (1 << 18) + 1, true, 8, 'rabenseifner'],
    ['allreduce', 64, 64, false, 8, 'recursiveDoubling'],
    ['allreduce', 16, 2048, true, 1, 'recursiveDoubling'],
    ['allreduce', 16, 2049, true, 1, 'rabenseifner'],
    // reduce: two-level up to 16 KiB; flat binomial up to 8192, Rabenseifner above
    ['reduce', 64, 1 << 14, true, 8, 'hierarchical'],
    ['reduce', 64, (1 << 14) + 1, true, 8, 'rabenseifner'],
    ['reduce', 16, 8192, true, 1, 'binomial'],
    ['reduce', 16, 8193, true, 1, 'rabenseifner'],
    ['reduce', 16, 8193, false, 8, 'binomial'],
    // bcast: k-nomial up to 2048 bytes on more than 64 ranks (two-level with ppn > 1), binomial below 16384, then MPICH's long forms
    ['bcast', 65, 2048, true, 1, 'knomial'],
    ['bcast', 65, 2048, true, 4, 'hierarchical'],
    ['bcast', 64, 2048, true, 1, 'binomial'],
    ['bcast', 65, 2049, true, 1, 'binomial'],
    ['bcast', 16, 16383, true, 1, 'binomial'],
    ['bcast', 16, 16383, true, 4, 'hierarchical'],
    ['bcast', 16, 16384, true, 4, 'scatterRecursiveDoubling'],
    ['bcast', 12, 16384, true, 1, 'scatterRing'],
    ['bcast', 16, 512 * 1024, true, 1, 'scatterRing'],
    // alltoall: Bruck up to 2048 bytes per block on 8 ranks or more, scatter-destination up to 16384, pairwise above
    ['alltoall', 8, 2048, true, 1, 'bruck'],
    ['alltoall', 7, 2048, true, 1, 'scatterDest'],
    ['alltoall', 8, 2049, true, 1, 'scatterDest'],
    ['alltoall', 8, 16384, true, 1, 'scatterDest'],
    ['alltoall', 8, 16385, true, 1, 'pairwise'],
    ['alltoallv', 8, 0, true, 1, 'scatterDest'],
    // barrier, gather, scatter: two-level with several ranks per node
    ['barrier', 16, 0, true, 4, 'hierarchical'],
    ['barrier', 16, 0, true, 1, 'recursiveDoubling'],
    ['gather', 16, 1024, true, 4, 'hierarchical'],
    ['gather', 16, 1024, true, 1, 'binomial'],
    ['scatter', 16, 1024, true, 2, 'hierarchical'],
    // allgather (2-level off by default): MPICH's rules, MPIR_ALLGATHER_LONG_MSG 524288 and SHORT 81920
    ['allgather', 16, 524287, true, 4, 'recursiveDoubling'],
    ['allgather', 12, 81919, true, 4, 'bruck'],
    ['allgather', 12, 81920, true, 4, 'ring'],
  ] as const)('%s on %i ranks, %i bytes, commutative %s, %i per node -> %s', (c, size, bytes, commutative, ppn, want) => {
    expect(mv2(c, size, bytes, commutative, ppn)).toBe(want);
  });

  it('has its own two-level forms instead of the SMP path', () => {
    expect(SELECTORS.mvapich2.smpPath('allreduce', 8)).toBe(false);
    expect(SELECTORS.mvapich2.smpPath('barrier', 0)).toBe(false);
  });
});
