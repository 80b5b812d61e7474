import type { Request } from '../request.ts';

/**
 * What a collective algorithm runs over: one rank of a communicator. Ranks are communicator
 * ranks; messages travel on the communicator's collective context, and messages between a pair
 * of ranks with the same tag match in the order they were sent.
 */
export interface CollTransport {
  /** This rank in the communicator. */
  readonly rank: number;
  readonly size: number;
  /** Nonblocking send of `buf` to communicator rank `dest` on the communicator's collective context. */
  isend(buf: Uint8Array, dest: number, tag: number, what: string): Request;
  /** Nonblocking receive into `buf` from communicator rank `source` (never a wildcard). */
  irecv(buf: Uint8Array, source: number, tag: number, what: string): Request;
  /** Spends this rank's CPU time (ps), e.g. for combining or local copies. */
  cpu(ps: number, what: string): Promise<void>;
  /** Processor model: elements combined per ps. */
  readonly flopsPerPs: number;
  /** Processor model: bytes copied per ps. */
  readonly copyBytesPerPs: number;
}
