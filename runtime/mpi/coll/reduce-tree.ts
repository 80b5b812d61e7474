/**
 * Open MPI's segmented tree reductions (ompi/mca/coll/base/coll_base_reduce.c: the generic
 * segmented reduce of ompi_coll_base_reduce_generic over a chain, a pipeline, a binary tree and
 * the in-order binary tree) and MPICH's and MVAPICH2's k-nomial reduce.
 */
import type { AlgorithmSpecs } from './algorithm.ts';
import type { Op } from '../ops.ts';
import { MpiError, type Request } from '../request.ts';
import type { Coll, CollTransport } from './transport.ts';
import { chainTree, inOrderBinaryTree, kAryTree, knomialTree, type TreeNode } from './trees.ts';
import { alloc, combine, copy, recv, send, TAG, type Buf } from './util.ts';

/**
 * Segment sizes (bytes) from Open MPI's fixed rules (ompi_coll_tuned_reduce_intra_dec_fixed in
 * coll_tuned_decision_fixed.c): the binary tree with 32 KiB segments, the pipeline with 64 KiB
 * ones (1 and 32 KiB on other sizes); the chain, which those rules never pick, takes the
 * pipeline's.
 */
export const REDUCE_SEGMENT_BYTES = { chain: 65536, pipeline: 65536, binaryTree: 32768 } as const;

/** Fanout of the chain reduce: Open MPI's default (coll_tuned_reduce_algorithm_chain_fanout, 4). */
export const REDUCE_CHAIN_FANOUT = 4;

/** Radix of the k-nomial reduce (MVAPICH2's default knomial factor, 4). */
export const REDUCE_KNOMIAL_RADIX = 4;

function rootBuffer(recvBuf: Buf | null, sendBuf: Buf, what: string): Buf {
  if (!recvBuf) throw new MpiError('MPI_ERR_BUFFER', `${what}: the root needs a receive buffer`);
  if (recvBuf.length < sendBuf.length) throw new MpiError('MPI_ERR_COUNT', `${what}: the root's receive buffer holds ${recvBuf.length} elements, fewer than the ${sendBuf.length} sent`);
  return recvBuf.subarray(0, sendBuf.length);
}

/**
 * Open MPI's generic segmented tree reduce (ompi_coll_base_reduce_generic): the buffer moves in
 * segments of `seg` elements (a multiple of the op's unit). Each rank posts the receives of the
 * next segment from all its children before it combines the current one and sends it to its
 * parent (one send in flight); a leaf posts all its segments at once. Children's data are
 * combined in the order of `node.children`, each as the left operand when `childrenLower` (the
 * in-order tree's children hold lower ranks) and as the right one otherwise. `acc` holds the
 * rank's own data on entry and its subtree's result on return.
 */
export function* treeReduce(t: CollTransport, op: Op, acc: Buf, node: TreeNode, childrenLower: boolean, seg: number, tag: number, what: string): Coll {
  const count = acc.length;
  const segs = Math.ceil(count / seg);
  const at = (i: number): number => i * seg;
  const len = (i: number): number => Math.min(seg, count - i * seg);
  const kids = node.children;
  if (kids.length === 0) {
    if (node.parent >= 0 && segs > 0) yield Array.from({ length: segs }, (_, i) => send(t, acc, at(i), len(i), node.parent, tag, what));
    return;
  }
  if (segs === 0) return;
  const tmp = kids.map(() => alloc(t, acc, count));
  const post = (i: number): Request[] => kids.map((c, k) => recv(t, tmp[k]!, at(i), len(i), c, tag, what));
  let pending = post(0);
  let sending: Request | null = null;
  for (let i = 0; i < segs; i++) {
    const next = i + 1 < segs ? post(i + 1) : null;
    yield pending;
    const a = at(i);
    const part = acc.subarray(a, a + len(i));
    for (let k = 0; k < kids.length; k++) yield combine(t, op, part, tmp[k]!.subarray(a, a + len(i)), childrenLower);
    if (node.parent >= 0) {
      yield sending;
      sending = send(t, acc, a, len(i), node.parent, tag, what);
    }
    if (next) pending = next;
  }
  yield sending;
}

/** Elements per segment of `segBytes` bytes of `buf`'s type, a whole number of the op's items. */
function segmentOf(buf: Buf, op: Op, segBytes: number): number {
  return Math.max(op.unit, op.unit * Math.floor(segBytes / buf.BYTES_PER_ELEMENT / op.unit));
}

/**
 * A segmented reduce over a tree of virtual ranks rooted at `root`: the rank's own data is
 * copied in first (into the root's receive buffer at the root). The combining order follows the
 * tree, so the op must be commutative. `segBytes` may exceed the buffer (one segment).
 */
export function* rootedTreeReduce(
  t: CollTransport,
  sendBuf: Buf,
  recvBuf: Buf | null,
  op: Op,
  root: number,
  tree: (v: number, n: number) => TreeNode,
  segBytes: number,
  tag: number,
  what: string,
): Coll {
  const n = t.size;
  const node = tree((t.rank - root + n) % n, n);
  const real = (v: number): number => (v + root) % n;
  const count = sendBuf.length;
  const acc = t.rank === root ? rootBuffer(recvBuf, sendBuf, what) : alloc(t, sendBuf, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const rooted: TreeNode = { parent: node.parent < 0 ? -1 : real(node.parent), children: node.children.map(real) };
  yield* treeReduce(t, op, acc, rooted, false, segmentOf(sendBuf, op, segBytes), tag, what);
}

/** Open MPI's segmented chain reduce (ompi_coll_base_reduce_intra_chain), fanout 4; commutative ops. */
export function* reduceChain(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const tree = (v: number, n: number): TreeNode => chainTree(v, n, REDUCE_CHAIN_FANOUT);
  yield* rootedTreeReduce(t, sendBuf, recvBuf, op, root, tree, REDUCE_SEGMENT_BYTES.chain, TAG.reduce + 8, `reduce(chain, ${op.name}, root ${root})`);
}

/** Open MPI's pipeline reduce (ompi_coll_base_reduce_intra_pipeline): a segmented chain of fanout 1; commutative ops. */
export function* reducePipeline(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const tree = (v: number, n: number): TreeNode => chainTree(v, n, 1);
  yield* rootedTreeReduce(t, sendBuf, recvBuf, op, root, tree, REDUCE_SEGMENT_BYTES.pipeline, TAG.reduce + 8, `reduce(pipeline, ${op.name}, root ${root})`);
}

/** Open MPI's segmented binary-tree reduce (ompi_coll_base_reduce_intra_binary); commutative ops. */
export function* reduceBinaryTree(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const tree = (v: number, n: number): TreeNode => kAryTree(v, n, 2);
  yield* rootedTreeReduce(t, sendBuf, recvBuf, op, root, tree, REDUCE_SEGMENT_BYTES.binaryTree, TAG.reduce + 8, `reduce(binary tree, ${op.name}, root ${root})`);
}

/**
 * Open MPI's in-order binary-tree reduce (ompi_coll_base_reduce_intra_in_order_binary), its
 * choice for non-commutative ops: the in-order tree of `inOrderBinaryTree` is rooted at rank
 * n - 1 and every rank combines lower ∘ upper ∘ own, so rank order holds; rank n - 1 sends the
 * result to the root if it is another rank. Unsegmented, as Open MPI's fixed rules call it.
 */
export function* reduceInOrderBinary(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const n = t.size;
  const me = t.rank;
  const what = `reduce(in-order binary, ${op.name}, root ${root})`;
  const count = sendBuf.length;
  const ioRoot = n - 1;
  const acc = me === root ? rootBuffer(recvBuf, sendBuf, what) : alloc(t, sendBuf, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  yield* treeReduce(t, op, acc, inOrderBinaryTree(me, n), true, Math.max(count, 1), TAG.reduce + 9, what);
  if (ioRoot !== root && count > 0) {
    if (me === ioRoot) yield send(t, acc, 0, count, root, TAG.reduce + 10, what);
    else if (me === root) yield recv(t, acc, 0, count, ioRoot, TAG.reduce + 10, what);
  }
}

/**
 * K-nomial reduce, radix 4 (MVAPICH2's MPIR_Reduce_knomial_MV2): each rank receives all its
 * children's partial results at once, combines them and sends the result to its parent. For a
 * commutative op the tree is rooted at the root; for a non-commutative one at rank 0, where
 * every child's subtree is a run of ranks above the ones before it, and rank 0 forwards the
 * result to the root (as MPICH's binomial reduce does).
 */
export function* reduceKnomial(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const n = t.size;
  const me = t.rank;
  const what = `reduce(k-nomial, ${op.name}, root ${root})`;
  const treeRoot = op.commutative ? root : 0;
  const count = sendBuf.length;
  const node = knomialTree((me - treeRoot + n) % n, n, REDUCE_KNOMIAL_RADIX);
  const real = (v: number): number => (v + treeRoot) % n;
  const acc = me === root ? rootBuffer(recvBuf, sendBuf, what) : alloc(t, sendBuf, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const tag = TAG.reduce + 11;
  if (count > 0) {
    const tmp = node.children.map(() => alloc(t, sendBuf, count));
    yield node.children.map((c, k) => recv(t, tmp[k]!, 0, count, real(c), tag, what));
    for (const x of tmp) yield combine(t, op, acc, x, false);
    if (node.parent >= 0) yield send(t, acc, 0, count, real(node.parent), tag, what);
  }
  if (treeRoot !== root && count > 0) {
    if (me === treeRoot) yield send(t, acc, 0, count, root, tag + 1, what);
    else if (me === root) yield recv(t, acc, 0, count, treeRoot, tag + 1, what);
  }
}

/** The tree reductions' specs, spread into the reduction's table. */
export const REDUCE_TREES: AlgorithmSpecs<'reduce'> = {
  chain: { fn: reduceChain, commutativeOnly: true, origin: 'Open MPI', cost: '(ceil((p-1)/4) + n/s - 1)·(4α + 4sβ + 4sγ), s = 64 KiB', help: 'segmented chains, fanout 4, 64 KiB segments' },
  pipeline: { fn: reducePipeline, commutativeOnly: true, origin: 'Open MPI', cost: '(p - 2 + n/s)·(α + sβ + sγ), s = 64 KiB', help: 'segmented chain of fanout 1, 64 KiB segments' },
  binaryTree: { fn: reduceBinaryTree, commutativeOnly: true, origin: 'Open MPI', cost: '(floor(lg p) + n/s - 1)·(2α + 2sβ + 2sγ), s = 32 KiB', help: 'segmented binary tree, 32 KiB segments' },
  inOrderBinary: { fn: reduceInOrderBinary, origin: 'Open MPI', cost: '(floor(lg p) + 1)·(2α + 2nβ + 2nγ)', help: 'in-order binary tree rooted at the last rank, which keeps rank order (non-commutative ops)' },
  knomial: { fn: reduceKnomial, origin: 'MVAPICH2', cost: 'ceil(log4 p)·(3α + 3nβ + 3nγ)', help: 'k-nomial tree of radix 4, children received at once (rooted at 0 and forwarded for non-commutative ops)' },
};
