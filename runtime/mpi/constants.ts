import type { ReduceArray } from './ops.ts';

/** Stands for the send buffer of a collective whose data is already in its receive buffer (MPI_IN_PLACE). */
export const IN_PLACE: unique symbol = Symbol('MPI_IN_PLACE');

/** Per-call options of a collective. */
export interface CollOptions {
  /** Name of the algorithm to run (see `ALGORITHMS`); default: the run's choice, else MPICH's rules. */
  readonly algorithm?: string;
}

/** Largest tag value (MPI_TAG_UB). */
export const TAG_UB = 0x7fffffff;
/** Color of `split` for a rank that joins no new communicator (MPI_UNDEFINED, MPICH's value). */
export const UNDEFINED = -32766;

/** Per-message overhead MPI's buffered sends keep in the attached buffer (MPI_BSEND_OVERHEAD, MPICH). */
export const BSEND_OVERHEAD = 96;

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

export function isReduceArray(v: unknown): v is ReduceArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}
