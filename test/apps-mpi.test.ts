import { describe, expect, it } from 'vitest';
import { resolveParams, type AppResult, type Row } from '../apps/app.ts';
import { permuteAxes, referenceFft, inputValue, verifyFft } from '../apps/fft-util.ts';
import { findApp } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

const MACHINES = ['xt4', 'xe6', 'xc30', 'sc5832', 'bw'] as const;

interface Run {
  readonly result: AppResult;
  readonly row: Row;
}

async function run(name: string, raw: Record<string, string>, opts: { machine?: string; nodes?: number; ppn?: number; algorithms?: Record<string, string> } = {}): Promise<Run> {
  const app = findApp(name);
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: opts.machine ?? 'xe6', nodes: opts.nodes ?? 4, ppn: opts.ppn ?? 1, algorithms: opts.algorithms, program: (ctx) => app.main(ctx, params) });
  if (!r.result) throw new Error(`${name} returned nothing on rank 0`);
  expect(r.result.rows).toHaveLength(1);
  return { result: r.result, row: r.result.rows[0]! };
}

/** Time splits and rate of an FFT or PTRANS row: compute + comm fit in the time; `rate` is `work` over the time. */
function expectTimes(row: Row, rateKey: string, work: number): void {
  const time = row.timeUs as number;
  const compute = row.computeUs as number;
  const comm = row.commUs as number;
  expect(time).toBeGreaterThan(0);
  expect(compute).toBeGreaterThan(0);
  expect(comm).toBeGreaterThanOrEqual(0);
  // figures are rounded to 4 significant digits
  expect(compute + comm).toBeLessThanOrEqual(time * 1.001);
  expect(row[rateKey] as number).toBeCloseTo(work / time / 1e3, 2);
}

/** Awaits a run that must fail with a RangeError (the rank's error, wrapped by the engine) matching `message`. */
async function expectRangeError(p: Promise<unknown>, message: RegExp): Promise<void> {
  const e = await rejection(p);
  expect((e as { error?: unknown }).error ?? e).toBeInstanceOf(RangeError);
  expect(e.message).toMatch(message);
}

const fftFlops = (points: number): number => 5 * points * Math.log2(points);

/** The d-D DFT by its definition, O(N^2d): independent of fft.js. */
function naiveDft(n: number, d: number): Float64Array {
  const total = n ** d;
  const x = new Float64Array(2 * total);
  for (let g = 0; g < total; g++) inputValue(g, x, 2 * g);
  const out = new Float64Array(2 * total);
  const digits = (g: number): number[] => Array.from({ length: d }, (_, a) => Math.floor(g / n ** (d - 1 - a)) % n);
  for (let k = 0; k < total; k++) {
    const kd = digits(k);
    let re = 0;
    let im = 0;
    for (let g = 0; g < total; g++) {
      const gd = digits(g);
      let phase = 0;
      for (let a = 0; a < d; a++) phase += (kd[a]! * gd[a]!) % n;
      const w = (-2 * Math.PI * phase) / n;
      re += x[2 * g]! * Math.cos(w) - x[2 * g + 1]! * Math.sin(w);
      im += x[2 * g]! * Math.sin(w) + x[2 * g + 1]! * Math.cos(w);
    }
    out[2 * k] = re;
    out[2 * k + 1] = im;
  }
  return out;
}

describe('the FFT reference and check', () => {
  it('referenceFft matches the DFT by definition in 2-D and 3-D, whole and restricted to index ranges', () => {
    const full2 = naiveDft(8, 2);
    expect(Array.from(referenceFft(8, [[0, 8], [0, 8]])).every((v, i) => Math.abs(v - full2[i]!) < 1e-12)).toBe(true);
    // rows 2..3, columns 4..7
    const part = referenceFft(8, [[2, 4], [4, 8]]);
    expect(part).toHaveLength(2 * 2 * 4);
    for (let r = 0; r < 2; r++) for (let c = 0; c < 4; c++) for (let z = 0; z < 2; z++) expect(part[2 * (r * 4 + c) + z]!).toBeCloseTo(full2[2 * ((2 + r) * 8 + 4 + c) + z]!, 12);
    const full3 = naiveDft(4, 3);
    const part3 = referenceFft(4, [[0, 4], [1, 3], [2, 3]]);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 2; j++) for (let z = 0; z < 2; z++) expect(part3[2 * (i * 2 + j) + z]!).toBeCloseTo(full3[2 * ((i * 4 + 1 + j) * 4 + 2) + z]!, 12);
  });

  it('permuteAxes moves axis order[k] to position k', () => {
    // 2 x 3 complex, element (r, c) = r * 10 + c (real part)
    const a = new Float64Array(12);
    for (let r = 0; r < 2; r++) for (let c = 0; c < 3; c++) a[2 * (r * 3 + c)] = r * 10 + c;
    const t = permuteAxes(a, [2, 3], [1, 0]);
    expect(Array.from(t).filter((_, i) => i % 2 === 0)).toEqual([0, 10, 1, 11, 2, 12]);
  });

  it('verifyFft passes equal data and fails on every rank when one value on one rank is off by more than the tolerance', async () => {
    const check = async (bad: number): Promise<unknown> =>
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async (ctx) => {
          const expected = referenceFft(8, [[ctx.rank * 4, ctx.rank * 4 + 4], [0, 8]]);
          const actual = expected.slice();
          if (ctx.rank === 1) actual[7] = actual[7]! + bad;
          return verifyFft('t', ctx, ctx.mpi, actual, expected);
        },
      });
    await expect(check(1e-12)).resolves.toBeDefined();
    const e = await rejection(check(1e-3));
    expect(e.message).toMatch(/t: check failed: the result differs from a serial FFT of the same input by .* \(relative, tolerance 1e-9\)/);
  });
});

describe.each(MACHINES)('MPI mini-apps on %s (4 ranks)', (machine) => {
  it('fft2d n=32: matches the serial FFT; compute + comm within the time; gflops = 5 N^2 log2 N^2 over the time', async () => {
    const { row } = await run('fft2d', { n: '32' }, { machine });
    expect(Object.keys(row).sort()).toEqual(['check', 'commUs', 'computeUs', 'decomposition', 'gflops', 'iterations', 'n', 'ranks', 'timeUs']);
    expect(row).toMatchObject({ ranks: 4, n: 32, decomposition: 'slab', iterations: 1, check: 'passed' });
    expect(row.commUs as number).toBeGreaterThan(0);
    expectTimes(row, 'gflops', fftFlops(32 * 32));
  });

  it('fft3d n=16 pencil on a 2x2 grid: matches the serial FFT', async () => {
    const { row } = await run('fft3d', { n: '16' }, { machine });
    expect(Object.keys(row).sort()).toEqual(['check', 'commUs', 'computeUs', 'decomposition', 'gflops', 'grid', 'iterations', 'n', 'ranks', 'timeUs']);
    expect(row).toMatchObject({ ranks: 4, n: 16, decomposition: 'pencil', grid: '2x2', check: 'passed' });
    expect(row.commUs as number).toBeGreaterThan(0);
    expectTimes(row, 'gflops', fftFlops(16 ** 3));
  });

  it('ptrans n=64 nb=8 on a 2x2 grid: every element of A^T + B right; GB/s = n^2 8 B over the time', async () => {
    const { row } = await run('ptrans', { n: '64', nb: '8' }, { machine });
    expect(Object.keys(row).sort()).toEqual(['bandwidthGBs', 'check', 'commUs', 'computeUs', 'grid', 'n', 'nb', 'ranks', 'timeUs']);
    expect(row).toMatchObject({ ranks: 4, n: 64, nb: 8, grid: '2x2', check: 'passed' });
    // the off-diagonal ranks (0,1) and (1,0) swap their blocks
    expect(row.commUs as number).toBeGreaterThan(0);
    expectTimes(row, 'bandwidthGBs', 64 * 64 * 8);
  });
});

describe('fft2d', () => {
  it('runs with 2 ranks per node, transposed output and 2 iterations (figures per transform)', async () => {
    const one = await run('fft2d', { n: '64', transposeBack: '0' }, { nodes: 2, ppn: 2 });
    expect(one.row).toMatchObject({ ranks: 4, check: 'passed', iterations: 1 });
    expect(one.result.layout).toBe('transposed');
    const two = await run('fft2d', { n: '64', transposeBack: '0', iterations: '2' }, { nodes: 2, ppn: 2 });
    expect(two.row).toMatchObject({ iterations: 2, check: 'passed' });
    expect(two.row.timeUs as number).toBeGreaterThan(0.8 * (one.row.timeUs as number));
    expect(two.row.timeUs as number).toBeLessThan(1.2 * (one.row.timeUs as number));
    expect(two.result.checksum).toBe(one.result.checksum);
    // the transpose back costs a second alltoall
    const back = await run('fft2d', { n: '64' }, { nodes: 2, ppn: 2 });
    expect(back.row.commUs as number).toBeGreaterThan(1.5 * (one.row.commUs as number));
    expect(back.result.checksum).not.toBe(one.result.checksum);
  });

  it('the alltoall algorithm of the run changes commUs, not the result', async () => {
    const pairwise = await run('fft2d', { n: '64' }, { nodes: 8, algorithms: { alltoall: 'pairwise' } });
    const bruck = await run('fft2d', { n: '64' }, { nodes: 8, algorithms: { alltoall: 'bruck' } });
    expect(pairwise.row.check).toBe('passed');
    expect(bruck.row.check).toBe('passed');
    expect(pairwise.row.commUs).not.toBe(bruck.row.commUs);
    expect(pairwise.row.computeUs).toBe(bruck.row.computeUs);
    expect(pairwise.result.checksum).toBe(bruck.result.checksum);
  });

  it('refuses n not a power of two (check and main) and n not divisible by the ranks', async () => {
    const app = findApp('fft2d');
    expect(() => app.check!(resolveParams(app, { n: '48' }))).toThrow(/parameter n=48 of app fft2d: must be a power of two/);
    await expectRangeError(run('fft2d', { n: '48' }), /n=48 .*power of two/);
    await expectRangeError(run('fft2d', { n: '32' }, { nodes: 3 }), /parameter n=32 of app fft2d: the slab decomposition needs n divisible by the 3 ranks/);
    await expectRangeError(run('fft2d', { n: '4' }, { nodes: 8 }), /n=4 .*divisible by the 8 ranks/);
    expect(() => resolveParams(app, { transposeBack: '2' })).toThrow(/transposeBack=2 .*at most 1/);
    expect(() => resolveParams(app, { iterations: '0' })).toThrow(/iterations=0 .*at least 1/);
  });
});

describe('fft3d', () => {
  it('slab (8x1, one global alltoall) and pencil (4x2, two sub-communicator alltoalls) on 8 ranks give the same transform', async () => {
    const slab = await run('fft3d', { n: '16', decomposition: 'slab' }, { nodes: 8 });
    const pencil = await run('fft3d', { n: '16' }, { nodes: 8 });
    expect(slab.row).toMatchObject({ decomposition: 'slab', grid: '8x1', check: 'passed' });
    expect(pencil.row).toMatchObject({ decomposition: 'pencil', grid: '4x2', check: 'passed' });
    // same work per rank, different transposes
    expect(slab.row.computeUs).toBe(pencil.row.computeUs);
    expect(slab.row.commUs).not.toBe(pencil.row.commUs);
  });

  it('runs with 2 ranks per node on a given non-square grid (gridRows=2: 2x4)', async () => {
    const { row } = await run('fft3d', { n: '16', gridRows: '2' }, { nodes: 4, ppn: 2 });
    expect(row).toMatchObject({ ranks: 8, grid: '2x4', check: 'passed' });
    const cols = await run('fft3d', { n: '16', gridCols: '8' }, { nodes: 4, ppn: 2 });
    expect(cols.row).toMatchObject({ grid: '1x8', check: 'passed' });
  });

  it('the alltoall algorithm of the run changes commUs, not the result', async () => {
    const pairwise = await run('fft3d', { n: '16', decomposition: 'slab' }, { nodes: 8, algorithms: { alltoall: 'pairwise' } });
    const bruck = await run('fft3d', { n: '16', decomposition: 'slab' }, { nodes: 8, algorithms: { alltoall: 'bruck' } });
    expect(bruck.row.check).toBe('passed');
    expect(pairwise.row.commUs).not.toBe(bruck.row.commUs);
    expect(pairwise.result.checksum).toBe(bruck.result.checksum);
  });

  it('refuses bad n, a grid that does not fit the ranks, and a slab with columns', async () => {
    const app = findApp('fft3d');
    expect(() => app.check!(resolveParams(app, { n: '12' }))).toThrow(/parameter n=12 of app fft3d: must be a power of two/);
    await expectRangeError(run('fft3d', { n: '12' }), /n=12 .*power of two/);
    await expectRangeError(run('fft3d', { n: '4', decomposition: 'slab' }, { nodes: 8 }), /parameter n=4 of app fft3d: the 8x1 grid needs n divisible by 8 and by 1/);
    await expectRangeError(run('fft3d', { n: '16', gridRows: '3' }), /parameter gridRows=3 of app fft3d: does not divide the 4 ranks/);
    await expectRangeError(run('fft3d', { n: '16', gridCols: '8' }), /parameter gridCols=8 of app fft3d: does not divide the 4 ranks/);
    await expectRangeError(run('fft3d', { n: '16', gridRows: '2', gridCols: '4' }), /gridRows=2 and gridCols=4 of app fft3d: a 2x4 grid is 8 ranks, not 4/);
    await expectRangeError(run('fft3d', { n: '16', decomposition: 'slab', gridCols: '2' }), /parameter gridCols=2 of app fft3d: the slab decomposition is a 4x1 grid/);
    expect(() => resolveParams(app, { decomposition: 'cube' })).toThrow(/decomposition=cube .*valid: pencil, slab/);
  });
});

describe('ptrans', () => {
  it.each<{ what: string; n: number; nb: number; nodes: number; ppn: number; raw: Record<string, string>; grid: string }>([
    { what: 'n not a multiple of nb·P on a 3x2 grid', n: 100, nb: 7, nodes: 6, ppn: 1, raw: {}, grid: '3x2' },
    { what: '2 ranks per node, a 4x3 grid', n: 100, nb: 7, nodes: 6, ppn: 2, raw: { gridRows: '4' }, grid: '4x3' },
    { what: 'one row of 6 ranks', n: 50, nb: 4, nodes: 6, ppn: 1, raw: { gridRows: '1' }, grid: '1x6' },
    { what: 'n smaller than nb (one block)', n: 5, nb: 8, nodes: 3, ppn: 1, raw: {}, grid: '3x1' },
  ])('$what: every element right', async ({ n, nb, nodes, ppn, raw, grid }) => {
    const { row } = await run('ptrans', { n: String(n), nb: String(nb), ...raw }, { nodes, ppn });
    expect(row).toMatchObject({ ranks: nodes * ppn, n, nb, grid, check: 'passed' });
    expectTimes(row, 'bandwidthGBs', n * n * 8);
  });

  it('on a non-square grid ranks talk to several partners: more comm than on the square grid of the same size', async () => {
    const square = await run('ptrans', { n: '128', nb: '8' }, { nodes: 4 });
    const row = await run('ptrans', { n: '128', nb: '8', gridRows: '1' }, { nodes: 4 });
    expect(row.row).toMatchObject({ grid: '1x4', check: 'passed' });
    expect(row.row.commUs as number).toBeGreaterThan(square.row.commUs as number);
  });

  it('refuses a grid that does not fit the ranks', async () => {
    await expectRangeError(run('ptrans', { n: '64', gridRows: '4' }, { nodes: 6 }), /parameter gridRows=4 of app ptrans: does not divide the 6 ranks/);
    await expectRangeError(run('ptrans', { n: '64', gridRows: '3', gridCols: '3' }, { nodes: 6 }), /gridRows=3 and gridCols=3 of app ptrans: a 3x3 grid is 9 ranks, not 6/);
    const app = findApp('ptrans');
    expect(() => resolveParams(app, { nb: '0' })).toThrow(/nb=0 .*at least 1/);
    expect(() => resolveParams(app, { gridRows: '-1' })).toThrow(/gridRows=-1 .*at least 0/);
  });
});
