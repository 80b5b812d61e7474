import { describe, expect, it } from 'vitest';
import { Comm } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

describe('communicators: dup, split, create, groups', () => {
  it('dup: same ranks and size; a message on the dup never matches a receive on the parent with the same source and tag', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async ({ mpi, compute }) => {
        const d = await mpi.dup();
        const shape = { rank: d.rank, size: d.size, isComm: d instanceof Comm };
        if (mpi.rank === 0) {
          await d.send(Int32Array.of(111), 3, 1); // on the dup first
          await mpi.send(Int32Array.of(222), 3, 1); // then on the parent, same tag
          await d.send(new Int32Array(3000).fill(333), 3, 1); // a rendezvous one on the dup
          return { shape };
        }
        if (mpi.rank !== 3) return { shape };
        await compute({ us: 30 }); // all three are unexpected by now
        const a = new Int32Array(3000);
        const onWorld = await mpi.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const worldValue = a[0];
        const none = await mpi.iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG);
        const b = new Int32Array(3000);
        const onDup1 = await d.recv(b, 0, 1);
        const dupValue1 = b[0];
        const onDup2 = await d.recv(b, mpi.ANY_SOURCE, 1);
        return { shape, onWorld, worldValue, none, onDup1, dupValue1, onDup2, dupValue2: b[2999] };
      },
    });
    r.rankResults.forEach((g, rank) => expect(g.shape).toEqual({ rank, size: 4, isComm: true }));
    expect(r.rankResults[3]).toMatchObject({
      onWorld: { source: 0, tag: 1, count: 1, bytes: 4 },
      worldValue: 222,
      none: null,
      onDup1: { source: 0, tag: 1, count: 1 },
      dupValue1: 111,
      onDup2: { source: 0, tag: 1, count: 3000 },
      dupValue2: 333,
    });
  });

  /** Colors and keys of 7 ranks: ties in key fall back to the old rank; rank 6 joins nothing. */
  const colorOf = (r: number, UNDEFINED: number): number => (r === 6 ? UNDEFINED : r % 2);
  const keyOf = (r: number): number => [3, 5, 0, -1, 0, 5, 0][r]!;

  it('split by color and key: sizes, ranks ordered by key then old rank, group members, null for UNDEFINED', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 2,
      program: async ({ mpi }) => {
        // create is collective over the world: rank 7 takes part and gets null
        const seven = await mpi.create(mpi.group.excl([7]));
        if (!seven) return null;
        const c = await seven!.split(colorOf(seven!.rank, mpi.UNDEFINED), keyOf(seven!.rank));
        if (!c) return { none: true };
        return { rank: c.rank, size: c.size, members: c.group.ranks, groupRank: c.group.rank };
      },
    });
    // the serial answer: sort each color's ranks by (key, rank)
    const want = (color: number): number[] => [0, 1, 2, 3, 4, 5].filter((x) => x % 2 === color).sort((a, b) => keyOf(a) - keyOf(b) || a - b);
    // ties (2 and 4, 1 and 5) keep the old order
    expect(want(0)).toEqual([2, 4, 0]);
    expect(want(1)).toEqual([3, 1, 5]);
    for (let w = 0; w < 6; w++) {
      const order = want(w % 2);
      expect(r.rankResults[w], `world rank ${w}`).toEqual({ rank: order.indexOf(w), size: 3, members: order, groupRank: order.indexOf(w) });
    }
    expect(r.rankResults[6]).toEqual({ none: true });
    expect(r.rankResults[7]).toBeNull();
  });

  it('messages on a split comm use its ranks: a ring on each half, status.source is a comm rank', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi }) => {
        // color by parity, reversed order: even world ranks 4, 2, 0 become 0, 1, 2
        const c = (await mpi.split(mpi.rank % 2, -mpi.rank))!;
        const right = (c.rank + 1) % c.size;
        const left = (c.rank + c.size - 1) % c.size;
        const got = new Int32Array(2);
        const st = await c.sendrecv(Int32Array.of(mpi.rank, c.rank), right, 4, got, left, 4);
        return { commRank: c.rank, st, got: Array.from(got) };
      },
    });
    const commOrder = [[4, 2, 0], [5, 3, 1]];
    r.rankResults.forEach((g, w) => {
      const order = commOrder[w % 2]!;
      const me = order.indexOf(w);
      const left = (me + 2) % 3;
      expect(g.commRank).toBe(me);
      expect(g.st).toEqual({ source: left, tag: 4, count: 2, bytes: 8 });
      expect(g.got).toEqual([order[left], left]);
    });
  });

  it('ANY_SOURCE on a sub-communicator matches only its members: a world message from a non-member is left for the world receive', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi, compute, now }) => {
        const c = (await mpi.split(mpi.rank < 3 ? 0 : 1, 0))!;
        if (mpi.rank === 3) await mpi.send(Int32Array.of(3), 0, 5); // not a member of rank 0's comm
        if (mpi.rank === 2) {
          await compute({ us: 20 });
          await c.send(Int32Array.of(2), 0, 5);
        }
        if (mpi.rank !== 0) return null;
        const a = new Int32Array(1);
        const sa = await c.recv(a, mpi.ANY_SOURCE, mpi.ANY_TAG);
        const ta = now();
        const b = new Int32Array(1);
        const sb = await mpi.recv(b, mpi.ANY_SOURCE, mpi.ANY_TAG);
        return { sa, ta, a: a[0], sb, b: b[0] };
      },
    });
    expect(r.result).toMatchObject({ sa: { source: 2, tag: 5 }, a: 2, sb: { source: 3, tag: 5 }, b: 3 });
    expect(r.result!.ta).toBeGreaterThan(20);
  });

  it('group operations: incl, excl, union, intersection, difference, compare, translateRanks, rank', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      program: async ({ mpi }) => {
        const g = mpi.group;
        const a = g.incl([5, 1, 3]);
        const b = g.excl([0, 1]);
        return {
          world: g.ranks,
          size: g.size,
          a: a.ranks,
          b: b.ranks,
          union: a.union(b).ranks,
          unionBA: b.union(a).ranks,
          inter: a.intersection(b).ranks,
          interBA: b.intersection(a).ranks,
          diff: a.difference(b).ranks,
          diffBA: b.difference(a).ranks,
          empty: a.difference(g).size,
          cmp: [a.compare(a), a.compare(g.incl([5, 1, 3])), a.compare(g.incl([1, 3, 5])), a.compare(b), a.compare(g.incl([5, 1, 2]))],
          aToWorld: a.translateRanks([0, 1, 2], g),
          bToA: b.translateRanks([0, 1, 2, 3, mpi.PROC_NULL], a),
          aRank: a.rank,
          UNDEFINED: mpi.UNDEFINED,
        };
      },
    });
    const U = r.result.UNDEFINED;
    expect(r.result).toMatchObject({
      world: [0, 1, 2, 3, 4, 5],
      size: 6,
      a: [5, 1, 3],
      b: [2, 3, 4, 5],
      union: [5, 1, 3, 2, 4],
      unionBA: [2, 3, 4, 5, 1],
      inter: [5, 3],
      interBA: [3, 5],
      diff: [1],
      diffBA: [2, 4],
      empty: 0,
      cmp: ['ident', 'ident', 'similar', 'unequal', 'unequal'],
      aToWorld: [5, 1, 3],
      bToA: [U, 2, U, 0, -1],
    });
    expect(r.rankResults.map((x) => x.aRank)).toEqual([U, 1, U, 2, U, 0]);
  });

  it('create(group) makes a communicator in the group\'s order for its members and null for the rest; a gather over it works', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 6,
      program: async ({ mpi }) => {
        const c = await mpi.create(mpi.group.incl([5, 1, 3]));
        if (!c) return null;
        if (c.rank === 0) {
          const got: number[] = [];
          for (let k = 1; k < c.size; k++) {
            const b = new Int32Array(1);
            const st = await c.recv(b, k, 0);
            got.push(st.source * 100 + b[0]!);
          }
          return { rank: c.rank, size: c.size, got };
        }
        await c.send(Int32Array.of(mpi.rank), 0, 0);
        return { rank: c.rank, size: c.size };
      },
    });
    expect(r.rankResults).toEqual([null, { rank: 1, size: 3 }, null, { rank: 2, size: 3 }, null, { rank: 0, size: 3, got: [101, 203] }]);
  });

  it('create(group) with different, disjoint groups (MPI 2.2): odd ranks pass the odd group, even ranks the even one, and each gets its own communicator', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 8,
      program: async ({ mpi }) => {
        const mine = [0, 1, 2, 3, 4, 5, 6, 7].filter((w) => w % 2 === mpi.rank % 2);
        const c = await mpi.create(mpi.group.incl(mine));
        const sum = new Int32Array(1);
        await c!.allreduce(Int32Array.of(mpi.rank), sum, mpi.SUM);
        return { rank: c!.rank, size: c!.size, sum: sum[0] };
      },
    });
    expect(r.rankResults.map((x) => x.rank)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(r.rankResults.map((x) => x.size)).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    expect(r.rankResults.map((x) => x.sum)).toEqual([12, 16, 12, 16, 12, 16, 12, 16]);
  });

  it('create(group) where two members pass different versions of their group fails with MPI_ERR_GROUP naming both', async () => {
    const r = simulate({
      machine: 'xe6',
      nodes: 4,
      program: async ({ mpi }) => {
        const g = mpi.rank === 1 ? [0, 1, 2] : [0, 1];
        await mpi.create(mpi.group.incl(mpi.rank === 3 ? [3] : g));
      },
    });
    await expect(r).rejects.toThrow(/MPI_ERR_GROUP.*passes the group of world ranks \[0, 1(, 2)?\], but rank \d, a member too, passed/);
  });

  it('nested splits: a split of a split has the right members, and allreduce and barrier on each level give the serial answers', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 4,
      ppn: 3,
      program: async ({ mpi, compute, now }) => {
        const half = (await mpi.split(mpi.rank % 2, mpi.rank))!; // evens, odds
        const quarter = (await half.split(half.rank < 3 ? 0 : 1, 0))!; // first three / last three of each
        const v = Float64Array.of(mpi.rank + 1, (mpi.rank + 1) ** 2);
        const s1 = new Float64Array(2);
        const s2 = new Float64Array(2);
        await half.allreduce(v, s1, mpi.SUM);
        await quarter.allreduce(v, s2, mpi.MAX);
        // world rank 4 (in the evens' first quarter) is late: only its quarter waits for it
        if (mpi.rank === 4) await compute({ us: 50 });
        await quarter.barrier();
        const out = now();
        return { members: quarter.group.ranks, s1: Array.from(s1), s2: Array.from(s2), out };
      },
    });
    const quarters = [[0, 2, 4], [6, 8, 10], [1, 3, 5], [7, 9, 11]];
    for (let w = 0; w < 12; w++) {
      const halfMembers = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].filter((x) => x % 2 === w % 2);
      const q = quarters.find((m) => m.includes(w))!;
      const g = r.rankResults[w]!;
      expect(g.members, `world rank ${w}`).toEqual(q);
      expect(g.s1).toEqual([halfMembers.reduce((a, x) => a + x + 1, 0), halfMembers.reduce((a, x) => a + (x + 1) ** 2, 0)]);
      expect(g.s2).toEqual([Math.max(...q) + 1, (Math.max(...q) + 1) ** 2]);
      if (q.includes(4)) expect(g.out).toBeGreaterThan(50);
      else expect(g.out).toBeLessThan(50);
    }
  });

  it('30 communicators made in a loop (dups and splits) keep their messages apart', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      ppn: 2,
      program: async ({ mpi }) => {
        const comms: Comm[] = [];
        for (let i = 0; i < 30; i++) {
          const base = i % 3 === 0 ? mpi : comms[i - 1]!;
          comms.push(i % 2 === 0 ? await base.dup() : (await base.split((mpi.rank + i) % 2, mpi.rank))!);
        }
        // every rank sends (i, world rank) to its right neighbour on every communicator, all with tag 0
        const reqs = comms.map((c, i) => c.isend(Int32Array.of(i, mpi.rank), (c.rank + 1) % c.size, 0));
        const bad: string[] = [];
        for (let i = comms.length - 1; i >= 0; i--) {
          const c = comms[i]!;
          const b = new Int32Array(2);
          const st = await c.recv(b, mpi.ANY_SOURCE, 0);
          const left = (c.rank + c.size - 1) % c.size;
          if (b[0] !== i || st.source !== left || b[1] !== c.worldRank(left)) bad.push(`comm ${i}: got ${Array.from(b).join(',')} from ${st.source}`);
        }
        await mpi.waitAll(reqs);
        return { bad, sizes: comms.map((c) => c.size) };
      },
    });
    for (const g of r.rankResults) expect(g.bad).toEqual([]);
    // dups keep the size; a split of the world by parity halves it, a split of a half keeps it
    expect(r.result.sizes.slice(0, 7)).toEqual([6, 3, 3, 3, 3, 3, 6]);
  });
});
