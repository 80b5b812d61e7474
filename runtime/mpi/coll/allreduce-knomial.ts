/**
 * Radix-k allreduces of MPICH 4: recursive multiplying (src/mpi/coll/allreduce/
 * allreduce_intra_recursive_multiplying.c, MPIR_Allreduce_intra_recursive_multiplying) and the
 * k-nomial tree (allreduce_intra_tree.c, MPIR_Allreduce_intra_tree with a knomial_1 tree).
 */
import type { AlgorithmSpecs } from './algorithm.ts';
import type { Op } from '../ops.ts';
import type { Request } from '../request.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, combine, copy, recv, send, TAG, type Buf } from './util.ts';

/**
 * The radix of both forms: MPICH 4's MPIR_CVAR_ALLREDUCE_RECURSIVE_MULTIPLYING_KVAL and
 * MPIR_CVAR_ALLREDUCE_TREE_KVAL are tuning knobs; phit runs them at 4, the radix MPICH's
 * tuning files pick for these algorithms on many-core nodes.
 */
export const ALLREDUCE_RADIX = 4;

/**
 * The ranks of a communicator of `n` folded onto pk, the largest power of `k` not above n: the
 * first ranks form groups of up to k contiguous ranks whose last rank takes in the others' data
 * and acts for the group, every other rank is a group of its own. Groups are contiguous runs of
 * ranks in rank order, so combining the groups' data in group order keeps rank order.
 */
export class KFold {
  readonly pk: number;
  /** The first rank of each group; `starts[pk]` is n. */
  readonly starts: readonly number[];
  /** This rank's group. */
  readonly group: number;
  constructor(
    readonly me: number,
    readonly n: number,
    readonly k: number,
  ) {
    let pk = 1;
    while (pk * k <= n) pk *= k;
    this.pk = pk;
    const extra = n - pk;
    const starts: number[] = [];
    let at = 0;
    let left = extra;
    for (let g = 0; g < pk; g++) {
      starts.push(at);
      const take = Math.min(left, k - 1);
      left -= take;
      at += 1 + take;
    }
    starts.push(n);
    this.starts = starts;
    let g = 0;
    while (starts[g + 1]! <= me) g++;
    this.group = g;
  }
  /** The rank that acts for group `g` (its last). */
  rep(g: number): number {
    return this.starts[g + 1]! - 1;
  }
  /** True when this rank acts for its group. */
  get acts(): boolean {
    return this.rep(this.group) === this.me;
  }
}

/**
 * Recursive multiplying: the ranks fold onto the largest power of k (each group's last rank
 * combines the group's data in rank order), then log_k rounds in which each acting rank swaps
 * its whole buffer with the k - 1 others of its group of k at distance 1, k, k^2, ... and
 * combines the k buffers in rank order, then the acting ranks hand the result back. MPICH 4
 * (allreduce_intra_recursive_multiplying.c); the groups are contiguous here so that the form
 * keeps rank order and takes non-commutative ops too.
 */
export function* allreduceRecursiveMultiplying(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const k = ALLREDUCE_RADIX;
  const count = sendBuf.length;
  const what = `allreduce(recursive multiplying, ${op.name})`;
  const tag = TAG.allreduce + 11;
  const acc = recvBuf.subarray(0, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const f = new KFold(t.rank, t.size, k);
  const first = f.starts[f.group]!;
  const rep = f.rep(f.group);
  if (!f.acts) {
    yield send(t, acc, 0, count, rep, tag, what);
    yield recv(t, acc, 0, count, rep, tag + 2, what);
    return;
  }
  const tmp: Buf[] = [];
  for (let i = 0; i < k - 1; i++) tmp.push(alloc(t, sendBuf, count));
  if (rep > first) {
    // the group's lower ranks, in rank order: acc = r0 ∘ r1 ∘ ... ∘ acc
    yield Array.from({ length: rep - first }, (_, i) => recv(t, tmp[i]!, 0, count, first + i, tag, what));
    for (let i = rep - first - 1; i >= 0; i--) yield combine(t, op, acc, tmp[i]!, true);
  }
  const g = f.group;
  for (let m = 1; m < f.pk; m *= k) {
    const digit = Math.floor(g / m) % k;
    const base = g - digit * m;
    const reqs: Request[] = [];
    const from: number[] = [];
    for (let d = 0; d < k; d++) {
      if (d === digit) continue;
      const peer = f.rep(base + d * m);
      reqs.push(recv(t, tmp[from.length]!, 0, count, peer, tag + 1, what));
      from.push(d);
    }
    for (let d = 0; d < k; d++) if (d !== digit) reqs.push(send(t, acc, 0, count, f.rep(base + d * m), tag + 1, what));
    yield reqs;
    // lower groups from the nearest down, then higher ones upwards
    for (let i = from.length - 1; i >= 0; i--) if (from[i]! < digit) yield combine(t, op, acc, tmp[i]!, true);
    for (let i = 0; i < from.length; i++) if (from[i]! > digit) yield combine(t, op, acc, tmp[i]!, false);
  }
  if (rep > first) yield Array.from({ length: rep - first }, (_, i) => send(t, acc, 0, count, first + i, tag + 2, what));
}

/**
 * The k-nomial tree rooted at rank 0: rank r's parent clears r's lowest non-zero base-k digit;
 * its children are r + j·m for j = 1..k-1 and every power m of k below that digit's place. Each
 * child's subtree is a contiguous run of ranks above r, in the children's rank order.
 */
function knomialChildren(r: number, n: number, k: number): { parent: number; children: number[] } {
  let m = 1;
  while (m < n && r % (m * k) === 0) m *= k;
  const parent = r === 0 ? -1 : r - (Math.floor(r / m) % k) * m;
  const top = r === 0 ? n : m;
  const children: number[] = [];
  for (let s = 1; s < top; s *= k) for (let j = 1; j < k; j++) if (r + j * s < n) children.push(r + j * s);
  return { parent, children };
}

/**
 * Tree allreduce: a k-nomial reduce to rank 0 (each rank posts receives from all its children at
 * once and combines their results in rank order) and a k-nomial broadcast back down the same
 * tree. MPICH 4's MPIR_Allreduce_intra_tree (allreduce_intra_tree.c, knomial_1 tree), unpipelined.
 */
export function* allreduceKnomialTree(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const k = ALLREDUCE_RADIX;
  const count = sendBuf.length;
  const what = `allreduce(k-nomial tree, ${op.name})`;
  const tag = TAG.allreduce + 14;
  const acc = recvBuf.subarray(0, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const { parent, children } = knomialChildren(t.rank, t.size, k);
  const bufs = children.map(() => alloc(t, sendBuf, count));
  const reqs = children.map((c, i) => recv(t, bufs[i]!, 0, count, c, tag, what));
  for (let i = 0; i < children.length; i++) {
    yield reqs[i];
    yield combine(t, op, acc, bufs[i]!, false);
  }
  if (parent >= 0) {
    yield send(t, acc, 0, count, parent, tag, what);
    yield recv(t, acc, 0, count, parent, tag + 1, what);
  }
  yield children.map((c) => send(t, acc, 0, count, c, tag + 1, what));
}

/** The radix-k allreduces, spread into the allreduce's table. */
export const ALLREDUCE_KNOMIAL: AlgorithmSpecs<'allreduce'> = {
  recursiveMultiplying: {
    fn: allreduceRecursiveMultiplying,
    origin: 'MPICH',
    cost: 'ceil(log_4 p)·(α + 3·nβ + 3·nγ) + 2·(α + 3·nβ)',
    help: `whole-buffer exchanges within groups of k = ${ALLREDUCE_RADIX} at distance 1, k, k^2, ..., extra ranks folded in`,
  },
  knomialTree: {
    fn: allreduceKnomialTree,
    origin: 'MPICH',
    cost: '2·ceil(log_4 p)·(α + 3·nβ) + 3·ceil(log_4 p)·nγ',
    help: `k-nomial (k = ${ALLREDUCE_RADIX}) reduce to rank 0 + k-nomial broadcast`,
  },
};
