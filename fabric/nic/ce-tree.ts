/**
 * The reduction trees of the Aries collective engine (seed 001 "Reductions and Barriers"): which
 * NIC combines whose partial results, built once per job and shared by every member.
 */

/** A reduction tree over the nodes of a job (built once, shared by every member). */
export interface CeTree {
  /** Member nodes, in the order given to `buildCeTree`. */
  readonly nodes: readonly number[];
  readonly radix: number;
  /** Node at the root. */
  readonly root: number;
  /** Tree edges on the longest root-to-leaf path (0 for a single node). */
  readonly depth: number;
  /** Per member (index into `nodes`): its parent node, or -1 at the root. */
  readonly parent: Int32Array;
  /** Per member (index into `nodes`): its child nodes, in combining order. */
  readonly children: readonly (readonly number[])[];
  /** Member index of each node. */
  readonly index: ReadonlyMap<number, number>;
}

/**
 * Builds the reduction tree of `nodes` with fan-out at most `radix`: the first node is the root;
 * the rest are cut into up to `radix` contiguous blocks of near-equal size (larger first), the
 * first node of each block becoming a child that heads the block's subtree, recursively. Every
 * subtree is a contiguous run of the node list, so over a job's node list in node order a subtree
 * sits on neighbouring routers (one chassis, one group) and most tree edges stay local. The depth
 * is the least any tree of that fan-out can have (at most ceil(log_radix(n))): a subtree of s
 * nodes and depth d needs s <= (radix^(d+1) - 1) / (radix - 1), and balanced blocks meet that.
 */
export function buildCeTree(nodes: readonly number[], radix: number): CeTree {
  if (!Number.isInteger(radix) || radix < 2) throw new RangeError(`CE tree: radix=${radix} must be an integer >= 2`);
  if (nodes.length === 0) throw new RangeError('CE tree: nodes must not be empty');
  const index = new Map<number, number>();
  for (const [i, n] of nodes.entries()) {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`CE tree: nodes[${i}]=${n} must be a non-negative integer`);
    if (index.has(n)) throw new RangeError(`CE tree: node ${n} appears twice (nodes[${index.get(n)}] and nodes[${i}])`);
    index.set(n, i);
  }
  const parent = new Int32Array(nodes.length).fill(-1);
  const children: number[][] = nodes.map(() => []);
  let depth = 0;
  // explicit stack of subtrees [first member, member count, level]
  const stack: [number, number, number][] = [[0, nodes.length, 0]];
  while (stack.length > 0) {
    const [lo, size, level] = stack.pop()!;
    if (level > depth) depth = level;
    const rest = size - 1;
    const blocks = Math.min(radix, rest);
    let at = lo + 1;
    for (let b = 0; b < blocks; b++) {
      const len = Math.floor(rest / blocks) + (b < rest % blocks ? 1 : 0);
      parent[at] = nodes[lo]!;
      children[lo]!.push(nodes[at]!);
      stack.push([at, len, level + 1]);
      at += len;
    }
  }
  return { nodes: [...nodes], radix, root: nodes[0]!, depth, parent, children, index };
}
