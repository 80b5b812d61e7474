/**
 * The lulesh app: LULESH 2.0's 26-neighbour node sums, position sync, face gradients and time-step
 * allreduce on 64 ranks of every machine, with every exchanged value checked, the calls LULESH
 * makes counted, and a skeleton run taking the time of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';

async function lulesh(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('lulesh');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

describe('lulesh', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (4x4x4, 4^3 elements each): every exchanged value checked, FOM from the grind time', async (machine) => {
    const { row } = await lulesh({ s: '4', iterations: '2' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, procGrid: '4x4x4', s: 4, cycles: 2, check: 'passed' });
    // the grind time is the time per cycle over all 64 x 64 elements, the FOM its inverse (x 1000)
    const near = (a: number, b: number): boolean => Math.abs(a / b - 1) < 1e-3;
    expect(near(row.grindUs as number, (row.timePerCycleUs as number) / (64 * 64))).toBe(true);
    expect(near(row.fomZs as number, 1000 / (row.grindUs as number))).toBe(true);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it('on a rank count that is not a cube (12: 3x2x2) the exchanges still check', async () => {
    const { row } = await lulesh({ s: '3', iterations: '2' }, { nodes: 6, ppn: 2 });
    expect(row).toMatchObject({ ranks: 12, procGrid: '3x2x2', check: 'passed' });
  });

  it("makes LULESH's calls: 26-neighbour sums, 13-neighbour sync, 6 faces, one MIN allreduce per cycle", async () => {
    const cycles = 3;
    const { calls } = await lulesh({ s: '4', iterations: String(cycles) }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    // 2x2x2 ranks: each has 7 neighbours (3 faces, 3 edges, 1 corner), the pairs of ranks are 8·7/2 = 28
    const sums = 8 * 7 * (cycles + 1); // forces each cycle, and the nodal mass once
    const sync = 28 * cycles; // each shared pair once, from the rank above to the rank below
    const faces = 8 * 3 * cycles;
    expect(count('MPI_Isend')).toBe(sums + sync + faces);
    expect(count('MPI_Irecv')).toBe(sums + sync + faces);
    // the time steps, and the error count at the end
    expect(count('MPI_Allreduce')).toBe(8 * (cycles + 1));
    // per rank: 3 faces of 5 x 5 nodes, 3 edges of 5, a corner; the sums carry 3 fields (the mass 1), the faces 3 of 4 x 4 elements
    const bytes = calls.find((c) => c.name === 'MPI_Isend')!.bytes;
    const perCycleSums = 8 * (3 * 25 + 3 * 5 + 1) * 3 * 8;
    const perCycleSync = (8 * (3 * 25 + 3 * 5 + 1) * 6 * 8) / 2; // each shared region once, 6 fields
    const perCycleFaces = 8 * 3 * 16 * 3 * 8;
    expect(bytes).toBe(perCycleSums * (cycles + 1 / 3) + perCycleSync * cycles + perCycleFaces * cycles);
  });

  it('a skeleton run (no data) takes the time of the real run', async () => {
    const raw = { s: '4', iterations: '2' };
    const real = await lulesh(raw);
    const skeleton = await lulesh(raw, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });
});
