import type { AlgorithmSpecs } from './algorithm.ts';
import type { Op } from '../ops.ts';
import { reduceBinomial, halve } from './reduce.ts';
import { REDUCE_SCATTER_BUTTERFLY } from './reduce-scatter-butterfly.ts';
import { scattervLinear } from './scatter.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, checkUnits, combine, copy, exchange, Fold, prefix, recv, send, TAG, type Buf } from './util.ts';

function check(op: Op, recvCounts: ArrayLike<number>): number[] {
  for (let i = 0; i < recvCounts.length; i++) checkUnits(`reduceScatter: recvCounts[${i}]`, op, recvCounts[i]!);
  return prefix(recvCounts);
}

/**
 * Reduce-scatter by recursive halving (MPICH's choice for commutative ops below 512 KiB):
 * extra ranks fold in, then log2 p2 exchanges of halves; each new rank ends with the blocks of
 * the one or two ranks it stands for. Needs a commutative op.
 */
export function* reduceScatterRecursiveHalving(t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: ArrayLike<number>, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const at = check(op, recvCounts);
  const total = at[n]!;
  const what = `reduceScatter(recursive halving, ${op.name})`;
  const tag = TAG.reduceScatter;
  const f = new Fold(me, n);
  if (f.out) {
    yield send(t, sendBuf, 0, total, me + 1, tag, what);
    if (recvCounts[me]! > 0) yield recv(t, recvBuf, 0, recvCounts[me]!, me + 1, tag + 2, what);
    return;
  }
  const acc = alloc(t, sendBuf, total);
  yield copy(t, acc, 0, sendBuf, 0, total);
  const tmp = alloc(t, sendBuf, total);
  if (f.absorbs) {
    yield recv(t, tmp, 0, total, me - 1, tag, what);
    yield combine(t, op, acc, tmp, true);
  }
  yield* halve(t, op, acc, tmp, f, (i) => at[f.first(i)]!, tag + 1, what);
  if (f.absorbs && recvCounts[me - 1]! > 0) yield send(t, acc, at[me - 1]!, recvCounts[me - 1]!, me - 1, tag + 2, what);
  yield copy(t, recvBuf, 0, acc, at[me]!, recvCounts[me]!);
}

/**
 * Pairwise reduce-scatter (MPICH's choice for long messages with commutative ops): in step i
 * send rank + i its block and combine the block from rank - i into mine.
 */
export function* reduceScatterPairwise(t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: ArrayLike<number>, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const at = check(op, recvCounts);
  const what = `reduceScatter(pairwise, ${op.name})`;
  const mine = recvCounts[me]!;
  const acc = recvBuf.subarray(0, mine);
  yield copy(t, acc, 0, sendBuf, at[me]!, mine);
  const tmp = alloc(t, sendBuf, mine);
  for (let i = 1; i < n; i++) {
    const dst = (me + i) % n;
    const src = (me - i + n) % n;
    yield exchange(t, sendBuf, at[dst]!, recvCounts[dst]!, dst, tmp, 0, mine, src, TAG.reduceScatter + 3, what);
    yield combine(t, op, acc, tmp, src < me);
  }
}

/**
 * Ring reduce-scatter: block b starts at rank b + 1 and travels the ring, each rank adding its
 * contribution, to end fully combined at rank b after n - 1 steps. Needs a commutative op.
 */
export function* reduceScatterRing(t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: ArrayLike<number>, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const at = check(op, recvCounts);
  const what = `reduceScatter(ring, ${op.name})`;
  const acc = alloc(t, sendBuf, at[n]!);
  yield copy(t, acc, 0, sendBuf, 0, at[n]!);
  let most = 0;
  for (let i = 0; i < n; i++) most = Math.max(most, recvCounts[i]!);
  const tmp = alloc(t, sendBuf, most);
  const right = (me + 1) % n;
  const left = (me - 1 + n) % n;
  for (let s = 0; s < n - 1; s++) {
    const sb = (me - s - 1 + 2 * n) % n;
    const rb = (me - s - 2 + 2 * n) % n;
    const rn = recvCounts[rb]!;
    yield exchange(t, acc, at[sb]!, recvCounts[sb]!, right, tmp, 0, rn, left, TAG.reduceScatter + 4, what);
    yield combine(t, op, acc.subarray(at[rb]!, at[rb]! + rn), tmp.subarray(0, rn), true);
  }
  yield copy(t, recvBuf, 0, acc, at[me]!, recvCounts[me]!);
}

/**
 * Reduce-scatter as a binomial reduce to rank 0 and a linear scatterv: keeps rank order, so it
 * accepts non-commutative ops.
 */
export function* reduceScatterReduceScatterv(t: CollTransport, sendBuf: Buf, recvBuf: Buf, recvCounts: ArrayLike<number>, op: Op): Coll {
  const at = check(op, recvCounts);
  const total = at[t.size]!;
  const whole = t.rank === 0 ? alloc(t, sendBuf, total) : null;
  yield* reduceBinomial(t, sendBuf.subarray(0, total), whole, op, 0);
  yield* scattervLinear(t, whole, recvCounts, at, recvBuf, 0);
}

/** The reduce-scatter's algorithms (n: the whole input); reduceScatterBlock runs the same ones. */
export const REDUCE_SCATTER: AlgorithmSpecs<'reduceScatter'> = {
  recursiveHalving: { fn: reduceScatterRecursiveHalving, commutativeOnly: true, origin: 'MPICH', cost: 'lg p·α + (p-1)/p·n(β + γ)', help: 'recursive halving, extra ranks folded in' },
  pairwise: { fn: reduceScatterPairwise, commutativeOnly: true, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·n(β + γ)', help: 'n - 1 pairwise exchanges of one block' },
  ring: { fn: reduceScatterRing, commutativeOnly: true, origin: 'Open MPI', cost: '(p-1)·α + (p-1)/p·n(β + γ)', help: 'each block travels the ring once' },
  reduceScatterv: { fn: reduceScatterReduceScatterv, origin: 'Open MPI', cost: 'ceil(lg p)·(α + nβ + nγ) + (p-1)·α + (p-1)/p·nβ', help: 'binomial reduce to rank 0 + linear scatterv' },
  ...REDUCE_SCATTER_BUTTERFLY,
};
