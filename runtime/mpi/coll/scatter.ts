import type { AlgorithmSpecs } from './algorithm.ts';
import { MpiError, type Request } from '../request.ts';
import { scatterHierarchical } from './hierarchical.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, chargeCopy, copy, recv, send, setAt, TAG, type Buf } from './util.ts';

function rootBuffer(call: string, sendBuf: Buf | null): Buf {
  if (!sendBuf) throw new MpiError('MPI_ERR_BUFFER', `${call}: the root needs a send buffer`);
  return sendBuf;
}

/**
 * Binomial scatter: the root (its blocks rotated into relative rank order) sends each child its
 * subtree's blocks in one message; every rank forwards the parts for its own children.
 * `sendBuf` (n blocks of recvBuf's length) matters at the root only.
 */
export function* scatterBinomial(t: CollTransport, sendBuf: Buf | null, recvBuf: Buf, root: number): Coll {
  const n = t.size;
  const vr = (t.rank - root + n) % n;
  const c = recvBuf.length;
  const what = `scatter(binomial, root ${root})`;
  let buf: Buf;
  let mask = 1;
  if (vr === 0) {
    const src = rootBuffer(what, sendBuf);
    if (root === 0) {
      buf = src;
    } else {
      buf = alloc(t, recvBuf, n * c);
      yield copy(t, buf, 0, src, root * c, (n - root) * c);
      yield copy(t, buf, (n - root) * c, src, 0, root * c);
    }
    while (mask < n) mask <<= 1;
  } else {
    mask = vr & -vr;
    const sub = Math.min(mask, n - vr);
    buf = sub === 1 ? recvBuf : alloc(t, recvBuf, sub * c);
    yield recv(t, buf, 0, sub * c, (vr - mask + root) % n, TAG.scatter, what);
  }
  // one child after another, the largest subtree first (as MPICH's blocking sends)
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const child = vr + mask;
    if (child < n) yield send(t, buf, mask * c, Math.min(mask, n - child) * c, (child + root) % n, TAG.scatter, what);
  }
  if (buf !== recvBuf) yield copy(t, recvBuf, 0, buf, 0, c);
}

/** Linear scatter: the root sends every rank its block at once. */
export function* scatterLinear(t: CollTransport, sendBuf: Buf | null, recvBuf: Buf, root: number): Coll {
  const c = recvBuf.length;
  yield* scattervLinearWith(t, sendBuf, (r) => r * c, () => c, recvBuf, root, `scatter(linear, root ${root})`, TAG.scatter + 1);
}

/** Linear scatterv: the root sends every rank its block at once (MPICH's scatterv). */
export function* scattervLinear(t: CollTransport, sendBuf: Buf | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: Buf, root: number): Coll {
  const what = `scatterv(linear, root ${root})`;
  if (t.rank === root && (!counts || !displs)) throw new MpiError('MPI_ERR_ARG', `${what}: the root needs counts and displs`);
  yield* scattervLinearWith(t, sendBuf, (r) => displs![r]!, (r) => counts![r]!, recvBuf, root, what, TAG.scatterv);
}

function* scattervLinearWith(t: CollTransport, sendBuf: Buf | null, at: (r: number) => number, len: (r: number) => number, recvBuf: Buf, root: number, what: string, tag: number): Coll {
  if (t.rank !== root) {
    if (recvBuf.length > 0) yield recv(t, recvBuf, 0, recvBuf.length, root, tag, what);
    return;
  }
  const src = rootBuffer(what, sendBuf);
  const reqs: Request[] = [];
  for (let r = 0; r < t.size; r++) if (r !== root && len(r) > 0) reqs.push(send(t, src, at(r), len(r), r, tag, what));
  yield copy(t, recvBuf, 0, src, at(root), len(root));
  yield reqs;
}

/**
 * Binomial scatterv: the root packs the blocks in relative rank order; each child first gets
 * its subtree's per-rank counts (Float64s), then the packed blocks, and forwards the parts for
 * its own children. `sendBuf`, `counts` and `displs` matter at the root only, as in MPI; every
 * rank receives `recvBuf.length` elements, which must equal its count at the root.
 */
export function* scattervBinomial(t: CollTransport, sendBuf: Buf | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: Buf, root: number): Coll {
  const n = t.size;
  const vr = (t.rank - root + n) % n;
  const what = `scatterv(binomial, root ${root})`;
  const tag = TAG.scatterv + 1;
  let mask = 1;
  let sizes: Float64Array;
  let buf: Buf;
  if (vr === 0) {
    const src = rootBuffer(what, sendBuf);
    if (!counts || !displs) throw new MpiError('MPI_ERR_ARG', `${what}: the root needs counts and displs`);
    sizes = new Float64Array(n);
    let total = 0;
    for (let v = 0; v < n; v++) total += sizes[v] = counts[(v + root) % n]!;
    buf = alloc(t, recvBuf, total);
    for (let v = 0, at = 0; v < n; at += sizes[v++]!) {
      const r = (v + root) % n;
      setAt(t, buf, src.subarray(displs[r]!, displs[r]! + counts[r]!), at);
    }
    yield chargeCopy(t, recvBuf, total);
    while (mask < n) mask <<= 1;
  } else {
    mask = vr & -vr;
    const parent = (vr - mask + root) % n;
    sizes = new Float64Array(Math.min(mask, n - vr));
    yield t.irecv(new Uint8Array(sizes.buffer), parent, tag, `${what} sizes from ${parent}`);
    let total = 0;
    for (let i = 0; i < sizes.length; i++) total += sizes[i]!;
    buf = alloc(t, recvBuf, total);
    if (total > 0) yield recv(t, buf, 0, total, parent, tag + 1, what);
  }
  // sizes[i] is relative rank vr + i's count; start[i] its offset in buf
  const start = new Float64Array(sizes.length + 1);
  for (let i = 0; i < sizes.length; i++) start[i + 1] = start[i]! + sizes[i]!;
  const reqs: Request[] = [];
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const child = vr + mask;
    if (child >= n) continue;
    const to = (child + root) % n;
    const k = Math.min(mask, n - child);
    reqs.push(t.isend(new Uint8Array(sizes.buffer, mask * 8, k * 8), to, tag, `${what} sizes to ${to}`));
    const a = start[mask]!;
    const len = start[mask + k]! - a;
    if (len > 0) reqs.push(send(t, buf, a, len, to, tag + 1, what));
  }
  yield copy(t, recvBuf, 0, buf, 0, sizes[0]!);
  yield reqs;
}

/** The scatter's algorithms (n: the root's whole buffer). */
export const SCATTER: AlgorithmSpecs<'scatter'> = {
  binomial: { fn: scatterBinomial, origin: 'MPICH', cost: 'ceil(lg p)·α + (p-1)/p·nβ', help: 'binomial tree, subtrees packed' },
  linear: { fn: scatterLinear, origin: 'Open MPI', cost: '(p-1)·α + (p-1)/p·nβ', help: 'the root sends to every rank at once' },
  hierarchical: {
    fn: scatterHierarchical,
    origin: 'MVAPICH2',
    cost: '(ceil(lg P) + ceil(lg(p/P)) + 1)·α + 2·nβ',
    help: "root to its node's leader, binomial scatter of the nodes' parts among the leaders, binomial scatter within each node",
  },
};

/** The scatterv's algorithms (n: the root's whole buffer). */
export const SCATTERV: AlgorithmSpecs<'scatterv'> = {
  binomial: { fn: scattervBinomial, origin: 'phit', cost: '2·ceil(lg p)·α + (p-1)/p·nβ', help: 'binomial tree, each subtree sent its counts first' },
  linear: { fn: scattervLinear, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·nβ', help: 'the root sends to every rank at once' },
};
