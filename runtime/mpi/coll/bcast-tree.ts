/**
 * Open MPI's segmented tree broadcasts (ompi/mca/coll/base/coll_base_bcast.c: the generic
 * segmented tree of ompi_coll_base_bcast_intra_generic over a chain, a pipeline, a binary and a
 * binomial tree, and the split binary tree) and MPICH's and MVAPICH2's k-nomial broadcast.
 */
import type { AlgorithmSpecs } from './algorithm.ts';
import type { Request } from '../request.ts';
import type { Coll, CollTransport } from './transport.ts';
import { binomialTree, chainTree, kAryTree, knomialTree, type TreeNode } from './trees.ts';
import { exchange, recv, send, TAG, type Buf } from './util.ts';

/**
 * Segment sizes (bytes). Open MPI's fixed rules (ompi_coll_tuned_bcast_intra_dec_fixed in
 * coll_tuned_decision_fixed.c) give the split binary tree 1 KiB segments for messages up to
 * 370,728 bytes and the pipeline 8, 16, 64 or 128 KiB by message and communicator size; phit takes
 * 16 KiB for the pipeline, and assumes the same for the chain and the binary and binomial trees.
 */
export const BCAST_SEGMENT_BYTES = { chain: 16384, pipeline: 16384, binaryTree: 16384, splitBinaryTree: 1024, segmentedBinomial: 16384 } as const;

/** Fanout of the chain broadcast: Open MPI's default (coll_tuned_bcast_chain_fanout, 4). */
export const BCAST_CHAIN_FANOUT = 4;

/** Radix of the k-nomial broadcast (MVAPICH2's default knomial factor, 4). */
export const BCAST_KNOMIAL_RADIX = 4;

/** Elements per segment of `segBytes` bytes of `buf`'s type (at least one). */
export function segmentElements(buf: Buf, segBytes: number): number {
  return Math.max(1, Math.floor(segBytes / buf.BYTES_PER_ELEMENT));
}

/**
 * Open MPI's generic segmented tree broadcast of `buf` (ompi_coll_base_bcast_intra_generic):
 * the buffer moves in segments of `seg` elements. The root sends each segment to all its
 * children and waits for those sends before the next; an inner rank posts the receive of the
 * next segment, waits for the current one and sends it to all its children; a leaf keeps one
 * receive posted ahead. `node` is the rank's place in the tree, in communicator ranks.
 */
export function* treeBcast(t: CollTransport, buf: Buf, node: TreeNode, seg: number, tag: number, what: string): Coll {
  const count = buf.length;
  const segs = Math.ceil(count / seg);
  const at = (i: number): number => i * seg;
  const len = (i: number): number => Math.min(seg, count - i * seg);
  const toChildren = (i: number): Request[] => node.children.map((c) => send(t, buf, at(i), len(i), c, tag, what));
  if (node.parent < 0) {
    for (let i = 0; i < segs; i++) yield toChildren(i);
    return;
  }
  if (segs === 0) return;
  let pending = recv(t, buf, at(0), len(0), node.parent, tag, what);
  for (let i = 1; i <= segs; i++) {
    const next = i < segs ? recv(t, buf, at(i), len(i), node.parent, tag, what) : null;
    yield pending;
    if (node.children.length > 0) yield toChildren(i - 1);
    if (next) pending = next;
  }
}

/** A tree over virtual ranks (0 the root) as communicator ranks, for root `root` of n. */
function rooted(node: TreeNode, root: number, n: number): TreeNode {
  const real = (v: number): number => (v + root) % n;
  return { parent: node.parent < 0 ? -1 : real(node.parent), children: node.children.map(real) };
}

/** Open MPI's segmented chain broadcast (ompi_coll_base_bcast_intra_chain), fanout 4. */
export function* bcastChain(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const node = rooted(chainTree((t.rank - root + n) % n, n, BCAST_CHAIN_FANOUT), root, n);
  yield* treeBcast(t, buf, node, segmentElements(buf, BCAST_SEGMENT_BYTES.chain), TAG.bcast + 7, `bcast(chain, root ${root})`);
}

/** Open MPI's pipeline broadcast (ompi_coll_base_bcast_intra_pipeline): a segmented chain of fanout 1. */
export function* bcastPipeline(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const node = rooted(chainTree((t.rank - root + n) % n, n, 1), root, n);
  yield* treeBcast(t, buf, node, segmentElements(buf, BCAST_SEGMENT_BYTES.pipeline), TAG.bcast + 7, `bcast(pipeline, root ${root})`);
}

/** Open MPI's segmented binary-tree broadcast (ompi_coll_base_bcast_intra_bintree). */
export function* bcastBinaryTree(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const node = rooted(kAryTree((t.rank - root + n) % n, n, 2), root, n);
  yield* treeBcast(t, buf, node, segmentElements(buf, BCAST_SEGMENT_BYTES.binaryTree), TAG.bcast + 7, `bcast(binary tree, root ${root})`);
}

/** Open MPI's segmented binomial-tree broadcast (ompi_coll_base_bcast_intra_binomial). */
export function* bcastSegmentedBinomial(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const node = rooted(binomialTree((t.rank - root + n) % n, n), root, n);
  yield* treeBcast(t, buf, node, segmentElements(buf, BCAST_SEGMENT_BYTES.segmentedBinomial), TAG.bcast + 7, `bcast(segmented binomial, root ${root})`);
}

/**
 * Open MPI's split binary tree (ompi_coll_base_bcast_intra_split_bintree): over the binary tree
 * of `kAryTree`, the root sends the first half of the buffer (⌈count/2⌉ elements) in segments
 * down its first child's subtree (the odd virtual ranks) and the second half down the second's
 * (the even ones); then each rank swaps halves with its twin in the other subtree (virtual rank
 * v + 1 or v - 1); on an even communicator size the last virtual rank has no twin and gets the
 * second half from the root. Fewer than three ranks or two elements: the segmented binary tree.
 */
export function* bcastSplitBinaryTree(t: CollTransport, buf: Buf, root: number, segBytes: number = BCAST_SEGMENT_BYTES.splitBinaryTree): Coll {
  const n = t.size;
  const count = buf.length;
  const v = (t.rank - root + n) % n;
  const real = (x: number): number => (x + root) % n;
  const what = `bcast(split binary tree, root ${root})`;
  const seg = segmentElements(buf, segBytes);
  const tag = TAG.bcast + 8;
  if (n < 3 || count < 2) {
    yield* treeBcast(t, buf, rooted(kAryTree(v, n, 2), root, n), seg, tag, what);
    return;
  }
  const half = Math.ceil(count / 2);
  const halves = [buf.subarray(0, half), buf.subarray(half)] as const;
  if (v === 0) {
    const segs = Math.ceil(half / seg);
    for (let i = 0; i < segs; i++) {
      const reqs: Request[] = [];
      for (let h = 0; h < 2; h++) {
        const part = halves[h]!;
        const a = i * seg;
        if (a < part.length) reqs.push(send(t, part, a, Math.min(seg, part.length - a), real(h + 1), tag, what));
      }
      yield reqs;
    }
    if (n % 2 === 0) yield send(t, halves[1], 0, count - half, real(n - 1), tag + 1, what);
    return;
  }
  const mine = v % 2 === 1 ? 0 : 1;
  yield* treeBcast(t, halves[mine]!, rooted(kAryTree(v, n, 2), root, n), seg, tag, what);
  const other = halves[1 - mine]!;
  if (n % 2 === 0 && v === n - 1) {
    yield recv(t, other, 0, other.length, root, tag + 1, what);
    return;
  }
  const twin = real(mine === 0 ? v + 1 : v - 1);
  const own = halves[mine]!;
  yield exchange(t, own, 0, own.length, twin, other, 0, other.length, twin, tag + 1, what);
}

/**
 * K-nomial broadcast, radix 4 (MVAPICH2's MPIR_Knomial_Bcast_intra_MV2, MPICH's
 * MPIR_Bcast_intra_tree with a k-nomial tree): each rank receives the whole buffer from its
 * parent and sends it to all its children at once.
 */
export function* bcastKnomial(t: CollTransport, buf: Buf, root: number): Coll {
  const n = t.size;
  const node = rooted(knomialTree((t.rank - root + n) % n, n, BCAST_KNOMIAL_RADIX), root, n);
  const what = `bcast(k-nomial, root ${root})`;
  const tag = TAG.bcast + 10;
  if (node.parent >= 0) yield recv(t, buf, 0, buf.length, node.parent, tag, what);
  if (node.children.length > 0) yield node.children.map((c) => send(t, buf, 0, buf.length, c, tag, what));
}

/** The tree broadcasts' specs, spread into the broadcast's table. */
export const BCAST_TREES: AlgorithmSpecs<'bcast'> = {
  chain: { fn: bcastChain, origin: 'Open MPI', cost: '(ceil((p-1)/4) + n/s - 1)·(4α + 4sβ), s = 16 KiB', help: 'segmented chains, fanout 4, 16 KiB segments' },
  pipeline: { fn: bcastPipeline, origin: 'Open MPI', cost: '(p - 2 + n/s)·(α + sβ), s = 16 KiB', help: 'segmented chain of fanout 1, 16 KiB segments' },
  binaryTree: { fn: bcastBinaryTree, origin: 'Open MPI', cost: '(floor(lg p) + n/s - 1)·(2α + 2sβ), s = 16 KiB', help: 'segmented binary tree, 16 KiB segments' },
  splitBinaryTree: {
    fn: bcastSplitBinaryTree,
    origin: 'Open MPI',
    cost: '(floor(lg p) + n/(2s) - 1)·(2α + 2sβ) + α + nβ/2, s = 1 KiB',
    help: 'each half of the buffer down one subtree of a binary tree in 1 KiB segments, then halves swapped',
  },
  knomial: { fn: bcastKnomial, origin: 'MVAPICH2', cost: 'ceil(log4 p)·(3α + 3nβ)', help: 'k-nomial tree of radix 4, whole buffer to all children at once' },
  segmentedBinomial: { fn: bcastSegmentedBinomial, origin: 'Open MPI', cost: '(ceil(lg p) + n/s - 1)·(lg p·α + lg p·sβ), s = 16 KiB', help: 'segmented binomial tree, 16 KiB segments' },
};
