import type { Op } from '../ops.ts';
import { MpiError } from '../request.ts';
import type { Collective } from './algorithm.ts';
import { isPof2 } from './util.ts';

/**
 * MPICH's default switch points (MPICH 3.x CVARs `MPIR_CVAR_*`, src/mpi/coll/*.c), in bytes or
 * ranks.
 */
export const THRESHOLDS = Object.freeze({
  /** MPIR_CVAR_BCAST_SHORT_MSG_SIZE: binomial below this. */
  bcastShortBytes: 12288,
  /** MPIR_CVAR_BCAST_LONG_MSG_SIZE: scatter + ring allgather from this on. */
  bcastLongBytes: 524288,
  /** MPIR_CVAR_BCAST_MIN_PROCS: binomial below this many ranks. */
  bcastMinProcs: 8,
  /** MPIR_CVAR_REDUCE_SHORT_MSG_SIZE: Rabenseifner above this (commutative ops). */
  reduceShortBytes: 2048,
  /** MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE: recursive doubling up to this. */
  allreduceShortBytes: 2048,
  /** MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE: Bruck below this (non-powers of two). */
  allgatherShortBytes: 81920,
  /** MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE: recursive doubling below this (powers of two). */
  allgatherLongBytes: 524288,
  /** MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE: Bruck up to this many bytes per block ... */
  alltoallShortBytes: 256,
  /** ... with at least this many ranks (a constant in MPICH's alltoall). */
  alltoallMinProcs: 8,
  /** MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE: isend/irecv in blocks (scattered) up to this, pairwise above. */
  alltoallMediumBytes: 32768,
  /** MPIR_CVAR_REDSCAT_COMMUTATIVE_LONG_MSG_SIZE: recursive halving below this, pairwise from it. */
  reduceScatterLongBytes: 524288,
});

/**
 * The algorithm MPICH would pick. `bytes` is, per collective: the buffer (bcast, reduce,
 * allreduce, scan, exscan), the whole gathered result (allgather, allgatherv), one block to one
 * rank (alltoall), the whole input (reduceScatter, reduceScatterBlock); the others ignore it.
 * `op` matters for reductions only (absent: commutative, as every predefined op is). Never
 * returns an algorithm that needs a commutative op for a non-commutative one.
 */
export function chooseAlgorithm(collective: Collective, size: number, bytes: number, op?: Op): string {
  return mpichRule(collective, size, bytes, op?.commutative ?? true);
}

/** MPICH's rules for a commutative op or not (`chooseAlgorithm` with the op's commutativity). */
export function mpichRule(collective: Collective, size: number, bytes: number, commutative: boolean): string {
  const T = THRESHOLDS;
  const pof2 = isPof2(size);
  switch (collective) {
    case 'barrier':
      return 'dissemination';
    case 'bcast':
      if (bytes < T.bcastShortBytes || size < T.bcastMinProcs) return 'binomial';
      return bytes < T.bcastLongBytes && pof2 ? 'scatterRecursiveDoubling' : 'scatterRing';
    case 'reduce':
      return bytes > T.reduceShortBytes && commutative ? 'rabenseifner' : 'binomial';
    case 'allreduce':
      return bytes <= T.allreduceShortBytes || !commutative ? 'recursiveDoubling' : 'rabenseifner';
    case 'allgather':
      if (bytes < T.allgatherLongBytes && pof2) return 'recursiveDoubling';
      return bytes < T.allgatherShortBytes ? 'bruck' : 'ring';
    case 'allgatherv':
      // MPICH's Bruck allgatherv is not implemented; the ring takes its place
      return bytes < T.allgatherLongBytes && pof2 ? 'recursiveDoubling' : 'ring';
    case 'alltoall':
      if (bytes <= T.alltoallShortBytes && size >= T.alltoallMinProcs) return 'bruck';
      // medium: isends and irecvs in blocks of MPIR_CVAR_ALLTOALL_THROTTLE partners
      return bytes <= T.alltoallMediumBytes ? 'scattered' : 'pairwise';
    case 'alltoallv':
      return 'scattered';
    case 'reduceScatter':
    case 'reduceScatterBlock':
      if (!commutative) return 'reduceScatterv';
      return bytes < T.reduceScatterLongBytes ? 'recursiveHalving' : 'pairwise';
    case 'gather':
    case 'scatter':
      return 'binomial';
    case 'gatherv':
    case 'scatterv':
      return 'linear';
    case 'scan':
    case 'exscan':
      return 'recursiveDoubling';
  }
  throw new MpiError('MPI_ERR_ARG', `unknown collective '${String(collective)}'`);
}

