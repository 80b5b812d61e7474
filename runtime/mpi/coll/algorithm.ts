import type { Op } from '../ops.ts';
import type { Coll, CollTransport } from './transport.ts';
import type { Buf } from './util.ts';

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

/** A collective's name, as in `ALGORITHMS`. */
export type Collective = keyof CollectiveFns;

/**
 * The library an algorithm comes from, as its published sources name it: MPICH (src/mpi/coll),
 * Open MPI (ompi/mca/coll/base and tuned), MVAPICH2 (src/mpi/coll, the *_MV2 functions), Cray MPT
 * (MPICH with Cray's own node-aware forms), phit where no library ships the form, or a user's
 * file (`userAlgorithm`).
 */
export type Origin = 'MPICH' | 'Open MPI' | 'MVAPICH2' | 'Cray MPT' | 'phit' | 'user';

/**
 * How an algorithm is written down in a collective's table. `cost` is its time in the Hockney
 * model: α the latency per message, β the time per byte, γ the time per byte combined, n the
 * bytes of the collective's buffer (as `chooseAlgorithm` counts them), p the ranks, P the nodes
 * (node-aware forms), s the segment size (segmented forms), lg the base-2 logarithm.
 */
export interface AlgorithmSpec<C extends Collective = Collective> {
  readonly fn: CollectiveFns[C];
  /** True when it combines partial results out of rank order, so a non-commutative op is refused. */
  readonly commutativeOnly?: boolean;
  readonly origin: Origin;
  readonly cost: string;
  readonly help: string;
}

/** A collective's algorithms by name, as its file declares them. */
export type AlgorithmSpecs<C extends Collective> = Readonly<Record<string, AlgorithmSpec<C>>>;

/** One named algorithm of a collective. */
export interface Algorithm<C extends Collective = Collective> {
  readonly name: string;
  readonly fn: CollectiveFns[C];
  /** True when it combines partial results out of rank order, so a non-commutative op is refused. */
  readonly commutativeOnly: boolean;
  readonly origin: Origin;
  readonly cost: string;
  readonly help: string;
}

/** A collective's algorithms, named and frozen. */
export function table<C extends Collective>(specs: AlgorithmSpecs<C>): Readonly<Record<string, Algorithm<C>>> {
  const out: Record<string, Algorithm<C>> = {};
  for (const [name, s] of Object.entries(specs)) {
    out[name] = Object.freeze({ name, fn: s.fn, commutativeOnly: s.commutativeOnly ?? false, origin: s.origin, cost: s.cost, help: s.help });
  }
  return Object.freeze(out);
}
