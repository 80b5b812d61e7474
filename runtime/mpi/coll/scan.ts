import type { Op } from '../ops.ts';
import type { CollTransport } from './transport.ts';
import { alloc, combine, copy, exchange, recv, send, TAG, type Buf } from './util.ts';

/**
 * Recursive-doubling scan (MPICH): in step k, exchange the partial result of my 2^k-aligned
 * group with rank ^ 2^k and fold a lower partner's into both my partial and my result. Keeps
 * rank order, so it accepts non-commutative ops.
 */
export async function scanRecursiveDoubling(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Promise<void> {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `scan(recursive doubling, ${op.name})`;
  const result = recvBuf.subarray(0, count);
  await copy(t, result, 0, sendBuf, 0, count, what);
  if (n === 1) return;
  const partial = alloc(sendBuf, count);
  await copy(t, partial, 0, sendBuf, 0, count, what);
  const tmp = alloc(sendBuf, count);
  const scratch = alloc(sendBuf, count);
  for (let mask = 1; mask < n; mask <<= 1) {
    const peer = me ^ mask;
    if (peer >= n) continue;
    await exchange(t, partial, 0, count, peer, tmp, 0, count, peer, TAG.scan, what);
    if (peer < me) {
      await combine(t, op, result, tmp, true, what, scratch);
      await combine(t, op, partial, tmp, true, what);
    } else {
      await combine(t, op, partial, tmp, false, what);
    }
  }
}

/** Linear scan: rank r waits for the prefix of ranks 0..r-1, adds its own and passes it on. */
export async function scanLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Promise<void> {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `scan(linear, ${op.name})`;
  const result = recvBuf.subarray(0, count);
  await copy(t, result, 0, sendBuf, 0, count, what);
  if (me > 0) {
    const tmp = alloc(sendBuf, count);
    await recv(t, tmp, 0, count, me - 1, TAG.scan + 1, what).wait();
    await combine(t, op, result, tmp, true, what);
  }
  if (me < n - 1) await send(t, result, 0, count, me + 1, TAG.scan + 1, what).wait();
}

/**
 * Recursive-doubling exscan (MPICH): as the scan, but a rank's result only ever takes lower
 * partners' partials. Rank 0's `recvBuf` is left untouched, as MPI leaves it undefined.
 */
export async function exscanRecursiveDoubling(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Promise<void> {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `exscan(recursive doubling, ${op.name})`;
  if (n === 1) return;
  const result = recvBuf.subarray(0, count);
  const partial = alloc(sendBuf, count);
  await copy(t, partial, 0, sendBuf, 0, count, what);
  const tmp = alloc(sendBuf, count);
  const scratch = alloc(sendBuf, count);
  let first = true;
  for (let mask = 1; mask < n; mask <<= 1) {
    const peer = me ^ mask;
    if (peer >= n) continue;
    await exchange(t, partial, 0, count, peer, tmp, 0, count, peer, TAG.exscan, what);
    if (peer < me) {
      if (first) await copy(t, result, 0, tmp, 0, count, what);
      else await combine(t, op, result, tmp, true, what, scratch);
      first = false;
      await combine(t, op, partial, tmp, true, what);
    } else {
      await combine(t, op, partial, tmp, false, what);
    }
  }
}

/** Linear exscan: rank r receives the prefix of ranks 0..r-1 as its result and passes it on with its own added. */
export async function exscanLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Promise<void> {
  const n = t.size;
  const me = t.rank;
  const count = sendBuf.length;
  const what = `exscan(linear, ${op.name})`;
  if (me === n - 1 && me === 0) return;
  if (me === 0) {
    await send(t, sendBuf, 0, count, 1, TAG.exscan + 1, what).wait();
    return;
  }
  const result = recvBuf.subarray(0, count);
  await recv(t, result, 0, count, me - 1, TAG.exscan + 1, what).wait();
  if (me === n - 1) return;
  const next = alloc(sendBuf, count);
  await copy(t, next, 0, result, 0, count, what);
  await combine(t, op, next, sendBuf, false, what);
  await send(t, next, 0, count, me + 1, TAG.exscan + 1, what).wait();
}
