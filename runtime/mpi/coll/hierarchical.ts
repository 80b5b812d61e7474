/**
 * Two-level (node-aware, SMP-aware) forms of the rooted collectives, as Cray MPT and MVAPICH2
 * ship them: a phase within each node (between ranks that share memory, which the MPI layer
 * carries over its shared-memory path), a phase among the node leaders (each node's lowest rank,
 * `nodeLayout`), and the root's part. Correct for any layout: nodes of different sizes,
 * non-contiguous ranks, a root that is not a leader, one rank per node. The barrier's form is in
 * barrier.ts.
 */
import { MpiError, type Request } from '../request.ts';
import type { Op } from '../ops.ts';
import { scatterChunks } from './chunks.ts';
import { nodeLayout, subTransport, type NodeLayout } from './nodes.ts';
import type { Coll, CollTransport } from './transport.ts';
import { binomialTree, type TreeNode } from './trees.ts';
import { alloc, chargeCopy, combine, copy, recv, send, setAt, TAG, type Buf } from './util.ts';

/** One rank's view of the layout: its node's ranks, its node's leader, the root's node and leader. */
interface Place {
  readonly layout: NodeLayout;
  readonly node: readonly number[];
  readonly leader: number;
  readonly rootNode: number;
  readonly rootLeader: number;
}

function place(t: CollTransport, root: number): Place {
  const layout = nodeLayout(t);
  const node = layout.ranks[layout.nodeIndex[t.rank]!]!;
  const rootNode = layout.nodeIndex[root]!;
  return { layout, node, leader: node[0]!, rootNode, rootLeader: layout.leaders[rootNode]! };
}

/** The binomial tree over sub-ranks rooted at sub-rank `root`, in sub-ranks. */
function binomialFrom(rank: number, n: number, root: number): TreeNode {
  const node = binomialTree((rank - root + n) % n, n);
  const real = (v: number): number => (v + root) % n;
  return { parent: node.parent < 0 ? -1 : real(node.parent), children: node.children.map(real) };
}

/**
 * MPICH's binomial broadcast of the whole buffer from sub-rank `root`: a rank sends to its
 * children one after another, the largest subtree first (MPIR_Bcast_intra_binomial).
 */
function* binomialBcast(t: CollTransport, buf: Buf, root: number, tag: number, what: string): Coll {
  const node = binomialFrom(t.rank, t.size, root);
  if (node.parent >= 0) yield recv(t, buf, 0, buf.length, node.parent, tag, what);
  for (let i = node.children.length - 1; i >= 0; i--) yield send(t, buf, 0, buf.length, node.children[i]!, tag, what);
}

/**
 * Two-level broadcast (Cray MPT's SMP-aware bcast, MVAPICH2's MPIR_Bcast_MV2 two-level form):
 * the root sends the buffer to its node's leader, the leaders broadcast it over a binomial tree,
 * and each leader broadcasts it over a binomial tree of its node's other ranks (the root, which
 * has the data, sits the node phase out); both trees as MPICH's binomial broadcast.
 */
export function* bcastHierarchical(t: CollTransport, buf: Buf, root: number): Coll {
  const p = place(t, root);
  const me = t.rank;
  const what = `bcast(hierarchical, root ${root})`;
  const count = buf.length;
  if (root !== p.rootLeader) {
    if (me === root) yield send(t, buf, 0, count, p.rootLeader, TAG.bcast + 11, what);
    else if (me === p.rootLeader) yield recv(t, buf, 0, count, root, TAG.bcast + 11, what);
  }
  const leaders = p.layout.leaders;
  if (me === p.leader && leaders.length > 1) {
    const sub = subTransport(t, leaders);
    yield* binomialBcast(sub, buf, p.rootNode, TAG.bcast + 12, what);
  }
  const members = p.node.filter((r) => r === p.leader || r !== root);
  if (members.length > 1 && members.includes(me)) {
    const sub = subTransport(t, members);
    yield* binomialBcast(sub, buf, 0, TAG.bcast + 13, what);
  }
}

/**
 * MPICH's binomial reduce into `acc` (the rank's data on entry, the result at sub-rank `root`):
 * a rank receives its children's partial results one after another, the smallest subtree first,
 * combines each as it comes and sends the result to its parent (MPIR_Reduce_intra_binomial, for
 * a commutative op). `tmp` is scratch of acc's length.
 */
function* binomialReduce(t: CollTransport, op: Op, acc: Buf, tmp: Buf, root: number, tag: number, what: string): Coll {
  const node = binomialFrom(t.rank, t.size, root);
  const count = acc.length;
  for (const c of node.children) {
    yield recv(t, tmp, 0, count, c, tag, what);
    yield combine(t, op, acc, tmp, false);
  }
  if (node.parent >= 0) yield send(t, acc, 0, count, node.parent, tag, what);
}

/**
 * Two-level reduce (MVAPICH2's MPIR_Reduce_two_level_helper_MV2, Cray MPT's SMP-aware reduce):
 * a binomial reduce of each node's ranks to their leader, a binomial reduce of the leaders'
 * results to the root's leader, which sends the result to the root if it is another rank; both
 * as MPICH's binomial reduce. The nodes' ranks need not be contiguous, so the op must be
 * commutative.
 */
export function* reduceHierarchical(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, op: Op, root: number): Coll {
  const p = place(t, root);
  const me = t.rank;
  const what = `reduce(hierarchical, ${op.name}, root ${root})`;
  const count = sendBuf.length;
  if (me === root) {
    if (!recvBuf) throw new MpiError('MPI_ERR_BUFFER', `${what}: the root needs a receive buffer`);
    if (recvBuf.length < count) throw new MpiError('MPI_ERR_COUNT', `${what}: the root's receive buffer holds ${recvBuf.length} elements, fewer than the ${count} sent`);
  }
  const out = me === root ? recvBuf!.subarray(0, count) : null;
  // a leader that is the root combines into the receive buffer
  const acc = out && me === p.leader ? out : alloc(t, sendBuf, count);
  yield copy(t, acc, 0, sendBuf, 0, count);
  const tmp = alloc(t, sendBuf, count);
  if (p.node.length > 1) yield* binomialReduce(subTransport(t, p.node), op, acc, tmp, 0, TAG.reduce + 12, what);
  if (me !== p.leader) {
    if (out) yield recv(t, out, 0, count, p.rootLeader, TAG.reduce + 13, what);
    return;
  }
  if (p.layout.leaders.length > 1) yield* binomialReduce(subTransport(t, p.layout.leaders), op, acc, tmp, p.rootNode, TAG.reduce + 14, what);
  if (me === p.rootLeader && root !== me) yield send(t, acc, 0, count, root, TAG.reduce + 13, what);
}

/** Element offset of each node's blocks when the nodes are packed in the order `order` (length P + 1). */
function packedOffsets(layout: NodeLayout, c: number, order: (k: number) => number): number[] {
  const out = [0];
  for (let k = 0; k < layout.ranks.length; k++) out.push(out[k]! + c * layout.ranks[order(k)]!.length);
  return out;
}

/**
 * Two-level gather (MVAPICH2's MPIR_Gather_MV2_two_level_Direct): each node's ranks send their
 * blocks to their leader at once, the leaders send their nodes' blocks to the root's leader at
 * once, and the root's leader puts the blocks in rank order and sends them to the root if it is
 * another rank. `recvBuf` (n blocks of sendBuf's length) matters at the root only.
 */
export function* gatherHierarchical(t: CollTransport, sendBuf: Buf, recvBuf: Buf | null, root: number): Coll {
  const p = place(t, root);
  const me = t.rank;
  const c = sendBuf.length;
  const n = t.size;
  const what = `gather(hierarchical, root ${root})`;
  const tag = TAG.gather + 5;
  if (me === root && !recvBuf) throw new MpiError('MPI_ERR_BUFFER', `${what}: the root needs a receive buffer`);
  if (me !== p.leader) {
    if (c > 0) yield send(t, sendBuf, 0, c, p.leader, tag, what);
    if (me === root && c > 0) yield recv(t, recvBuf!, 0, n * c, p.rootLeader, tag + 2, what);
    return;
  }
  const layout = p.layout;
  const myNode = layout.nodeIndex[me]!;
  // the node's blocks, in the node's rank order, at its place among the nodes
  const off = packedOffsets(layout, c, (k) => k);
  const isRootLeader = me === p.rootLeader;
  const packed = alloc(t, sendBuf, isRootLeader ? n * c : p.node.length * c);
  const base = isRootLeader ? off[myNode]! : 0;
  const reqs: Request[] = [];
  if (c > 0) for (let i = 1; i < p.node.length; i++) reqs.push(recv(t, packed, base + i * c, c, p.node[i]!, tag, what));
  yield copy(t, packed, base, sendBuf, 0, c);
  yield reqs;
  if (!isRootLeader) {
    if (c > 0) yield send(t, packed, 0, p.node.length * c, p.rootLeader, tag + 1, what);
    return;
  }
  const others: Request[] = [];
  for (let k = 0; k < layout.leaders.length; k++) {
    if (k !== myNode && c > 0) others.push(recv(t, packed, off[k]!, off[k + 1]! - off[k]!, layout.leaders[k]!, tag + 1, what));
  }
  yield others;
  const ordered = me === root ? recvBuf! : alloc(t, sendBuf, n * c);
  for (let k = 0; k < layout.ranks.length; k++) {
    const ranks = layout.ranks[k]!;
    for (let i = 0; i < ranks.length; i++) setAt(t, ordered, packed.subarray(off[k]! + i * c, off[k]! + (i + 1) * c), ranks[i]! * c);
  }
  yield chargeCopy(t, sendBuf, n * c);
  if (me !== root && c > 0) yield send(t, ordered, 0, n * c, root, tag + 2, what);
}

/**
 * Two-level binomial scatter (MVAPICH2's MPIR_Scatter_MV2_two_level_Binomial): the root sends
 * the whole buffer to its node's leader if it is another rank; that leader packs the blocks node
 * by node (the root's node first), the leaders scatter the nodes' parts over a binomial tree, and
 * each leader scatters its node's blocks over a binomial tree of the node's ranks. `sendBuf`
 * (n blocks of recvBuf's length) matters at the root only.
 */
export function* scatterHierarchical(t: CollTransport, sendBuf: Buf | null, recvBuf: Buf, root: number): Coll {
  const p = place(t, root);
  const me = t.rank;
  const c = recvBuf.length;
  const n = t.size;
  const what = `scatter(hierarchical, root ${root})`;
  const tag = TAG.scatter + 2;
  if (me === root && !sendBuf) throw new MpiError('MPI_ERR_BUFFER', `${what}: the root needs a send buffer`);
  if (me === root && me !== p.rootLeader && c > 0) yield send(t, sendBuf!, 0, n * c, p.rootLeader, tag, what);
  if (me === p.leader) {
    const layout = p.layout;
    const P = layout.leaders.length;
    const myNode = layout.nodeIndex[me]!;
    // nodes in virtual order: virtual node v is node (v + rootNode) % P
    const real = (v: number): number => (v + p.rootNode) % P;
    const off = packedOffsets(layout, c, real);
    const buf = alloc(t, recvBuf, n * c);
    if (me === p.rootLeader) {
      let src = sendBuf;
      if (me !== root) {
        src = alloc(t, recvBuf, n * c);
        if (c > 0) yield recv(t, src, 0, n * c, root, tag, what);
      }
      for (let v = 0; v < P; v++) {
        const ranks = layout.ranks[real(v)]!;
        for (let i = 0; i < ranks.length; i++) setAt(t, buf, src!.subarray(ranks[i]! * c, (ranks[i]! + 1) * c), off[v]! + i * c);
      }
      yield chargeCopy(t, recvBuf, n * c);
    }
    const myV = (myNode - p.rootNode + P) % P;
    if (P > 1) yield* scatterChunks(subTransport(t, layout.leaders), buf, myV, (v) => off[v]!, real, tag + 1, what);
    const mine = buf.subarray(off[myV]!, off[myV + 1]!);
    if (p.node.length > 1) yield* scatterChunks(subTransport(t, p.node), mine, 0, (i) => i * c, (i) => i, tag + 2, what);
    yield copy(t, recvBuf, 0, mine, 0, c);
    return;
  }
  const sub = subTransport(t, p.node);
  const mine = alloc(t, recvBuf, p.node.length * c);
  yield* scatterChunks(sub, mine, sub.rank, (i) => i * c, (i) => i, tag + 2, what);
  yield copy(t, recvBuf, 0, mine, sub.rank * c, c);
}
