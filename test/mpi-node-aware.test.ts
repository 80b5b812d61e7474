/**
 * Node-aware (SMP) allreduce and barrier (`mpi.nodeAwareCollectives`, MPICH's SMP collectives, on
 * for the Cray presets): a node's ranks combine over shared memory, the node leaders alone run the
 * algorithm across the network. Real data on every rank; the flat algorithms where MPICH uses them.
 */
import { describe, expect, it } from 'vitest';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';

/** Each rank's allreduce result and time (us) of one 8-byte allreduce after a barrier. */
async function allreduce(nodes: number, ppn: number, set: Record<string, string> = {}, call?: (ctx: RankContext, send: Float64Array, recv: Float64Array) => Promise<void>) {
  const r = await simulate({
    machine: 'xc30',
    nodes,
    ppn,
    set,
    program: async (ctx) => {
      const { mpi } = ctx;
      const send = Float64Array.of(mpi.rank + 1, 2 * mpi.rank);
      const recv = new Float64Array(2);
      // the same barrier in every run, so that only the allreduce differs
      await mpi.barrier({ algorithm: 'dissemination' });
      const t0 = ctx.now();
      if (call) await call(ctx, send, recv);
      else await mpi.allreduce(send, recv, mpi.SUM);
      return { us: ctx.now() - t0, recv: Array.from(recv) };
    },
  });
  return r.rankResults;
}

describe('node-aware allreduce and barrier', () => {
  it('4 nodes x 6 ranks: every rank gets the sum, sooner than with the flat algorithm', async () => {
    const n = 24;
    const sum = [(n * (n + 1)) / 2, n * (n - 1)];
    const smp = await allreduce(4, 6);
    const flat = await allreduce(4, 6, { 'mpi.nodeAwareCollectives': 'no' });
    for (const x of [...smp, ...flat]) expect(x.recv).toEqual(sum);
    const slowest = (rs: typeof smp): number => Math.max(...rs.map((x) => x.us));
    expect(slowest(smp)).toBeLessThan(0.8 * slowest(flat));
  });

  it('one node of 8 ranks: the sum over shared memory alone, no network message', async () => {
    const rs = await allreduce(1, 8, { 'mpi.collectiveOverhead': '0ns' });
    for (const x of rs) expect(x.recv).toEqual([36, 56]);
    // two board passes of mpi.shmLatency (350 ns) and the copies (the call's entry cost left out), well under one network hop
    expect(Math.max(...rs.map((x) => x.us))).toBeLessThan(1.5);
  });

  it('the flat algorithm where MPICH keeps it: a named algorithm, a non-commutative op, one rank per node', async () => {
    const rd = (ctx: RankContext, s: Float64Array, r: Float64Array): Promise<void> => ctx.mpi.allreduce(s, r, ctx.mpi.SUM, { algorithm: 'recursiveDoubling' });
    const named = await allreduce(4, 6, {}, rd);
    const namedFlat = await allreduce(4, 6, { 'mpi.nodeAwareCollectives': 'no' }, rd);
    expect(named.map((x) => x.us)).toEqual(namedFlat.map((x) => x.us));
    const nonCommutative = (ctx: RankContext, s: Float64Array, r: Float64Array): Promise<void> => {
      const op = ctx.mpi.opCreate((a, b) => {
        for (let i = 0; i < a.length; i++) (a as Float64Array)[i] = (a as Float64Array)[i]! + (b as Float64Array)[i]!;
      }, false);
      return ctx.mpi.allreduce(s, r, op);
    };
    const a = await allreduce(4, 6, {}, nonCommutative);
    const b = await allreduce(4, 6, { 'mpi.nodeAwareCollectives': 'no' }, nonCommutative);
    expect(a.map((x) => x.us)).toEqual(b.map((x) => x.us));
    const onePerNode = await allreduce(8, 1);
    const onePerNodeFlat = await allreduce(8, 1, { 'mpi.nodeAwareCollectives': 'no' });
    expect(onePerNode.map((x) => x.us)).toEqual(onePerNodeFlat.map((x) => x.us));
  });

  it('a node-aware barrier lets no rank out before the last one is in', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 3,
      ppn: 4,
      program: async ({ mpi, now, compute }) => {
        await compute({ us: 1 + ((mpi.rank * 7) % 10) * 3 });
        const entry = now();
        await mpi.barrier();
        return { entry, exit: now() };
      },
    });
    const lastIn = Math.max(...r.rankResults.map((x) => x.entry));
    for (const x of r.rankResults) expect(x.exit).toBeGreaterThan(lastIn);
  });

  it('a skeleton run takes the same time', async () => {
    const run = (skeleton: boolean) =>
      simulate({
        machine: 'xe6',
        nodes: 4,
        ppn: 4,
        skeleton,
        program: async (ctx) => {
          const a = ctx.alloc(Float64Array, 4);
          const b = ctx.alloc(Float64Array, 4);
          await ctx.mpi.allreduce(a, b, ctx.mpi.MAX);
          return ctx.now();
        },
      });
    expect((await run(true)).simulatedTimeUs).toBe((await run(false)).simulatedTimeUs);
  });
});
