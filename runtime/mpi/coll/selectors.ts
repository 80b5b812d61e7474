import { COLL_SELECTORS } from '../../../fabric/machines/coll-selector.ts';
import { MpiError } from '../request.ts';
import type { Collective } from './algorithm.ts';
import { CRAY } from './selector-cray.ts';
import { mpichRule } from './selector-mpich.ts';
import { MVAPICH2 } from './selector-mvapich2.ts';
import { OMPI } from './selector-ompi.ts';

/**
 * What a library's decision rules look at when no algorithm is named: the collective, the
 * communicator's ranks, the bytes as `chooseAlgorithm` counts them (the buffer for bcast, reduce,
 * allreduce, scan; the whole gathered result for allgather(v), gather and scatter; one block to
 * one rank for alltoall; the whole input for reduceScatter(Block)), whether the op commutes, and
 * how the ranks sit on nodes (node-aware libraries: MVAPICH2, Cray MPT).
 */
export interface SelectorQuery {
  readonly collective: Collective;
  readonly size: number;
  readonly bytes: number;
  readonly commutative: boolean;
  /** Nodes the communicator spans (default: one rank per node, `size`). */
  readonly nodes: number;
  /** Most ranks of the communicator on one node (default 1). */
  readonly ppn: number;
  /** Elements of a reduction's buffer, where a rule counts them (Open MPI's allreduce); default bytes / 8. */
  readonly count?: number;
}

/** One MPI library's automatic choice of collective algorithms. */
export interface Selector {
  readonly name: SelectorName;
  /** The library and version whose rules these are, and the source files they come from. */
  readonly source: string;
  /** The algorithm's name the library would run (never one needing a commutative op for one that is not). */
  choose(q: SelectorQuery): string;
  /**
   * Whether an allreduce (`bytes` its buffer) or a barrier takes MPICH's SMP-aware path
   * (node-collectives.ts) when the machine enables it and no algorithm is named: the library
   * combines within each node first and runs its own choice among the node leaders.
   */
  smpPath(collective: 'allreduce' | 'barrier', bytes: number): boolean;
}

/** The selectors by name, as `--coll-selector` and `mpi.collSelector` take them. */
export const SELECTOR_NAMES = COLL_SELECTORS;

/** A selector's name. */
export type SelectorName = (typeof SELECTOR_NAMES)[number];

/** MPICH 3.x (selector-mpich.ts), with its SMP collectives for allreduce and barrier. */
const MPICH: Selector = Object.freeze({
  name: 'mpich',
  source: 'MPICH 3.x src/mpi/coll/*.c and their MPIR_CVAR_* defaults (selector-mpich.ts)',
  choose: (q: SelectorQuery) => mpichRule(q.collective, q.size, q.bytes, q.commutative),
  smpPath: () => true,
});

/** Every selector by name. */
export const SELECTORS: Readonly<Record<SelectorName, Selector>> = Object.freeze({ mpich: MPICH, ompi: OMPI, mvapich2: MVAPICH2, cray: CRAY });

/** The selector named `name`; an unknown name fails with one line listing the valid ones. */
export function selectorOf(name: string): Selector {
  if (!Object.hasOwn(SELECTORS, name)) throw new MpiError('MPI_ERR_ARG', `unknown collective selector '${name}'; valid: ${SELECTOR_NAMES.join(', ')}`);
  return SELECTORS[name as SelectorName];
}

/** A query with the defaults filled in: one rank per node unless told; `count` only when given. */
export function query(collective: Collective, size: number, bytes: number, commutative: boolean, nodes = size, ppn = 1, count?: number): SelectorQuery {
  return count === undefined ? { collective, size, bytes, commutative, nodes, ppn } : { collective, size, bytes, commutative, nodes, ppn, count };
}
