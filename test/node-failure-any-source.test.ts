/**
 * Node failure and ANY_SOURCE: a receive from any source that only dead ranks could satisfy
 * (every other rank of its communicator is dead) completes with MPI_ERR_OTHER naming them under
 * ERRORS_RETURN, once the NIC timeout has run out; while a live rank may still send, it waits.
 */
import { describe, expect, it } from 'vitest';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';

/** Every preset's NIC timeout (nic.timeout), in us. */
const TIMEOUT_US = 1000;

describe('ANY_SOURCE receive with dead peers', () => {
  it('xe6: every other rank dead: the receive fails with MPI_ERR_OTHER naming both, one timeout after the last death', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      set: { 'faults.nodes': '1@5us,2@8us', 'nic.timeout': `${TIMEOUT_US}us` },
      program: async (ctx) => {
        if (ctx.rank !== 0) {
          await ctx.compute(1e12);
          return null;
        }
        ctx.mpi.setErrhandler(ctx.mpi.ERRORS_RETURN);
        try {
          await ctx.mpi.recv(new Int32Array(4), ctx.mpi.ANY_SOURCE, 0);
          return { cls: 'none', message: '', us: ctx.now() };
        } catch (e) {
          return { cls: (e as MpiError).errorClass, message: (e as Error).message, us: ctx.now() };
        }
      },
    });
    const s = r.rankResults[0]!;
    expect(s.cls).toBe('MPI_ERR_OTHER');
    expect(s.message).toMatch(/any source/);
    expect(s.message).toMatch(/rank 1 \(node 1, dead since 5\.000 us\)/);
    expect(s.message).toMatch(/rank 2 \(node 2, dead since 8\.000 us\)/);
    expect(s.us).toBeGreaterThanOrEqual(8 + TIMEOUT_US);
    expect(s.us).toBeLessThan(8 + TIMEOUT_US + 50);
  });

  it('xe6: one other rank dead, one alive that sends late: the receive waits and gets the live rank\'s message', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 3,
      set: { 'faults.nodes': '2@5us' },
      program: async (ctx) => {
        if (ctx.rank === 2) {
          await ctx.compute(1e12);
          return null;
        }
        if (ctx.rank === 1) {
          await ctx.compute(3000e6);
          await ctx.mpi.send(Int32Array.of(7, 8, 9, 10), 0, 0);
          return null;
        }
        ctx.mpi.setErrhandler(ctx.mpi.ERRORS_RETURN);
        const buf = new Int32Array(4);
        const st = await ctx.mpi.recv(buf, ctx.mpi.ANY_SOURCE, 0);
        return { data: Array.from(buf), source: st.source, us: ctx.now() };
      },
    });
    const s = r.rankResults[0]!;
    expect(s.data).toEqual([7, 8, 9, 10]);
    expect(s.source).toBe(1);
    expect(s.us).toBeGreaterThan(3000);
  });
});
