/**
 * The sweep3d app: KBA pipelined wavefront sweeps over the eight octants, on 64 ranks of every
 * machine with every face value checked; its calls counted; pipelining shown (more blocks, less
 * waiting for the wavefront to fill); a skeleton run taking the time of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { LONG } from './helpers.ts';

async function sweep(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('sweep3d');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

const small = { it: '4', jt: '4', kt: '16', mk: '4', iterations: '1' };

describe('sweep3d', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (8x8 grid): every face value checked, grind time = time x ranks / cell-angles', async (machine) => {
    const { row } = await sweep(small, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, procGrid: '8x8', grid: '32x32x16', stages: 8, check: 'passed' });
    expect(Math.abs((row.grindNs as number) / (((row.timeUs as number) * 1000 * 64) / (32 * 32 * 16 * 6 * 8)) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it('27 ranks (9x3 grid, not a power of two), two iterations: checked', async () => {
    const { row } = await sweep({ ...small, iterations: '2' }, { nodes: 27 });
    expect(row).toMatchObject({ procGrid: '9x3', check: 'passed' });
  });

  it("makes Sweep3D's calls: per block of planes and angles, a face to each downstream neighbour; one allreduce per iteration", async () => {
    const { calls } = await sweep({ ...small, iterations: '2' }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    // 4x2 grid: 6 links along i and 4 along j; 4 k blocks x 2 angle blocks; 8 octants; 2 iterations
    expect(count('MPI_Send')).toBe(10 * 8 * 8 * 2);
    expect(count('MPI_Allreduce')).toBe(8 * 3);
    // an i-face is jt x mk x mmi = 4 x 4 x 3 doubles, a j-face it x mk x mmi
    expect(calls.find((c) => c.name === 'MPI_Send')!.bytes).toBe(10 * 8 * 8 * 2 * 48 * 8);
  });

  it('pipelines: k blocks of 4 planes fill the wavefront sooner than whole columns, the sweep taking under half the time', async () => {
    // 16^2 x 32 cells and 6 angles per rank: enough work per block for the wavefront's fill to matter (18,850 and 7,911 us on xe6)
    const big = { it: '16', jt: '16', kt: '32', iterations: '1' };
    const whole = await sweep({ ...big, mk: '32' }, { nodes: 16 });
    const blocked = await sweep({ ...big, mk: '4' }, { nodes: 16 });
    expect(blocked.row.computeUs).toBe(whole.row.computeUs);
    expect(blocked.timeUs).toBeLessThan(whole.timeUs * 0.5);
  });

  it('a skeleton run takes the time of the real run; bad blocks refused, naming the parameter', async () => {
    const real = await sweep(small);
    const skeleton = await sweep(small, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
    const app = findApp('sweep3d');
    expect(() => app.check!(resolveParams(app, { kt: '10', mk: '4' }))).toThrow('parameter mk=4 of app sweep3d: must divide kt=10');
    expect(() => app.check!(resolveParams(app, { angles: '6', mmi: '4' }))).toThrow('parameter mmi=4 of app sweep3d: must divide angles=6');
  });

  // the long tier: the README's 4,096-rank run
  it.runIf(LONG)('runs on 4,096 ranks of xc30 (skeleton, coarse): a 64x64 grid', async () => {
    const { row } = await sweep({ iterations: '1' }, { machine: 'xc30', nodes: 4096, skeleton: true, set: { 'fabric.fidelity': 'coarse' } });
    expect(row).toMatchObject({ ranks: 4096, procGrid: '64x64', check: 'skipped (skeleton run)' });
  });
});
