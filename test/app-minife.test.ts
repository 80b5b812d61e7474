/**
 * The minife app: miniFE's recursive-bisection partition, its irregular neighbour exchange, CG
 * converging to the same solution on any rank count (checked against the analytic one), 64 ranks
 * on every machine, the calls counted from the partition, and a skeleton run taking the time of
 * the real one.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { boxPartition, neighbours, nodeBox, volume, type Box } from '../apps/minife-partition.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';

async function minife(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('minife');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

const box = (n: number): Record<string, string> => ({ nx: String(n), ny: String(n), nz: String(n) });

/** Ranks owning a node within one step (27-point stencil) of a node of rank r, by brute force over the nodes. */
function stencilNeighbours(nodes: readonly Box[], g: readonly number[], r: number): Set<number> {
  const owner = new Map<string, number>();
  nodes.forEach((b, q) => {
    for (let z = b.lo[2]; z < b.hi[2]; z++) for (let y = b.lo[1]; y < b.hi[1]; y++) for (let x = b.lo[0]; x < b.hi[0]; x++) owner.set(`${x},${y},${z}`, q);
  });
  const out = new Set<number>();
  const b = nodes[r]!;
  for (let z = b.lo[2]; z < b.hi[2]; z++) for (let y = b.lo[1]; y < b.hi[1]; y++) for (let x = b.lo[0]; x < b.hi[0]; x++) {
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const q = owner.get(`${x + dx},${y + dy},${z + dz}`);
      if (q !== undefined && q !== r && z + dz <= g[2]! && y + dy <= g[1]! && x + dx <= g[0]!) out.add(q);
    }
  }
  return out;
}

describe('minife', () => {
  it("partitions as miniFE's box_partition: z halved first, then y, then x; every node owned once", () => {
    // 3 ranks of 10^3: z splits 4 | 6 (the upper part gets floor(10 x 2/3) = 6), then y 5 | 5
    const b3 = boxPartition(3, [10, 10, 10]);
    expect(b3.map((b) => [b.lo, b.hi])).toEqual([
      [[0, 0, 0], [10, 10, 4]],
      [[0, 0, 4], [10, 5, 10]],
      [[0, 5, 4], [10, 10, 10]],
    ]);
    for (const ranks of [1, 2, 3, 8, 12, 64]) {
      const g: [number, number, number] = [12, 10, 9];
      const nodes = boxPartition(ranks, g).map((b) => nodeBox(b, g));
      expect(nodes.reduce((s, b) => s + volume(b), 0)).toBe(13 * 11 * 10);
    }
  });

  it('neighbour lists and sizes from the partition: each value a rank receives is one its neighbour sends', () => {
    const g: [number, number, number] = [10, 10, 10];
    const nodes = boxPartition(12, g).map((b) => nodeBox(b, g));
    const lists = nodes.map((_, r) => neighbours(r, nodes, g));
    lists.forEach((l, r) => {
      expect(new Set(l.map((n) => n.rank))).toEqual(stencilNeighbours(nodes, g, r));
      for (const n of l) expect(lists[n.rank]!.find((m) => m.rank === r)!.send).toBe(n.recv);
    });
    // irregular: not every rank has the same number of neighbours
    expect(new Set(lists.map((l) => l.length)).size).toBeGreaterThan(1);
  });

  it.each([1, 2, 3, 8, 12])('on %i ranks (10^3 elements): CG converges to the same solution, within the tolerance of the analytic one', async (ranks) => {
    const { row } = await minife({ ...box(10), iterations: '200' }, { nodes: ranks });
    expect(row).toMatchObject({ ranks, rows: 11 ** 3, nonzeros: 31 ** 3, converged: true, check: 'passed' });
    // the decomposition changes the arithmetic's result only by rounding: 1 rank's figures (the
    // iteration at which the residual falls below machine epsilon may move by one or two)
    const one = ranks === 1 ? row : (await minife({ ...box(10), iterations: '200' }, { nodes: 1 })).row;
    expect(Math.abs((row.iterations as number) - (one.iterations as number))).toBeLessThanOrEqual(2);
    expect(Math.abs((row.error as number) - (one.error as number))).toBeLessThan(1e-12);
    expect(row.error as number).toBeLessThan(0.06);
    expect(row.residual as number).toBeLessThan(1e-14);
  });

  it.each(['xt4', 'xe6', 'xc30', 'sc5832', 'bw'])('on %s, 64 ranks (16^3 elements, 5 iterations): checked, Total CG Mflops by miniFE\'s count', async (machine) => {
    const { row } = await minife({ ...box(16), iterations: '5' }, { machine, nodes: 64 });
    expect(row).toMatchObject({ ranks: 64, rows: 17 ** 3, iterations: 5, check: 'passed' });
    const flops = 2 * 49 ** 3 * 6 + 2 * 16 ** 3 * 2 * 5 + 3 * 16 ** 3 * 17;
    expect(Math.abs((row.mflops as number) / (flops / (row.timeUs as number)) - 1)).toBeLessThan(1e-3);
    expect(row.commUs as number).toBeGreaterThan(0);
  });

  it("makes miniFE's calls: per exchange a send to and an irecv from every neighbour of the partition; 2 allreduces per iteration", async () => {
    const iters = 3;
    const g: [number, number, number] = [10, 10, 10];
    const { calls } = await minife({ ...box(10), iterations: String(iters) }, { nodes: 12, metrics: true });
    const count = (name: string): number => calls.find((c) => c.name === name)?.calls ?? 0;
    const nodes = boxPartition(12, g).map((b) => nodeBox(b, g));
    const links = nodes.reduce((s, _, r) => s + stencilNeighbours(nodes, g, r).size, 0);
    // make_local_matrix: 3 messages per neighbour; then iters + 1 matvecs and the true residual's
    expect(count('MPI_Send')).toBe(links * (3 + iters + 2));
    expect(count('MPI_Irecv')).toBe(count('MPI_Send'));
    // make_local_matrix 2, the matrix's counts 1, CG 2 per iteration, the check 1
    expect(count('MPI_Allreduce')).toBe(12 * (2 + 1 + 2 * iters + 1));
  });

  it('a skeleton run (no matrix, no data) takes the time of the real run', async () => {
    const raw = { nx: '12', ny: '10', nz: '9', iterations: '4' };
    const real = await minife(raw, { nodes: 12 });
    const skeleton = await minife(raw, { nodes: 12, skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.mflops).toBe(real.row.mflops);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });

  it('refuses a bad size, and a box too small for the ranks, naming them', async () => {
    const app = findApp('minife');
    expect(() => resolveParams(app, { nx: '0' })).toThrow(/parameter nx=0 of app minife: must be at least 1/);
    expect(() => resolveParams(app, { iterations: 'many' })).toThrow(/parameter iterations=many of app minife: expected an integer/);
    const e = await rejection(minife({ ...box(1), iterations: '1' }, { nodes: 8 }));
    expect(e.message).toMatch(/minife: a box of 1x1x1 elements leaves rank 1 of 8 no elements; use a larger box \(nx, ny, nz\) or fewer ranks/);
  });
});
