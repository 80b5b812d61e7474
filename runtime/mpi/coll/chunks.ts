import type { Request } from '../request.ts';
import type { Coll, CollTransport } from './transport.ts';
import { exchange, Fold, recv, send, type Buf } from './util.ts';

/**
 * Allgather by recursive doubling over contiguous chunks: virtual rank v (0..size-1) owns
 * elements [off(v), off(v+1)) of `buf` and is communicator rank `real(v)`. Non-powers of two
 * fold in first (an even virtual rank below 2 * rem hands its chunk to the odd one above and
 * gets the whole buffer back at the end), so every group of new ranks owns a contiguous run of
 * chunks. Uses tags `tag` and `tag + 1`.
 */
export function* doublingChunks(t: CollTransport, buf: Buf, me: number, off: (v: number) => number, real: (v: number) => number, tag: number, what: string): Coll {
  const n = t.size;
  const f = new Fold(me, n);
  const all = off(n) - off(0);
  if (f.out) {
    yield chunkSend(t, buf, off(me), off(me + 1) - off(me), real(me + 1), tag, what);
    if (all > 0) yield recv(t, buf, off(0), all, real(me + 1), tag + 1, what);
    return;
  }
  if (f.absorbs) {
    const c = off(me) - off(me - 1);
    if (c > 0) yield recv(t, buf, off(me - 1), c, real(me - 1), tag, what);
  }
  const nr = f.newrank;
  for (let mask = 1; mask < f.p2; mask <<= 1) {
    const pr = nr ^ mask;
    const mine = nr & ~(mask - 1);
    const theirs = pr & ~(mask - 1);
    const sa = off(f.first(mine));
    const ra = off(f.first(theirs));
    const peer = real(f.oldRank(pr));
    yield exchange(t, buf, sa, off(f.first(mine + mask)) - sa, peer, buf, ra, off(f.first(theirs + mask)) - ra, peer, tag, what);
  }
  if (f.absorbs && all > 0) yield send(t, buf, off(0), all, real(me - 1), tag + 1, what);
}

function chunkSend(t: CollTransport, buf: Buf, at: number, count: number, dest: number, tag: number, what: string): Request[] {
  return count > 0 ? [send(t, buf, at, count, dest, tag, what)] : [];
}

/**
 * Ring allgather: virtual rank v owns `len(v)` elements at `at(v)` of `buf`; in n - 1 steps
 * each rank passes to its right neighbour the chunk it got in the previous step.
 */
export function* ringChunks(t: CollTransport, buf: Buf, me: number, at: (v: number) => number, len: (v: number) => number, real: (v: number) => number, tag: number, what: string): Coll {
  const n = t.size;
  const right = real((me + 1) % n);
  const left = real((me - 1 + n) % n);
  for (let s = 0; s < n - 1; s++) {
    const sc = (me - s + n) % n;
    const rc = (me - s - 1 + 2 * n) % n;
    yield exchange(t, buf, at(sc), len(sc), right, buf, at(rc), len(rc), left, tag, what);
  }
}

/**
 * Binomial scatter of contiguous chunks from virtual rank 0: afterwards virtual rank v holds
 * chunk v, elements [off(v), off(v+1)) of `buf` (van de Geijn's first phase).
 */
export function* scatterChunks(t: CollTransport, buf: Buf, me: number, off: (v: number) => number, real: (v: number) => number, tag: number, what: string): Coll {
  const n = t.size;
  let mask = 1;
  while (mask < n) {
    if (me & mask) {
      const a = off(me);
      const c = off(Math.min(me + mask, n)) - a;
      if (c > 0) yield recv(t, buf, a, c, real(me - mask), tag, what);
      break;
    }
    mask <<= 1;
  }
  // one child after another, the largest subtree first (as MPICH's blocking sends)
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const child = me + mask;
    if (child >= n) continue;
    const a = off(child);
    yield chunkSend(t, buf, a, off(Math.min(child + mask, n)) - a, real(child), tag, what);
  }
}
