/** OpenSHMEM waitUntil: it wakes on remote atomics and puts, and a wait nothing can satisfy is a deadlock report. */
import { describe, expect, it } from 'vitest';
import { DeadlockError } from '../fabric/engine/engine.ts';
import { rejection } from './helpers.ts';
import { run } from './shmem-helpers.ts';

describe('OpenSHMEM over DMAPP', () => {
  it('waitUntil wakes on remote atomics and puts; every comparison; test() does not wait', async () => {
    const res = await run('xc30', 2, 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const flag = await s.malloc(8);
      const small = await s.malloc(4);
      if (me !== 0) {
        await ctx.compute({ us: 5 * me });
        await s.atomicInc(flag, 0);
        if (me === 3) await s.pInt32(small, -7, 0);
        return null;
      }
      const before = ctx.now();
      const early = await s.test(flag, 'ge', 3);
      await s.waitUntil(flag, 'ge', 3);
      const woke = ctx.now();
      await s.waitUntil(small, 'eq', -7, 'int32');
      for (const [cmp, v] of [['eq', 3], ['ne', 2], ['gt', 2], ['ge', 3], ['lt', 4], ['le', 3]] as const) await s.waitUntil(flag, cmp, v);
      return { early, waited: woke - before, late: await s.test(flag, 'eq', 3n) };
    });
    const r = res[0]!;
    expect(r.early).toBe(false);
    expect(r.late).toBe(true);
    // the last increment leaves PE 3 after 15 us of compute; the wait ends one poll after it is in PE 0's memory
    expect(r.waited).toBeGreaterThan(15);
    expect(r.waited).toBeLessThan(20);
  });

  it('a waitUntil that can never be satisfied is a deadlock, reported as soon as nothing can change it, naming the PE, the call and the address', async () => {
    let putAt = 0;
    const err = await rejection(
      run('xe6', 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const flag = await s.malloc(16);
        if (s.myPe() === 1) await s.waitUntil(flag.element('int64', 1), 'eq', 42);
        else {
          // a write that wakes the waiter without satisfying it: it checks, and sleeps again
          await ctx.compute({ us: 50 });
          putAt = ctx.now();
          await s.pInt64(flag.element('int64', 1), 41n, 1);
          await s.quiet();
        }
        return ctx.now();
      }),
    );
    expect(err).toBeInstanceOf(DeadlockError);
    const d = err as DeadlockError;
    expect(d.blocked).toEqual([expect.stringMatching(/^rank 1: waitUntil\(ivar at segment \d+ byte 8, eq 42\) on PE 1: the int64 value is 41$/)]);
    // reported when the last event (the put's completion at PE 0, a few us after it left) is
    // done, not after a simulated timeout (there was one of 1 s)
    expect(putAt).toBeGreaterThan(50);
    expect(d.timePs / 1e6).toBeGreaterThan(putAt);
    expect(d.timePs / 1e6).toBeLessThan(putAt + 5);
  });
});
