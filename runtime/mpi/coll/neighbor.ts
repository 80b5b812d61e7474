import { PROC_NULL } from '../message.ts';
import type { Request } from '../request.ts';
import type { Coll, CollTransport, Step } from './transport.ts';
import { TAG } from './util.ts';

/** The blocks one rank exchanges with its neighbours: what goes to dests[j], what comes from sources[i]. */
export interface NeighborBlocks {
  readonly sources: readonly number[];
  readonly dests: readonly number[];
  /** Bytes to send to dests[j]. */
  send(j: number): Uint8Array;
  /** Where the block from sources[i] lands. */
  recv(i: number): Uint8Array;
  /**
   * The receiver's slot that dests[j] files this rank's block under, when the topology says
   * (a Cartesian grid: the block sent down a dimension arrives from above there); null: blocks
   * between a pair match in order, as MPICH does for graphs.
   */
  readonly slotAtDest: ((j: number) => number) | null;
}

/**
 * A neighbourhood collective (MPI_Neighbor_allgather/alltoall and their v and w forms): every
 * receive from a source is posted, then every send to a destination, and the rank waits for
 * all of them (MPICH's algorithm). PROC_NULL neighbours are skipped.
 */
export function* neighborExchange(t: CollTransport, b: NeighborBlocks, what: string): Coll {
  yield* neighborReceives(t, b, what);
}

/** neighborExchange, returning the completed receive of each source (null for PROC_NULL) for their statuses. */
export function* neighborReceives(t: CollTransport, b: NeighborBlocks, what: string): Generator<Step, (Request | null)[], void> {
  const slotted = b.slotAtDest !== null && b.sources.length <= 16;
  const reqs: Request[] = [];
  const received: (Request | null)[] = [];
  for (let i = 0; i < b.sources.length; i++) {
    const s = b.sources[i]!;
    const r = s === PROC_NULL ? null : t.irecv(b.recv(i), s, TAG.neighbor + (slotted ? i : 0), `${what} from ${s}`);
    received.push(r);
    if (r) reqs.push(r);
  }
  for (let j = 0; j < b.dests.length; j++) {
    const d = b.dests[j]!;
    if (d !== PROC_NULL) reqs.push(t.isend(b.send(j), d, TAG.neighbor + (slotted ? b.slotAtDest!(j) : 0), `${what} to ${d}`));
  }
  if (reqs.length > 0) yield reqs;
  return received;
}
