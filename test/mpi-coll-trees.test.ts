/**
 * The tree, segmented and two-level collective algorithms (Open MPI's tuned trees, MPICH's and
 * MVAPICH2's k-nomial trees, Cray MPT's and MVAPICH2's node-aware forms): the trees' shapes,
 * segmentation with segments small enough to cut the buffer in many pieces (the library's
 * segment sizes exceed the data test's buffers), and timing relations on xe6.
 */
import { describe, expect, it } from 'vitest';
import { treeBcast, bcastSplitBinaryTree } from '../runtime/mpi/coll/bcast-tree.ts';
import { gatherLinearSync } from '../runtime/mpi/coll/gather.ts';
import { ALGORITHMS, type Algorithm, type CollTransport } from '../runtime/mpi/coll/index.ts';
import { rootedTreeReduce, treeReduce } from '../runtime/mpi/coll/reduce-tree.ts';
import { binomialTree, chainTree, inOrderBinaryTree, kAryTree, knomialTree, type TreeNode } from '../runtime/mpi/coll/trees.ts';
import { opCreate, SUM } from '../runtime/mpi/ops.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

const SIZES = Array.from({ length: 67 }, (_, i) => i + 1);

/**
 * Checks that `tree(v)` for v in 0..n-1 is one spanning tree rooted at `root` (parents and
 * children agree, every rank reaches the root); adds what is wrong to `bad`, returns each rank's depth.
 */
function checkTree(name: string, n: number, tree: (v: number) => TreeNode, bad: string[], root = 0): number[] {
  const nodes = Array.from({ length: n }, (_, v) => tree(v));
  const roots = nodes.flatMap((x, v) => (x.parent < 0 ? [v] : []));
  if (roots.length !== 1 || roots[0] !== root) bad.push(`${name}: roots ${roots.join(',')}, want ${root}`);
  for (let v = 0; v < n; v++) {
    for (const c of nodes[v]!.children) if (!(c >= 0 && c < n && nodes[c]!.parent === v)) bad.push(`${name}: child ${c} of ${v} has another parent`);
    const p = nodes[v]!.parent;
    if (p >= 0 && !nodes[p]!.children.includes(v)) bad.push(`${name}: parent ${p} of ${v} does not list it`);
  }
  return nodes.map((_, v) => {
    let d = 0;
    for (let x = v; nodes[x]!.parent >= 0 && d < n; x = nodes[x]!.parent) d++;
    if (d >= n) bad.push(`${name}: ${v} never reaches the root`);
    return d;
  });
}

/** The ranks of `v`'s subtree, sorted. */
function subtree(tree: (v: number) => TreeNode, v: number): number[] {
  const out = [v];
  for (let i = 0; i < out.length; i++) out.push(...tree(out[i]!).children);
  return out.sort((a, b) => a - b);
}

/** Nonzero digits of v in base b. */
function digits(v: number, b: number): number {
  return v.toString(b).replaceAll('0', '').length;
}

const run = (lo: number, len: number): number[] => Array.from({ length: len }, (_, i) => lo + i);

describe('trees of the tree collectives', () => {
  it.each(SIZES)('n %i: chains, binary, binomial, 4-nomial and in-order trees span the ranks with the documented shapes', (n) => {
    const bad: string[] = [];
    const want = (what: string, ok: boolean): void => void (ok || bad.push(`n ${n}: ${what}`));
    // chains: the root heads min(4, n-1) chains whose lengths differ by at most one; fanout 1 is one chain
    const chain4 = (v: number): TreeNode => chainTree(v, n, 4);
    const depth4 = checkTree('chain4', n, chain4, bad);
    const lengths = chain4(0).children.map((h) => subtree(chain4, h).length);
    want('four chains', lengths.length === Math.min(4, n - 1));
    want('chain lengths within one', lengths.length === 0 || Math.max(...lengths) - Math.min(...lengths) <= 1);
    want('chain depth is the longest chain', Math.max(...depth4) === Math.max(0, ...lengths));
    want('pipeline depth n - 1', Math.max(...checkTree('pipeline', n, (v) => chainTree(v, n, 1), bad)) === n - 1);
    // binary tree: at most two children, depth floor(lg n), the odd ranks below 1 and the even below 2
    const binary = (v: number): TreeNode => kAryTree(v, n, 2);
    want('binary depth floor(lg n)', Math.max(...checkTree('binary', n, binary, bad)) === Math.floor(Math.log2(n)));
    want('binary fanout 2', run(0, n).every((v) => binary(v).children.length <= 2));
    want('odd ranks below 1', n < 2 || subtree(binary, 1).every((v) => v % 2 === 1));
    want('even ranks below 2', n < 3 || subtree(binary, 2).every((v) => v % 2 === 0));
    // binomial: v's parent clears its lowest set bit, so v's depth is its number of set bits
    const bm = checkTree('binomial', n, (v) => binomialTree(v, n), bad);
    want('binomial parents', run(1, n - 1).every((v) => binomialTree(v, n).parent === (v & (v - 1))));
    want('binomial depths', bm.every((d, v) => d === digits(v, 2)));
    // 4-nomial: depth = non-zero base-4 digits; v, then its children's subtrees in order, are a run of ranks
    const kn = (v: number): TreeNode => knomialTree(v, n, 4);
    want('4-nomial depths', checkTree('4-nomial', n, kn, bad).every((d, v) => d === digits(v, 4)));
    for (let v = 0; v < n; v++) {
      const flat = [v, ...kn(v).children.flatMap((c) => subtree(kn, c))];
      want(`4-nomial subtree of ${v} in rank order`, flat.join() === run(v, flat.length).join());
    }
    // in-order: rooted at n - 1, each subtree a run of ranks headed by its highest, upper child first
    const io = (r: number): TreeNode => inOrderBinaryTree(r, n);
    checkTree('in-order', n, io, bad, n - 1);
    for (let r = 0; r < n; r++) {
      const s = subtree(io, r);
      want(`in-order subtree of ${r} a run headed by it`, s.join() === run(r - s.length + 1, s.length).join());
      const kids = io(r).children;
      want(`in-order children of ${r}`, kids.length <= 2 && (kids.length < 2 || kids[0]! > kids[1]!));
    }
    expect(bad).toEqual([]);
  });
});

/** A transport over MPI_COMM_WORLD's point-to-point calls, as the data test uses. */
function worldTransport(ctx: RankContext): CollTransport {
  return {
    rank: ctx.mpi.rank,
    size: ctx.mpi.size,
    isend: (buf, dest, tag) => ctx.mpi.isend(buf, dest, tag),
    irecv: (buf, source, tag) => ctx.mpi.irecv(buf, source, tag),
    flopsPerPs: 0.5,
    copyBytesPerPs: 4,
  };
}

/** A tree of virtual ranks as communicator ranks for `root`. */
function rooted(tree: (v: number, n: number) => TreeNode, me: number, n: number, root: number): TreeNode {
  const x = tree((me - root + n) % n, n);
  const real = (v: number): number => (v + root) % n;
  return { parent: x.parent < 0 ? -1 : real(x.parent), children: x.children.map(real) };
}

// a non-commutative op: 2x2 matrix products modulo a prime, items of 4 elements
const PRIME = 65521;
function mat(a: ArrayLike<number>, b: ArrayLike<number>, i: number): number[] {
  return [(a[i]! * b[i]! + a[i + 1]! * b[i + 2]!) % PRIME, (a[i]! * b[i + 1]! + a[i + 1]! * b[i + 3]!) % PRIME, (a[i + 2]! * b[i]! + a[i + 3]! * b[i + 2]!) % PRIME, (a[i + 2]! * b[i + 1]! + a[i + 3]! * b[i + 3]!) % PRIME];
}
const MATMUL = opCreate(
  (inout, input) => {
    const a = inout as Float64Array;
    for (let i = 0; i < a.length; i += 4) a.set(mat(a, input as Float64Array, i), i);
  },
  false,
  { name: 'matmul', unit: 4 },
);

const TREES: Record<string, (v: number, n: number) => TreeNode> = {
  chain4: (v, n) => chainTree(v, n, 4),
  pipeline: (v, n) => chainTree(v, n, 1),
  binary: (v, n) => kAryTree(v, n, 2),
  binomial: binomialTree,
};

describe('segmented trees cut the buffer in many segments and still give MPI results', () => {
  it.each([1, 2, 3, 5, 8, 13, 16, 23])('size %i: bcast, reduce, in-order reduce and synchronized gather with tiny segments', async (size) => {
    const LEN = 29;
    const val = (r: number, i: number): number => ((r * 7919 + i * 104729) % 1000) + r / 8;
    const matVal = (r: number, i: number): number => (r * 31 + i * 17 + 3) % PRIME;
    const roots = [...new Set([0, size - 1, Math.floor(size / 2)])];
    const res = await simulate({
      machine: 'xe6',
      nodes: size,
      program: async (ctx) => {
        const t = worldTransport(ctx);
        const me = t.rank;
        const bad: string[] = [];
        const same = (what: string, got: ArrayLike<number>, want: ArrayLike<number>): void => {
          for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return void bad.push(`rank ${me}: ${what}: element ${i} is ${got[i]}, want ${want[i]}`);
          if (got.length !== want.length) bad.push(`rank ${me}: ${what}: length ${got.length}`);
        };
        for (const root of roots) {
          const want = Float64Array.from({ length: LEN }, (_, i) => val(root, i));
          for (const [name, tree] of Object.entries(TREES)) {
            const buf = me === root ? want.slice() : new Float64Array(LEN).fill(-1);
            await ctx.mpi.collective(treeBcast(t, buf, rooted(tree, me, size, root), 3, 0x110 + 7, name), name);
            same(`bcast ${name} root ${root}`, buf, want);
          }
          const split = me === root ? want.slice() : new Float64Array(LEN).fill(-1);
          await ctx.mpi.collective(bcastSplitBinaryTree(t, split, root, 16), 'split');
          same(`bcast split binary root ${root}`, split, want);
          // commutative reduce over each tree with 3-element segments
          const mine = Int32Array.from({ length: LEN }, (_, i) => (me + 1) * (i + 3));
          const sum = Int32Array.from({ length: LEN }, (_, i) => ((size * (size + 1)) / 2) * (i + 3));
          for (const [name, tree] of Object.entries(TREES)) {
            const out = me === root ? new Int32Array(LEN) : null;
            await ctx.mpi.collective(rootedTreeReduce(t, mine, out, SUM, root, tree, 12, 0x120 + 8, name), name);
            if (out) same(`reduce ${name} root ${root}`, out, sum);
          }
          // synchronized linear gather, 2-element first segments of 5-element blocks
          const out = me === root ? new Float64Array(5 * size).fill(-1) : null;
          await ctx.mpi.collective(gatherLinearSync(t, Float64Array.from({ length: 5 }, (_, i) => val(me, i)), out, root, 16), 'gather');
          if (out) same(`gather linear sync root ${root}`, out, Float64Array.from({ length: 5 * size }, (_, k) => val(Math.floor(k / 5), k % 5)));
        }
        // the in-order tree in one-item segments keeps rank order for a non-commutative op
        const acc = Float64Array.from({ length: 12 }, (_, i) => matVal(me, i));
        await ctx.mpi.collective(treeReduce(t, MATMUL, acc, inOrderBinaryTree(me, size), true, 4, 0x120 + 9, 'in-order'), 'in-order');
        if (me === size - 1) {
          let want = Float64Array.from({ length: 12 }, (_, i) => matVal(0, i));
          for (let r = 1; r < size; r++) {
            const b = Float64Array.from({ length: 12 }, (_, i) => matVal(r, i));
            want = Float64Array.from([0, 4, 8].flatMap((i) => mat(want, b, i)));
          }
          same('in-order reduce (matmul)', acc, want);
        }
        return bad;
      },
    });
    expect(res.rankResults.flat()).toEqual([]);
  });
});

/** Simulated time (us) of the slowest rank over one call of `call` after a barrier. */
async function timed(
  opts: { nodes: number; ppn?: number; placement?: 'round-robin'; fidelity?: 'flow'; algorithms?: Record<string, string | Algorithm> },
  call: (ctx: RankContext) => Promise<void>,
): Promise<number> {
  const r = await simulate({
    machine: 'xe6',
    set: opts.fidelity ? { 'fabric.fidelity': opts.fidelity } : undefined,
    nodes: opts.nodes,
    ppn: opts.ppn ?? 1,
    placement: opts.placement,
    skeleton: true,
    algorithms: opts.algorithms,
    program: async (ctx) => {
      await ctx.mpi.barrier();
      const t0 = ctx.now();
      await call(ctx);
      return ctx.now() - t0;
    },
  });
  return Math.max(...r.rankResults);
}

/** A broadcast over a chain of fanout 1 that sends the buffer whole (no segments). */
const WHOLE_CHAIN: Algorithm<'bcast'> = {
  name: 'wholeChain',
  fn: (t, buf, root) => treeBcast(t, buf, rooted((v, n) => chainTree(v, n, 1), t.rank, t.size, root), Math.max(buf.length, 1), 0x110 + 7, 'whole chain'),
  commutativeOnly: false,
  origin: 'phit',
  cost: '(p-1)·(α + nβ)',
  help: 'test only',
};

describe('timing relations of the segmented and two-level forms (xe6)', () => {
  it('a 1 MiB pipeline broadcast on 16 ranks takes less than half the time of the same chain unsegmented', async () => {
    const bcast = (alg: string | Algorithm) => timed({ nodes: 16, fidelity: 'flow', algorithms: { bcast: alg } }, async (ctx) => void (await ctx.mpi.bcast(ctx.alloc(Float64Array, 131072), 0)));
    const pipeline = await bcast('pipeline');
    const whole = await bcast(WHOLE_CHAIN);
    expect(pipeline).toBeLessThan(whole / 2);
  });

  it('a 1 MiB segmented binary-tree reduce on 16 ranks beats the unsegmented in-order binary tree', async () => {
    const reduce = (alg: string) => timed({ nodes: 16, fidelity: 'flow' }, async (ctx) => void (await ctx.mpi.reduce(ctx.alloc(Float64Array, 131072), ctx.alloc(Float64Array, 131072), ctx.mpi.SUM, 0, { algorithm: alg })));
    expect(await reduce('binaryTree')).toBeLessThan(await reduce('inOrderBinary'));
  });

  it('with 4 ranks per node dealt round-robin, the two-level forms cross nodes less; bcast and reduce finish sooner', async () => {
    // inter-node messages sent under each algorithm, counted by a transport around the library's
    const sent = new Map<string, number>();
    const counting = <C extends 'bcast' | 'reduce' | 'barrier'>(name: string, alg: Algorithm<C>): Algorithm<C> => {
      const fn = alg.fn as (t: CollTransport, ...rest: never[]) => ReturnType<Algorithm<C>['fn']>;
      const wrapped = (t: CollTransport, ...rest: never[]): ReturnType<Algorithm<C>['fn']> => {
        const w: CollTransport = {
          rank: t.rank,
          size: t.size,
          nodes: t.nodes,
          flopsPerPs: t.flopsPerPs,
          copyBytesPerPs: t.copyBytesPerPs,
          skeleton: t.skeleton,
          isend: (b, d, tag, what) => {
            if (t.nodes![d] !== t.nodes![t.rank]) sent.set(name, (sent.get(name) ?? 0) + 1);
            return t.isend(b, d, tag, what);
          },
          irecv: (b, src, tag, what) => t.irecv(b, src, tag, what),
        };
        return fn(w, ...rest);
      };
      return { ...alg, name, fn: wrapped as unknown as Algorithm<C>['fn'] };
    };
    const opts = { nodes: 8, ppn: 4, placement: 'round-robin' as const };
    const bcast = (alg: Algorithm<'bcast'>) => timed({ ...opts, algorithms: { bcast: alg } }, async (ctx) => void (await ctx.mpi.bcast(ctx.alloc(Float64Array, 1024), 0)));
    const hier = await bcast(counting('bcast hier', ALGORITHMS.bcast.hierarchical!));
    const flat = await bcast(counting('bcast flat', ALGORITHMS.bcast.binomial!));
    // root 0 leads its node: one message into each other node
    expect(sent.get('bcast hier')).toBe(7);
    expect(sent.get('bcast flat')).toBeGreaterThan(20);
    expect(hier).toBeLessThan(flat);
    const reduce = (alg: Algorithm<'reduce'>) => timed({ ...opts, algorithms: { reduce: alg } }, async (ctx) => void (await ctx.mpi.reduce(ctx.alloc(Float64Array, 1024), ctx.alloc(Float64Array, 1024), ctx.mpi.SUM, 5)));
    const reduceHier = await reduce(counting('reduce hier', ALGORITHMS.reduce.hierarchical!));
    const reduceFlat = await reduce(counting('reduce flat', ALGORITHMS.reduce.binomial!));
    // root 5 is not a leader: seven leaders into the root's leader, then one message within the node
    expect(sent.get('reduce hier')).toBe(7);
    expect(sent.get('reduce flat')).toBeGreaterThan(20);
    expect(reduceHier).toBeLessThan(reduceFlat);
    const barrier = (alg: Algorithm<'barrier'>) => timed({ ...opts, algorithms: { barrier: alg } }, async (ctx) => ctx.mpi.barrier());
    await barrier(counting('barrier hier', ALGORITHMS.barrier.hierarchical!));
    await barrier(counting('barrier flat', ALGORITHMS.barrier.dissemination!));
    // twice each (the timing's own barrier): dissemination among 8 leaders, 3 rounds of one
    // message each; flat, 32 ranks in 5 rounds of which those at distances 1, 2, 4 cross nodes
    // (8 and 16 stay on the node when rank r is on node r mod 8)
    expect(sent.get('barrier hier')).toBe(2 * 8 * 3);
    expect(sent.get('barrier flat')).toBe(2 * 32 * 3);
  });
});
