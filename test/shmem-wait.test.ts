/**
 * SHMEM waits are exact: a PE in `waitUntil` (or in a barrier) resumes one poll after the write
 * that satisfies it is visible in its memory, however long it waited, and a PE may compute for
 * any time before its first barrier.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { ShmemWatch } from '../runtime/shmem/watch.ts';
import { simulate } from '../runtime/simulate.ts';

/** A poll of local memory on `machine` (ps): the CPU time one read of a waited-on variable costs. */
function pollPs(machine: string): number {
  return resolveMachine(machineSpec(machine), 2, {}).mpi.testOverheadPs;
}

/** ctx.now() (us) back to integer ps. */
const ps = (us: number): number => Math.round(us * 1e6);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('exact SHMEM waits', () => {
  // The landing times come from the NIC's landing listener (the runtime's watch), spied on: the
  // time each write is visible in host memory. The waiter must resume exactly one poll after the
  // write it waits for is visible: the poll that reads it (xe6 has no OS noise to stretch it). The
  // margin of 1 ps is ctx.now()'s rounding from microseconds back to ps.
  it.each([
    { wait: '100 us', us: 100 },
    { wait: '10 ms', us: 10_000 },
    { wait: '2 s', us: 2_000_000 },
  ])('a waitUntil released by a remote put after $wait of the writer\'s compute resumes one poll after the put is visible', async ({ us }) => {
    const landed = vi.spyOn(ShmemWatch.prototype, 'landed');
    let watched: ArrayBufferLike | null = null;
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const flag = await s.malloc(8);
        if (s.myPe() === 0) {
          await ctx.compute({ us });
          const issued = ps(ctx.now());
          await s.pInt64(flag, 1n, 1);
          await s.quiet();
          return { issued, quietDone: ps(ctx.now()) };
        }
        watched = flag.local.buffer;
        await s.waitUntil(flag, 'eq', 1);
        return { resumed: ps(ctx.now()) };
      },
    });
    const [writer, waiter] = r.rankResults as [{ issued: number; quietDone: number }, { resumed: number }];
    const landings = landed.mock.calls.filter(([node, mem]) => node === 1 && mem.buffer === watched);
    expect(landings).toHaveLength(1);
    const visible = landings[0]![4];
    // the put becomes visible after it was issued, and before its completion is back at the writer
    expect(visible).toBeGreaterThan(writer.issued);
    expect(visible).toBeLessThan(writer.quietDone);
    expect(waiter.resumed - visible).toBeGreaterThanOrEqual(pollPs('xe6'));
    expect(waiter.resumed - visible).toBeLessThanOrEqual(pollPs('xe6') + 1);
  });

  it.each(['packet', 'flow'])('at the %s fidelity level, a wait on the last word of a 128 KiB put resumes one poll after that word is visible', async (fidelity) => {
    const landed = vi.spyOn(ShmemWatch.prototype, 'landed');
    const n = 16384;
    let watched: ArrayBufferLike | null = null;
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      set: { 'fabric.fidelity': fidelity },
      program: async (ctx) => {
        const s = ctx.shmem;
        const data = await s.malloc(8 * n);
        if (s.myPe() === 0) {
          await ctx.compute({ us: 100 });
          await s.putmem(data, new BigInt64Array(n).fill(7n), 8 * n, 1);
          await s.quiet();
          return 0;
        }
        watched = data.local.buffer;
        await s.waitUntil(data.element('int64', n - 1), 'eq', 7);
        return ps(ctx.now());
      },
    });
    const resumed = r.rankResults[1]!;
    // the landings that wrote the last word (one packet's, or the whole flow's)
    const last = landed.mock.calls.filter(([node, mem, offset, bytes]) => node === 1 && mem.buffer === watched && offset + bytes >= 8 * n);
    expect(last).toHaveLength(1);
    if (fidelity === 'flow') expect(last[0]![3]).toBe(8 * n);
    else expect(last[0]![3]).toBeLessThan(8 * n);
    expect(resumed - last[0]![4]).toBeGreaterThanOrEqual(pollPs('xe6'));
    expect(resumed - last[0]![4]).toBeLessThanOrEqual(pollPs('xe6') + 1);
  });

  // A PE that computes for 2 s before its first SHMEM call (the barrier) holds the others in the
  // barrier's bootstrap, as long as it takes. Once it arrives, they leave within the time the
  // barrier's signalling takes: measured in the same run by a second barrier that PE 0 also
  // enters 2 s late, with every PE set up (about 1 us on 4 PEs of xe6). The bootstrap adds at
  // most one more round of signalling (PE 0's first signal comes only once it is up), so twice
  // that, and a few microseconds in any case.
  it('a 2 s compute on one PE before its first barrierAll is legal; the others leave a few microseconds after it arrives', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const out: { arrived: number; left: number }[] = [];
        for (let k = 0; k < 2; k++) {
          if (s.myPe() === 0) await ctx.compute({ us: 2_000_000 });
          const arrived = ps(ctx.now());
          await s.barrierAll();
          out.push({ arrived, left: ps(ctx.now()) });
        }
        return out;
      },
    });
    const runs = r.rankResults as { arrived: number; left: number }[][];
    const lag = (k: number): number => Math.max(...runs.map((pe) => pe[k]!.left)) - runs[0]![k]!.arrived;
    expect(runs[0]![0]!.arrived).toBe(2e12);
    for (const pe of runs) for (const b of pe) expect(b.left).toBeGreaterThan(runs[0]![pe.indexOf(b)]!.arrived);
    expect(lag(1)).toBeGreaterThan(0);
    expect(lag(0)).toBeLessThanOrEqual(2 * lag(1));
    expect(lag(0)).toBeLessThan(5e6);
  });
});
