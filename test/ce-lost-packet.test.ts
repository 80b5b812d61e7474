/**
 * A collective-engine packet lost on a link that fails under it (faults.links with a time, no
 * parallel link left): the tree's wait for it times out after nic.timeout, as for a dead member,
 * and every member's allreduce fails with MPI_ERR_OTHER (ERRORS_RETURN) or ends the run with that
 * one line (the default handler, exit 1 from the command line), never a deadlock report.
 */
import { describe, expect, it } from 'vitest';
import { DeadlockError } from '../fabric/engine/engine.ts';
import { buildMachine, machineSpec, resolveMachine } from '../fabric/machine.ts';
import type { MpiError } from '../runtime/mpi/mpi.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit, rejection } from './helpers.ts';

/** nic.timeout of these runs, when the members join and when the link fails, in us. */
const TIMEOUT_US = 200;
const JOIN_US = 10;
const FAIL_US = 20;

/**
 * 8 xc30 nodes, 4 per Aries router (nodes 4..7 on router 1), the engine's tree of radix 2: root
 * 0, its children 1 (heading 1..4, whose child 4 is on router 1) and 5 (heading 5..7, on router
 * 1). So the partial results of nodes 4 and 5 go up from router 1 to router 0 over the one green
 * link between them. Links take 20 us here (link.latency), so those two packets are still on it
 * when it fails 10 us after the join; quiescing for new routes takes 1 us.
 */
function settings(): Record<string, string> {
  const g = buildMachine(resolveMachine(machineSpec('xc30'), 8, {})).graph;
  const port = [...Array(g.radix).keys()].find((q) => g.peerRouter[q] === 1)!;
  // a single link: no parallel link to send them again over
  expect([...Array(g.radix).keys()].filter((q) => g.peerRouter[q] === 1)).toHaveLength(1);
  return {
    'mpi.collectiveEngine': 'yes',
    'ce.radix': '2',
    'link.latency': '20us',
    'faults.links': `0:${port}@${FAIL_US}us`,
    'faults.quiescePause': '1us',
    'nic.timeout': `${TIMEOUT_US}us`,
  };
}

describe('a collective-engine packet lost on a failed link', () => {
  it('every member\'s allreduce fails with MPI_ERR_OTHER naming the node whose packet was lost, one timeout later; the next allreduce goes round the failed link with the right sum', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 8,
      metrics: true,
      set: settings(),
      program: async (ctx) => {
        const mpi = ctx.mpi;
        mpi.setErrhandler(mpi.ERRORS_RETURN);
        await ctx.compute(JOIN_US * 1e6);
        let failed: { cls: string; message: string; us: number } | null = null;
        try {
          await mpi.allreduce(Float64Array.of(1), new Float64Array(1), mpi.SUM);
        } catch (e) {
          failed = { cls: (e as MpiError).errorClass, message: (e as Error).message, us: ctx.now() };
        }
        const sum = new Float64Array(1);
        await mpi.allreduce(Float64Array.of(ctx.rank), sum, mpi.SUM);
        return { failed, sum: sum[0]! };
      },
    });
    // both packets on the link were lost (and nothing else was on it)
    expect(r.metrics!.fabric.faults!.lost).toBe(2);
    for (let rank = 0; rank < 8; rank++) {
      const res = r.rankResults[rank]!;
      expect(res.failed, `rank ${rank}`).not.toBeNull();
      expect(res.failed!.cls).toBe('MPI_ERR_OTHER');
      expect(res.failed!.message).toMatch(/^MPI_ERR_OTHER: allreduce \(collective engine\): the network reduction failed: a packet of its tree from node [45] was lost on a failed link, and the NIC timeout ran out$/);
      // the waits time out one NIC timeout after the loss; the failure then comes down the tree
      expect(res.failed!.us).toBeGreaterThanOrEqual(FAIL_US + TIMEOUT_US);
      expect(res.failed!.us).toBeLessThan(FAIL_US + TIMEOUT_US + 100);
      expect(res.sum).toBe(28);
    }
  });

  it('without the failure the same allreduce succeeds, its packets crossing the link after 20 us (the failure above hit them in flight)', async () => {
    const set = { ...settings(), 'faults.links': 'none' };
    const r = await simulate({
      machine: 'xc30',
      nodes: 8,
      set,
      program: async (ctx) => {
        await ctx.compute(JOIN_US * 1e6);
        const sum = new Float64Array(1);
        await ctx.mpi.allreduce(Float64Array.of(ctx.rank), sum, ctx.mpi.SUM);
        return { sum: sum[0]!, us: ctx.now() };
      },
    });
    for (const res of r.rankResults) expect(res.sum).toBe(28);
    // the root's result waits for node 5's partial result to cross from router 1 (20 us, past the
    // failure time), and router 1's ranks for the result to cross back (20 us more)
    expect(Math.min(...r.rankResults.map((x) => x.us))).toBeGreaterThan(JOIN_US + 20);
    expect(Math.max(...r.rankResults.map((x) => x.us))).toBeGreaterThan(JOIN_US + 40);
  });

  it('a parent that joins after its child\'s packet was lost times out one timeout after its join; with links up, a member that joins later than the timeout is waited for', async () => {
    const run = (fail: boolean) =>
      simulate({
        machine: 'xc30',
        nodes: 8,
        set: { ...settings(), ...(fail ? {} : { 'faults.links': 'none' }) },
        program: async (ctx) => {
          const mpi = ctx.mpi;
          mpi.setErrhandler(mpi.ERRORS_RETURN);
          // node 1 (node 4's parent) joins at 100 us, after node 4's packet was lost; node 7 at 500 us
          await ctx.compute((ctx.rank === 1 ? 100 : ctx.rank === 7 ? 500 : JOIN_US) * 1e6);
          const sum = new Float64Array(1);
          try {
            await mpi.allreduce(Float64Array.of(ctx.rank), sum, mpi.SUM);
            return { ok: true, sum: sum[0]!, us: ctx.now() };
          } catch {
            return { ok: false, sum: NaN, us: ctx.now() };
          }
        },
      });
    const lost = await run(true);
    for (const res of lost.rankResults) {
      expect(res.ok).toBe(false);
      expect(res.us).toBeGreaterThanOrEqual(100 + TIMEOUT_US);
    }
    // the same late joins with no failure: no timeout, the sum is right once node 7 is in
    for (const res of (await run(false)).rankResults) {
      expect(res.ok).toBe(true);
      expect(res.sum).toBe(28);
      expect(res.us).toBeGreaterThan(500);
    }
  });

  it('under the default handler the run ends with that error on one line, not a deadlock report', async () => {
    const err = await rejection(
      simulate({
        machine: 'xc30',
        nodes: 8,
        set: settings(),
        program: async (ctx) => {
          await ctx.compute(JOIN_US * 1e6);
          await ctx.mpi.allreduce(Float64Array.of(1), new Float64Array(1), ctx.mpi.SUM);
        },
      }),
    );
    expect(err).not.toBeInstanceOf(DeadlockError);
    expect(err.message).toMatch(/MPI_ERR_OTHER: allreduce \(collective engine\): the network reduction failed: a packet of its tree from node [45] was lost/);
    expect(err.message).not.toMatch(/\n/);
  });

  it('phit run allreduce on the engine exits 1 with one line', async () => {
    const set = Object.entries(settings()).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
    const r = await phit('run', 'allreduce', '--machine', 'xc30', '--nodes', '8', '--param', 'algorithm=collectiveEngine', '--param', 'maxBytes=8', ...set);
    expect(r.code).toBe(1);
    expect(r.err.join('\n').trim().split('\n')).toHaveLength(1);
    expect(r.err[0]).toMatch(/MPI_ERR_OTHER: allreduce \(collective engine\): the network reduction failed: a packet of its tree from node \d+ was lost on a failed link/);
  });
});
