/**
 * Stores through `shmem.ptr` (a view of a PE's memory on this node) wake a PE waiting on those
 * bytes at the time of the store, as a put's landing does: the waiter resumes one poll after it,
 * whether it waits in waitUntil, signalWaitUntil or an array wait.
 */
import { describe, expect, it } from 'vitest';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { ShmemError } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';

/** A poll of local memory on `machine` (ps). */
function pollPs(machine: string): number {
  return resolveMachine(machineSpec(machine), 2, {}).mpi.testOverheadPs;
}

/** ctx.now() (us) back to integer ps. */
const ps = (us: number): number => Math.round(us * 1e6);

async function failure(f: () => unknown): Promise<string> {
  try {
    await f();
    return 'resolved';
  } catch (e) {
    return `${e instanceof ShmemError ? 'ShmemError' : String(e)}: ${(e as Error).message}`;
  }
}

describe('stores through shmem.ptr wake waiting PEs', () => {
  it.each([
    { how: 'an element assignment (waitUntil on an int64)', wait: 'waitUntil' },
    { how: 'an element assignment (signalWaitUntil on a uint64 signal)', wait: 'signal' },
    { how: "set() on a subarray (waitUntilAll on three int32's)", wait: 'all' },
    { how: 'fill() (waitUntilAny on int16s)', wait: 'any' },
  ])('$how: the waiter resumes one poll after the store, 100 us into the writer\'s compute', async ({ wait }) => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 1,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const v = await s.malloc(64);
        if (s.myPe() === 0) {
          await ctx.compute({ us: 100 });
          const stored = ps(ctx.now());
          if (wait === 'waitUntil') s.ptr(v, 1, 'int64')![0] = 42n;
          else if (wait === 'signal') s.ptr(v.at(8), 1, 'uint64')![0] = 7n;
          else if (wait === 'all') s.ptr(v, 1, 'int32')!.subarray(2).set([1, 1, 1], 1);
          else s.ptr(v, 1, 'int16')!.fill(9, 5, 6);
          return { stored, got: null };
        }
        let got: unknown = null;
        if (wait === 'waitUntil') await s.waitUntil(v, 'eq', 42);
        else if (wait === 'signal') got = await s.signalWaitUntil(v.at(8), 'ge', 7);
        else if (wait === 'all') await s.waitUntilAll(v.at(12), 3, null, 'eq', 1, 'int32');
        else got = await s.waitUntilAny(v, 8, null, 'ne', 0, 'int16');
        return { resumed: ps(ctx.now()), got };
      },
    });
    const [writer, waiter] = r.rankResults as [{ stored: number }, { resumed: number; got: unknown }];
    expect(writer.stored).toBeGreaterThanOrEqual(100e6);
    expect(waiter.resumed - writer.stored).toBeGreaterThanOrEqual(pollPs('xe6'));
    expect(waiter.resumed - writer.stored).toBeLessThanOrEqual(pollPs('xe6') + 1);
    if (wait === 'signal') expect(waiter.got).toBe(7n);
    if (wait === 'any') expect(waiter.got).toBe(5);
  });

  it('test() sees a store at once; a store to other bytes of the segment does not release the wait early', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 1,
      ppn: 3,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const v = await s.malloc(32);
        if (me === 2) {
          // a store to other bytes of the variable's segment: the waiter sleeps on
          await ctx.compute({ us: 20 });
          s.ptr(v.at(16), 1, 'int64')![0] = 1n;
          await ctx.compute({ us: 30 });
          const stored = ps(ctx.now());
          s.ptr(v, 1, 'int64')![0] = 5n;
          return { stored };
        }
        if (me === 1) {
          const before = await s.test(v, 'eq', 5);
          await s.waitUntil(v, 'eq', 5);
          return { resumed: ps(ctx.now()), before, now: await s.test(v, 'eq', 5) };
        }
        return {};
      },
    });
    const [, waiter, writer] = r.rankResults as [unknown, { resumed: number; before: boolean; now: boolean }, { stored: number }];
    expect(waiter.before).toBe(false);
    expect(waiter.now).toBe(true);
    expect(waiter.resumed - writer.stored).toBeGreaterThanOrEqual(pollPs('xc30'));
    expect(waiter.resumed - writer.stored).toBeLessThanOrEqual(pollPs('xc30') + 1);
  });

  it('a view from ptr is a source of putmem and putSignal as a typed array is; a misaligned typed view and an unknown type fail naming ptr and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const v = await s.malloc(32);
        const sig = await s.malloc(8);
        v.float64()[0] = 1.5 + me;
        await s.barrierAll();
        const peer = me ^ 1; // the other PE of this node
        const view = s.ptr(v, peer, 'float64')!;
        // PE 0 and 2 send their node peer's first double to PE (me + 2) % 4 on the other node
        if (me % 2 === 0) {
          await s.putmem(v.at(8), view, 8, (me + 2) % 4);
          await s.putSignal(v.at(16), view, 1, sig, 1, 'set', (me + 2) % 4);
        }
        await s.barrierAll();
        return {
          got: [...v.float64()].slice(0, 3),
          far: s.ptr(v, (me + 2) % 4, 'float64'),
          misaligned: await failure(() => s.ptr(v.at(4), peer, 'float64')),
          badType: await failure(() => s.ptr(v, peer, 'int128' as never)),
          teamView: s.teamPtr(s.TEAM_SHARED, v, 1 - s.teamMyPe(s.TEAM_SHARED), 'float64')?.[0],
        };
      },
    });
    const res = r.rankResults as { got: number[]; far: unknown; misaligned: string; badType: string; teamView: number }[];
    // PE 0 sends PE 1's value to PE 2, PE 2 sends PE 3's to PE 0
    expect(res[2]!.got).toEqual([3.5, 2.5, 2.5]);
    expect(res[0]!.got).toEqual([1.5, 4.5, 4.5]);
    for (const [pe, x] of res.entries()) {
      expect(x.far).toBeNull();
      expect(x.misaligned).toBe('ShmemError: ptr: dest is at byte offset 4, not aligned to the 8-byte float64');
      expect(x.badType).toBe('ShmemError: ptr: type=int128; valid: int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64');
      expect(x.teamView).toBe(1.5 + (pe ^ 1));
    }
  });
});
