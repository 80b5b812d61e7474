import type { AlgorithmSpecs } from './algorithm.ts';
import type { Op } from '../ops.ts';
import { MpiError, type Request } from '../request.ts';
import { reduceHierarchical } from './hierarchical.ts';
import { REDUCE_TREES } from './reduce-tree.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, combine, copy, exchange, Fold, partOffset, recv, send, TAG, type Buf } from './util.ts';

function rootBuffer(call: string, recvBuf: Buf | null, sendBuf: Buf): Buf {
  if (!recvBuf) throw new MpiError('MPI_ERR_BUFFER', `${call}: the root needs a receive buffer`);
  if (recvBuf.length < sendBuf.length) throw new MpiError('MPI_ERR_COUNT', `${call}: the root's receive buffer holds ${recvBuf.length} elements, fewer than the ${sendBuf.length} sent`);
  return recvBuf;
}

/**
 * Binomial-tree reduce: each rank combines its children's partial results (higher ranks) into
 * its own and passes the result to its parent. For a commutative op the tree is rooted at
 * `root`; for a non-commutative one it is rooted at rank 0, so every combine keeps rank order,
 * and rank 0 forwards the result to the root (as MPICH does). `recvBuf` matters at the root only.
 */
export function* reduceBinomial(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const n = t.size;
  const me = t.rank;
  const what = `reduce(binomial, ${op.name}, root ${root})`;
  const treeRoot = op.commutative ? root : 0;
  const vr = (me - treeRoot + n) % n;
  const count = sendBuf.length;
  const acc = me === root ? rootBuffer('reduce', recvBuf, sendBuf).subarray(0, count) : alloc(t, sendBuf, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  let tmp: Buf | null = null;
  for (let mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      yield send(t, acc, 0, count, (vr - mask + treeRoot) % n, TAG.reduce, what);
      break;
    }
    const child = vr + mask;
    if (child >= n) continue;
    tmp ??= alloc(t, sendBuf, count);
    yield recv(t, tmp, 0, count, (child + treeRoot) % n, TAG.reduce, what);
    yield combine(t, op, acc, tmp, false);
  }
  if (treeRoot !== root) {
    if (me === treeRoot) yield send(t, acc, 0, count, root, TAG.reduce + 1, what);
    else if (me === root) yield recv(t, acc, 0, count, treeRoot, TAG.reduce + 1, what);
  }
}

/** Linear reduce: the root receives every rank's buffer at once and combines them in rank order. */
export function* reduceLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `reduce(linear, ${op.name}, root ${root})`;
  if (me !== root) {
    yield send(t, sendBuf, 0, count, root, TAG.reduce + 2, what);
    return;
  }
  const acc = rootBuffer('reduce', recvBuf, sendBuf).subarray(0, count);
  const tmp = alloc(t, sendBuf, count * (n - 1));
  const reqs: (Request | null)[] = [];
  for (let r = 0, k = 0; r < n; r++) reqs.push(r === root ? null : recv(t, tmp, count * k++, count, r, TAG.reduce + 2, what));
  const data = (r: number): Buf => (r === root ? sendBuf : tmp.subarray(count * (r < root ? r : r - 1), count * (r < root ? r + 1 : r)));
  yield reqs[0];
  yield copy(t, acc, 0, data(0), 0, count);
  for (let r = 1; r < n; r++) {
    yield reqs[r];
    yield combine(t, op, acc, data(r), false);
  }
}

/**
 * Rabenseifner's reduce: a reduce-scatter by recursive halving over the largest power of two
 * p2 (extra ranks folded in first), then a binomial gather of the p2 pieces to the root.
 * Needs a commutative op. Pieces split the buffer only at multiples of `op.unit`.
 */
export function* reduceRabenseifner(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `reduce(rabenseifner, ${op.name}, root ${root})`;
  const f = new Fold(me, n);
  const acc = alloc(t, sendBuf, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const tag = TAG.reduce + 4;
  // the new rank that ends with the whole result: the root's, or its partner's if it sits out
  const rootNew = root < 2 * f.rem ? root >> 1 : root - f.rem;
  const rootOut = root < 2 * f.rem && root % 2 === 0;
  if (f.out) {
    yield send(t, acc, 0, count, me + 1, tag, what);
  } else {
    const tmp = alloc(t, sendBuf, count);
    if (f.absorbs) {
      yield recv(t, tmp, 0, count, me - 1, tag, what);
      yield combine(t, op, acc, tmp, true);
    }
    const nr = f.newrank;
    const off = (i: number): number => partOffset(count, f.p2, i, op.unit);
    yield* halve(t, op, acc, tmp, f, off, tag + 1, what);
    // binomial gather of the pieces to rootNew; relative new ranks by xor keep blocks aligned
    const vnr = nr ^ rootNew;
    for (let mask = 1; mask < f.p2; mask <<= 1) {
      const peer = nr ^ mask;
      if (vnr & mask) {
        const a = off(nr & ~(mask - 1));
        const c = off((nr & ~(mask - 1)) + mask) - a;
        if (c > 0) yield send(t, acc, a, c, f.oldRank(peer), tag + 2, what);
        break;
      }
      const b = off(peer & ~(mask - 1));
      const c = off((peer & ~(mask - 1)) + mask) - b;
      if (c > 0) yield recv(t, acc, b, c, f.oldRank(peer), tag + 2, what);
    }
    if (nr === rootNew) {
      if (me === root) yield copy(t, rootBuffer('reduce', recvBuf, sendBuf), 0, acc, 0, count);
      else yield send(t, acc, 0, count, root, tag + 3, what);
    }
  }
  if (me === root && rootOut) yield recv(t, rootBuffer('reduce', recvBuf, sendBuf), 0, count, me + 1, tag + 3, what);
}

/**
 * Reduce-scatter by recursive halving (distance halving) among the new ranks of `f`: afterwards
 * new rank nr holds the fully combined piece [off(nr), off(nr + 1)) of `acc`. `tmp` is scratch
 * of acc's length. Pairs are combined with the op commutative (partners' ranks interleave).
 */
export function* halve(t: CollTransport, op: Op, acc: Buf, tmp: Buf, f: Fold, off: (i: number) => number, tag: number, what: string): Coll {
  const nr = f.newrank;
  for (let mask = f.p2 >> 1; mask > 0; mask >>= 1) {
    const peer = nr ^ mask;
    const lo = nr & ~(2 * mask - 1);
    const keepLo = (nr & mask) === 0 ? lo : lo + mask;
    const giveLo = (nr & mask) === 0 ? lo + mask : lo;
    const ka = off(keepLo);
    const kc = off(keepLo + mask) - ka;
    const ga = off(giveLo);
    const gc = off(giveLo + mask) - ga;
    const who = f.oldRank(peer);
    yield exchange(t, acc, ga, gc, who, tmp, ka, kc, who, tag, what);
    yield combine(t, op, acc.subarray(ka, ka + kc), tmp.subarray(ka, ka + kc), peer < nr);
  }
}

/** The reduction's algorithms. */
export const REDUCE: AlgorithmSpecs<'reduce'> = {
  binomial: { fn: reduceBinomial, origin: 'MPICH', cost: 'ceil(lg p)·(α + nβ + nγ)', help: 'binomial tree (rooted at 0 and forwarded for non-commutative ops)' },
  rabenseifner: { fn: reduceRabenseifner, commutativeOnly: true, origin: 'MPICH', cost: '2·lg p·α + 2·(p-1)/p·nβ + (p-1)/p·nγ', help: 'reduce-scatter by recursive halving + binomial gather' },
  linear: { fn: reduceLinear, origin: 'Open MPI', cost: '(p-1)·(α + nβ + nγ)', help: 'the root receives from every rank and combines in rank order' },
  ...REDUCE_TREES,
  hierarchical: {
    fn: reduceHierarchical,
    commutativeOnly: true,
    origin: 'MVAPICH2',
    cost: '(ceil(lg(p/P)) + ceil(lg P))·(α + nβ + nγ) + α + nβ',
    help: "binomial reduce within each node to its leader, binomial reduce among the leaders to the root's leader, result to the root",
  },
};
