/**
 * A collective-engine reduction with a dead member (faults.nodes on xc30 with
 * mpi.collectiveEngine=yes): the tree times out at the dead node's parent (and at its children,
 * whose parent is gone) after nic.timeout, and every live member's allreduce fails with
 * MPI_ERR_OTHER naming the dead ranks, instead of waiting for ever.
 */
import { describe, expect, it } from 'vitest';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { NodeFailureError } from '../runtime/node-failure.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

/** The NIC timeout (nic.timeout) set in these runs and the time the node dies, in us. */
const TIMEOUT_US = 200;
const DEATH_US = 5;

/**
 * 8 xc30 nodes, 2 ranks each, the engine's tree of radix 2 (root 0; node 1 heads nodes 1..4 with
 * children 2 and 4, node 2 has child 3; node 5 heads 5..7): node `dead` dies at 5 us, every rank
 * runs an allreduce on the engine at 10 us under ERRORS_RETURN, then the live ranks one on a
 * communicator of their own.
 */
async function run(dead: number) {
  return simulate({
    machine: 'xc30',
    nodes: 8,
    ppn: 2,
    set: { 'mpi.collectiveEngine': 'yes', 'ce.radix': '2', 'faults.nodes': `${dead}@${DEATH_US}us`, 'nic.timeout': `${TIMEOUT_US}us` },
    program: async (ctx) => {
      const mpi = ctx.mpi;
      mpi.setErrhandler(mpi.ERRORS_RETURN);
      await ctx.compute(10e6);
      const out = new Float64Array(1);
      let failed: { cls: string; message: string; us: number } | null = null;
      try {
        await mpi.allreduce(Float64Array.of(1), out, mpi.SUM);
      } catch (e) {
        failed = { cls: (e as MpiError).errorClass, message: (e as Error).message, us: ctx.now() };
      }
      // the live ranks go on, on the engine, without the dead node's ranks
      const live = mpi.group.excl([2 * dead, 2 * dead + 1]);
      const comm = await mpi.createGroup(live);
      const sum = new Float64Array(1);
      await comm.allreduce(Float64Array.of(ctx.rank), sum, mpi.SUM, { algorithm: 'collectiveEngine' });
      return { failed, sum: sum[0]! };
    },
  });
}

describe('collective engine with a dead member', () => {
  it.each([
    [1, 'an inner node of the tree (its parent and its children time out)'],
    [7, 'a leaf'],
    [0, 'the root (its children time out)'],
  ])('node %i dies (%s): every live rank\'s allreduce fails with MPI_ERR_OTHER naming the dead ranks, one timeout later; the live ranks go on', async (dead) => {
    const r = await run(dead);
    const liveSum = [...Array(16).keys()].filter((k) => k >> 1 !== dead).reduce((a, b) => a + b, 0);
    for (let rank = 0; rank < 16; rank++) {
      const res = r.rankResults[rank];
      if (rank >> 1 === dead) {
        expect(res).toBeUndefined();
        continue;
      }
      expect(res!.failed).not.toBeNull();
      expect(res!.failed!.cls).toBe('MPI_ERR_OTHER');
      expect(res!.failed!.message).toMatch(/allreduce \(collective engine\): the network reduction failed/);
      expect(res!.failed!.message).toContain(`rank ${2 * dead} (node ${dead}, dead since 5.000 us), rank ${2 * dead + 1} (node ${dead}, dead since 5.000 us)`);
      // one timeout after the join at 10 us (a child of the dead node: one more, at most, as the failure comes down)
      expect(res!.failed!.us).toBeGreaterThanOrEqual(10 + TIMEOUT_US);
      expect(res!.failed!.us).toBeLessThan(10 + 2 * TIMEOUT_US + 20);
      expect(res!.sum).toBe(liveSum);
    }
  });

  it('under the default handler the run ends with that error, one line, not a node-failure or deadlock report', async () => {
    const err = await rejection(
      simulate({
        machine: 'xc30',
        nodes: 4,
        set: { 'mpi.collectiveEngine': 'yes', 'faults.nodes': `2@${DEATH_US}us` },
        program: async (ctx) => {
          await ctx.compute(10e6);
          await ctx.mpi.allreduce(Float64Array.of(1), new Float64Array(1), ctx.mpi.SUM);
        },
      }),
    );
    expect(err).not.toBeInstanceOf(NodeFailureError);
    expect(err.message).toMatch(/MPI_ERR_OTHER: allreduce \(collective engine\): the network reduction failed: rank 2 \(node 2, dead since 5\.000 us\) did not answer within the NIC timeout/);
    expect(err.message).not.toMatch(/deadlock|\n/);
  });
});
