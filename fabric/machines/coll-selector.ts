import type { ParamDef } from './spec.ts';

/**
 * The MPI libraries whose automatic choice of collective algorithms phit reproduces
 * (runtime/mpi/coll/selectors.ts): MPICH, Open MPI (its `tuned` fixed rules), MVAPICH2 and
 * Cray MPT.
 */
export const COLL_SELECTORS = ['mpich', 'ompi', 'mvapich2', 'cray'] as const;

/** The `mpi.collSelector` parameter of a preset: the library whose rules choose, and why. */
export function collSelectorParam(value: (typeof COLL_SELECTORS)[number], source: string): Record<string, ParamDef> {
  return {
    'mpi.collSelector': { value, help: `whose rules choose a collective's algorithm when none is named: ${COLL_SELECTORS.join(', ')} (--coll-selector)`, source },
  };
}
