/**
 * The npb-sp app: NAS SP's multi-partition on a square number of ranks, ghost faces to the six
 * neighbours and pipelined pentadiagonal sweeps through the cells (two rows a line); on 1 to 16 ranks (class S)
 * and on 64 ranks of every machine (class W), every ghost and swept value checked against a serial
 * run of the whole grid; its calls and bytes per time step against the decomposition's count; bad
 * rank counts and classes refused in one line; a skeleton run taking the time of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { phit, rejection } from './helpers.ts';

async function sp(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('npb-sp');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 16, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

/** NPB's operation count of one time step (sp.f) on an n^3 grid. */
const ops = (n: number): number => 881.174 * n ** 3 - 4683.91 * n ** 2 + 11484.5 * n - 19272.4;

describe('npb-sp', () => {
  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (8 cells per axis), class W, one time step: every ghost and swept value checked, Mop/s as NPB counts them', async (machine) => {
    const { row } = await sp({ class: 'W', iterations: '1' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, grid: '36x36x36', cells: '8x8x8', iterations: 1, check: 'passed' });
    expect(Math.abs((row.mops as number) / (ops(36) / (row.timeUs as number)) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it.each([
    [1, '1x1x1'],
    [4, '2x2x2'],
    [9, '3x3x3'],
    [16, '4x4x4'],
  ])('class S on %i ranks (%s cells), 2 time steps: every ghost and swept value checked', async (nodes, cells) => {
    const { row } = await sp({ iterations: '2' }, { nodes });
    expect(row).toMatchObject({ ranks: nodes, cells, check: 'passed' });
  });

  it("makes SP's calls: per time step 6 face messages a rank and 2 (ncells - 1) per solve, of make_set's sizes and two rows of each interior line", async () => {
    const { calls } = await sp({ iterations: '2' }, { metrics: true });
    const stat = (name: string): CallStats => calls.find((c) => c.name === name) ?? { name, calls: 0, bytes: 0, timeUs: 0 };
    // 16 ranks: 4 cells per axis, each rank owning 4; 12 points per axis, cells of 3
    const p = 4;
    const n = 12;
    const steps = 2;
    // copy_faces: 6 messages a rank; each solve: ncells - 1 forward stages and as many back
    const perStep = p * p * (6 + 3 * 2 * (p - 1));
    expect(perStep).toBe(6 * p ** 3);
    // the timed steps and verify's copy_faces
    expect(stat('MPI_Isend').calls).toBe(steps * perStep + 6 * p * p);
    expect(stat('MPI_Irecv').calls).toBe(stat('MPI_Isend').calls);
    // faces: two layers of 5 doubles over each of the p - 1 inner planes of each axis, both ways
    const faceBytes = 3 * 2 * (p - 1) * n * n * 2 * 5 * 8;
    // solves: 22 doubles forward and 10 back for each of the (n - 2)^2 interior lines along an axis, at each of its p - 1 cell boundaries
    const solveBytes = 3 * (p - 1) * (n - 2) ** 2 * (22 + 10) * 8;
    expect(stat('MPI_Isend').bytes).toBe(steps * (faceBytes + solveBytes) + faceBytes);
    // verify's two norms and the data check's error count
    expect(stat('MPI_Allreduce').calls).toBe(3 * p * p);
  });

  it('refuses a rank count that is not a square and a class too small for the ranks, in one line naming it (exit 2)', async () => {
    expect((await rejection(sp({ iterations: '1' }, { nodes: 8 }))).message).toMatch(/npb-sp: 8 ranks; NPB SP runs on a square number of ranks \(1, 4, 9, 16, \.\.\.\)/);
    for (const [argv, why] of [
      [['--nodes', '8'], /^npb-sp: 8 ranks; NPB SP runs on a square number of ranks \(1, 4, 9, 16, \.\.\.\)$/],
      [['--nodes', '32', '--ppn', '2'], /^npb-sp: class S \(12\^3 points\) on 64 ranks \(8 cells per axis\) leaves cells of fewer than 3 points per axis, NPB's minimum; use fewer ranks or a larger class$/],
      [['--nodes', '4', '--param', 'class=D'], /^parameter class=D of app npb-sp: valid: S, W, A, B, C$/],
    ] as const) {
      const r = await phit('run', 'npb-sp', '--machine', 'xe6', ...argv);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]!.replace(/^phit: /, '')).toMatch(why);
    }
  });

  it('a skeleton run takes the time of the real run', async () => {
    const real = await sp({ iterations: '2' }, { nodes: 9 });
    const skeleton = await sp({ iterations: '2' }, { nodes: 9, skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });
});
