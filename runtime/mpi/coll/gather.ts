import type { AlgorithmSpecs } from './algorithm.ts';
import { MpiError, type Request } from '../request.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, chargeCopy, copy, recv, send, setAt, TAG, type Buf } from './util.ts';

function rootBuffer(call: string, recvBuf: Buf | null): Buf {
  if (!recvBuf) throw new MpiError('MPI_ERR_BUFFER', `${call}: the root needs a receive buffer`);
  return recvBuf;
}

/** Number of relative ranks in the binomial subtree of relative rank `vr` (the root's is n). */
function subtree(vr: number, n: number): number {
  return vr === 0 ? n : Math.min(vr & -vr, n - vr);
}

/**
 * Binomial gather: each rank collects its subtree's blocks (relative rank order) and sends them
 * to its parent in one message; the root rotates them into rank order. `recvBuf` (n blocks of
 * sendBuf's length) matters at the root only.
 */
export function* gatherBinomial(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, root: number): Coll {
  const n = t.size;
  const vr = (t.rank - root + n) % n;
  const c = sendBuf.length;
  const what = `gather(binomial, root ${root})`;
  const sub = subtree(vr, n);
  if (sub === 1 && vr !== 0) {
    yield send(t, sendBuf, 0, c, (vr - (vr & -vr) + root) % n, TAG.gather, what);
    return;
  }
  const tmp = vr === 0 && root === 0 ? rootBuffer('gather', recvBuf) : alloc(t, sendBuf, sub * c);
  yield copy(t, tmp, 0, sendBuf, 0, c);
  for (let mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      yield send(t, tmp, 0, sub * c, (vr - mask + root) % n, TAG.gather, what);
      return;
    }
    const child = vr + mask;
    if (child < n) yield recv(t, tmp, mask * c, Math.min(mask, n - child) * c, (child + root) % n, TAG.gather, what);
  }
  if (tmp === recvBuf) return;
  const out = rootBuffer('gather', recvBuf);
  // relative block i is rank (i + root) % n
  yield copy(t, out, root * c, tmp, 0, (n - root) * c);
  yield copy(t, out, 0, tmp, (n - root) * c, root * c);
}

/** Linear gather: the root posts a receive from every rank at once. */
export function* gatherLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, root: number): Coll {
  const c = sendBuf.length;
  yield* gathervLinearWith(t, sendBuf, recvBuf, (r) => r * c, () => c, root, `gather(linear, root ${root})`, TAG.gather + 1);
}

/** Linear gatherv: the root posts a receive from every rank at once (MPICH's gatherv). */
export function* gathervLinear(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number): Coll {
  const what = `gatherv(linear, root ${root})`;
  if (t.rank === root && (!counts || !displs)) throw new MpiError('MPI_ERR_ARG', `${what}: the root needs counts and displs`);
  yield* gathervLinearWith(t, sendBuf, recvBuf, (r) => displs![r]!, (r) => counts![r]!, root, what, TAG.gatherv);
}

function* gathervLinearWith(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, at: (r: number) => number, len: (r: number) => number, root: number, what: string, tag: number): Coll {
  const n = t.size;
  if (t.rank !== root) {
    if (sendBuf.length > 0) yield send(t, sendBuf, 0, sendBuf.length, root, tag, what);
    return;
  }
  const out = rootBuffer(what, recvBuf);
  const reqs: Request[] = [];
  for (let r = 0; r < n; r++) if (r !== root && len(r) > 0) reqs.push(recv(t, out, at(r), len(r), r, tag, what));
  yield copy(t, out, at(root), sendBuf, 0, len(root));
  yield reqs;
}

/**
 * Binomial gatherv: as the binomial gather, but subtrees differ in size, so each child first
 * sends its subtree's element count (one Float64), then the packed blocks. `counts` and `displs`
 * matter at the root only, as in MPI.
 */
export function* gathervBinomial(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number): Coll {
  const n = t.size;
  const vr = (t.rank - root + n) % n;
  const what = `gatherv(binomial, root ${root})`;
  const tag = TAG.gatherv + 1;
  if (vr === 0 && (!counts || !displs)) throw new MpiError('MPI_ERR_ARG', `${what}: the root needs counts and displs`);
  // children and their subtree sizes (in elements), learnt from their headers
  const children: number[] = [];
  let top = 1;
  while (top < n && !(vr & top)) {
    if (vr + top < n) children.push(vr + top);
    top <<= 1;
  }
  const sizes = new Float64Array(children.length);
  yield children.map((ch, i) => t.irecv(new Uint8Array(sizes.buffer, i * 8, 8), (ch + root) % n, tag, `${what} size from ${(ch + root) % n}`));
  let total = sendBuf.length;
  for (let i = 0; i < sizes.length; i++) total += sizes[i]!;
  const tmp = alloc(t, sendBuf, total);
  yield copy(t, tmp, 0, sendBuf, 0, sendBuf.length);
  const reqs: Request[] = [];
  for (let i = 0, at = sendBuf.length; i < children.length; at += sizes[i++]!) {
    if (sizes[i]! > 0) reqs.push(recv(t, tmp, at, sizes[i]!, (children[i]! + root) % n, tag + 1, what));
  }
  yield reqs;
  if (vr !== 0) {
    const parent = (vr - top + root) % n;
    yield t.isend(new Uint8Array(Float64Array.of(total).buffer), parent, tag, `${what} size to ${parent}`);
    if (total > 0) yield send(t, tmp, 0, total, parent, tag + 1, what);
    return;
  }
  const out = rootBuffer(what, recvBuf);
  for (let v = 0, at = 0; v < n; v++) {
    const r = (v + root) % n;
    setAt(t, out, tmp.subarray(at, at + counts![r]!), displs![r]!);
    at += counts![r]!;
  }
  yield chargeCopy(t, sendBuf, total);
}

/** The gather's algorithms (n: the whole gathered result). */
export const GATHER: AlgorithmSpecs<'gather'> = {
  binomial: { fn: gatherBinomial, origin: 'MPICH', cost: 'ceil(lg p)·α + (p-1)/p·nβ', help: 'binomial tree, subtrees packed' },
  linear: { fn: gatherLinear, origin: 'Open MPI', cost: '(p-1)·α + (p-1)/p·nβ', help: 'the root receives from every rank at once' },
};

/** The gatherv's algorithms (n: the whole gathered result). */
export const GATHERV: AlgorithmSpecs<'gatherv'> = {
  binomial: { fn: gathervBinomial, origin: 'phit', cost: '2·ceil(lg p)·α + (p-1)/p·nβ', help: 'binomial tree, each subtree announcing its size first' },
  linear: { fn: gathervLinear, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·nβ', help: 'the root receives from every rank at once' },
};
