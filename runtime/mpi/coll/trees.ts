/**
 * The trees Open MPI's and MPICH's tree collectives run over, as pure functions of a rank and the
 * communicator size: Open MPI's chains, k-ary trees, binomial and in-order binary trees
 * (ompi/mca/coll/base/coll_base_topo.c) and MPICH's k-nomial tree (src/mpi/coll/bcast/
 * bcast_intra_tree.c, src/mpi/coll/algorithms/treealgo/treeutil.c). Except for the in-order
 * tree, ranks are virtual: 0 is the tree's root, and a caller maps them to communicator ranks
 * (usually (v + root) % n).
 */

/** One rank's place in a tree: its parent (-1 at the root) and its children. */
export interface TreeNode {
  readonly parent: number;
  readonly children: readonly number[];
}

/**
 * Open MPI's chain (ompi_coll_base_topo_build_chain): the root heads `fanout` chains (fewer
 * when there are fewer other ranks) that share the other ranks in contiguous runs of nearly equal
 * length, the longer ones first. A chain of fanout 1 is the pipeline.
 */
export function chainTree(v: number, n: number, fanout: number): TreeNode {
  const chains = Math.min(fanout, n - 1);
  if (chains <= 0) return { parent: -1, children: [] };
  const short = Math.floor((n - 1) / chains);
  const longer = (n - 1) % chains;
  const start = (c: number): number => 1 + c * short + Math.min(c, longer);
  if (v === 0) return { parent: -1, children: Array.from({ length: chains }, (_, c) => start(c)) };
  let c = chains - 1;
  while (start(c) > v) c--;
  const end = start(c + 1);
  return { parent: v === start(c) ? 0 : v - 1, children: v + 1 < end ? [v + 1] : [] };
}

/**
 * Open MPI's k-ary tree (ompi_coll_base_topo_build_tree): level l holds k^l ranks in order; a
 * rank of level l has children v + k^l, v + 2·k^l, ..., so the root's i-th child heads the ranks
 * congruent to i modulo k (for k = 2: the odd ranks below rank 1, the even ones below rank 2).
 */
export function kAryTree(v: number, n: number, k: number): TreeNode {
  // first rank of v's level, and k^level
  let first = 0;
  let delta = 1;
  while (first + delta <= v) {
    first += delta;
    delta *= k;
  }
  const children: number[] = [];
  for (let i = 1; i <= k && v + i * delta < n; i++) children.push(v + i * delta);
  if (v === 0) return { parent: -1, children };
  let parent = v;
  while (parent >= first) parent -= delta / k;
  return { parent, children };
}

/**
 * Open MPI's binomial tree (ompi_coll_base_topo_build_bmtree): v's parent is v without its
 * lowest set bit; its children are v + 2^i below that bit, the smallest subtree first.
 */
export function binomialTree(v: number, n: number): TreeNode {
  const children: number[] = [];
  for (let mask = 1; mask < n; mask <<= 1) {
    const peer = v ^ mask;
    if (peer < v) return { parent: peer, children };
    if (peer < n) children.push(peer);
  }
  return { parent: -1, children };
}

/**
 * MPICH's k-nomial tree: v's parent is v with its lowest non-zero base-k digit cleared; its
 * children are v + j·k^i (j = 1..k-1) for every digit position i below that digit, in increasing
 * order. Each child's subtree is a contiguous run of ranks above the ones of the children before
 * it, so combining children in this order keeps rank order.
 */
export function knomialTree(v: number, n: number, k: number): TreeNode {
  let parent = -1;
  let mask = 1;
  for (; mask < n; mask *= k) {
    const digit = Math.floor(v / mask) % k;
    if (digit !== 0) {
      parent = v - digit * mask;
      break;
    }
  }
  const children: number[] = [];
  for (let m = 1; m < mask; m *= k) {
    for (let j = 1; j < k && v + j * m < n; j++) children.push(v + j * m);
  }
  return { parent, children };
}

/**
 * Open MPI's in-order binary tree (ompi_coll_base_topo_build_in_order_bintree) over
 * communicator ranks, rooted at rank n - 1: a subtree is a contiguous run of ranks headed by
 * its highest; below the head, the upper ⌈(m-1)/2⌉ ranks form the first child's subtree and the
 * lower ⌊m/2⌋ the second's (m the run's length). Children come upper first, so a rank combines
 * lower ∘ upper ∘ its own and keeps rank order.
 */
export function inOrderBinaryTree(rank: number, n: number): TreeNode {
  let lo = 0;
  let m = n;
  let parent = -1;
  for (;;) {
    const head = lo + m - 1;
    const lowerSize = m >> 1;
    const upperSize = m - 1 - lowerSize;
    const upper = upperSize > 0 ? head - 1 : -1;
    const lower = lowerSize > 0 ? lo + lowerSize - 1 : -1;
    if (rank === head) return { parent, children: [upper, lower].filter((c) => c >= 0) };
    parent = head;
    if (rank >= lo + lowerSize) {
      lo += lowerSize;
      m = upperSize;
    } else {
      m = lowerSize;
    }
  }
}
