/**
 * The npb-cg app: NAS CG's row sums and transpose exchanges on cg.f's 2-D process grid, on 64
 * ranks of every machine; zeta verified against NPB's value for class S on a square and a
 * non-square grid; its calls counted; a skeleton run taking the time of the real one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { cgLayout } from '../apps/npb-cg.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { LONG, rejection } from './helpers.ts';

async function cg(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('npb-cg');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

/** NPB's operation count of class S per outer iteration (cg.f): 2 na (3 + nz1 + 25 (5 + nz1) + 3), nz1 = 7 x 8. */
const OPS_S = 2 * 1400 * (3 + 56 + 25 * (5 + 56) + 3);

describe('npb-cg', () => {
  // one rank: the whole matrix, no message: the zeta the distributed runs must reproduce
  let serialZeta = 0;
  beforeAll(async () => {
    serialZeta = (await cg({ iterations: '1' }, { nodes: 1 })).row.zeta as number;
  });

  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (8x8 grid), class S: zeta as on one rank, the residual of the CG solve tiny, Mop/s as NPB counts them', async (machine) => {
    const { row } = await cg({ iterations: '1' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, class: 'S', procGrid: '8x8', iterations: 1 });
    // the first zeta of a single rank's run, and ||x - A z|| after 25 CG iterations
    expect(Math.abs((row.zeta as number) / serialZeta - 1)).toBeLessThan(1e-12);
    expect(row.rnorm as number).toBeLessThan(1e-12);
    expect(Math.abs((row.mops as number) / (OPS_S / (row.timeUs as number)) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it.each([
    [8, '2x4'],
    [16, '4x4'],
  ])("class S on %i ranks (%s grid): zeta after 15 iterations matches NPB's 8.5971775078648 to 1e-10", async (nodes, grid) => {
    const { row } = await cg({}, { nodes });
    expect(row).toMatchObject({ procGrid: grid, iterations: 15, check: 'passed' });
    expect(Math.abs((row.zeta as number) / 8.5971775078648 - 1)).toBeLessThan(1e-10);
  });

  it("makes CG's calls: per outer iteration 79 log2(columns) + 26 sends on each rank, the transpose carrying a column block", async () => {
    const { calls } = await cg({ iterations: '2' }, { metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    // 2x4 grid: 2 recursive-doubling steps across a process row
    expect(count('MPI_Send')).toBe(8 * 2 * (79 * 2 + 26));
    expect(count('MPI_Irecv')).toBe(count('MPI_Send'));
    expect(count('MPI_Allreduce')).toBe(0);
  });

  it("lays out cg.f's grid: square for an even power of two, twice the columns otherwise; the transpose partner is mutual", () => {
    for (const [p, rows, cols] of [[4, 2, 2], [8, 2, 4], [32, 4, 8], [64, 8, 8]] as const) {
      for (let me = 0; me < p; me++) {
        const lay = cgLayout(1400, p, me);
        expect([lay.nprows, lay.npcols]).toEqual([rows, cols]);
        expect(cgLayout(1400, p, lay.exchProc).exchProc).toBe(me);
        // what a rank sends in the transpose is what its partner expects
        expect(lay.sendLen).toBe(cgLayout(1400, p, lay.exchProc).exchRecvLength);
      }
    }
  });

  it('a skeleton run takes the time of the real run', async () => {
    const real = await cg({ iterations: '1' });
    const skeleton = await cg({ iterations: '1' }, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  it('refuses a rank count that is not a power of two, naming it', async () => {
    const e = await rejection(cg({ iterations: '1' }, { nodes: 6 }));
    expect(e.message).toMatch(/npb-cg: 6 ranks; NPB CG runs on a power of two of ranks/);
    // the CLI asks before the run (a bad rank count is bad input, exit 2)
    const app = findApp('npb-cg');
    expect(() => app.check!(resolveParams(app, {}), 6)).toThrow(/npb-cg: 6 ranks; NPB CG runs on a power of two of ranks/);
    expect(() => app.check!(resolveParams(app, {}), 8)).not.toThrow();
  });

  // the long tier: the README's 4,096-rank run (minutes of one core)
  it.runIf(LONG)('runs class C on 4,096 ranks of xc30 (skeleton, coarse): a 64x64 grid', async () => {
    const { row } = await cg({ class: 'C', iterations: '1' }, { machine: 'xc30', nodes: 4096, skeleton: true, set: { 'fabric.fidelity': 'coarse' } });
    expect(row).toMatchObject({ ranks: 4096, procGrid: '64x64', check: 'skipped (skeleton run)' });
    expect(row.commUs as number).toBeGreaterThan(0);
  });
});
