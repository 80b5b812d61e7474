import type { Op } from '../ops.ts';
import { MpiError } from '../request.ts';
import { table, type Algorithm, type AlgorithmSpecs, type Collective } from './algorithm.ts';
import { ALLGATHER, ALLGATHERV } from './allgather.ts';
import { ALLREDUCE } from './allreduce.ts';
import { ALLTOALL, ALLTOALLV } from './alltoall.ts';
import { BARRIER } from './barrier.ts';
import { BCAST } from './bcast.ts';
import { GATHER, GATHERV } from './gather.ts';
import { REDUCE } from './reduce.ts';
import { REDUCE_SCATTER } from './reduce-scatter.ts';
import { SCATTER, SCATTERV } from './scatter.ts';
import { EXSCAN, SCAN } from './scan.ts';
import { query, SELECTORS, type Selector } from './selectors.ts';

export type { Algorithm, AlgorithmSpec, AlgorithmSpecs, Collective, CollectiveFns, Origin } from './algorithm.ts';
export type { Coll, CollTransport, Step } from './transport.ts';
export type { Buf } from './util.ts';
export { chooseAlgorithm, THRESHOLDS } from './selector-mpich.ts';
export { query, SELECTOR_NAMES, selectorOf, SELECTORS, type Selector, type SelectorName, type SelectorQuery } from './selectors.ts';

/** A run's choice of algorithm for a collective: one of ALGORITHMS by name, or a user's (userAlgorithm). */
export type AlgorithmChoice = string | Algorithm;

type Table = { readonly [C in Collective]: Readonly<Record<string, Algorithm<C>>> };

/** reduceScatterBlock's algorithms from reduceScatter's: every rank gets recvBuf.length elements. */
function blockForms(specs: AlgorithmSpecs<'reduceScatter'>): AlgorithmSpecs<'reduceScatterBlock'> {
  const out: Record<string, AlgorithmSpecs<'reduceScatterBlock'>[string]> = {};
  for (const [name, s] of Object.entries(specs)) {
    const fn = s.fn;
    out[name] = { ...s, fn: (t, sendBuf, recvBuf, op) => fn(t, sendBuf, recvBuf, new Array<number>(t.size).fill(recvBuf.length), op) };
  }
  return out;
}

/** Every collective's algorithms by name, with their origin, cost and whether each needs a commutative op. */
export const ALGORITHMS: Table = Object.freeze({
  barrier: table(BARRIER),
  bcast: table(BCAST),
  reduce: table(REDUCE),
  allreduce: table(ALLREDUCE),
  allgather: table(ALLGATHER),
  allgatherv: table(ALLGATHERV),
  alltoall: table(ALLTOALL),
  alltoallv: table(ALLTOALLV),
  reduceScatter: table(REDUCE_SCATTER),
  reduceScatterBlock: table(blockForms(REDUCE_SCATTER)),
  gather: table(GATHER),
  gatherv: table(GATHERV),
  scatter: table(SCATTER),
  scatterv: table(SCATTERV),
  scan: table(SCAN),
  exscan: table(EXSCAN),
});

/** Who chooses when no algorithm is named: a library's selector (default MPICH's) and how the ranks sit on nodes. */
export interface SelectionContext {
  readonly selector?: Selector;
  /** Nodes the communicator spans (default: one rank per node). */
  readonly nodes?: number;
  /** Most of its ranks on one node (default 1). */
  readonly ppn?: number;
  /** Elements of a reduction's buffer, where a library's rule counts them (default: bytes / 8). */
  readonly count?: number;
}

/**
 * The algorithm to run: `requested` by name if given (checked), else the selector's pick (MPICH's,
 * `chooseAlgorithm`, unless `ctx` names another). An unknown name, or one that needs a
 * commutative op when `op` is not, fails with MPI_ERR_ARG listing the valid names. `count` (by
 * default the context's) is the elements of a reduction's buffer.
 */
export function selectAlgorithm<C extends Collective>(collective: C, size: number, bytes: number, op?: Op, requested?: AlgorithmChoice, ctx?: SelectionContext, count = ctx?.count): Algorithm<C> {
  const algs = ALGORITHMS[collective] as Readonly<Record<string, Algorithm<C>>> | undefined;
  if (!algs) throw new MpiError('MPI_ERR_ARG', `unknown collective '${String(collective)}'; valid: ${Object.keys(ALGORITHMS).join(', ')}`);
  if (!Number.isInteger(size) || size < 1) throw new MpiError('MPI_ERR_ARG', `${collective}: size must be a positive integer, got ${size}`);
  if (typeof requested === 'object') {
    if (requested.commutativeOnly && op && !op.commutative) throw new MpiError('MPI_ERR_ARG', `${collective} algorithm '${requested.name}' needs a commutative op and ${op.name} is not`);
    return requested as Algorithm<C>;
  }
  const name = requested ?? (ctx?.selector ?? SELECTORS.mpich).choose(query(collective, size, bytes, op?.commutative ?? true, ctx?.nodes ?? size, ctx?.ppn ?? 1, count));
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
