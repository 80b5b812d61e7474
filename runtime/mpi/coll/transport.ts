import type { SkeletonStore } from '../../../fabric/skeleton.ts';
import type { Request } from '../request.ts';

/**
 * What a collective algorithm yields to the library that runs it: a request to wait for, a list
 * of requests to wait for together, or CPU time to spend (ps, e.g. combining or local copies);
 * null or undefined is nothing. The library resumes the algorithm when the wait is over, with no
 * suspension of the rank in between; waits throw the first failed request's error into it.
 */
export type Step = Request | readonly Request[] | number | null | undefined;

/** A collective algorithm running on one rank: a generator of steps (see Step). */
export type Coll = Generator<Step, void, void>;

/**
 * What a collective algorithm runs over: one rank of a communicator. Ranks are communicator
 * ranks; messages travel on the communicator's collective context, and messages between a pair
 * of ranks with the same tag match in the order they were sent.
 */
export interface CollTransport {
  /** This rank in the communicator. */
  readonly rank: number;
  readonly size: number;
  /**
   * Nonblocking send of `buf` to communicator rank `dest` on the communicator's collective
   * context. `once`: the algorithm yields the request in one step and never touches it again, so
   * the library may give it back to a pool and reuse it once that step's wait is over (a
   * transport may ignore this).
   */
  isend(buf: Uint8Array, dest: number, tag: number, what: string, once?: boolean): Request;
  /** Nonblocking receive into `buf` from communicator rank `source` (never a wildcard); `once` as for isend. */
  irecv(buf: Uint8Array, source: number, tag: number, what: string, once?: boolean): Request;
  /** Processor model: elements combined per ps. */
  readonly flopsPerPs: number;
  /** Processor model: bytes copied per ps. */
  readonly copyBytesPerPs: number;
  /** CPU time (ps) per contiguous block the library packs or unpacks with a derived datatype (`mpi.packBlock`; absent: 0). */
  readonly packBlockPs?: number;
  /**
   * The node of each communicator rank (any numbering: ranks with equal values share a node's
   * memory), for node-aware algorithms; absent: every rank on a node of its own.
   */
  readonly nodes?: ArrayLike<number>;
  /** A skeleton run's store: buffers on it are moved and combined as sizes only (absent or null: a normal run). */
  readonly skeleton?: SkeletonStore | null;
}
