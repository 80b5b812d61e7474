/**
 * OpenSHMEM locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock) as an MCS queue of NIC
 * AMOs: an exclusive lock excludes (a read-modify-write by get and put under it is exact),
 * waiting PEs get it first come first served, contention costs network round trips, and misuse
 * names the call. Includes a port of SOS test/unit/set_lock.c.
 */
import { describe, expect, it } from 'vitest';
import { DeadlockError } from '../fabric/engine/engine.ts';
import type { RankContext } from '../runtime/rank.ts';
import { ShmemError } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

async function run<R>(machine: string, nodes: number, ppn: number, program: (ctx: RankContext) => Promise<R>): Promise<readonly R[]> {
  const r = await simulate({ machine, nodes, ppn, program });
  return r.rankResults;
}

const shapes = [
  { n: 2, nodes: 2, ppn: 1 },
  { n: 4, nodes: 2, ppn: 2 },
  { n: 5, nodes: 5, ppn: 1 },
  { n: 8, nodes: 4, ppn: 2 },
];
const runs = [
  ...['xc30', 'xe6'].flatMap((machine) => shapes.map((s) => ({ machine, ...s }))),
  ...['xt4', 'sc5832', 'bw'].map((machine) => ({ machine, n: 4, nodes: 2, ppn: 2 })),
];

/** Every PE adds 1 to a counter on the last PE `rounds` times by get, compute, put; under the lock if `locked`. */
async function increments(ctx: RankContext, rounds: number, locked: boolean): Promise<{ counter: bigint | undefined; order: bigint[] }> {
  const s = ctx.shmem;
  const n = s.nPes();
  const lock = await s.malloc(8);
  const counter = await s.malloc(8);
  const tickets = await s.malloc(8);
  const order: bigint[] = [];
  for (let i = 0; i < rounds; i++) {
    if (locked) await s.setLock(lock);
    const v = await s.gInt64(counter, n - 1);
    await ctx.compute({ ns: 300 });
    await s.pInt64(counter, v + 1n, n - 1);
    order.push(await s.atomicFetchInc(tickets, 0));
    if (locked) await s.clearLock(lock);
    else await s.quiet();
  }
  await s.barrierAll();
  return { counter: s.myPe() === n - 1 ? counter.int64()[0] : undefined, order };
}

describe('OpenSHMEM locks', () => {
  it.each(runs)('$machine, $n PEs ($nodes nodes x $ppn): 6 get-compute-put increments per PE under the lock give exactly 6n', async ({ machine, n, nodes, ppn }) => {
    const res = await run(machine, nodes, ppn, (ctx) => increments(ctx, 6, true));
    expect(res[n - 1]!.counter).toBe(BigInt(6 * n));
    // every ticket once: the critical sections never overlapped
    expect(res.flatMap((r) => r.order).sort((a, b) => Number(a - b))).toEqual(Array.from({ length: 6 * n }, (_, i) => BigInt(i)));
  });

  it('without the lock the same increments lose updates (so the test above can fail)', async () => {
    const res = await run('xe6', 4, 2, (ctx) => increments(ctx, 6, false));
    expect(res[7]!.counter).toBeLessThan(48n);
  });

  // SOS test/unit/set_lock.c: each loop, every PE takes the lock, adds 1 to lock_cnt on every PE,
  // releases; then waits until its lock_cnt reaches npes; lock_cnt must be npes
  it.each([
    { machine: 'xe6', nodes: 2, ppn: 2 },
    { machine: 'xc30', nodes: 5, ppn: 1 },
    { machine: 'xc30', nodes: 4, ppn: 2 },
  ])('SOS set_lock on $machine ($nodes x $ppn): 10 loops, lock_cnt reaches npes every loop', async ({ machine, nodes, ppn }) => {
    const res = await run(machine, nodes, ppn, async (ctx) => {
      const s = ctx.shmem;
      const npes = s.nPes();
      const lockCnt = await s.malloc(8);
      const lock = await s.malloc(8);
      const bad: number[] = [];
      for (let loop = 1; loop <= 10; loop++) {
        lockCnt.int32()[0] = 0;
        lock.int64()[0] = 0n;
        await s.barrierAll();
        await s.setLock(lock);
        for (let pe = 0; pe < npes; pe++) await s.atomicAdd(lockCnt, 1, pe, 'int32');
        await s.clearLock(lock);
        await s.waitUntil(lockCnt, 'ge', npes, 'int32');
        await s.barrierAll();
        if (lockCnt.int32()[0] !== npes) bad.push(loop);
      }
      return bad;
    });
    expect(res).toEqual(res.map(() => []));
  });

  it('waiting PEs get the lock first come, first served: PEs that ask 3 us apart while it is held 20 us get it in the order they asked', async () => {
    const res = await run('xc30', 3, 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const lock = await s.malloc(8);
      const turn = await s.malloc(8);
      // PE 5 asks first, PE 0 last
      await ctx.compute({ us: 3 * (5 - me) });
      await s.setLock(lock);
      const got = await s.atomicFetchInc(turn, 0);
      await ctx.compute({ us: 20 });
      await s.clearLock(lock);
      await s.barrierAll();
      return got;
    });
    expect(res).toEqual([5n, 4n, 3n, 2n, 1n, 0n]);
  });

  it('testLock takes a free lock and only then: 1 while another PE holds it, 0 for exactly one of the PEs that try at once after', async () => {
    const res = await run('xe6', 2, 2, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const lock = await s.malloc(8);
      if (me === 0) await s.setLock(lock);
      await s.barrierAll();
      const whileHeld = me === 0 ? null : await s.testLock(lock);
      await s.barrierAll();
      if (me === 0) await s.clearLock(lock);
      await s.barrierAll();
      const after = await s.testLock(lock);
      await s.barrierAll();
      if (after === 0) await s.clearLock(lock);
      await s.barrierAll();
      return { whileHeld, after };
    });
    expect(res.map((r) => r.whileHeld)).toEqual([null, 1, 1, 1]);
    expect(res.filter((r) => r.after === 0)).toHaveLength(1);
  });

  it.each(['xe6', 'xc30'])('%s: contention costs network round trips: a free lock costs about two AMO round trips to take, a queued PE waits out the holder', async (machine) => {
    const res = await run(machine, 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const me = s.myPe();
      const lock = await s.malloc(8);
      const x = await s.malloc(8);
      const out: Record<string, number> = {};
      if (me === 1) {
        // the lock's first use, then timed: an AMO on PE 0, the lock taken and released
        await s.setLock(lock);
        await s.clearLock(lock);
        await s.atomicFetchAdd(x, 1, 0);
        let t = ctx.now();
        await s.atomicFetchAdd(x, 1, 0);
        out.amo = ctx.now() - t;
        t = ctx.now();
        await s.setLock(lock);
        out.take = ctx.now() - t;
        t = ctx.now();
        await s.clearLock(lock);
        out.release = ctx.now() - t;
      }
      await s.barrierAll();
      // PE 0 holds it 30 us; PE 1 asks 5 us in and gets it when PE 0 lets go
      const t0 = ctx.now();
      if (me === 0) {
        await s.setLock(lock);
        await ctx.compute({ us: 30 });
        await s.clearLock(lock);
      } else {
        await ctx.compute({ us: 5 });
        await s.setLock(lock);
        out.queued = ctx.now() - t0;
        await s.clearLock(lock);
      }
      await s.barrierAll();
      return out;
    });
    const r = res[1] as Record<'amo' | 'take' | 'release' | 'queued', number>;
    // an AMO on this PE's own queue word, then a swap on the lock's home PE
    expect(r.take).toBeGreaterThan(1.5 * r.amo);
    expect(r.take).toBeLessThan(3 * r.amo);
    // a compare-and-swap on the home PE
    expect(r.release).toBeGreaterThan(0.8 * r.amo);
    expect(r.release).toBeLessThan(2 * r.amo);
    // the holder's 30 us, then its release and the signal to this PE
    expect(r.queued).toBeGreaterThan(30);
    expect(r.queued).toBeLessThan(30 + 6 * r.amo);
  });

  it('a lock its holder never clears is a deadlock naming setLock and the PE ahead', async () => {
    const err = await rejection(
      run('xe6', 2, 1, async (ctx) => {
        const s = ctx.shmem;
        const lock = await s.malloc(8);
        if (s.myPe() === 0) await s.setLock(lock);
        else {
          await ctx.compute({ us: 5 });
          await s.setLock(lock);
        }
        return 0;
      }),
    );
    expect(err).toBeInstanceOf(DeadlockError);
    expect((err as DeadlockError).blocked).toEqual([expect.stringMatching(/^rank 1: setLock\(lock at segment \d+ byte 0\) on PE 1: PE 0, ahead in the queue, never passed the lock on \(does it clearLock\?\)$/)]);
  });

  it('misuse fails with one line naming the call: clearing a lock not held, setting or testing one held, a misaligned or private lock', async () => {
    const res = await run('xe6', 2, 1, async (ctx) => {
      const s = ctx.shmem;
      const a = await s.malloc(16);
      const out: string[] = [];
      const note = async (p: Promise<unknown>): Promise<void> => {
        const e = await rejection(p);
        out.push(`${e instanceof ShmemError ? 'ShmemError' : e.name}: ${e.message}`);
      };
      await note(s.clearLock(a));
      await note(s.setLock(a.at(4)));
      await note(s.testLock(new BigInt64Array(1) as never));
      await note(s.setLock(a.at(16)));
      await s.barrierAll();
      if (s.myPe() === 0) {
        await s.setLock(a);
        await note(s.setLock(a));
        await note(s.testLock(a));
        await s.clearLock(a);
        await note(s.clearLock(a));
      }
      await s.barrierAll();
      return out;
    });
    const seg = /segment (\d+)/;
    expect(res[0]!.map((m) => m.replace(seg, 'segment S'))).toEqual([
      'ShmemError: clearLock: PE 0 does not hold the lock at segment S byte 0 (take it with setLock or testLock first)',
      'ShmemError: setLock: lock is at byte offset 4, not aligned to the 8-byte long',
      'ShmemError: testLock: lock is a BigInt64Array(1), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)',
      'ShmemError: setLock: 8 bytes at lock run past the end of its symmetric object (0 bytes from byte offset 16)',
      'ShmemError: setLock: PE 0 already holds the lock at segment S byte 0 (clearLock it first)',
      'ShmemError: testLock: PE 0 already holds the lock at segment S byte 0 (clearLock it first)',
      'ShmemError: clearLock: PE 0 does not hold the lock at segment S byte 0 (take it with setLock or testLock first)',
    ]);
  });

  it('traces and --metrics name the lock calls', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      metrics: true,
      program: async (ctx) => {
        const s = ctx.shmem;
        const lock = await s.malloc(8);
        await s.setLock(lock);
        await s.clearLock(lock);
        if ((await s.testLock(lock)) === 0) await s.clearLock(lock);
        return 0;
      },
    });
    const names = r.metrics!.calls.map((c) => c.name);
    for (const n of ['shmem_set_lock', 'shmem_clear_lock', 'shmem_test_lock']) expect(names).toContain(n);
  });
});
