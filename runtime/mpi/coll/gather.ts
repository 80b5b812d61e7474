import type { AlgorithmSpecs } from './algorithm.ts';
import { MpiError, type Request } from '../request.ts';
import { gatherHierarchical } from './hierarchical.ts';
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
 * First-segment bytes of the synchronized linear gather: Open MPI's fixed rules
 * (ompi_coll_tuned_gather_intra_dec_fixed) take 1 KiB for blocks of 6,000 to 92,160 bytes and
 * 32 KiB above.
 */
export const GATHER_FIRST_SEGMENT_BYTES = 1024;

const EMPTY = new Uint8Array(0);

/**
 * Open MPI's linear gather with synchronization (ompi_coll_base_gather_intra_linear_sync): the
 * root takes the ranks one after another: it posts the receive of a rank's first segment
 * (`firstBytes`), sends the rank a zero-byte go-ahead, posts the receive of the rest and waits
 * for the first segment before the next rank; the rests arrive together at the end. A rank
 * waits for its go-ahead, then sends its first segment and the rest.
 */
export function* gatherLinearSync(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, root: number, firstBytes: number = GATHER_FIRST_SEGMENT_BYTES): Coll {
  const n = t.size;
  const c = sendBuf.length;
  const first = Math.min(c, Math.max(1, Math.floor(firstBytes / sendBuf.BYTES_PER_ELEMENT)));
  const what = `gather(linear sync, root ${root})`;
  const tag = TAG.gather + 2;
  if (t.rank !== root) {
    yield t.irecv(EMPTY, root, tag, `${what}: waiting for the go-ahead from ${root}`);
    if (first > 0) yield send(t, sendBuf, 0, first, root, tag + 1, what);
    if (c > first) yield send(t, sendBuf, first, c - first, root, tag + 2, what);
    return;
  }
  const out = rootBuffer(what, recvBuf);
  const rest: Request[] = [];
  for (let r = 0; r < n; r++) {
    if (r === root) continue;
    const head = first > 0 ? recv(t, out, r * c, first, r, tag + 1, what) : null;
    const go = t.isend(EMPTY, r, tag, `${what}: go-ahead to ${r}`);
    if (c > first) rest.push(recv(t, out, r * c + first, c - first, r, tag + 2, what));
    yield head ? [go, head] : go;
  }
  yield copy(t, out, root * c, sendBuf, 0, c);
  yield rest;
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
  linearSync: {
    fn: gatherLinearSync,
    origin: 'Open MPI',
    cost: '2·(p-1)·α + (p-1)/p·nβ, first segment 1 KiB',
    help: 'the root gives each rank a go-ahead in turn and takes its first 1 KiB before the next; the rests arrive together',
  },
  hierarchical: { fn: gatherHierarchical, origin: 'MVAPICH2', cost: '(max ranks per node + P)·α + nβ', help: "node ranks to their leader, leaders to the root's leader, which sends to the root" },
};

/** The gatherv's algorithms (n: the whole gathered result). */
export const GATHERV: AlgorithmSpecs<'gatherv'> = {
  binomial: { fn: gathervBinomial, origin: 'phit', cost: '2·ceil(lg p)·α + (p-1)/p·nβ', help: 'binomial tree, each subtree announcing its size first' },
  linear: { fn: gathervLinear, origin: 'MPICH', cost: '(p-1)·α + (p-1)/p·nβ', help: 'the root receives from every rank at once' },
};
