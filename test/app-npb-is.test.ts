/**
 * The npb-is app: NAS IS's bucket allreduce, count alltoall and key alltoallv on 64 ranks of
 * every machine, its keys verified sorted across ranks; its calls counted; a skeleton run (expected
 * bucket counts instead of drawn keys) close to the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { LONG } from './helpers.ts';

async function is(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('npb-is');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

describe('npb-is', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks, class S: keys verified, Mop/s = keys x iterations / time', async (machine) => {
    const { row } = await is({ iterations: '2' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, class: 'S', keys: 65536, iterations: 2, check: 'passed' });
    expect(Math.abs((row.mops as number) / ((65536 * 2) / (row.timeUs as number)) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it('class W on 12 ranks (not a power of two): verified', async () => {
    const { row } = await is({ class: 'W', iterations: '1' }, { nodes: 6, ppn: 2 });
    expect(row).toMatchObject({ ranks: 12, keys: 1 << 20, check: 'passed' });
  });

  it("makes IS's calls: per iteration one allreduce of the bucket counts, one alltoall, one alltoallv", async () => {
    const { calls } = await is({ iterations: '3' }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    expect(count('MPI_Alltoallv')).toBe(8 * 3);
    expect(count('MPI_Alltoall')).toBe(8 * 3);
    // the bucket counts each iteration, and the verification's error and key counts
    expect(count('MPI_Allreduce')).toBe(8 * 4);
    // each iteration moves every key once: 2^16 keys of 4 bytes
    expect(calls.find((c) => c.name === 'MPI_Alltoallv')!.bytes).toBe(3 * 65536 * 4);
  });

  it('a skeleton run (expected bucket counts, no keys) is within 1 % of the real run', async () => {
    const real = await is({ iterations: '2' });
    const skeleton = await is({ iterations: '2' }, { skeleton: true });
    expect(Math.abs(skeleton.timeUs / real.timeUs - 1)).toBeLessThan(0.01);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  // the long tier: the README's 4,096-rank run
  it.runIf(LONG)('runs class C on 4,096 ranks of xc30 (skeleton, coarse): a bucket per rank, the README row', async () => {
    const { row } = await is({ class: 'C', iterations: '1' }, { machine: 'xc30', nodes: 4096, skeleton: true, set: { 'fabric.fidelity': 'coarse' } });
    expect(row).toMatchObject({ ranks: 4096, keys: 2 ** 27, timeUs: 4919, commUs: 3795, mops: 27280, check: 'skipped (skeleton run)' });
  });
});
