import type { AlgorithmSpecs } from './algorithm.ts';
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

/** The barrier's algorithms. */
export const BARRIER: AlgorithmSpecs<'barrier'> = {
  dissemination: { fn: barrierDissemination, origin: 'MPICH', cost: 'ceil(lg p)·α', help: 'ceil(log2 n) rounds, one message each way' },
  recursiveDoubling: { fn: barrierRecursiveDoubling, origin: 'Open MPI', cost: '(floor(lg p) + 2)·α', help: 'pairwise exchanges over the largest power of two, extra ranks folded in' },
};
