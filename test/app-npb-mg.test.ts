/**
 * The npb-mg app: NAS MG's V-cycle of axis-by-axis ghost exchanges (comm3) on every level, on 64
 * ranks of every machine with every ghost point checked; its calls counted; a skeleton run taking
 * the time of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';

async function mg(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('npb-mg');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

describe('npb-mg', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks, class S (8^3 points each, 3 levels): every ghost point checked, Mop/s as NPB counts them', async (machine) => {
    const { row } = await mg({ iterations: '2' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, procGrid: '4x4x4', levels: 3, iterations: 2, check: 'passed' });
    // 2 projections down, the coarsest's smoothing, residual and smoothing on 2 finer levels, the closing residual
    expect(row.exchangesPerIteration).toBe(2 + 1 + 4 + 1);
    expect(Math.abs((row.mops as number) / ((58 * 2 * 32 ** 3) / (row.timeUs as number)) - 1)).toBeLessThan(1e-3);
  });

  it("makes MG's calls: per exchange two irecv and two isend along each axis; the norm's sum and max allreduces", async () => {
    const { row, calls } = await mg({ iterations: '2' }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    const exchanges = 2 * (row.exchangesPerIteration as number) + 1;
    expect(count('MPI_Isend')).toBe(8 * exchanges * 3 * 2);
    expect(count('MPI_Irecv')).toBe(8 * exchanges * 3 * 2);
    // the norm before and after (a sum and a max each), and the error count
    expect(count('MPI_Allreduce')).toBe(8 * 5);
  });

  it('a skeleton run takes the time of the real run', async () => {
    const real = await mg({ iterations: '1' });
    const skeleton = await mg({ iterations: '1' }, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });
});
