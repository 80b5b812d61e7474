import { mpichRule } from './selector-mpich.ts';
import type { Selector, SelectorQuery } from './selectors.ts';

/**
 * Cray MPT's defaults where they differ from MPICH's (Cray MPT 7.x, the `intro_mpi` man page's
 * MPICH_* environment variables; Cray MPI is built on MPICH, seed 001, "Cray MPI uses the MPICH2
 * distribution from Argonne"), in bytes or ranks. Everything else follows MPICH's rules
 * (selector-mpich.ts), with MPICH's SMP-aware allreduce and barrier.
 */
export const CRAY_THRESHOLDS = Object.freeze({
  /** MPICH_BCAST_ONLY_TREE=1: bcast is the SMP-aware tree whatever the size (no scatter + allgather). */
  bcastOnlyTree: true,
  /** MPICH_REDUCE_SHORT_MSG (64 KiB): binomial up to this, reduce-scatter + gather above (commutative ops). */
  reduceShortBytes: 64 * 1024,
  /** MPICH_ALLGATHER_VSHORT_MSG (1024): gather + bcast at and below this many bytes. */
  allgatherVshortBytes: 1024,
  /** MPICH_ALLREDUCE_MAX_SMP_SIZE (256 KiB): the SMP-aware allreduce up to this, flat above. */
  allreduceMaxSmpBytes: 262144,
});

/** Cray MPT's choice for one collective call. */
function chooseCray(q: SelectorQuery): string {
  const T = CRAY_THRESHOLDS;
  const { size, bytes, commutative } = q;
  const smp = q.ppn > 1 && size > 1;
  switch (q.collective) {
    case 'bcast':
      // the tree's inter-node radix is MPICH_BCAST_INTERNODE_RADIX (4): a k-nomial tree among the nodes
      if (T.bcastOnlyTree) return smp ? 'hierarchical' : 'knomial';
      return mpichRule('bcast', size, bytes, commutative);
    case 'reduce':
      // MPICH_REDUCE_NO_SMP unset: the SMP-aware reduce for commutative ops
      if (smp && commutative) return 'hierarchical';
      return bytes > T.reduceShortBytes && commutative ? 'rabenseifner' : 'binomial';
    case 'allgather':
      if (bytes <= T.allgatherVshortBytes) return 'gatherBcast';
      return mpichRule('allgather', size, bytes, commutative);
    default:
      return mpichRule(q.collective, size, bytes, commutative);
  }
}

/** Cray MPT: MPICH's rules with Cray's defaults and node-aware forms. */
export const CRAY: Selector = Object.freeze({
  name: 'cray',
  source: 'Cray MPT 7.x intro_mpi(3) MPICH_BCAST_ONLY_TREE, MPICH_BCAST_INTERNODE_RADIX, MPICH_REDUCE_SHORT_MSG, MPICH_ALLGATHER_VSHORT_MSG, MPICH_ALLREDUCE_MAX_SMP_SIZE; MPICH 3.x otherwise',
  choose: chooseCray,
  smpPath: (collective: 'allreduce' | 'barrier', bytes: number) => collective === 'barrier' || bytes <= CRAY_THRESHOLDS.allreduceMaxSmpBytes,
});
