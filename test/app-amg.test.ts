/**
 * The amg app: an AMG-like solver whose coarse levels reach more ranks with smaller messages and
 * end on fewer ranks; the residual falls every V-cycle on any rank count, the same on every
 * machine (the data do not depend on the network); its setup's alltoallvs counted; a skeleton run
 * takes the time of the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { makeLevel } from '../apps/amg-hierarchy.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { LONG } from './helpers.ts';

async function amg(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('amg');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

const list = (v: unknown): number[] => String(v).split('/').map(Number);

describe('amg', () => {
  it.each([1, 2, 3, 8, 12])('on %i ranks (6^3 points each): every halo value checked, the residual falls every V-cycle after the first', async (ranks) => {
    const { row } = await amg({ n: '6', cycles: '5' }, { nodes: ranks });
    expect(row).toMatchObject({ ranks, check: 'passed' });
    // the app checks each factor below 1; a working hierarchy does much better than plain smoothing
    expect(row.worstFactor as number).toBeLessThan(0.7);
    expect(row.residual as number).toBeLessThan(0.2);
    // rows shrink level by level down to a direct solve of at most 9
    const rows = list(row.levelRows);
    expect(rows[0]).toBe(ranks * 216);
    for (let l = 1; l < rows.length; l++) expect(rows[l]!).toBeLessThan(rows[l - 1]!);
    expect(rows[rows.length - 1]!).toBeLessThanOrEqual(9);
  });

  it('on all five machines at 64 ranks: checked, the same residuals (the data do not depend on the network); coarse levels reach more ranks with smaller messages, then ranks drop out', async () => {
    const residuals = new Set<number>();
    for (const machine of ['xt4', 'xe6', 'xc30', 'sc5832', 'bw']) {
      const { row, calls } = await amg({ n: '4', cycles: '2' }, { machine, nodes: 64, metrics: machine === 'xe6' });
      expect(row).toMatchObject({ ranks: 64, procGrid: '4x4x4', check: 'passed' });
      expect(row.fomMs as number).toBeGreaterThan(0);
      residuals.add(row.residual as number);
      if (machine !== 'xe6') continue;
      const msgs = list(row.haloMessages);
      const sizes = list(row.valuesPerMessage);
      // 4x4x4 ranks: 3 axes x 48 adjacent pairs x 2 directions, 16 values (a 4x4 face) each
      expect(msgs[0]).toBe(288);
      expect(sizes[0]).toBe(16);
      expect(msgs[1]!).toBeGreaterThan(msgs[0]!);
      expect(sizes[1]!).toBeLessThan(sizes[0]!);
      expect(row.ranksLastLevel as number).toBeLessThan(64);
      // no level but the coarsest is left with fewer than minRows (16) rows per rank holding rows:
      // such a level would stall, and each Galerkin product on it widen the operator towards
      // every rank (when ranks dropped out by halves only, the levels here went 4,096/551/35/16/8
      // rows on 64/32/16/8/4 ranks: 35 rows on 16 ranks, then a stall per level)
      const holders = list(row.levelRanks);
      const rows = list(row.levelRows);
      expect(holders[0]).toBe(64);
      for (let l = 1; l < rows.length - 1; l++) expect(rows[l]! / holders[l]!).toBeGreaterThanOrEqual(16);
      // alltoallvs: per coarsening the Galerkin product's 7 (the externals' coarse indices and P
      // rows, 4; the contributions, 3); the packages are found point to point (hypre's
      // DataExchangeList), with no alltoall of counts over all ranks
      const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
      expect(count('MPI_Alltoallv')).toBe(64 * 7 * ((row.levels as number) - 1));
      expect(count('MPI_Alltoall')).toBe(0);
      // the residual norm before the cycles and after each; the check's sums
      expect(count('MPI_Allreduce')).toBe(64 * (1 + 2 + 1));
    }
    expect(residuals.size).toBe(1);
  });

  it('a skeleton run (structure real, values not) takes the time of the real run', async () => {
    const real = await amg({ n: '6', cycles: '2' }, { nodes: 12 });
    const skeleton = await amg({ n: '6', cycles: '2' }, { nodes: 12, skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.levelRows).toBe(real.row.levelRows);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  it('a level keeps no array of an entry per rank (size^2 entries over a run, a gigabyte at 4,096 ranks)', async () => {
    // each of 32 ranks holds one row, coupled to the next rank's: a level's arrays follow its rows and
    // neighbours (the longest, rowStart and cols, 2 entries)
    const r = await simulate({
      machine: 'xe6',
      nodes: 32,
      skeleton: true,
      program: async (ctx) => {
        const { rank, size } = ctx.mpi;
        const offsets = Int32Array.from({ length: size + 1 }, (_, q) => q);
        const gcols = rank + 1 < size ? Int32Array.of(rank, rank + 1) : Int32Array.of(rank);
        const lv = await makeLevel(ctx, { nrow: 1, firstRow: rank, rowStart: Int32Array.of(0, gcols.length), gcols, coefs: ctx.alloc(Float64Array, gcols.length) }, offsets, 1000);
        const longest = Math.max(...Object.values(lv).map((v) => (ArrayBuffer.isView(v) ? (v as Int32Array).length : 0)));
        return { longest, holders: lv.holders, globalRows: lv.globalRows, neighbours: lv.recv.length + lv.send.length };
      },
    });
    expect(r.rankResults[5]).toEqual({ longest: 2, holders: 32, globalRows: 32, neighbours: 2 });
    expect(Math.max(...r.rankResults.map((x) => x.longest))).toBeLessThan(32);
  });

  // the long tier: the README's 4,096-rank run
  it.runIf(LONG)('runs n=8 on 4,096 ranks of xc30 (skeleton, coarse): the README row', async () => {
    const { row } = await amg({ n: '8', cycles: '1' }, { machine: 'xc30', nodes: 4096, skeleton: true, set: { 'fabric.fidelity': 'coarse' } });
    expect(row).toMatchObject({ ranks: 4096, procGrid: '16x16x16', levels: 6, levelRows: '2097152/226884/8832/889/32/2', haloMessages: '23040/93240/20186/794/2/0', setupUs: 8413, solveUs: 1052, fomMs: 221.6, check: 'skipped (skeleton run)' });
  });

  it('refuses bad parameters, naming them and their range', () => {
    const app = findApp('amg');
    expect(() => resolveParams(app, { n: '1' })).toThrow(/parameter n=1 of app amg: must be at least 2/);
    expect(() => resolveParams(app, { levels: '30' })).toThrow(/parameter levels=30 of app amg: must be at most 25/);
    expect(() => resolveParams(app, { cycles: 'x' })).toThrow(/parameter cycles=x of app amg: expected an integer/);
  });
});
