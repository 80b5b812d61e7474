import type { AlgorithmSpecs } from './algorithm.ts';
import type { Request } from '../request.ts';
import { nodeLayout, subTransport } from './nodes.ts';
import type { Coll, CollTransport } from './transport.ts';
import { Fold, TAG } from './util.ts';

const EMPTY = new Uint8Array(0);

/** Dissemination barrier (Hensgen, Finkel and Manber): ceil(log2 n) rounds of one zero-byte message each way. */
export function* barrierDissemination(t: CollTransport): Coll {
  const n = t.size;
  const me = t.rank;
  for (let k = 1, round = 0; k < n; k *= 2, round++) {
    const to = (me + k) % n;
    const from = (me - k + n) % n;
    const what = `barrier(dissemination) round ${round}`;
    yield [t.irecv(EMPTY, from, TAG.barrier, `${what}: waiting for rank ${from}`), t.isend(EMPTY, to, TAG.barrier, `${what}: sending to rank ${to}`)];
  }
}

/** Recursive-doubling barrier: pairwise exchanges over the largest power of two, extra ranks folded in and out. */
export function* barrierRecursiveDoubling(t: CollTransport): Coll {
  const f = new Fold(t.rank, t.size);
  const what = 'barrier(recursive doubling)';
  const tag = TAG.barrier + 1;
  if (f.out) {
    yield [t.isend(EMPTY, f.me + 1, tag, `${what} fold-in to ${f.me + 1}`)];
    yield [t.irecv(EMPTY, f.me + 1, tag + 2, `${what} release from ${f.me + 1}`)];
    return;
  }
  if (f.absorbs) yield [t.irecv(EMPTY, f.me - 1, tag, `${what} fold-in from ${f.me - 1}`)];
  for (let mask = 1; mask < f.p2; mask <<= 1) {
    const peer = f.oldRank(f.newrank ^ mask);
    yield [t.irecv(EMPTY, peer, tag + 1, `${what} from ${peer}`), t.isend(EMPTY, peer, tag + 1, `${what} to ${peer}`)];
  }
  if (f.absorbs) yield [t.isend(EMPTY, f.me - 1, tag + 2, `${what} release to ${f.me - 1}`)];
}

/**
 * Open MPI's linear barrier (ompi_coll_base_barrier_intra_basic_linear): every rank sends a
 * zero-byte message to rank 0 and waits for its release; rank 0 releases all once every message is in.
 */
export function* barrierLinear(t: CollTransport): Coll {
  const n = t.size;
  const what = 'barrier(linear)';
  const tag = TAG.barrier + 4;
  if (t.rank !== 0) {
    yield t.isend(EMPTY, 0, tag, `${what}: entering, to rank 0`);
    yield t.irecv(EMPTY, 0, tag + 1, `${what}: waiting for the release from rank 0`);
    return;
  }
  const reqs: Request[] = [];
  for (let r = 1; r < n; r++) reqs.push(t.irecv(EMPTY, r, tag, `${what}: waiting for rank ${r}`));
  yield reqs;
  yield Array.from({ length: n - 1 }, (_, r) => t.isend(EMPTY, r + 1, tag + 1, `${what}: releasing rank ${r + 1}`));
}

/**
 * Open MPI's double ring (ompi_coll_base_barrier_intra_doublering): a zero-byte token goes
 * around the ring from rank 0 twice; a rank passes it on once it has it, so the second round
 * starts only when every rank has entered.
 */
export function* barrierDoubleRing(t: CollTransport): Coll {
  const n = t.size;
  if (n < 2) return;
  const me = t.rank;
  const left = (me - 1 + n) % n;
  const right = (me + 1) % n;
  for (let round = 0; round < 2; round++) {
    const tag = TAG.barrier + 6 + round;
    const what = `barrier(double ring) round ${round}`;
    if (me > 0) yield t.irecv(EMPTY, left, tag, `${what}: waiting for rank ${left}`);
    yield t.isend(EMPTY, right, tag, `${what}: passing to rank ${right}`);
    if (me === 0) yield t.irecv(EMPTY, left, tag, `${what}: waiting for rank ${left}`);
  }
}

/**
 * Open MPI's tree barrier (ompi_coll_base_barrier_intra_tree): a fan-in over a hypercube-like
 * tree (at distance 2^i, a rank divisible by 2^(i+1) waits for the one 2^i above it, which then
 * drops out) to rank 0, then the same tree's fan-out.
 */
export function* barrierTree(t: CollTransport): Coll {
  const n = t.size;
  const me = t.rank;
  const what = 'barrier(tree)';
  const tag = TAG.barrier + 8;
  let top = 1;
  while (top < n) top <<= 1;
  for (let jump = 1; jump < top; jump <<= 1) {
    const partner = me ^ jump;
    if (partner & (jump - 1) || partner >= n) continue;
    if (partner > me) yield t.irecv(EMPTY, partner, tag, `${what} fan-in: waiting for rank ${partner}`);
    else yield t.isend(EMPTY, partner, tag, `${what} fan-in: to rank ${partner}`);
  }
  for (let jump = top >> 1; jump > 0; jump >>= 1) {
    const partner = me ^ jump;
    if (partner & (jump - 1) || partner >= n) continue;
    if (partner > me) yield t.isend(EMPTY, partner, tag + 1, `${what} fan-out: releasing rank ${partner}`);
    else yield t.irecv(EMPTY, partner, tag + 1, `${what} fan-out: waiting for rank ${partner}`);
  }
}

/** Radix of the k-dissemination barrier (MPICH's MPIR_CVAR_BARRIER_DISSEM_KVAL sets it at run time; phit fixes 4). */
export const BARRIER_RADIX = 4;

/**
 * MPICH 4's k-dissemination barrier (MPIR_Barrier_intra_k_dissemination), radix 4: in round i
 * every rank sends to the ranks j·4^i above it and hears from the ranks j·4^i below it
 * (j = 1..3, distances below n, modulo n), ceil(log4 n) rounds of up to three messages each way.
 */
export function* barrierKnomial(t: CollTransport): Coll {
  const n = t.size;
  const me = t.rank;
  const tag = TAG.barrier + 10;
  for (let shift = 1, round = 0; shift < n; shift *= BARRIER_RADIX, round++) {
    const what = `barrier(k-dissemination) round ${round}`;
    const reqs: Request[] = [];
    for (let j = 1; j < BARRIER_RADIX && j * shift < n; j++) {
      const from = (me - j * shift + n) % n;
      const to = (me + j * shift) % n;
      reqs.push(t.irecv(EMPTY, from, tag, `${what}: waiting for rank ${from}`), t.isend(EMPTY, to, tag, `${what}: sending to rank ${to}`));
    }
    yield reqs;
  }
}

/**
 * Two-level barrier (Cray MPT's and MVAPICH2's SMP-aware barrier, MVAPICH2's
 * MPIR_Barrier_MV2 with its shared-memory phases): each node's ranks report to their leader
 * (the node's lowest rank), the leaders run the dissemination barrier among themselves, and
 * each leader releases its node's ranks.
 */
export function* barrierHierarchical(t: CollTransport): Coll {
  const layout = nodeLayout(t);
  const me = t.rank;
  const node = layout.ranks[layout.nodeIndex[me]!]!;
  const leader = node[0]!;
  const what = 'barrier(hierarchical)';
  const tag = TAG.barrier + 11;
  if (me !== leader) {
    yield t.isend(EMPTY, leader, tag, `${what}: entering, to leader ${leader}`);
    yield t.irecv(EMPTY, leader, tag + 1, `${what}: waiting for the release from leader ${leader}`);
    return;
  }
  const others = node.slice(1);
  yield others.map((r) => t.irecv(EMPTY, r, tag, `${what}: waiting for rank ${r} of the node`));
  if (layout.leaders.length > 1) yield* barrierDissemination(subTransport(t, layout.leaders));
  yield others.map((r) => t.isend(EMPTY, r, tag + 1, `${what}: releasing rank ${r} of the node`));
}

/** The barrier's algorithms. */
export const BARRIER: AlgorithmSpecs<'barrier'> = {
  dissemination: { fn: barrierDissemination, origin: 'MPICH', cost: 'ceil(lg p)·α', help: 'ceil(log2 n) rounds, one message each way' },
  recursiveDoubling: { fn: barrierRecursiveDoubling, origin: 'Open MPI', cost: '(floor(lg p) + 2)·α', help: 'pairwise exchanges over the largest power of two, extra ranks folded in' },
  linear: { fn: barrierLinear, origin: 'Open MPI', cost: '2·(p-1)·α', help: 'every rank to rank 0, which then releases every rank' },
  doubleRing: { fn: barrierDoubleRing, origin: 'Open MPI', cost: '2·p·α', help: 'a token twice around the ring' },
  tree: { fn: barrierTree, origin: 'Open MPI', cost: '2·ceil(lg p)·α', help: 'fan-in to rank 0 and fan-out over a hypercube-like tree' },
  knomial: { fn: barrierKnomial, origin: 'MPICH', cost: 'ceil(log4 p)·3α', help: 'k-dissemination of radix 4: up to three messages each way per round' },
  hierarchical: { fn: barrierHierarchical, origin: 'Cray MPT', cost: '(ceil(lg P) + 2)·α', help: 'node ranks report to their leader, leaders run the dissemination barrier, leaders release their node' },
};
