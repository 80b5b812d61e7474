/**
 * The hpcg app: multigrid-preconditioned CG on the 27-point operator with 26-neighbour halos on
 * every level. It converges to the all-ones solution (which a wrong halo would miss), runs on 64
 * ranks of every machine, makes HPCG's calls, and a skeleton run takes the time of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';

async function hpcg(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('hpcg');
  const params = resolveParams(app, raw);
  app.check!(params);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

describe('hpcg', () => {
  it('converges on 8 ranks (16^3 points): the error against the all-ones solution falls with the residual', async () => {
    const { row } = await hpcg({ n: '8', iterations: '12' });
    expect(row).toMatchObject({ ranks: 8, procGrid: '2x2x2', localGrid: '8x8x8', levels: 4, check: 'passed' });
    expect(row.residual as number).toBeLessThan(1e-7);
    expect(row.error as number).toBeLessThan(1e-7);
    // the recurrence's residual is the true one
    expect(Math.abs((row.recurrenceResidual as number) / (row.residual as number) - 1)).toBeLessThan(1e-3);
  });

  it('the multigrid preconditioner pays: 4 levels reach a smaller residual in 6 iterations than 1 level (Gauss-Seidel alone)', async () => {
    const four = await hpcg({ n: '8', iterations: '6' });
    const one = await hpcg({ n: '8', iterations: '6', levels: '1' });
    expect(four.row.residual as number).toBeLessThan((one.row.residual as number) / 10);
  });

  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (4x4x4, 8^3 points each): checked, GFLOP/s as HPCG counts them', async (machine) => {
    const { row } = await hpcg({ n: '8', iterations: '2' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, procGrid: '4x4x4', check: 'passed' });
    expect(row.gflops as number).toBeGreaterThan(0);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it("makes HPCG's calls: 3L-1 halo exchanges with every neighbour and 3 allreduces per iteration", async () => {
    const it_ = 2;
    const { calls } = await hpcg({ n: '8', iterations: String(it_) }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    // 4 levels: two sweeps and an SpMV on each of the 3 finer, one sweep on the coarsest, the CG's SpMV;
    // and one SpMV for the true residual after. Each of 8 ranks has 7 neighbours.
    const exchanges = 11 * it_ + 1;
    expect(count('MPI_Isend')).toBe(8 * 7 * exchanges);
    expect(count('MPI_Irecv')).toBe(8 * 7 * exchanges);
    expect(count('MPI_Allreduce')).toBe(8 * (3 * it_ + 3));
  });

  it('a skeleton run (no data) takes the time of the real run', async () => {
    const raw = { n: '8', iterations: '2' };
    const real = await hpcg(raw);
    const skeleton = await hpcg(raw, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  it('refuses a grid the multigrid levels cannot halve', async () => {
    const app = findApp('hpcg');
    expect(() => app.check!(resolveParams(app, { n: '12', levels: '4' }))).toThrow(/parameter n=12 of app hpcg: must be divisible by 8/);
  });
});
