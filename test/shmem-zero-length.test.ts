/**
 * OpenSHMEM Annex C: a call that moves zero elements may be passed any address, NULL included.
 * Every team and active-set collective with a count of 0 and null buffers completes (found by
 * the port of SOS test/unit/nop_collectives.c: the team broadcast, fcollect and collect read
 * their null buffers), and a collect in which every PE gives nothing accepts a null dest while
 * one that collects something still names a bad dest.
 */
import { describe, expect, it } from 'vitest';
import type { Symmetric } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

const NULL = null as unknown as Symmetric;

describe('zero-length collectives (Annex C)', () => {
  for (const [nodes, ppn] of [
    [2, 1],
    [3, 2],
  ] as const) {
    it(`xe6, ${nodes * ppn} PEs: every team and active-set collective of 0 elements on null buffers completes, the pSync back to SYNC_VALUE`, async () => {
      const r = await simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async (ctx) => {
          const s = ctx.shmem;
          const n = s.nPes();
          const W = s.TEAM_WORLD;
          const ps = await s.malloc(8 * s.COLLECT_SYNC_SIZE);
          ps.int64().fill(s.SYNC_VALUE);
          const wrk = await s.malloc(8 * s.REDUCE_MIN_WRKDATA_SIZE);
          await s.broadcast(W, NULL, NULL, 0, n - 1, 'int32');
          await s.broadcastmem(W, NULL, NULL, 0, 0);
          await s.fcollect(W, NULL, NULL, 0, 'int64');
          await s.collect(W, NULL, NULL, 0, 'int32');
          await s.collectmem(W, NULL, NULL, 0);
          await s.alltoall(W, NULL, NULL, 0, 'int64');
          await s.alltoalls(W, NULL, NULL, 1, 1, 0, 'int32');
          await s.sumReduce(W, NULL, NULL, 0, 'int32');
          await s.xorReduce(W, NULL, NULL, 0, 'uint64');
          await s.broadcast32(NULL, NULL, 0, 0, 0, 0, n, ps);
          await s.fcollect64(NULL, NULL, 0, 0, 0, n, ps);
          await s.collect32(NULL, NULL, 0, 0, 0, n, ps);
          await s.alltoall64(NULL, NULL, 0, 0, 0, n, ps);
          await s.alltoalls32(NULL, NULL, 1, 1, 0, 0, 0, n, ps);
          await s.intProdToAll(NULL, NULL, 0, 0, 0, n, wrk, ps);
          return ps.int64().every((v) => v === s.SYNC_VALUE);
        },
      });
      expect(r.rankResults.every((clean) => clean)).toBe(true);
    });
  }

  it('a collect in which one PE gives something still needs a dest: the PE with a null dest fails after the sizes are in, naming the total', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async (ctx) => {
          const s = ctx.shmem;
          const src = await s.malloc(8);
          const dest = await s.malloc(16);
          await s.collect(s.TEAM_WORLD, ctx.rank === 1 ? NULL : dest, src, ctx.rank === 0 ? 1 : 0, 'int64');
          return 0;
        },
      }),
    );
    expect(e.message).toMatch(/^rank 1 failed at [0-9.]+ us: collect: dest is not a symmetric address of PE 1, and the 2 PEs contribute 8 bytes$/);
  });
});
