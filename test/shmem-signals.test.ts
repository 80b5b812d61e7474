/**
 * Put-with-signal (OpenSHMEM 1.5 §9.8.1): a PE that sees the signal sees the data, the signal is
 * set or added as asked, `signalWaitUntil` wakes when the signal lands, and bad arguments fail
 * naming the call and the value.
 */
import { describe, expect, it, vi } from 'vitest';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { ShmemError } from '../runtime/shmem/shmem.ts';
import { ShmemWatch } from '../runtime/shmem/watch.ts';
import { simulate } from '../runtime/simulate.ts';

describe('SHMEM put-with-signal', () => {
  it.each(['xe6', 'xc30'])('%s, 4 PEs: three PEs putSignal / putSignalNbi / ctx putmemSignal 64 KiB each with SIGNAL_ADD; the waiter sees all the data once the signal reaches 3', async (machine) => {
    const n = 8192;
    const r = await simulate({
      machine,
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        const data = await s.malloc(3 * 8 * n);
        const sig = await s.malloc(8);
        if (me === 0) {
          const got = await s.signalWaitUntil(sig, 'ge', 3);
          // read the data right away: every chunk must be there already
          const d = data.float64();
          const ok = [1, 2, 3].map((p) => d.subarray((p - 1) * n, p * n).every((x, j) => x === p * 1e6 + j));
          const fetched = await s.signalFetch(sig);
          await s.barrierAll();
          return { got, ok, fetched };
        }
        const src = Float64Array.from({ length: n }, (_, j) => me * 1e6 + j);
        const dest = data.at((me - 1) * 8 * n);
        if (me === 1) await s.putSignal(dest, src, n, sig, 1n, s.SIGNAL_ADD, 0);
        if (me === 2) await s.putSignalNbi(dest, src, n, sig, 1, s.SIGNAL_ADD, 0);
        if (me === 3) {
          const c = s.ctxCreate();
          await c.putmemSignal(dest, src, 8 * n, sig, 1, c.SIGNAL_ADD, 0);
          await c.quiet();
        }
        await s.quiet();
        await s.barrierAll();
        return { got: 0n, ok: [], fetched: 0n };
      },
    });
    const p0 = r.rankResults[0]!;
    expect(p0.got).toBeGreaterThanOrEqual(3n);
    expect(p0.ok).toEqual([true, true, true]);
    expect(p0.fetched).toBe(3n);
  });

  it('SIGNAL_SET overwrites the signal; signalWaitUntil resumes one poll after the signal is visible and returns it', async () => {
    const landed = vi.spyOn(ShmemWatch.prototype, 'landed');
    let watched: ArrayBufferLike | null = null;
    const poll = resolveMachine(machineSpec('xe6'), 2, {}).mpi.testOverheadPs;
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const data = await s.malloc(64);
        const sig = await s.malloc(8);
        if (s.myPe() === 0) {
          sig.uint64()[0] = 40n;
          watched = sig.local.buffer;
          const got = await s.signalWaitUntil(sig, 'eq', 7);
          return { got, at: Math.round(ctx.now() * 1e6), data: [...data.int32()] };
        }
        await ctx.compute({ us: 50 });
        await s.putmemSignalNbi(data, Int32Array.from([5, 6, 7]), 12, sig, 7, 'set', 0);
        await s.quiet();
        return { got: 0n, at: 0, data: [] };
      },
    });
    const p0 = r.rankResults[0]!;
    expect(p0.got).toBe(7n);
    expect(p0.data.slice(0, 3)).toEqual([5, 6, 7]);
    // the last landing on PE 0's signal buffer on node 0 is the signal (the data is in another segment)
    const onSig = landed.mock.calls.filter(([node, mem, off]) => node === 0 && mem.buffer === watched && off < 8);
    const visible = onSig.at(-1)![4];
    expect(p0.at - visible).toBeGreaterThanOrEqual(poll);
    expect(p0.at - visible).toBeLessThanOrEqual(poll + 1);
    vi.restoreAllMocks();
  });

  it('a bad PE, a misaligned signal, a private signal address, a bad sigOp and a signal out of range fail naming the call and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const data = await s.malloc(16);
        const sig = await s.malloc(16);
        const src = new Int32Array(4);
        const msgs: string[] = [];
        for (const p of [
          s.putSignal(data, src, 4, sig, 1, 'set', 2),
          s.putSignalNbi(data, src, 4, sig.at(4), 1, 'add', 1),
          s.putmemSignal(data, src, 16, new BigUint64Array(1) as never, 1, 'set', 1),
          s.putmemSignalNbi(data, src, 16, sig, 1, 'toString' as never, 1),
          s.putSignal(data, src, 4, sig, -1, 'set', 1),
          s.putSignal(data, src, 8, sig, 1, 'set', 1),
          s.signalWaitUntil(sig.at(12), 'eq', 1),
          s.signalFetch(sig.at(4)),
        ]) {
          try {
            await p;
            msgs.push('resolved');
          } catch (e) {
            msgs.push(`${e instanceof ShmemError ? 'ShmemError' : String(e)}: ${(e as Error).message}`);
          }
        }
        await s.barrierAll();
        return { msgs, sig: [...sig.uint64()] };
      },
    });
    expect(r.rankResults[0]!.msgs).toEqual([
      'ShmemError: putSignal: pe=2 is not a PE (0..1)',
      'ShmemError: putSignalNbi: sigAddr is at byte offset 4, not aligned to the 8-byte uint64 signal',
      'ShmemError: putmemSignal: sigAddr is a BigUint64Array(1), not a symmetric address of PE 0 (allocate it with shmem.malloc; private memory cannot be named remotely)',
      'ShmemError: putmemSignalNbi: sigOp=toString; valid: set, add',
      'ShmemError: putSignal: signal=-1 does not fit uint64 (0..18446744073709551615)',
      'ShmemError: putSignal: nelems=8 (32 bytes) exceeds the 16 bytes of source',
      'ShmemError: signalWaitUntil: sigAddr is at byte offset 12, not aligned to the 8-byte uint64 signal',
      'ShmemError: signalFetch: sigAddr is at byte offset 4, not aligned to the 8-byte uint64 signal',
    ]);
    for (const x of r.rankResults) expect(x.sig).toEqual([0n, 0n]);
  });
});
