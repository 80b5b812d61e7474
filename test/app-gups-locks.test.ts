/**
 * gups mode=locks, HPCC's SHMEM RandomAccess: the AMO update pass, then its verification, every
 * update undone by a get and a put under the lock of the word's owner PE. The verification
 * catches an update the first pass lost, and the get/put pairs race without the locks; the
 * calls are those HPCC makes (shmem_set_lock / clear_lock per update, longlong_sum_to_all).
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { RankContext } from '../runtime/rank.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate } from '../runtime/simulate.ts';

async function gups(raw: Record<string, string>, wrap: (ctx: RankContext) => void = () => {}, metrics = false): Promise<{ row: Row; calls: Record<string, CallStats> }> {
  const app = findApp('gups');
  const params = resolveParams(app, { mode: 'locks', ...raw });
  const r = await simulate({
    machine: 'xe6',
    nodes: 4,
    ppn: 2,
    metrics,
    program: (ctx) => {
      wrap(ctx);
      return app.main(ctx, params);
    },
  });
  return { row: r.result!.rows[0]!, calls: Object.fromEntries((r.metrics?.calls ?? []).map((c) => [c.name, c])) };
}

describe('gups mode=locks', () => {
  it('8 ranks on a 16-word table (every word contended): passes; one lock taken and cleared per update, the errors summed by the 1.4 reduction', async () => {
    const { row, calls } = await gups({ log2Words: '1', updates: '40' }, undefined, true);
    expect(row).toMatchObject({ mode: 'locks', ranks: 8, tableWords: 16, updates: 320, check: 'passed (locks)' });
    expect(calls.shmem_set_lock).toMatchObject({ calls: 320 });
    expect(calls.shmem_clear_lock).toMatchObject({ calls: 320 });
    expect(calls.shmem_ulong_g).toMatchObject({ calls: 320 });
    expect(calls.shmem_ulong_p).toMatchObject({ calls: 320 });
    expect(calls.shmem_atomic_xor).toMatchObject({ calls: 320 });
    expect(calls.shmem_longlong_sum_to_all).toMatchObject({ calls: 8 });
  });

  it('an update the AMO pass lost on one rank leaves its word changed after the verification: the run fails', async () => {
    const drop = (ctx: RankContext): void => {
      if (ctx.rank !== 5) return;
      const s = ctx.shmem;
      const orig = s.atomicXor.bind(s);
      let n = 0;
      s.atomicXor = (...a: Parameters<typeof s.atomicXor>) => (++n === 7 ? Promise.resolve() : orig(...a));
    };
    await expect(gups({ log2Words: '4', updates: '40' }, drop)).rejects.toThrow(/gups: 1 table words are not back to their start after the locked verification pass/);
  });

  it('without the locks (setLock and clearLock doing nothing but clearLock\'s quiet), the gets and puts of the verification race and the check catches it', async () => {
    const noLocks = (ctx: RankContext): void => {
      const s = ctx.shmem;
      s.setLock = async () => {};
      s.clearLock = async () => s.quiet();
    };
    await expect(gups({ log2Words: '1', updates: '64' }, noLocks)).rejects.toThrow(/gups: \d+ table words are not back to their start/);
  });
});
