import type { AlgorithmSpecs } from './algorithm.ts';
import type { Op } from '../ops.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, combine, copy, exchange, recv, send, TAG, type Buf } from './util.ts';

/**
 * Recursive-doubling scan (MPICH): in step k, exchange the partial result of my 2^k-aligned
 * group with rank ^ 2^k and fold a lower partner's into both my partial and my result. Keeps
 * rank order, so it accepts non-commutative ops.
 */
export function* scanRecursiveDoubling(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `scan(recursive doubling, ${op.name})`;
  const result = recvBuf.subarray(0, count);
  yield copy(t, result, 0, sendBuf, 0, count);
  if (n === 1) return;
  const partial = alloc(t, sendBuf, count);
  yield copy(t, partial, 0, sendBuf, 0, count);
  const tmp = alloc(t, sendBuf, count);
  const scratch = alloc(t, sendBuf, count);
  for (let mask = 1; mask < n; mask <<= 1) {
    const peer = me ^ mask;
    if (peer >= n) continue;
    yield exchange(t, partial, 0, count, peer, tmp, 0, count, peer, TAG.scan, what);
    if (peer < me) {
      yield combine(t, op, result, tmp, true, scratch);
      yield combine(t, op, partial, tmp, true);
    } else {
      yield combine(t, op, partial, tmp, false);
    }
  }
}

/** Linear scan: rank r waits for the prefix of ranks 0..r-1, adds its own and passes it on. */
export function* scanLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `scan(linear, ${op.name})`;
  const result = recvBuf.subarray(0, count);
  yield copy(t, result, 0, sendBuf, 0, count);
  if (me > 0) {
    const tmp = alloc(t, sendBuf, count);
    yield recv(t, tmp, 0, count, me - 1, TAG.scan + 1, what);
    yield combine(t, op, result, tmp, true);
  }
  if (me < n - 1) yield send(t, result, 0, count, me + 1, TAG.scan + 1, what);
}

/**
 * Recursive-doubling exscan (MPICH): as the scan, but a rank's result only ever takes lower
 * partners' partials. Rank 0's `recvBuf` is left untouched, as MPI leaves it undefined.
 */
export function* exscanRecursiveDoubling(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `exscan(recursive doubling, ${op.name})`;
  if (n === 1) return;
  const result = recvBuf.subarray(0, count);
  const partial = alloc(t, sendBuf, count);
  yield copy(t, partial, 0, sendBuf, 0, count);
  const tmp = alloc(t, sendBuf, count);
  const scratch = alloc(t, sendBuf, count);
  let first = true;
  for (let mask = 1; mask < n; mask <<= 1) {
    const peer = me ^ mask;
    if (peer >= n) continue;
    yield exchange(t, partial, 0, count, peer, tmp, 0, count, peer, TAG.exscan, what);
    if (peer < me) {
      if (first) yield copy(t, result, 0, tmp, 0, count);
      else yield combine(t, op, result, tmp, true, scratch);
      first = false;
      yield combine(t, op, partial, tmp, true);
    } else {
      yield combine(t, op, partial, tmp, false);
    }
  }
}

/** Linear exscan: rank r receives the prefix of ranks 0..r-1 as its result and passes it on with its own added. */
export function* exscanLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `exscan(linear, ${op.name})`;
  if (me === n - 1 && me === 0) return;
  if (me === 0) {
    yield send(t, sendBuf, 0, count, 1, TAG.exscan + 1, what);
    return;
  }
  const result = recvBuf.subarray(0, count);
  yield recv(t, result, 0, count, me - 1, TAG.exscan + 1, what);
  if (me === n - 1) return;
  const next = alloc(t, sendBuf, count);
  yield copy(t, next, 0, result, 0, count);
  yield combine(t, op, next, sendBuf, false);
  yield send(t, next, 0, count, me + 1, TAG.exscan + 1, what);
}

/** The scan's algorithms. */
export const SCAN: AlgorithmSpecs<'scan'> = {
  recursiveDoubling: { fn: scanRecursiveDoubling, origin: 'MPICH', cost: 'ceil(lg p)·(α + nβ + nγ)', help: 'log2 n exchanges of partial results' },
  linear: { fn: scanLinear, origin: 'Open MPI', cost: '(p-1)·(α + nβ + nγ)', help: 'a chain from rank 0' },
};

/** The exscan's algorithms. */
export const EXSCAN: AlgorithmSpecs<'exscan'> = {
  recursiveDoubling: { fn: exscanRecursiveDoubling, origin: 'MPICH', cost: 'ceil(lg p)·(α + nβ + nγ)', help: 'log2 n exchanges of partial results' },
  linear: { fn: exscanLinear, origin: 'Open MPI', cost: '(p-1)·(α + nβ + nγ)', help: 'a chain from rank 0' },
};
