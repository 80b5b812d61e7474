import { describe, expect, it } from 'vitest';
import { UNDEFINED } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

type Program = (ctx: RankContext) => Promise<unknown>;

async function run(program: Program, opts: Partial<SimulateOptions> = {}): Promise<readonly unknown[]> {
  const r = await simulate({ machine: 'xe6', nodes: 4, ...opts, program });
  return r.rankResults;
}

async function failure(program: Program, opts: Partial<SimulateOptions> = {}): Promise<string> {
  return String(await rejection(simulate({ machine: 'xe6', nodes: 4, ...opts, program })));
}

describe('MPI_COMM_SELF, compare, names, free', () => {
  it('COMM_SELF holds the rank alone: messages to itself and collectives work on it', async () => {
    const res = await run(async ({ mpi }) => {
      const self = mpi.COMM_SELF;
      const out = new Float64Array(2);
      await self.allreduce(Float64Array.of(mpi.rank, 7), out, mpi.SUM);
      const got = new Int32Array(1);
      const r = self.irecv(got, 0, 4);
      await self.send(Int32Array.of(100 + mpi.rank), 0, 4);
      await r.wait();
      return { size: self.size, rank: self.rank, sum: [...out], got: got[0], name: self.getName(), same: mpi.COMM_SELF === self };
    });
    res.forEach((x, r) => expect(x).toEqual({ size: 1, rank: 0, sum: [r, 7], got: 100 + r, name: 'MPI_COMM_SELF', same: true }));
  });

  it('compare tells ident, congruent, similar and unequal apart', async () => {
    const res = await run(async ({ mpi }) => {
      const dup = await mpi.dup();
      const reversed = (await mpi.split(0, -mpi.rank))!;
      const half = (await mpi.split(mpi.rank % 2, 0))!;
      return [mpi.compare(mpi), mpi.compare(dup), mpi.compare(reversed), mpi.compare(half), dup.compare(mpi.COMM_SELF)];
    });
    for (const x of res) expect(x).toEqual(['ident', 'congruent', 'similar', 'unequal', 'unequal']);
  });

  it('names: MPI_COMM_WORLD by default, setName on a copy', async () => {
    const res = await run(async ({ mpi }) => {
      const dup = await mpi.dup();
      const before = dup.getName();
      dup.setName(`copy-${mpi.rank}`);
      return [mpi.getName(), before, dup.getName()];
    });
    res.forEach((x, r) => expect(x).toEqual(['MPI_COMM_WORLD', '', `copy-${r}`]));
  });

  it('a freed communicator fails every later call with MPI_ERR_COMM naming it', async () => {
    const msg = await failure(async ({ mpi }) => {
      const dup = await mpi.dup();
      await dup.free();
      await dup.send(new Int32Array(1), 0, 0);
    });
    expect(msg).toMatch(/MPI_ERR_COMM: send: the communicator was freed/);
    const coll = await failure(async ({ mpi }) => {
      const dup = await mpi.dup();
      await dup.free();
      await dup.barrier();
    });
    expect(coll).toMatch(/MPI_ERR_COMM: barrier: the communicator was freed/);
  });

  it('MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed', async () => {
    expect(await failure(async ({ mpi }) => mpi.free())).toMatch(/MPI_ERR_COMM: free: MPI_COMM_WORLD cannot be freed/);
    expect(await failure(async ({ mpi }) => mpi.COMM_SELF.free())).toMatch(/MPI_ERR_COMM: free: MPI_COMM_SELF cannot be freed/);
  });
});

describe('splitType, idup, createGroup', () => {
  it('splitType(COMM_TYPE_SHARED) groups the ranks of each node', async () => {
    const res = await run(
      async ({ mpi, machine }) => {
        const node = (await mpi.splitType(mpi.COMM_TYPE_SHARED))!;
        const members = new Int32Array(node.size);
        await node.allgather(Int32Array.of(mpi.rank), members);
        return { node: machine.nodeOf(mpi.rank), members: [...members], others: [...members].map((r) => machine.nodeOf(r)) };
      },
      { nodes: 3, ppn: 2 },
    );
    res.forEach((x, r) => {
      const v = x as { node: number; members: number[]; others: number[] };
      expect(v.members).toContain(r);
      expect(v.members).toHaveLength(2);
      expect(v.others).toEqual([v.node, v.node]);
    });
  });

  it('idup gives a copy usable once its request completes, whose messages never match the parent', async () => {
    const res = await run(async ({ mpi }) => {
      const { comm, request } = mpi.idup();
      await request.wait();
      const a = new Int32Array(1);
      const b = new Int32Array(1);
      const peer = mpi.rank ^ 1;
      const ra = comm.irecv(a, peer, 0);
      const rb = mpi.irecv(b, peer, 0);
      await mpi.send(Int32Array.of(1), peer, 0);
      await comm.send(Int32Array.of(2), peer, 0);
      await mpi.waitAll([ra, rb]);
      return [a[0], b[0], comm.compare(mpi)];
    });
    for (const x of res) expect(x).toEqual([2, 1, 'congruent']);
  });

  it('createGroup is collective over the group only: the even ranks make theirs while the odd ones do other work', async () => {
    const res = await run(
      async ({ mpi }) => {
        if (mpi.rank % 2 === 1) return null;
        const evens = mpi.group.rangeIncl([[0, mpi.size - 1, 2]]);
        const c = await mpi.createGroup(evens, 5);
        const sum = new Int32Array(1);
        await c.allreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
        return [c.size, c.rank, sum[0]];
      },
      { nodes: 6 },
    );
    expect(res).toEqual([[3, 0, 6], null, [3, 1, 6], null, [3, 2, 6], null]);
  });

  it('createGroup from a rank outside the group is MPI_ERR_GROUP', async () => {
    const msg = await failure(async ({ mpi }) => {
      await mpi.createGroup(mpi.group.incl([0]), 0);
    });
    expect(msg).toMatch(/MPI_ERR_GROUP: createGroup: only the group's ranks call it, and rank \d is not in it/);
  });
});

describe('group ranges', () => {
  it('rangeIncl and rangeExcl expand (first, last, stride) triples, strides either way', async () => {
    const res = await run(
      async ({ mpi }) => {
        const g = mpi.group;
        return [g.rangeIncl([[1, 7, 3], [8, 6, -2]]).ranks, g.rangeExcl([[0, 9, 2]]).ranks, g.rangeIncl([[4, 4, 1]]).ranks];
      },
      { nodes: 10 },
    );
    expect(res[0]).toEqual([
      [1, 4, 7, 8, 6],
      [1, 3, 5, 7, 9],
      [4],
    ]);
  });

  it('a zero stride or a rank outside the group is named', async () => {
    expect(await failure(async ({ mpi }) => mpi.group.rangeIncl([[0, 3, 0]]))).toMatch(/MPI_ERR_ARG: rangeIncl: ranges\[0\] has stride 0/);
    expect(await failure(async ({ mpi }) => mpi.group.rangeExcl([[0, 9, 1]]))).toMatch(/MPI_ERR_RANK: rangeExcl: ranges\[0\] last=9 is not a rank of the group \(0\.\.3\)/);
  });
});

describe('topologies', () => {
  it('a zero-dimensional grid holds rank 0 alone; cartMap tells each rank its place', async () => {
    const res = await run(async ({ mpi }) => {
      const c = await mpi.cartCreate([], []);
      return [c === null ? null : [c.size, c.coords.length, c.topoTest()], mpi.cartMap([3], [false])];
    });
    expect(res).toEqual([
      [[1, 0, 'cart'], 0],
      [null, 1],
      [null, 2],
      [null, UNDEFINED],
    ]);
  });

  it('a graph: neighbours as index and edges give them, neighborAllgather brings each neighbour its data', async () => {
    // a ring of 5 with a chord 0-2
    const index = [3, 5, 8, 10, 12];
    const edges = [1, 4, 2, 0, 2, 1, 3, 0, 2, 4, 3, 0];
    const res = await run(
      async ({ mpi }) => {
        const g = (await mpi.graphCreate(index, edges))!;
        const nb = g.graphNeighbors(g.rank);
        const got = new Float64Array(nb.length * 2);
        await g.neighborAllgather(Float64Array.of(g.rank, g.rank * 10), got);
        return { kind: g.topoTest(), dims: g.graphdimsGet(), nb, got: [...got] };
      },
      { nodes: 5 },
    );
    res.forEach((x, r) => {
      const v = x as { kind: string; dims: unknown; nb: number[]; got: number[] };
      expect(v.kind).toBe('graph');
      expect(v.dims).toEqual({ nnodes: 5, nedges: 12 });
      expect(v.nb).toEqual(edges.slice(r === 0 ? 0 : index[r - 1], index[r]));
      expect(v.got).toEqual(v.nb.flatMap((n) => [n, n * 10]));
    });
  });

  it('distributed graphs: adjacent and edge-list forms agree, and neighborAlltoall delivers block j to destination j', async () => {
    const res = await run(
      async ({ mpi }) => {
        const p = mpi.size;
        const r = mpi.rank;
        const dests = [(r + 1) % p, (r + 2) % p];
        const sources = [(r + p - 1) % p, (r + p - 2) % p];
        const adj = await mpi.distGraphCreateAdjacent(sources, null, dests, null);
        // rank 0 gives every edge of the graph
        const all = r === 0 ? Array.from({ length: p }, (_, s) => s) : [];
        const gen = await mpi.distGraphCreate(all, all.map(() => 2), all.flatMap((s) => [(s + 1) % p, (s + 2) % p]), null);
        const send = Float64Array.of(r * 100 + dests[0]!, r * 100 + dests[1]!);
        const got = new Float64Array(2);
        await adj.neighborAlltoall(send, got);
        const v = new Float64Array(3);
        await mpi.wait(adj.ineighborAlltoallv(Float64Array.of(r, r, r), [1, 2], [0, 1], v, [1, 2], [0, 1]));
        return { adj: adj.distGraphNeighbors(), count: adj.distGraphNeighborsCount(), gen: gen.distGraphNeighbors(), got: [...got], v: [...v] };
      },
      { nodes: 5 },
    );
    res.forEach((x, r) => {
      const v = x as { adj: { sources: number[]; dests: number[] }; count: unknown; gen: { sources: number[]; dests: number[] }; got: number[]; v: number[] };
      expect(v.count).toEqual({ indegree: 2, outdegree: 2, weighted: false });
      expect(new Set(v.gen.sources)).toEqual(new Set(v.adj.sources));
      expect(new Set(v.gen.dests)).toEqual(new Set(v.adj.dests));
      const [s0, s1] = v.adj.sources;
      // source s0 = r-1 sent its block for r (its dests[0]), s1 = r-2 its dests[1]
      expect(v.got).toEqual([s0! * 100 + r, s1! * 100 + r]);
      expect(v.v).toEqual([s0, s1, s1]);
    });
  });

  it('on a grid the block sent down a dimension arrives in the neighbour\'s slot from above, even where both neighbours are one rank', async () => {
    const res = await run(
      async ({ mpi }) => {
        const c = (await mpi.cartCreate([2, 3], [true, false]))!;
        // block j tags (me, j); neighbours in order: dim 0 below, above; dim 1 below, above
        const send = Float64Array.from({ length: 4 }, (_, j) => c.rank * 10 + j);
        const got = new Float64Array(4).fill(-1);
        await c.neighborAlltoall(send, got);
        const nbrs = [0, 1].flatMap((d) => {
          const s = c.cartShift(d, 1);
          return [s.source, s.dest];
        });
        return { got: [...got], nbrs };
      },
      { nodes: 6 },
    );
    res.forEach((x) => {
      const v = x as { got: number[]; nbrs: number[] };
      // slot 2d (from below) holds what the rank below sent up (its slot 2d+1), and vice versa
      const want = v.nbrs.map((n, j) => (n < 0 ? -1 : n * 10 + (j ^ 1)));
      expect(v.got).toEqual(want);
    });
  });

  it('errors: no topology, the wrong kind, a bad edge', async () => {
    expect(await failure(async ({ mpi }) => mpi.neighborAllgather(new Float64Array(1), new Float64Array(1)))).toMatch(/MPI_ERR_TOPOLOGY: neighborAllgather: the communicator has no topology/);
    expect(
      await failure(async ({ mpi }) => {
        const c = (await mpi.cartCreate([4], [true]))!;
        c.graphNeighbors(0);
      }),
    ).toMatch(/MPI_ERR_TOPOLOGY: graphNeighbors: the communicator has a cart topology, not a graph/);
    expect(await failure(async ({ mpi }) => mpi.graphCreate([1, 2], [1, 7]))).toMatch(/MPI_ERR_RANK: graphCreate: edges\[1\]=7 is not a rank of the graph \(0\.\.1\)/);
    expect(
      await failure(async ({ mpi }) => {
        const c = (await mpi.graphCreate([1, 2, 3, 4], [1, 2, 3, 0]))!;
        await c.neighborAlltoall(new Float64Array(2), new Float64Array(3));
      }),
    ).toMatch(/MPI_ERR_COUNT: neighborAlltoall/);
  });
});

