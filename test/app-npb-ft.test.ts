/**
 * The npb-ft app: NAS FT's forward and inverse 3-D FFTs with alltoall transposes, on 64 ranks of
 * every machine; each time step's checksum checked against NPB's reference (class S on 8 ranks in
 * slabs, class W on 64 ranks over a 2-D grid); its calls counted; a skeleton run taking the time
 * of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { ftGrid } from '../apps/npb-ft.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { LONG, rejection } from './helpers.ts';

async function ft(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('npb-ft');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

/** NPB's operation count (ft.f) of class S with one time step: N (14.8157 + 7.19641 ln N + 5.23518 + 7.21113 ln N), N = 64^3. */
const N = 64 ** 3;
const OPS_S1 = N * (14.8157 + 7.19641 * Math.log(N) + 5.23518 + 7.21113 * Math.log(N));

describe('npb-ft', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])("on %s, 64 ranks, class S in slabs: the first checksum is NPB's, Mop/s as NPB counts them", async (machine) => {
    const { row } = await ft({ iterations: '1' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, procGrid: '1x64', check: 'passed (1 of 6 time steps)' });
    // ft.f's reference for class S, time step 1
    expect(Math.abs((row.checksumRe as number) - 554.6087004964)).toBeLessThan(1e-9);
    expect(Math.abs((row.checksumIm as number) - 484.5363331978)).toBeLessThan(1e-9);
    expect(Math.abs((row.mops as number) / (OPS_S1 / (row.timeUs as number)) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it("class S on 8 ranks: all 6 checksums match NPB's to 1e-12", async () => {
    const { row } = await ft({}, { nodes: 8 });
    expect(row).toMatchObject({ procGrid: '1x8', iterations: 6, check: 'passed' });
    expect(Math.abs((row.checksumRe as number) - 554.2683411902)).toBeLessThan(1e-9);
  });

  it("class W on 64 ranks, beyond nz = 32: a 2x32 grid, two transposes per FFT, the first checksum NPB's", async () => {
    const { row } = await ft({ class: 'W', iterations: '1' }, { nodes: 64 });
    expect(row).toMatchObject({ procGrid: '2x32', check: 'passed (1 of 6 time steps)' });
    expect(Math.abs((row.checksumRe as number) - 567.3612178944)).toBeLessThan(1e-9);
  });

  it("makes FT's calls: one alltoall per 3-D FFT in slabs (the forward one and one per time step), a reduce per time step", async () => {
    const { calls } = await ft({ iterations: '2' }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    expect(count('MPI_Alltoall')).toBe(8 * 3);
    expect(count('MPI_Reduce')).toBe(8 * 2);
    // each alltoall moves the whole grid once: 64^3 complex doubles
    expect(calls.find((c) => c.name === 'MPI_Alltoall')!.bytes).toBe(3 * N * 16);
  });

  it("lays out ft.f's grid: slabs up to nz ranks, then (ranks / nz) x nz; too many ranks or not a power of two refused", async () => {
    expect(ftGrid(64, 64, 64, 64)).toEqual([1, 64]);
    expect(ftGrid(128, 128, 32, 64)).toEqual([2, 32]);
    expect(ftGrid(512, 512, 512, 4096)).toEqual([8, 512]);
    expect(() => ftGrid(64, 64, 64, 8192)).toThrow(/npb-ft: 8192 ranks are too many for the 64x64x64 grid/);
    const e = await rejection(ft({ iterations: '1' }, { nodes: 6 }));
    expect(e.message).toMatch(/npb-ft: 6 ranks; NPB FT runs on a power of two of ranks/);
  });

  it('a skeleton run takes the time of the real run', async () => {
    const real = await ft({ iterations: '1' });
    const skeleton = await ft({ iterations: '1' }, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  // the long tier: the README's 4,096-rank run
  it.runIf(LONG)('runs class B on 4,096 ranks of xc30 (skeleton, coarse): a 16x256 grid, the README row', async () => {
    const { row } = await ft({ class: 'B', iterations: '1' }, { machine: 'xc30', nodes: 4096, skeleton: true, set: { 'fabric.fidelity': 'coarse' } });
    expect(row).toMatchObject({ ranks: 4096, procGrid: '16x256', timeUs: 1471, check: 'skipped (skeleton run)' });
  });
});
