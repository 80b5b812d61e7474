/**
 * Node failure and ANY_SOURCE: a receive from any source that only dead ranks could satisfy
 * (every other rank of its communicator is dead) completes with MPI_ERR_OTHER naming them under
 * ERRORS_RETURN, once the NIC timeout has run out; while a live rank may still send, it waits.
 * When the run has no event left, ranks that finished count as unable to send too; a live rank
 * that is itself blocked makes it a deadlock report listing every blocked rank.
 */
import { describe, expect, it } from 'vitest';
import { DeadlockError } from '../fabric/engine/engine.ts';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { NodeFailureError } from '../runtime/node-failure.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/**
 * Three xe6 nodes, node 2 dead at 5 us; rank 0 receives from any source (under ERRORS_RETURN
 * unless `fatal`) and returns what it got or the error; rank 1 finishes at once, or (`block`)
 * first waits for a message from rank 0 that never comes.
 */
function stalled(rank1: 'finish' | 'block', fatal = false) {
  return simulate({
    machine: 'xe6',
    nodes: 3,
    set: { 'faults.nodes': '2@5us', 'nic.timeout': `${TIMEOUT_US}us` },
    program: async (ctx) => {
      if (ctx.rank === 2) {
        await ctx.compute(20e6);
        return null;
      }
      if (ctx.rank === 1) {
        if (rank1 === 'block') await ctx.mpi.recv(new Int32Array(1), 0, 9);
        return null;
      }
      if (!fatal) ctx.mpi.setErrhandler(ctx.mpi.ERRORS_RETURN);
      try {
        await ctx.mpi.recv(new Int32Array(4), ctx.mpi.ANY_SOURCE, 0);
        return { cls: 'none', message: '', us: ctx.now() };
      } catch (e) {
        if (fatal) throw e;
        return { cls: (e as MpiError).errorClass, message: (e as Error).message, us: ctx.now() };
      }
    },
  });
}

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

  it('xe6: the other live rank finished without sending: once no event is left the receive fails with MPI_ERR_OTHER naming both', async () => {
    const r = await stalled('finish');
    const s = r.rankResults[0]!;
    expect(s.cls).toBe('MPI_ERR_OTHER');
    expect(s.message).toMatch(/recv\(source=ANY_SOURCE, tag=0\): receive from any source, but no other rank of the communicator can send: rank 1 finished without sending it, and rank 2 \(node 2, dead since 5\.000 us\) did not answer within the NIC timeout/);
    // not before the death is known (5 us + the timeout), nor before the dead rank's last event (20 us)
    expect(s.us).toBeGreaterThanOrEqual(5 + TIMEOUT_US);
  });

  it('xe6: under the default handler that error ends the run in one line', async () => {
    const err = await rejection(stalled('finish', true));
    expect(err.message).toMatch(/MPI_ERR_OTHER: recv\(source=ANY_SOURCE, tag=0\): receive from any source, but no other rank of the communicator can send/);
    expect(err).not.toBeInstanceOf(DeadlockError);
  });

  it('xe6: the other live rank is blocked itself: a deadlock report naming the dead node and every blocked rank with its call', async () => {
    const err = await rejection(stalled('block'));
    expect(err).toBeInstanceOf(DeadlockError);
    expect(err).toBeInstanceOf(NodeFailureError);
    expect(err.message).toMatch(/node 2 \(dead since 5\.000 us\)/);
    expect(err.message).toMatch(/2 live rank\(s\) are blocked/);
    expect(err.message).toMatch(/rank 0: recv\(source=ANY_SOURCE, tag=0\)/);
    expect(err.message).toMatch(/rank 1: recv\(source=0, tag=9\)/);
  });
});
