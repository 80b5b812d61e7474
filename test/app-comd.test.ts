/**
 * The comd app: CoMD's atom halo exchange with the 26 neighbours in three phases, on 64 ranks of
 * every machine with every halo atom checked; its calls counted; a skeleton run taking the time
 * of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { LONG } from './helpers.ts';

async function comd(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('comd');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

describe('comd', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (4x4x4), 6^3 unit cells each: every halo atom checked, us per atom-step', async (machine) => {
    const { row } = await comd({ n: '6', steps: '2' }, { machine, nodes: 64 });
    // 864 atoms per rank; 3 link cells of 4 half-lattice units: the halo is the FCC sites of a 20^3 box (4,000) less the 864 owned
    expect(row).toMatchObject({ ranks: 64, procGrid: '4x4x4', atomsPerRank: 864, linkCells: 3, haloAtoms: 3136, check: 'passed' });
    expect(Math.abs((row.usPerAtom as number) / ((row.timeUs as number) / 2 / 864) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it('27 ranks (3x3x3), 7^3 unit cells each: link cells of 3.5 half-lattice units, so the two boundary layers differ in size; checked', async () => {
    const { row } = await comd({ n: '7', steps: '2' }, { nodes: 27 });
    expect(row).toMatchObject({ procGrid: '3x3x3', atomsPerRank: 1372, linkCells: 4, haloAtoms: 3258, check: 'passed' });
  });

  it("makes CoMD's calls: six sendrecvs per step (two per phase), the atoms of the boundary layers at 56 bytes each", async () => {
    const { calls } = await comd({ n: '6', steps: '3' }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    expect(count('MPI_Sendrecv')).toBe(8 * 3 * 6);
    // the energy at the last step and the error count
    expect(count('MPI_Allreduce')).toBe(8 * 2);
    // per step each rank sends its halo's worth of atoms: 3,136 x 56 bytes
    expect(calls.find((c) => c.name === 'MPI_Sendrecv')!.bytes).toBe(8 * 3 * 3136 * 56);
  });

  it('a skeleton run takes the time of the real run', async () => {
    const real = await comd({ n: '6', steps: '2' });
    const skeleton = await comd({ n: '6', steps: '2' }, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  // the long tier: the README's 4,096-rank run
  it.runIf(LONG)('runs on 4,096 ranks of xc30 (skeleton, coarse): a 16x16x16 grid', async () => {
    const { row } = await comd({ steps: '1' }, { machine: 'xc30', nodes: 4096, skeleton: true, set: { 'fabric.fidelity': 'coarse' } });
    expect(row).toMatchObject({ ranks: 4096, procGrid: '16x16x16', check: 'skipped (skeleton run)' });
  });
});
