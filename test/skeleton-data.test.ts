import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { RankError } from '../fabric/engine/engine.ts';
import { DmappError } from '../runtime/dmapp/dmapp.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** Runs `program` normally and as a skeleton run; returns rank 0's results, normal first. */
async function both<R>(machine: string, nodes: number, ppn: number, program: (ctx: RankContext) => Promise<R>): Promise<[R, R]> {
  const a = await simulate({ machine, nodes, ppn, program });
  const b = await simulate({ machine, nodes, ppn, skeleton: true, program });
  return [a.result, b.result];
}

describe('ctx.alloc', () => {
  it('is a new zeroed typed array in a normal run, a view of the one store in a skeleton run', async () => {
    const program = async (ctx: RankContext) => {
      const a = ctx.alloc(Float64Array, 1000);
      const b = ctx.alloc(Int32Array, 10);
      return { skeleton: ctx.skeleton, a: a instanceof Float64Array && a.length === 1000, b: b instanceof Int32Array && b.length === 10, shared: a.buffer === b.buffer, zeros: a.every((x) => x === 0) };
    };
    const [normal, skeleton] = await both('xe6', 2, 1, program);
    expect(normal).toEqual({ skeleton: false, a: true, b: true, shared: false, zeros: true });
    expect(skeleton).toEqual({ skeleton: true, a: true, b: true, shared: true, zeros: true });
  });

  it('refuses a count that is not a non-negative integer and a buffer past the store limit', async () => {
    for (const skeleton of [false, true]) {
      const e = await rejection(simulate({ machine: 'xe6', nodes: 2, skeleton, program: async (ctx) => ctx.alloc(Float64Array, -1) }));
      expect(e.message).toMatch(/alloc: count=-1 must be a non-negative integer/);
    }
    const e = await rejection(simulate({ machine: 'xe6', nodes: 2, skeleton: true, program: async (ctx) => ctx.alloc(Float64Array, 2 ** 30) }));
    expect(e.message).toMatch(/a skeleton buffer holds at most 4294967296/);
  });
});

describe('data moves only where it is real', () => {
  // eager (64 B) and rendezvous (64 KiB) across nodes, and the on-node path (ranks 0 and 1 share node 0)
  const CASES = [['eager', 2, 8], ['rendezvous', 2, 8192], ['onNode', 1, 8192]] as const;
  const sum = (a: Float64Array): number => a.reduce((s, x) => s + x, 0);
  const program = async (ctx: RankContext): Promise<Record<string, number[]>> => {
    const { mpi } = ctx;
    const out: Record<string, number[]> = {};
    for (const [label, peer, n] of CASES) {
      if (mpi.rank === 0) {
        await mpi.send(new Float64Array(n).fill(7), peer, 1);
        // from a skeleton buffer into the peer's real buffer
        await mpi.send(ctx.alloc(Float64Array, n), peer, 2);
        const back = new Float64Array(3);
        await mpi.recv(back, peer, 3);
        out[label] = [...back];
      } else if (mpi.rank === peer) {
        const into = ctx.alloc(Float64Array, n);
        const st = await mpi.recv(into, 0, 1);
        const real = new Float64Array(n).fill(5);
        await mpi.recv(real, 0, 2);
        // the reply is plain control data: real in both runs, as is the status (the size travelled)
        await mpi.send(Float64Array.of(sum(into), st.count, sum(real)), 0, 3);
      }
    }
    return out;
  };

  it('a skeleton buffer reads zeros after a receive; a real buffer is not written from a skeleton one', async () => {
    const [normal, skeleton] = await both('xe6', 2, 2, program);
    for (const [label, , n] of CASES) {
      // normal: the 7s arrived, then the zeroed alloc buffer overwrote the 5s
      expect(normal[label]).toEqual([7 * n, n, 0]);
      // skeleton: zeros are read where the 7s would be, and the 5s stay
      expect(skeleton[label]).toEqual([0, n, 5 * n]);
    }
  });

  it('one-sided puts and gets from or into skeleton memory move no bytes', async () => {
    const run = async (ctx: RankContext) => {
      const { dmapp, mpi } = ctx;
      const real = dmapp.malloc(4096);
      const skel = dmapp.malloc(4096, { skeleton: true });
      real.local.fill(mpi.rank + 1);
      await mpi.barrier();
      let r: number[] = [];
      if (mpi.rank === 0) {
        // a skeleton source (FMA and BTE sizes): the target's real bytes stay as they were
        await dmapp.put(1, real, 0, ctx.alloc(Uint8Array, 64));
        await dmapp.put(1, real, 1024, ctx.alloc(Uint8Array, 2048));
        // a real source into a skeleton segment: nothing lands there
        await dmapp.put(1, skel, 0, new Uint8Array(2048).fill(9));
        // gets: from the skeleton segment into real memory, and from real memory into a skeleton buffer
        const fromSkel = new Uint8Array(2048).fill(3);
        await dmapp.get(1, skel, 0, fromSkel);
        const into = ctx.alloc(Uint8Array, 1024);
        await dmapp.get(1, real, 3072, into);
        const got = new Uint8Array(16);
        await dmapp.get(1, real, 0, got);
        const tail = new Uint8Array(16);
        await dmapp.get(1, real, 1024, tail);
        r = [got[0]!, tail[0]!, fromSkel[0]!, into[0]!, skel.local[0]!];
      }
      await mpi.barrier();
      return r;
    };
    const [normal, skeleton] = await both('xc30', 2, 1, run);
    // normal run: zeros from the (zeroed) alloc buffers landed; the get from the segment read the 9s put there
    expect(normal).toEqual([0, 0, 9, 2, 0]);
    expect(skeleton[3]).toBe(0);
    // skeleton run: the target kept its 2s, the get from the skeleton segment left the 3s, the store reads zeros
    expect(skeleton).toEqual([2, 2, 3, 0, 0]);
  });
});

describe('control data stays real in a skeleton run', () => {
  it('AMOs (a counter, a lock), small messages, collective results and gatherv sizes carry real values', async () => {
    const program = async (ctx: RankContext) => {
      const { mpi, shmem } = ctx;
      const counter = await shmem.malloc(16);
      // a ticket lock built on compare-and-swap and fetch-add, guarding a shared total
      const lock = await shmem.malloc(8);
      let critical = 0;
      for (let i = 0; i < 3; i++) {
        while ((await shmem.atomicCompareSwap(lock, 0n, BigInt(mpi.rank + 1), 0)) !== 0n) await ctx.compute({ ns: 100 });
        const before = await shmem.atomicFetch(counter.at(8), 0);
        await shmem.atomicSet(counter.at(8), before + 1n, 0);
        await shmem.atomicSwap(lock, 0n, 0);
        critical++;
      }
      await shmem.atomicFetchAdd(counter, 1n, 0);
      await shmem.barrierAll();
      const total = new Float64Array(1);
      await mpi.allreduce(Float64Array.of(mpi.rank), total, mpi.SUM);
      const token = new Int32Array(1);
      if (mpi.rank === 0) await mpi.send(Int32Array.of(42), 1, 9);
      if (mpi.rank === 1) await mpi.recv(token, 0, 9);
      // skeleton data with real, uneven sizes: the binomial gatherv and scatterv learn them from each other
      const n = mpi.size;
      const counts = Array.from({ length: n }, (_, r) => 100 * (r + 1));
      const displs = counts.map((_, r) => counts.slice(0, r).reduce((a, b) => a + b, 0));
      const all = counts.reduce((a, b) => a + b, 0);
      await mpi.gatherv(ctx.alloc(Float64Array, counts[mpi.rank]!), mpi.rank === 0 ? ctx.alloc(Float64Array, all) : null, counts, displs, 0, { algorithm: 'binomial' });
      await mpi.scatterv(mpi.rank === 0 ? ctx.alloc(Float64Array, all) : null, counts, displs, ctx.alloc(Float64Array, counts[mpi.rank]!), 0, { algorithm: 'binomial' });
      const seen = mpi.rank === 0 ? counter.int64() : null;
      return { tickets: seen ? Number(seen[0]) : -1, guarded: seen ? Number(seen[1]) : -1, critical, sum: total[0], token: mpi.rank === 1 ? token[0] : 42 };
    };
    const [normal, skeleton] = await both('xe6', 3, 2, program);
    expect(normal).toEqual({ tickets: 6, guarded: 18, critical: 3, sum: 15, token: 42 });
    expect(skeleton).toEqual(normal);
  });

  it('the collective engine combines real items in a skeleton run', async () => {
    const program = async (ctx: RankContext) => {
      const sum = new Float64Array(1);
      await ctx.mpi.allreduce(Float64Array.of(ctx.rank + 1), sum, ctx.mpi.SUM, { algorithm: 'collectiveEngine' });
      return sum[0];
    };
    const [normal, skeleton] = await both('xc30', 4, 2, program);
    expect(normal).toBe(36);
    expect(skeleton).toBe(36);
  });

  it('an AMO on skeleton memory is refused, naming it', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        skeleton: true,
        program: async (ctx) => {
          const seg = ctx.dmapp.malloc(64, { skeleton: true });
          await ctx.mpi.barrier();
          await ctx.dmapp.afaddQw(1 - ctx.rank, seg, 0, 1n);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect((e as RankError).error).toBeInstanceOf(DmappError);
    expect(e.message).toMatch(/DMAPP_RC_INVALID_PARAM: afaddQw: an AMO needs real memory, but symmetric segment \d+ is a skeleton buffer/);
  });
});

describe('a skeleton run costs no memory for its buffers', () => {
  // ArrayBuffer memory of this thread's isolate (test files running beside it in other threads do not count)
  const external = (): number => getHeapStatistics().external_memory;

  it('a 1 MiB allreduce on 64 ranks grows the ArrayBuffer memory by far less than its 128 MiB of buffers', async () => {
    const bytes = 1 << 20;
    let grown = -1;
    const before = external();
    const r = await simulate({
      machine: 'xe6',
      nodes: 16,
      ppn: 4,
      skeleton: true,
      program: async (ctx) => {
        const send = ctx.alloc(Float64Array, bytes / 8);
        const recv = ctx.alloc(Float64Array, bytes / 8);
        await ctx.mpi.allreduce(send, recv, ctx.mpi.SUM);
        // every rank's buffers are still alive here, and the algorithm's temporaries were made
        if (ctx.rank === 0) grown = external() - before;
        return recv.length;
      },
    });
    expect(r.result).toBe(bytes / 8);
    expect(r.ranks).toBe(64);
    // a normal run holds 64 x (send + recv) = 128 MiB at that point, plus the algorithm's scratch (195 MiB in all)
    expect(grown).toBeLessThan(16 * 2 ** 20);
  });

  it('eager messages from skeleton buffers that wait unexpected keep no copy of their bytes, and leave a real buffer unwritten', async () => {
    // 1,000 eager messages of 4 KiB reach rank 1 while it computes: a copy each would be 4 MB
    const count = 1000;
    const n = 512;
    let grown: number | null = null;
    let before = 0;
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      skeleton: true,
      program: async (ctx) => {
        const { mpi } = ctx;
        if (mpi.rank === 0) {
          before = external();
          const buf = ctx.alloc(Float64Array, n);
          await mpi.waitAll(Array.from({ length: count }, () => mpi.isend(buf, 1, 1)));
          return 0;
        }
        await ctx.compute(1e9);
        // may be below 0: the collector can free external memory that was live before
        grown = external() - before;
        const real = new Float64Array(n).fill(5);
        let sum = 0;
        for (let i = 0; i < count; i++) {
          await mpi.recv(real, 0, 1);
          sum += real.reduce((s, x) => s + x, 0);
        }
        return sum;
      },
    });
    expect(r.rankResults[1]).toBe(5 * n * count);
    expect(grown).not.toBeNull();
    expect(grown!).toBeLessThan(2 ** 20);
  });
});
