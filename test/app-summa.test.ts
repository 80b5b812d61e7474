/**
 * The summa app: C = A B on a P x Q grid of SHMEM teams (teamSplit2d), panels broadcast along
 * the row and column teams. Every element of C equals the serial product; a panel corrupted on
 * one PE is caught; a skeleton run takes the same simulated time; bad grids and panels are
 * refused naming the parameter.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { RankContext } from '../runtime/rank.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';

async function summa(raw: Record<string, string>, opts: Partial<SimulateOptions> & { wrap?: (ctx: RankContext) => void } = {}): Promise<{ row: Row; calls: readonly CallStats[] }> {
  const app = findApp('summa');
  const params = resolveParams(app, raw);
  const { wrap, ...sim } = opts;
  const r = await simulate({
    machine: 'xe6',
    nodes: 6,
    ...sim,
    program: (ctx) => {
      wrap?.(ctx);
      return app.main(ctx, params);
    },
  });
  return { row: r.result!.rows[0]!, calls: r.metrics?.calls ?? [] };
}

describe('summa', () => {
  it('xe6, 6 ranks (a 3x2 grid of teams), n=48: C equals the serial product; the panels are the gcd of the block sides; two broadcasts per panel on every PE', async () => {
    const { row, calls } = await summa({ n: '48' }, { metrics: true });
    expect(row).toMatchObject({ ranks: 6, grid: '3x2', n: 48, panel: 8, check: 'passed' });
    expect(row.gflops as number).toBeCloseTo((2 * 48 ** 3) / (row.timeUs as number) / 1e3, 2);
    expect(row.broadcastUs as number).toBeGreaterThan(0);
    expect(row.computeUs as number).toBeGreaterThan(0);
    const byName = Object.fromEntries(calls.map((c) => [c.name, c]));
    expect(byName.shmem_team_split_2d).toMatchObject({ calls: 6 });
    // 48 / 8 = 6 panels, an A and a B broadcast each, on every PE
    expect(byName.shmem_broadcast).toMatchObject({ calls: 6 * 2 * 6 });
  });

  it('xc30, 16 ranks on 4 nodes (4x4), panel=8, and a 2x8 grid: exact; a skeleton run takes the same simulated time', async () => {
    const square = await summa({ n: '64', panel: '8' }, { machine: 'xc30', nodes: 4, ppn: 4 });
    expect(square.row).toMatchObject({ grid: '4x4', panel: 8, check: 'passed' });
    const wide = await summa({ n: '64', gridRows: '2' }, { machine: 'xc30', nodes: 4, ppn: 4 });
    expect(wide.row).toMatchObject({ grid: '2x8', panel: 8, check: 'passed' });
    const skeleton = await summa({ n: '64', panel: '8' }, { machine: 'xc30', nodes: 4, ppn: 4, skeleton: true });
    expect(skeleton.row).toMatchObject({ check: 'skipped (skeleton run)', timeUs: square.row.timeUs });
  });

  it('a B panel corrupted after its broadcast on one PE: the check fails naming the elements of C that differ', async () => {
    const wrap = (ctx: RankContext): void => {
      if (ctx.rank !== 4) return;
      const s = ctx.shmem;
      const orig = s.broadcast.bind(s);
      let n = 0;
      s.broadcast = async (...a: Parameters<typeof s.broadcast>) => {
        await orig(...a);
        // the second call is the first B panel
        if (++n === 2) a[1].float64()[3]! += 1;
      };
    };
    // rank 4 holds rows 32..47 of C: B(0, 3) off by one changes C(i, 3) by A(i, 0), zero only for i = 40
    await expect(summa({ n: '48' }, { wrap })).rejects.toThrow(/summa: 15 of 2304 elements of C differ from the serial product A B/);
  });

  it('a grid that does not divide n, a panel that does not divide the blocks, and a grid that does not fit the ranks are refused naming the parameter', async () => {
    await expect(summa({ n: '50' })).rejects.toThrow(/parameter n=50 of app summa: must be divisible by the rows and columns of the 3x2 grid/);
    await expect(summa({ n: '48', panel: '16' })).rejects.toThrow(/parameter panel=16 of app summa: must divide n\/rows=16 and n\/cols=24 of the 3x2 grid/);
    await expect(summa({ gridCols: '4' })).rejects.toThrow(/parameter gridCols=4 of app summa: does not divide the 6 ranks/);
  });
});
