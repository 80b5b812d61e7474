/**
 * The named parts of MPI's software cost (fabric/machines/mpi-costs.ts): each is charged where the
 * library spends it, by the amount the model says, and shows in `--metrics` as transfer time.
 * Every check compares a run with the part set against the same run without it, so the expected
 * difference is the part's value times how often the library pays it.
 */
import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

type Program = (ctx: RankContext) => Promise<number | undefined>;

/** Rank 0's returned time (us) and its transfer time (us, as --metrics shows it). */
async function run(nodes: number, set: Record<string, string>, program: Program): Promise<{ us: number; transferUs: number }> {
  const r = await simulate({ machine: 'xe6', nodes, set, metrics: true, program });
  return { us: r.result as number, transferUs: r.metrics!.ranks[0]!.transferUs };
}

/** 64 back-to-back 8-byte sends from rank 0 to rank 1; rank 0 returns the time to post them and see them complete. */
const stream: Program = async (ctx) => {
  const { mpi } = ctx;
  const b = new Uint8Array(8);
  await mpi.barrier();
  const t0 = ctx.now();
  if (mpi.rank === 0) await mpi.waitAll(Array.from({ length: 64 }, () => mpi.isend(b, 1, 0)));
  else await mpi.waitAll(Array.from({ length: 64 }, () => mpi.irecv(new Uint8Array(8), 0, 0)));
  return mpi.rank === 0 ? ctx.now() - t0 : undefined;
};

describe('MPI software costs', () => {
  it('mpi.messageGap paces a rank\'s messages: 64 sends take 63 gaps at least, and the spin is transfer time', async () => {
    const base = await run(2, {}, stream);
    const gap = await run(2, { 'mpi.messageGap': '1us' }, stream);
    expect(base.us).toBeLessThan(40);
    expect(gap.us).toBeGreaterThanOrEqual(63);
    expect(gap.us).toBeLessThan(63 + base.us);
    // rank 0 spins out what its sends did not take of the 63 gaps
    expect(gap.transferUs).toBeGreaterThanOrEqual(63);
    expect(base.transferUs).toBeLessThan(40);
  });

  it('mpi.matchEntry charges a receive for every posted receive its message searched past', async () => {
    // rank 1 posts 100 receives (tags 0..99); the first message (tag 99) searches past 99 of them
    const program: Program = async (ctx) => {
      const { mpi } = ctx;
      const b = new Uint8Array(8);
      if (mpi.rank === 0) {
        await mpi.send(b, 1, 99);
        for (let t = 0; t < 99; t++) await mpi.send(b, 1, t);
        return undefined;
      }
      const reqs = Array.from({ length: 100 }, (_, t) => mpi.irecv(new Uint8Array(8), 0, t));
      const t0 = ctx.now();
      await reqs[99]!.wait();
      const t = ctx.now() - t0;
      await mpi.waitAll(reqs);
      return t;
    };
    const rank1 = async (set: Record<string, string>): Promise<number> => (await simulate({ machine: 'xe6', nodes: 2, set, program })).rankResults[1] as number;
    const base = await rank1({});
    const cost = await rank1({ 'mpi.matchEntry': '100ns' });
    expect(cost - base).toBeCloseTo(99 * 0.1, 3);
  });

  it('mpi.matchEntry charges a receive for the unexpected messages it searched past', async () => {
    // rank 0 sends tags 0..49 before rank 1 posts anything; rank 1's receive of tag 49 searches past 49
    const program: Program = async (ctx) => {
      const { mpi } = ctx;
      const b = new Uint8Array(8);
      if (mpi.rank === 0) {
        for (let t = 0; t < 50; t++) await mpi.send(b, 1, t);
        return undefined;
      }
      await ctx.compute({ us: 200 });
      const t0 = ctx.now();
      await mpi.recv(new Uint8Array(8), 0, 49);
      const t = ctx.now() - t0;
      for (let t2 = 0; t2 < 49; t2++) await mpi.recv(new Uint8Array(8), 0, t2);
      return t;
    };
    const rank1 = async (set: Record<string, string>): Promise<number> => (await simulate({ machine: 'xe6', nodes: 2, set, program })).rankResults[1] as number;
    const base = await rank1({});
    const cost = await rank1({ 'mpi.matchEntry': '100ns' });
    expect(cost - base).toBeCloseTo(49 * 0.1, 3);
  });

  it('mpi.requestOverhead is paid by each send and each receive: ping-pong latency grows by the sender\'s (the receive was posted early)', async () => {
    const pingpong: Program = async (ctx) => {
      const { mpi } = ctx;
      const b = new Uint8Array(8);
      await mpi.barrier();
      const t0 = ctx.now();
      for (let i = 0; i < 10; i++) {
        if (mpi.rank === 0) {
          await mpi.send(b, 1, 0);
          await mpi.recv(b, 1, 0);
        } else {
          await mpi.recv(b, 0, 0);
          await mpi.send(b, 0, 0);
        }
      }
      return (ctx.now() - t0) / 20;
    };
    const base = await run(2, {}, pingpong);
    const cost = await run(2, { 'mpi.requestOverhead': '250ns' }, pingpong);
    expect(cost.us - base.us).toBeCloseTo(0.25, 2);
    // 10 sends and 10 receives of rank 0, and its barrier's own
    expect(cost.transferUs - base.transferUs).toBeGreaterThanOrEqual(20 * 0.25);
  });

  it('mpi.collectiveOverhead is paid once per call, mpi.collectiveStep once per step of the schedule', async () => {
    // 8 ranks: a dissemination barrier has 3 rounds, one wait each
    const barriers: Program = async (ctx) => {
      const { mpi } = ctx;
      await mpi.barrier();
      const t0 = ctx.now();
      for (let i = 0; i < 10; i++) await mpi.barrier();
      return (ctx.now() - t0) / 10;
    };
    const base = await run(8, {}, barriers);
    const entry = await run(8, { 'mpi.collectiveOverhead': '1us' }, barriers);
    const step = await run(8, { 'mpi.collectiveStep': '500ns' }, barriers);
    expect(entry.us - base.us).toBeCloseTo(1, 1);
    expect(step.us - base.us).toBeCloseTo(1.5, 1);
    // an 8-byte allreduce of 8 ranks by recursive doubling: 3 steps too
    const allreduce: Program = async (ctx) => {
      const { mpi } = ctx;
      const x = new Float64Array(1);
      const y = new Float64Array(1);
      await mpi.barrier();
      const t0 = ctx.now();
      await mpi.allreduce(x, y, mpi.SUM);
      return ctx.now() - t0;
    };
    const a0 = await run(8, {}, allreduce);
    const a1 = await run(8, { 'mpi.collectiveOverhead': '1us', 'mpi.collectiveStep': '500ns' }, allreduce);
    expect(a1.us - a0.us).toBeCloseTo(2.5, 1);
    expect(a1.transferUs).toBeGreaterThan(a0.transferUs + 2.4);
  });

  it('a block of the scattered alltoallv that posts nothing is no step: mpi.collectiveStep is paid per block that waits', async () => {
    // 64 ranks: MPICH's scattered alltoallv walks partners i = 1 .. 63 in 2 blocks of 32, receiving
    // from rank + i and sending to rank - i. Each rank sends one double to its neighbour at
    // distance d and receives from the one at -d: with d = 1 both are partner i = 63, in the
    // second block; with d = -1 both are i = 1, in the first. Either way one block waits and the
    // other posts nothing, so the call takes one step.
    const ring =
      (d: number): Program =>
      async (ctx) => {
        const { mpi } = ctx;
        const n = mpi.size;
        const to = (mpi.rank + d + n) % n;
        const from = (mpi.rank - d + n) % n;
        const zero = new Array<number>(n).fill(0);
        const out = Float64Array.of(mpi.rank);
        const got = new Float64Array(1);
        await mpi.barrier();
        const t0 = ctx.now();
        await mpi.alltoallv(out, zero.map((_, r) => (r === to ? 1 : 0)), zero, got, zero.map((_, r) => (r === from ? 1 : 0)), zero);
        expect(got[0]).toBe(from);
        return ctx.now() - t0;
      };
    for (const d of [1, -1]) {
      const times = async (set: Record<string, string>) => (await simulate({ machine: 'xe6', nodes: 64, set, algorithms: { alltoallv: 'scattered' }, program: ring(d) })).rankResults as number[];
      const base = await times({});
      const step = await times({ 'mpi.collectiveStep': '10us' });
      for (const r of [0, 5, 63]) expect(step[r]! - base[r]!, `d ${d}, rank ${r}`).toBeCloseTo(10, 1);
    }
  });

  it('a negative cost is refused with the parameter named', async () => {
    await expect(run(2, { 'mpi.messageGap': '-1ns' }, stream)).rejects.toThrow(/mpi\.messageGap/);
  });
});
