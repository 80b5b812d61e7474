import type { Op } from '../ops.ts';
import { MpiError } from '../request.ts';
import { allgatherBruck, allgatherRecursiveDoubling, allgatherRing, allgathervLinear, allgathervRecursiveDoubling, allgathervRing } from './allgather.ts';
import { allreduceRabenseifner, allreduceRecursiveDoubling, allreduceReduceBcast, allreduceRing } from './allreduce.ts';
import { alltoallBruck, alltoallLinear, alltoallPairwise, alltoallvLinear, alltoallvPairwise } from './alltoall.ts';
import { barrierDissemination, barrierRecursiveDoubling } from './barrier.ts';
import { bcastBinomial, bcastLinear, bcastScatterRecursiveDoubling, bcastScatterRing } from './bcast.ts';
import { gatherBinomial, gatherLinear, gathervBinomial, gathervLinear } from './gather.ts';
import { reduceBinomial, reduceLinear, reduceRabenseifner } from './reduce.ts';
import { reduceScatterPairwise, reduceScatterRecursiveHalving, reduceScatterReduceScatterv, reduceScatterRing } from './reduce-scatter.ts';
import { scatterBinomial, scatterLinear, scattervBinomial, scattervLinear } from './scatter.ts';
import { exscanLinear, exscanRecursiveDoubling, scanLinear, scanRecursiveDoubling } from './scan.ts';
import type { Coll, CollTransport } from './transport.ts';
import { isPof2, type Buf } from './util.ts';

export type { Coll, CollTransport, Step } from './transport.ts';
export type { Buf } from './util.ts';

type Counts = ArrayLike<number>;

/** Signature of every collective's algorithms (counts and displacements in elements). */
export interface CollectiveFns {
  barrier: (t: CollTransport) => Coll;
  bcast: (t: CollTransport, buf: Buf, root: number) => Coll;
  reduce: (t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number) => Coll;
  allreduce: (t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op) => Coll;
  allgather: (t: CollTransport, sendBuf: Buf, recvBuf: Buf) => Coll;
  allgatherv: (t: CollTransport, sendBuf: Buf, recvBuf: Buf, counts: Counts, displs: Counts) => Coll;
  alltoall: (t: CollTransport, sendBuf: Buf, recvBuf: Buf) => Coll;
  alltoallv: (t: CollTransport, sendBuf: Buf, sendCounts: Counts, sendDispls: Counts, recvBuf: Buf, recvCounts: Counts, recvDispls: Counts) => Coll;
  reduceScatter: (t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: Counts, op: Op) => Coll;
  reduceScatterBlock: (t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op) => Coll;
  gather: (t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, root: number) => Coll;
  gatherv: (t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, counts: Counts | null, displs: Counts | null, root: number) => Coll;
  scatter: (t: CollTransport, sendBuf: Buf | null, recvBuf: Buf, root: number) => Coll;
  scatterv: (t: CollTransport, sendBuf: Buf | null, counts: Counts | null, displs: Counts | null, recvBuf: Buf, root: number) => Coll;
  scan: (t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op) => Coll;
  exscan: (t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op) => Coll;
}

/** A run's choice of algorithm for a collective: one of ALGORITHMS by name, or a user's (userAlgorithm). */
export type AlgorithmChoice = string | Algorithm;

/** A collective's name, as in `ALGORITHMS`. */
export type Collective = keyof CollectiveFns;

/** One named algorithm of a collective. */
export interface Algorithm<C extends Collective = Collective> {
  readonly name: string;
  readonly fn: CollectiveFns[C];
  /** True when it combines partial results out of rank order, so a non-commutative op is refused. */
  readonly commutativeOnly: boolean;
  readonly help: string;
}

type Table = { readonly [C in Collective]: Readonly<Record<string, Algorithm<C>>> };

function table<C extends Collective>(entries: Record<string, [CollectiveFns[C], boolean, string]>): Readonly<Record<string, Algorithm<C>>> {
  const out: Record<string, Algorithm<C>> = {};
  for (const [name, [fn, commutativeOnly, help]] of Object.entries(entries)) out[name] = Object.freeze({ name, fn, commutativeOnly, help });
  return Object.freeze(out);
}

/** reduceScatterBlock from a reduceScatter algorithm: every rank gets recvBuf.length elements. */
function block(fn: CollectiveFns['reduceScatter']): CollectiveFns['reduceScatterBlock'] {
  return (t, sendBuf, recvBuf, op) => fn(t, sendBuf, recvBuf, new Array<number>(t.size).fill(recvBuf.length), op);
}

/** Every collective's algorithms by name, with whether each needs a commutative op. */
export const ALGORITHMS: Table = Object.freeze({
  barrier: table<'barrier'>({
    dissemination: [barrierDissemination, false, 'ceil(log2 n) rounds, one message each way'],
    recursiveDoubling: [barrierRecursiveDoubling, false, 'pairwise exchanges over the largest power of two, extra ranks folded in'],
  }),
  bcast: table<'bcast'>({
    binomial: [bcastBinomial, false, 'binomial tree, whole buffer per edge'],
    scatterRecursiveDoubling: [bcastScatterRecursiveDoubling, false, 'van de Geijn: binomial scatter + recursive-doubling allgather'],
    scatterRing: [bcastScatterRing, false, 'van de Geijn: binomial scatter + ring allgather'],
    linear: [bcastLinear, false, 'the root sends to every rank'],
  }),
  reduce: table<'reduce'>({
    binomial: [reduceBinomial, false, 'binomial tree (rooted at 0 and forwarded for non-commutative ops)'],
    rabenseifner: [reduceRabenseifner, true, 'reduce-scatter by recursive halving + binomial gather'],
    linear: [reduceLinear, false, 'the root receives from every rank and combines in rank order'],
  }),
  allreduce: table<'allreduce'>({
    recursiveDoubling: [allreduceRecursiveDoubling, false, 'whole-buffer exchanges over the largest power of two'],
    rabenseifner: [allreduceRabenseifner, true, 'reduce-scatter by recursive halving + recursive-doubling allgather'],
    ring: [allreduceRing, true, 'ring reduce-scatter + ring allgather'],
    reduceBcast: [allreduceReduceBcast, false, 'binomial reduce to rank 0 + binomial broadcast'],
  }),
  allgather: table<'allgather'>({
    recursiveDoubling: [allgatherRecursiveDoubling, false, 'log2 n exchanges of doubling size, extra ranks folded in'],
    bruck: [allgatherBruck, false, 'ceil(log2 n) steps for any n, then a local rotation'],
    ring: [allgatherRing, false, 'n - 1 steps around a ring'],
  }),
  allgatherv: table<'allgatherv'>({
    recursiveDoubling: [allgathervRecursiveDoubling, false, 'recursive doubling over packed blocks, then unpacked'],
    ring: [allgathervRing, false, 'n - 1 steps around a ring'],
    linear: [allgathervLinear, false, 'every rank sends to every rank at once'],
  }),
  alltoall: table<'alltoall'>({
    bruck: [alltoallBruck, false, 'ceil(log2 n) packed messages per rank'],
    pairwise: [alltoallPairwise, false, 'n - 1 pairwise exchanges'],
    linear: [alltoallLinear, false, 'all receives and sends posted at once'],
  }),
  alltoallv: table<'alltoallv'>({
    pairwise: [alltoallvPairwise, false, 'n - 1 pairwise exchanges'],
    linear: [alltoallvLinear, false, 'all receives and sends posted at once'],
  }),
  reduceScatter: table<'reduceScatter'>({
    recursiveHalving: [reduceScatterRecursiveHalving, true, 'recursive halving, extra ranks folded in'],
    pairwise: [reduceScatterPairwise, true, 'n - 1 pairwise exchanges of one block'],
    ring: [reduceScatterRing, true, 'each block travels the ring once'],
    reduceScatterv: [reduceScatterReduceScatterv, false, 'binomial reduce to rank 0 + linear scatterv'],
  }),
  reduceScatterBlock: table<'reduceScatterBlock'>({
    recursiveHalving: [block(reduceScatterRecursiveHalving), true, 'recursive halving, extra ranks folded in'],
    pairwise: [block(reduceScatterPairwise), true, 'n - 1 pairwise exchanges of one block'],
    ring: [block(reduceScatterRing), true, 'each block travels the ring once'],
    reduceScatterv: [block(reduceScatterReduceScatterv), false, 'binomial reduce to rank 0 + linear scatterv'],
  }),
  gather: table<'gather'>({
    binomial: [gatherBinomial, false, 'binomial tree, subtrees packed'],
    linear: [gatherLinear, false, 'the root receives from every rank at once'],
  }),
  gatherv: table<'gatherv'>({
    binomial: [gathervBinomial, false, 'binomial tree, each subtree announcing its size first'],
    linear: [gathervLinear, false, 'the root receives from every rank at once'],
  }),
  scatter: table<'scatter'>({
    binomial: [scatterBinomial, false, 'binomial tree, subtrees packed'],
    linear: [scatterLinear, false, 'the root sends to every rank at once'],
  }),
  scatterv: table<'scatterv'>({
    binomial: [scattervBinomial, false, 'binomial tree, each subtree sent its counts first'],
    linear: [scattervLinear, false, 'the root sends to every rank at once'],
  }),
  scan: table<'scan'>({
    recursiveDoubling: [scanRecursiveDoubling, false, 'log2 n exchanges of partial results'],
    linear: [scanLinear, false, 'a chain from rank 0'],
  }),
  exscan: table<'exscan'>({
    recursiveDoubling: [exscanRecursiveDoubling, false, 'log2 n exchanges of partial results'],
    linear: [exscanLinear, false, 'a chain from rank 0'],
  }),
});

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
  /** MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE: linear isend/irecv up to this, pairwise above. */
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
  const T = THRESHOLDS;
  const commutative = op?.commutative ?? true;
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
      return bytes <= T.alltoallMediumBytes ? 'linear' : 'pairwise';
    case 'alltoallv':
      return 'linear';
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
  throw new MpiError('MPI_ERR_ARG', `unknown collective '${String(collective)}'; valid: ${Object.keys(ALGORITHMS).join(', ')}`);
}

/**
 * The algorithm to run: `requested` by name if given (checked), else `chooseAlgorithm`'s pick.
 * An unknown name, or one that needs a commutative op when `op` is not, fails with
 * MPI_ERR_ARG listing the valid names.
 */
export function selectAlgorithm<C extends Collective>(collective: C, size: number, bytes: number, op?: Op, requested?: AlgorithmChoice): Algorithm<C> {
  const algs = ALGORITHMS[collective] as Readonly<Record<string, Algorithm<C>>> | undefined;
  if (!algs) throw new MpiError('MPI_ERR_ARG', `unknown collective '${String(collective)}'; valid: ${Object.keys(ALGORITHMS).join(', ')}`);
  if (!Number.isInteger(size) || size < 1) throw new MpiError('MPI_ERR_ARG', `${collective}: size must be a positive integer, got ${size}`);
  if (typeof requested === 'object') {
    if (requested.commutativeOnly && op && !op.commutative) throw new MpiError('MPI_ERR_ARG', `${collective} algorithm '${requested.name}' needs a commutative op and ${op.name} is not`);
    return requested as Algorithm<C>;
  }
  const name = requested ?? chooseAlgorithm(collective, size, bytes, op);
  const alg = Object.hasOwn(algs, name) ? algs[name] : undefined;
  if (!alg) throw new MpiError('MPI_ERR_ARG', `unknown ${collective} algorithm '${name}'; valid: ${Object.keys(algs).join(', ')}`);
  if (alg.commutativeOnly && op && !op.commutative) {
    const ok = Object.values(algs).filter((a) => !a.commutativeOnly).map((a) => a.name);
    throw new MpiError('MPI_ERR_ARG', `${collective} algorithm '${name}' needs a commutative op and ${op.name} is not; valid for it: ${ok.join(', ')}`);
  }
  return alg;
}

/**
 * The name that asks for the NIC's collective engine (allreduce and barrier, on machines that
 * have one); the communicator runs it, not this library.
 */
export const CE_ALGORITHM = 'collectiveEngine';

/**
 * Checks a run's algorithm choices (`{allreduce: 'ring'}`): every key a collective, every value
 * one of its algorithms; throws MPI_ERR_ARG naming the bad one and the valid names.
 */
export function checkAlgorithms(choices: Readonly<Record<string, AlgorithmChoice>>): void {
  for (const [coll, name] of Object.entries(choices)) {
    if (typeof name === 'object') {
      if (!Object.hasOwn(ALGORITHMS, coll)) throw new MpiError('MPI_ERR_ARG', `unknown collective '${coll}'; valid: ${Object.keys(ALGORITHMS).join(', ')}`);
      if (name === null || typeof name.fn !== 'function') throw new MpiError('MPI_ERR_ARG', `${coll}: an algorithm must be a name or one made by userAlgorithm()`);
      continue;
    }
    if (name === CE_ALGORITHM && (coll === 'allreduce' || coll === 'barrier')) continue;
    const algs = Object.hasOwn(ALGORITHMS, coll) ? ALGORITHMS[coll as Collective] : undefined;
    if (!algs) throw new MpiError('MPI_ERR_ARG', `unknown collective '${coll}'; valid: ${Object.keys(ALGORITHMS).join(', ')}`);
    if (!Object.hasOwn(algs, name)) throw new MpiError('MPI_ERR_ARG', `unknown ${coll} algorithm '${name}'; valid: ${Object.keys(algs).join(', ')}`);
  }
}
