/**
 * The atomics OpenSHMEM 1.5 defines on float and double (fetch, set, swap and their nbi forms)
 * move the exact float bits through the NIC's AMOs; compare-swap and arithmetic stay integer-only.
 */
import { describe, expect, it } from 'vitest';
import { ShmemError } from '../runtime/shmem/shmem.ts';
import { simulate } from '../runtime/simulate.ts';

describe('float and double atomics', () => {
  it.each(['xe6', 'xc30'])('%s, 4 PEs (2 nodes x 2): set, swap, fetch and their nbi forms on float32 and float64 give the exact values', async (machine) => {
    const r = await simulate({
      machine,
      nodes: 2,
      ppn: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const me = s.myPe();
        // a float64 at byte 0, a float32 at byte 8 and one at byte 12 (4-byte aligned only)
        const v = await s.malloc(16);
        if (me === 0) v.float64()[0] = 0.1;
        await s.barrierAll();
        if (me === 3) {
          await s.barrierAll();
          return { old: NaN };
        }
        if (me !== 0) {
          // both writers swap in their value; the old values they see chain from 0.1
          const old = await s.atomicSwap(v, me + 0.25, 0, 'float64');
          await s.atomicSet(v.at(8), -me * 1.5, 0, 'float32');
          await s.quiet();
          await s.barrierAll();
          return { old };
        }
        await s.barrierAll();
        const now64 = await s.atomicFetch(v, 0, 'float64');
        const now32 = await s.atomicFetch(v.at(8), 0, 'float32');
        // nbi forms on PE 1's copy: swap a float32 at byte 12, then fetch it and the float64
        const f32 = new Float32Array(2);
        const f64 = new Float64Array(1);
        await s.atomicSwapNbi(f32, 0, v.at(12), 3.75, 1, 'float32');
        await s.quiet();
        await s.atomicFetchNbi(f32, 1, v.at(12), 1, 'float32');
        await s.atomicFetchNbi(f64, 0, v, 1, 'float64');
        await s.quiet();
        return { now64, now32, f32: [...f32], f64: [...f64] };
      },
    });
    const [p0, p1, p2] = r.rankResults as unknown as [{ now64: number; now32: number; f32: number[]; f64: number[] }, { old: number }, { old: number }];
    // one swap saw 0.1, the other the first swapper's value; the last one stays
    const olds = [p1.old, p2.old].sort();
    expect(olds).toContain(0.1);
    const last = olds.includes(1.25) ? 2.25 : 1.25;
    expect(p0.now64).toBe(last);
    expect([-1.5, -3]).toContain(p0.now32);
    expect(p0.f32).toEqual([0, 3.75]);
    expect(p0.f64).toEqual([0]);
  });

  it('integer-only atomics refuse float types, and a bad PE, a misaligned float64 and a bigint value fail naming the call and the value', async () => {
    const r = await simulate({
      machine: 'xe6',
      nodes: 2,
      program: async (ctx) => {
        const s = ctx.shmem;
        const v = await s.malloc(16);
        const msgs: string[] = [];
        for (const p of [
          s.atomicCompareSwap(v, 0, 1, 1, 'float64' as never),
          s.atomicFetchAdd(v, 1, 1, 'float32' as never),
          s.atomicFetch(v, 2, 'float64'),
          s.atomicSwap(v.at(4), 1.5, 1, 'float64'),
          s.atomicSet(v, 1n as never, 1, 'float32'),
          s.atomicFetchNbi(new BigInt64Array(1), 0, v, 1, 'float64'),
        ]) {
          try {
            await p;
            msgs.push('resolved');
          } catch (e) {
            msgs.push(`${e instanceof ShmemError ? 'ShmemError' : String(e)}: ${(e as Error).message}`);
          }
        }
        await s.barrierAll();
        return { msgs, bytes: [...v.local] };
      },
    });
    expect(r.rankResults[0]!.msgs).toEqual([
      'ShmemError: atomicCompareSwap: type=float64; valid: int32, uint32, int64, uint64 (OpenSHMEM defines atomicCompareSwap on integer types only)',
      'ShmemError: atomicFetchAdd: type=float32; valid: int32, uint32, int64, uint64 (OpenSHMEM defines atomicFetchAdd on integer types only)',
      'ShmemError: atomicFetch: pe=2 is not a PE (0..1)',
      'ShmemError: atomicSwap: dest is at byte offset 4, not aligned to the 8-byte float64',
      "ShmemError: atomicSet: value=1 must be a number (the atomic's type is float32)",
      "ShmemError: atomicFetchNbi: fetch must be a Float64Array (the atomic's type is float64), got BigInt64Array",
    ]);
    // nothing was issued
    for (const x of r.rankResults) expect(x.bytes.every((b) => b === 0)).toBe(true);
  });
});
