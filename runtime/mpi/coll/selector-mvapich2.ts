import { mpichRule } from './selector-mpich.ts';
import type { Selector, SelectorQuery } from './selectors.ts';
import { isPof2 } from './util.ts';

/**
 * MVAPICH2's default switch points (MVAPICH2 2.3: the collective defaults of
 * src/include/mv2_mpir.h, the shared-memory collective switches of
 * src/mpi/coll/ch3_shmem_coll.c, used by allreduce_osu.c, reduce_osu.c, bcast_osu.c and
 * alltoall_osu.c when no architecture tuning table applies), in bytes or ranks. With several
 * ranks on a node (`MV2_USE_SHMEM_COLL=1`, the default) the two-level forms run: the node's ranks
 * over shared memory, the node leaders over the network.
 */
export const MVAPICH2_THRESHOLDS = Object.freeze({
  /** MPIR_ALLREDUCE_2LEVEL_THRESHOLD (MV2_ALLREDUCE_2LEVEL_MSG, 1 << 18): two-level allreduce up to this. */
  allreduceTwoLevelBytes: 1 << 18,
  /** MPIR_ALLREDUCE_SHORT_MSG: flat recursive doubling up to this, reduce-scatter + allgather above. */
  allreduceShortBytes: 2048,
  /** MPIR_REDUCE_2LEVEL_THRESHOLD (MV2_REDUCE_2LEVEL_MSG, 1 << 14): two-level reduce up to this. */
  reduceTwoLevelBytes: 1 << 14,
  /** MPIR_REDUCE_SHORT_MSG (8192 in MVAPICH2, 2048 in MPICH): flat binomial up to this, Rabenseifner above. */
  reduceShortBytes: 8192,
  /** MPIR_BCAST_SHORT_MSG (16384 in MVAPICH2): binomial (two-level with shared memory) below this. */
  bcastShortBytes: 16384,
  /** MPIR_BCAST_LARGE_MSG (512 KiB): scatter + recursive-doubling allgather below this on powers of two. */
  bcastLargeBytes: 512 * 1024,
  /** MPIR_BCAST_MIN_PROCS: binomial below this many ranks. */
  bcastMinProcs: 8,
  /** mv2_knomial_2level_bcast_message_size_threshold: the k-nomial (radix 4) inter-node tree up to this ... */
  bcastKnomialBytes: 2048,
  /** ... on more ranks than mv2_knomial_2level_bcast_system_size_threshold. */
  bcastKnomialMinProcs: 64,
  /** MPIR_ALLTOALL_SHORT_MSG (MV2_ALLTOALL_SMALL_MSG, 2048): Bruck up to this many bytes per block ... */
  alltoallShortBytes: 2048,
  /** ... with at least this many ranks (as MPICH's alltoall). */
  alltoallMinProcs: 8,
  /** MPIR_ALLTOALL_MEDIUM_MSG (MV2_ALLTOALL_MEDIUM_MSG, 16384): throttled scatter-destination up to this, pairwise above. */
  alltoallMediumBytes: 16384,
});

/** MVAPICH2's choice for one collective call. */
function chooseMvapich2(q: SelectorQuery): string {
  const T = MVAPICH2_THRESHOLDS;
  const { size, bytes, commutative } = q;
  const twoLevel = q.ppn > 1 && size > 1;
  switch (q.collective) {
    case 'barrier':
      // MV2_USE_SHMEM_BARRIER=1: node barrier over shared memory, pairwise exchange among leaders
      return twoLevel ? 'hierarchical' : 'recursiveDoubling';
    case 'allreduce':
      // shared-memory reduce + leaders' recursive doubling up to MV2_SHMEM_ALLREDUCE_MSG, the 2-level form to 256 KiB
      if (twoLevel && commutative && bytes <= T.allreduceTwoLevelBytes) return 'hierarchical';
      return bytes <= T.allreduceShortBytes || !commutative ? 'recursiveDoubling' : 'rabenseifner';
    case 'reduce':
      if (twoLevel && commutative && bytes <= T.reduceTwoLevelBytes) return 'hierarchical';
      return bytes > T.reduceShortBytes && commutative ? 'rabenseifner' : 'binomial';
    case 'bcast':
      if (bytes <= T.bcastKnomialBytes && size > T.bcastKnomialMinProcs) return twoLevel ? 'hierarchical' : 'knomial';
      if (bytes < T.bcastShortBytes || size < T.bcastMinProcs) return twoLevel ? 'hierarchical' : 'binomial';
      return bytes < T.bcastLargeBytes && isPof2(size) ? 'scatterRecursiveDoubling' : 'scatterRing';
    case 'alltoall':
      if (bytes <= T.alltoallShortBytes && size >= T.alltoallMinProcs) return 'bruck';
      return bytes <= T.alltoallMediumBytes ? 'scatterDest' : 'pairwise';
    case 'alltoallv':
      // MPIR_Alltoallv_intra_MV2: receives and sends posted in throttled rounds
      return 'scatterDest';
    case 'gather':
    case 'scatter':
      // MV2_USE_TWO_LEVEL_GATHER / MV2_USE_TWO_LEVEL_SCATTER, on by default
      return twoLevel ? 'hierarchical' : 'binomial';
    default:
      // allgather(v) (2-level allgather is off by default), reduce_scatter, the v-forms and scans: MPICH's rules
      return mpichRule(q.collective, size, bytes, commutative);
  }
}

/** MVAPICH2's default rules; its two-level forms replace MPICH's SMP path. */
export const MVAPICH2: Selector = Object.freeze({
  name: 'mvapich2',
  source: 'MVAPICH2 2.3 src/include/mv2_mpir.h, src/mpi/coll/ch3_shmem_coll.c, allreduce_osu.c, bcast_osu.c, alltoall_osu.c',
  choose: chooseMvapich2,
  smpPath: () => false,
});
