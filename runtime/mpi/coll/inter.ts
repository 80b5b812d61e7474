/**
 * Collectives on an intercommunicator, as MPICH runs them (src/mpi/coll/*\/*_inter_*.c): each
 * is made of intracommunicator collectives of the local group (the algorithms of this library,
 * on the group's own context) and point-to-point messages to the remote group, mostly between
 * rank 0 of each group. Root arguments follow MPI: `ROOT` at the root, `PROC_NULL` at the other
 * ranks of its group, the root's rank in the remote group everywhere in the other group.
 */
import { PROC_NULL, ROOT } from '../message.ts';
import type { Op } from '../ops.ts';
import type { Request } from '../request.ts';
import type { CollectiveFns, Collective } from './index.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, chargeCopy, prefix, recv, send, setAt, TAG, type Buf } from './util.ts';

type Counts = ArrayLike<number>;

/** What an intercommunicator collective runs over. */
export interface InterTransport {
  /** The local group as an intracommunicator of its own. */
  readonly local: CollTransport;
  /**
   * The remote group: `isend`/`irecv` address its ranks, on the intercommunicator's collective
   * context; `rank` is this rank in the local group, `size` the remote group's.
   */
  readonly remote: CollTransport;
  /** True in the low group, whose rank 0 has the lower world rank (MPICH's `is_low_group`). */
  readonly low: boolean;
  /** The algorithm a phase on the local group runs (for `bytes`, as `chooseAlgorithm` counts them). */
  pick<C extends Collective>(coll: C, bytes: number, op?: Op): CollectiveFns[C];
}

/** The names of the intercommunicator algorithms, by collective (after MPICH's). */
export const INTER_ALGORITHMS = {
  barrier: 'localBarrierBcasts',
  bcast: 'remoteSendLocalBcast',
  reduce: 'localReduceRemoteSend',
  allreduce: 'reduceExchangeBcast',
  allgather: 'localGatherRemoteBcast',
  allgatherv: 'remoteGatherLocalBcast',
  alltoall: 'pairwiseExchange',
  alltoallv: 'pairwiseExchange',
  gather: 'localGatherRemoteSend',
  gatherv: 'linear',
  scatter: 'remoteSendLocalScatter',
  scatterv: 'linear',
  reduceScatter: 'remoteReduceLocalScatter',
  reduceScatterBlock: 'remoteReduceLocalScatter',
  intercommMerge: 'leaderExchange',
  create: 'leaderExchange',
} as const;

/** Intercommunicator barrier: a local barrier, then a one-byte broadcast each way between the groups, the low group's first. */
export function* interBarrier(x: InterTransport): Coll {
  yield* x.pick('barrier', 0)(x.local);
  const one = new Uint8Array(1);
  const mine = x.local.rank === 0 ? ROOT : PROC_NULL;
  if (x.low) {
    yield* interBcast(x, one, mine);
    yield* interBcast(x, one, 0);
  } else {
    yield* interBcast(x, one, 0);
    yield* interBcast(x, one, mine);
  }
}

/** Intercommunicator broadcast: the root sends to rank 0 of the other group, which broadcasts in its group. */
export function* interBcast(x: InterTransport, buf: Buf, root: number): Coll {
  if (root === PROC_NULL) return;
  const what = 'bcast(intercommunicator)';
  if (root === ROOT) {
    yield send(x.remote, buf, 0, buf.length, 0, TAG.bcast, what);
    return;
  }
  if (x.local.rank === 0) yield recv(x.remote, buf, 0, buf.length, root, TAG.bcast, what);
  yield* x.pick('bcast', buf.byteLength)(x.local, buf, 0);
}

/** Intercommunicator reduce: the other group reduces to its rank 0, which sends the result to the root. */
export function* interReduce(x: InterTransport, sendBuf: Buf | null, recvBuf: Buf | null, op: Op, root: number): Coll {
  if (root === PROC_NULL) return;
  const what = 'reduce(intercommunicator)';
  if (root === ROOT) {
    yield recv(x.remote, recvBuf!, 0, recvBuf!.length, 0, TAG.reduce, what);
    return;
  }
  const leader = x.local.rank === 0;
  const tmp = leader ? alloc(x.local, sendBuf!, sendBuf!.length) : null;
  yield* x.pick('reduce', sendBuf!.byteLength, op)(x.local, sendBuf!, tmp, op, 0);
  if (leader) yield send(x.remote, tmp!, 0, tmp!.length, root, TAG.reduce, what);
}

/** Intercommunicator allreduce: each group reduces to its rank 0, the two swap results, and each broadcasts what it got. */
export function* interAllreduce(x: InterTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const leader = x.local.rank === 0;
  const tmp = leader ? alloc(x.local, sendBuf, sendBuf.length) : null;
  yield* x.pick('reduce', sendBuf.byteLength, op)(x.local, sendBuf, tmp, op, 0);
  yield* interExchange(x, tmp, recvBuf);
}

/** Rank 0 of each group swaps its `mine` for the other's, into `theirs`, which it broadcasts in its group (`mine` matters at rank 0 only). */
export function* interExchange(x: InterTransport, mine: Buf | null, theirs: Buf): Coll {
  const what = 'exchange(intercommunicator)';
  if (x.local.rank === 0) yield [recv(x.remote, theirs, 0, theirs.length, 0, TAG.allreduce, what), send(x.remote, mine!, 0, mine!.length, 0, TAG.allreduce, what)];
  yield* x.pick('bcast', theirs.byteLength)(x.local, theirs, 0);
}

/** Intercommunicator allgather: each group gathers on its rank 0, which broadcasts the group's blocks to the other group (the low group's first). */
export function* interAllgather(x: InterTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const leader = x.local.rank === 0;
  const n = x.local.size;
  const tmp = leader ? alloc(x.local, sendBuf, sendBuf.length * n) : null;
  yield* x.pick('gather', sendBuf.byteLength * n)(x.local, sendBuf, tmp, 0);
  const mine = leader ? ROOT : PROC_NULL;
  if (x.low) {
    yield* interBcast(x, tmp ?? sendBuf, mine);
    yield* interBcast(x, recvBuf, 0);
  } else {
    yield* interBcast(x, recvBuf, 0);
    yield* interBcast(x, tmp ?? sendBuf, mine);
  }
}

/**
 * Intercommunicator allgatherv: rank 0 of each group gathers the other group's blocks (a linear
 * intercommunicator gatherv each way, the low group's first) and broadcasts them in its group,
 * packed into one buffer (MPICH broadcasts them with an indexed datatype).
 */
export function* interAllgatherv(x: InterTransport, sendBuf: Buf, recvBuf: Buf, counts: Counts, displs: Counts): Coll {
  const leader = x.local.rank === 0;
  const mine = leader ? ROOT : PROC_NULL;
  if (x.low) {
    yield* interGatherv(x, sendBuf, recvBuf, counts, displs, mine);
    yield* interGatherv(x, sendBuf, null, null, null, 0);
  } else {
    yield* interGatherv(x, sendBuf, null, null, null, 0);
    yield* interGatherv(x, sendBuf, recvBuf, counts, displs, mine);
  }
  const at = prefix(counts);
  const total = at[counts.length]!;
  const packed = alloc(x.local, recvBuf, total);
  if (leader) {
    for (let r = 0; r < counts.length; r++) setAt(x.local, packed, recvBuf.subarray(displs[r]!, displs[r]! + counts[r]!), at[r]!);
    yield chargeCopy(x.local, recvBuf, total);
  }
  yield* x.pick('bcast', packed.byteLength)(x.local, packed, 0);
  if (!leader) {
    for (let r = 0; r < counts.length; r++) setAt(x.local, recvBuf, packed.subarray(at[r]!, at[r + 1]!), displs[r]!);
    yield chargeCopy(x.local, recvBuf, total);
  }
}

/**
 * Intercommunicator alltoall: max(local, remote size) steps; at step i rank r sends its block
 * for remote rank r + i and receives from remote rank r - i (modulo that number), skipping
 * ranks the remote group does not have.
 */
export function* interAlltoall(x: InterTransport, sendBuf: Buf, recvBuf: Buf): Coll {
  const m = x.remote.size;
  const ks = sendBuf.length / m;
  const kr = recvBuf.length / m;
  yield* pairwise(x, sendBuf, (r) => r * ks, () => ks, recvBuf, (r) => r * kr, () => kr, 'alltoall(intercommunicator)', TAG.alltoall);
}

/** Intercommunicator alltoallv: the pairwise exchange of alltoall with each pair's counts and displacements. */
export function* interAlltoallv(x: InterTransport, sendBuf: Buf, sendCounts: Counts, sendDispls: Counts, recvBuf: Buf, recvCounts: Counts, recvDispls: Counts): Coll {
  yield* pairwise(x, sendBuf, (r) => sendDispls[r]!, (r) => sendCounts[r]!, recvBuf, (r) => recvDispls[r]!, (r) => recvCounts[r]!, 'alltoallv(intercommunicator)', TAG.alltoallv);
}

function* pairwise(x: InterTransport, sendBuf: Buf, sat: (r: number) => number, slen: (r: number) => number, recvBuf: Buf, rat: (r: number) => number, rlen: (r: number) => number, what: string, tag: number): Coll {
  const m = x.remote.size;
  const n = Math.max(x.local.size, m);
  const me = x.local.rank;
  for (let i = 0; i < n; i++) {
    const src = (me - i + n) % n;
    const dst = (me + i) % n;
    const reqs: Request[] = [];
    if (src < m) reqs.push(recv(x.remote, recvBuf, rat(src), rlen(src), src, tag, what));
    if (dst < m) reqs.push(send(x.remote, sendBuf, sat(dst), slen(dst), dst, tag, what));
    yield reqs;
  }
}

/** Intercommunicator gather: the other group gathers on its rank 0, which sends all its blocks to the root in one message. */
export function* interGather(x: InterTransport, sendBuf: Buf | null, recvBuf: Buf | null, root: number): Coll {
  if (root === PROC_NULL) return;
  const what = 'gather(intercommunicator)';
  if (root === ROOT) {
    yield recv(x.remote, recvBuf!, 0, recvBuf!.length, 0, TAG.gather, what);
    return;
  }
  const leader = x.local.rank === 0;
  const n = x.local.size;
  const tmp = leader ? alloc(x.local, sendBuf!, sendBuf!.length * n) : null;
  yield* x.pick('gather', sendBuf!.byteLength * n)(x.local, sendBuf!, tmp, 0);
  if (leader) yield send(x.remote, tmp!, 0, tmp!.length, root, TAG.gather, what);
}

/** Intercommunicator gatherv: the root receives from every rank of the other group at once. */
export function* interGatherv(x: InterTransport, sendBuf: Buf | null, recvBuf: Buf | null, counts: Counts | null, displs: Counts | null, root: number): Coll {
  if (root === PROC_NULL) return;
  const what = 'gatherv(intercommunicator)';
  if (root !== ROOT) {
    if (sendBuf!.length > 0) yield send(x.remote, sendBuf!, 0, sendBuf!.length, root, TAG.gatherv, what);
    return;
  }
  const reqs: Request[] = [];
  for (let r = 0; r < x.remote.size; r++) if (counts![r]! > 0) reqs.push(recv(x.remote, recvBuf!, displs![r]!, counts![r]!, r, TAG.gatherv, what));
  yield reqs;
}

/** Intercommunicator scatter: the root sends every block to rank 0 of the other group, which scatters them in its group. */
export function* interScatter(x: InterTransport, sendBuf: Buf | null, recvBuf: Buf | null, root: number): Coll {
  if (root === PROC_NULL) return;
  const what = 'scatter(intercommunicator)';
  if (root === ROOT) {
    yield send(x.remote, sendBuf!, 0, sendBuf!.length, 0, TAG.scatter, what);
    return;
  }
  const leader = x.local.rank === 0;
  const n = x.local.size;
  const tmp = leader ? alloc(x.local, recvBuf!, recvBuf!.length * n) : null;
  if (leader) yield recv(x.remote, tmp!, 0, tmp!.length, root, TAG.scatter, what);
  yield* x.pick('scatter', recvBuf!.byteLength * n)(x.local, tmp, recvBuf!, 0);
}

/** Intercommunicator scatterv: the root sends every rank of the other group its block at once. */
export function* interScatterv(x: InterTransport, sendBuf: Buf | null, counts: Counts | null, displs: Counts | null, recvBuf: Buf | null, root: number): Coll {
  if (root === PROC_NULL) return;
  const what = 'scatterv(intercommunicator)';
  if (root !== ROOT) {
    if (recvBuf!.length > 0) yield recv(x.remote, recvBuf!, 0, recvBuf!.length, root, TAG.scatterv, what);
    return;
  }
  const reqs: Request[] = [];
  for (let r = 0; r < x.remote.size; r++) if (counts![r]! > 0) reqs.push(send(x.remote, sendBuf!, displs![r]!, counts![r]!, r, TAG.scatterv, what));
  yield reqs;
}

/**
 * Intercommunicator reduce-scatter: the other group's data is reduced to this group's rank 0
 * (an intercommunicator reduce each way, the low group's first), which scatters the blocks of
 * `recvCounts` in its group.
 */
export function* interReduceScatter(x: InterTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: Counts, op: Op): Coll {
  const leader = x.local.rank === 0;
  const at = prefix(recvCounts);
  const total = at[recvCounts.length]!;
  const tmp = leader ? alloc(x.local, sendBuf, total) : null;
  const mine = leader ? ROOT : PROC_NULL;
  if (x.low) {
    yield* interReduce(x, null, tmp, op, mine);
    yield* interReduce(x, sendBuf, null, op, 0);
  } else {
    yield* interReduce(x, sendBuf, null, op, 0);
    yield* interReduce(x, null, tmp, op, mine);
  }
  const mineCount = recvCounts[x.local.rank]!;
  yield* x.pick('scatterv', 0)(x.local, tmp, recvCounts, at, recvBuf.subarray(0, mineCount) as Buf, 0);
}

/** Intercommunicator reduce-scatter with `recvBuf.length` elements per rank. */
export function* interReduceScatterBlock(x: InterTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  yield* interReduceScatter(x, sendBuf, recvBuf, new Array<number>(x.local.size).fill(recvBuf.length), op);
}
