/**
 * The npb-lu app: NAS LU's pipelined wavefront sweeps and two-layer ghost exchanges on lu.f's 2-D
 * process grid, on 64 ranks of every machine; every swept value checked against a serial sweep
 * of the whole grid and every ghost point against its owner's; its calls counted; a skeleton run
 * taking the time of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { luGrid } from '../apps/npb-lu.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { LONG, rejection } from './helpers.ts';

async function lu(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('npb-lu');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

/** NPB's operation count of one iteration (lu.f) on an n^3 grid. */
const ops = (n: number): number => 1984.77 * n ** 3 - 10923.3 * n ** 2 + 27770.9 * n - 144010;

describe('npb-lu', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (8x8 grid), class W: every swept and ghost value checked, Mop/s as NPB counts them', async (machine) => {
    const { row } = await lu({ class: 'W', iterations: '1' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, procGrid: '8x8', iterations: 1, check: 'passed' });
    expect(Math.abs((row.mops as number) / (ops(33) / (row.timeUs as number)) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it.each([
    [8, '4x2'],
    [16, '4x4'],
  ])('class S on %i ranks (%s grid), 5 iterations: checked', async (nodes, grid) => {
    const { row } = await lu({ iterations: '5' }, { nodes });
    expect(row).toMatchObject({ procGrid: grid, check: 'passed' });
  });

  it("makes LU's calls: a line to each downstream neighbour per plane and sweep, two-layer faces both ways per rhs, one norm allreduce", async () => {
    const { calls } = await lu({ iterations: '2' }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    // 4x2 grid: 6 links along x, 4 along y; 10 interior planes, two sweeps, two iterations
    expect(count('MPI_Send')).toBe(10 * 10 * 2 * 2);
    // the rhs before the iterations and one per iteration, both ways over each link
    expect(count('MPI_Isend')).toBe(10 * 2 * 3);
    expect(count('MPI_Allreduce')).toBe(8 * 2);
    // a line of 5 doubles per point: 3 points along x (12 / 4), 6 along y (12 / 2)
    expect(calls.find((c) => c.name === 'MPI_Send')!.bytes).toBe(2 * 2 * 10 * (6 * 6 * 5 * 8 + 4 * 3 * 5 * 8));
  });

  it("lays out lu.f's grid and refuses what it cannot split", async () => {
    expect(luGrid(8)).toEqual([4, 2]);
    expect(luGrid(64)).toEqual([8, 8]);
    expect(luGrid(4096)).toEqual([64, 64]);
    expect((await rejection(lu({ iterations: '1' }, { nodes: 6 }))).message).toMatch(/npb-lu: 6 ranks; NPB LU runs on a power of two of ranks/);
    expect((await rejection(lu({ iterations: '1' }, { nodes: 64 }))).message).toMatch(/npb-lu: class S \(12\^3 points\) on a 8x8 grid leaves a rank fewer than 2 points per axis/);
    // the CLI asks before the run (a bad rank count is bad input, exit 2)
    const app = findApp('npb-lu');
    expect(() => app.check!(resolveParams(app, {}), 6)).toThrow(/npb-lu: 6 ranks; NPB LU runs on a power of two of ranks/);
    expect(() => app.check!(resolveParams(app, { class: 'S' }), 64)).toThrow(/class S \(12\^3 points\) on a 8x8 grid/);
    expect(() => app.check!(resolveParams(app, { class: 'A' }), 64)).not.toThrow();
  });

  it('a skeleton run takes the time of the real run', async () => {
    const real = await lu({ iterations: '2' });
    const skeleton = await lu({ iterations: '2' }, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  // the long tier: the README's 4,096-rank run
  it.runIf(LONG)('runs class C on 4,096 ranks of xc30 (skeleton, coarse): a 64x64 grid', async () => {
    const { row } = await lu({ class: 'C', iterations: '1' }, { machine: 'xc30', nodes: 4096, skeleton: true, set: { 'fabric.fidelity': 'coarse' } });
    expect(row).toMatchObject({ ranks: 4096, procGrid: '64x64', check: 'skipped (skeleton run)' });
  });
});
