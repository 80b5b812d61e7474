/**
 * The cg app: pipelined conjugate gradients on a 3-D Laplacian over a Cartesian grid. It
 * converges to the known solution, its iterates are those of a serial textbook CG on the whole
 * grid, and overlapping its iallreduce with the halo exchange and stencil product shows in its
 * time and in --metrics.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { knownSolution } from '../apps/cg.ts';
import { findApp } from '../apps/index.ts';
import type { CallStats } from '../runtime/metrics.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';

async function cg(raw: Record<string, string>, opts: Partial<SimulateOptions> = {}): Promise<{ row: Row; timeUs: number; calls: readonly CallStats[] }> {
  const app = findApp('cg');
  const params = resolveParams(app, raw);
  const r = await simulate({ machine: 'xe6', nodes: 8, ...opts, program: (ctx) => app.main(ctx, params) });
  return { row: r.result!.rows[0]!, timeUs: r.simulatedTimeUs, calls: r.metrics?.calls ?? [] };
}

/**
 * Textbook CG (Hestenes-Stiefel, x0 = 0) for `iterations` steps on the whole G^3 grid with the
 * app's operator and right-hand side: the relative residual and the relative error against x*.
 */
function serialCg(G: number, iterations: number): { residual: number; error: number } {
  const N = G * G * G;
  const at = (i: number, j: number, k: number): number => (i * G + j) * G + k;
  const inside = (v: number): boolean => v >= 0 && v < G;
  const apply = (u: Float64Array, out: Float64Array): void => {
    for (let i = 0; i < G; i++) {
      for (let j = 0; j < G; j++) {
        for (let k = 0; k < G; k++) {
          let v = 6 * u[at(i, j, k)]!;
          for (const [a, b, c] of [[i - 1, j, k], [i + 1, j, k], [i, j - 1, k], [i, j + 1, k], [i, j, k - 1], [i, j, k + 1]] as const) if (inside(a) && inside(b) && inside(c)) v -= u[at(a, b, c)]!;
          out[at(i, j, k)] = v;
        }
      }
    }
  };
  const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, v, i) => s + v * b[i]!, 0);
  const xs = new Float64Array(N);
  for (let i = 0; i < G; i++) for (let j = 0; j < G; j++) for (let k = 0; k < G; k++) xs[at(i, j, k)] = knownSolution([G, G, G], [i, j, k]);
  const b = new Float64Array(N);
  apply(xs, b);
  const x = new Float64Array(N);
  const r = b.slice();
  const p = r.slice();
  const q = new Float64Array(N);
  let rr = dot(r, r);
  for (let it = 0; it < iterations; it++) {
    apply(p, q);
    const alpha = rr / dot(p, q);
    for (let i = 0; i < N; i++) {
      x[i]! += alpha * p[i]!;
      r[i]! -= alpha * q[i]!;
    }
    const next = dot(r, r);
    for (let i = 0; i < N; i++) p[i] = r[i]! + (next / rr) * p[i]!;
    rr = next;
  }
  apply(x, q);
  let res = 0;
  let err = 0;
  for (let i = 0; i < N; i++) {
    res += (b[i]! - q[i]!) ** 2;
    err += (x[i]! - xs[i]!) ** 2;
  }
  return { residual: Math.sqrt(res / dot(b, b)), error: Math.sqrt(err / dot(xs, xs)) };
}

describe('cg on xe6, 8 ranks', () => {
  it('converges: the true residual falls below the tolerance and the error against the known solution with it', async () => {
    const { row } = await cg({ n: '8', tol: '1e-8' });
    expect(row).toMatchObject({ ranks: 8, procGrid: '2x2x2', localGrid: '8x8x8', globalGrid: '16x16x16', converged: true, check: 'passed' });
    expect(row.residual as number).toBeLessThan(1e-8);
    expect(row.error as number).toBeLessThan(1e-7);
    // CG on a 16^3 Laplacian: a few dozen iterations, well under the 200 allowed
    expect(row.iterations as number).toBeGreaterThan(20);
    expect(row.iterations as number).toBeLessThan(100);
  });

  it.each(['yes', 'no'])('overlap=%s: after 15 iterations the residual and error are those of a serial textbook CG on the whole 16^3 grid', async (overlap) => {
    const { row } = await cg({ n: '8', tol: '0', iterations: '15', overlap });
    const serial = serialCg(16, 15);
    expect(row.iterations).toBe(15);
    expect(row.converged).toBe(false);
    expect(Math.abs((row.residual as number) / serial.residual - 1)).toBeLessThan(1e-3);
    expect(Math.abs((row.error as number) / serial.error - 1)).toBeLessThan(1e-3);
  });

  it('the same global grid on 1 rank (16^3) and on 8 (8^3 each) takes the same iterations to the same residual', async () => {
    const one = await cg({ n: '16', tol: '1e-8' }, { nodes: 1 });
    const eight = await cg({ n: '8', tol: '1e-8' });
    expect(one.row.globalGrid).toBe('16x16x16');
    expect(one.row.iterations).toBe(eight.row.iterations);
    expect(Math.abs((one.row.residual as number) / (eight.row.residual as number) - 1)).toBeLessThan(1e-3);
  });

  it('overlap=yes is faster than overlap=no per iteration, and a progress thread (mpi.asyncProgress=yes) faster still', async () => {
    // measured (n=8, tol 1e-6: 36 iterations): no 20.11 us per iteration, yes 18.69, yes with a progress
    // thread 17.47. Without the thread the reduction's network time is hidden but its CPU time (sends,
    // steps, completions) still falls on the rank, inside its other MPI calls; the thread takes that too.
    const no = await cg({ n: '8', overlap: 'no' });
    const yes = await cg({ n: '8', overlap: 'yes' });
    const thread = await cg({ n: '8', overlap: 'yes' }, { set: { 'mpi.asyncProgress': 'yes' } });
    for (const r of [no, yes, thread]) expect(r.row).toMatchObject({ iterations: 36, converged: true, check: 'passed' });
    // the same arithmetic in the same order: the same iterates
    expect(yes.row.residual).toBe(no.row.residual);
    expect(thread.row.residual).toBe(no.row.residual);
    const per = (r: { row: Row }): number => r.row.timePerIterationUs as number;
    // at least a third of the 1.42 us measured
    expect(per(yes)).toBeLessThan(per(no) - 1.42 / 3);
    expect(per(thread)).toBeLessThanOrEqual(per(yes));
    // the rank waits far less for its reduction: 125.8 us over the run against 16.3 (measured)
    expect(yes.row.reductionWaitUs as number).toBeLessThan((no.row.reductionWaitUs as number) / 3);
    expect(yes.row.computeUs).toBe(no.row.computeUs);
    // with a progress thread, overlap=no gains nothing: it waits at once
    const noThread = await cg({ n: '8', overlap: 'no' }, { set: { 'mpi.asyncProgress': 'yes' } });
    expect(per(noThread)).toBe(per(no));
  });

  it('--metrics counts MPI_Iallreduce, and the wait for it in MPI_Wait (overlap=no) or MPI_Test (overlap=yes)', async () => {
    const no = await cg({ n: '8', overlap: 'no' }, { metrics: true });
    const yes = await cg({ n: '8', overlap: 'yes' }, { metrics: true });
    const call = (r: { calls: readonly CallStats[] }, name: string): CallStats | undefined => r.calls.find((c) => c.name === name);
    for (const r of [no, yes]) {
      // one per iteration on each of 8 ranks, of (r, r) and (w, r)
      expect(call(r, 'MPI_Iallreduce')).toMatchObject({ calls: 8 * 36, bytes: 8 * 36 * 16 });
    }
    expect(call(no, 'MPI_Wait')).toMatchObject({ calls: 8 * 36 });
    expect(call(no, 'MPI_Test')).toBeUndefined();
    expect(call(yes, 'MPI_Test')!.calls).toBeGreaterThanOrEqual(8 * 36);
    // the time in the reduction's wait (and polls) shrinks
    const waited = (r: { calls: readonly CallStats[] }): number => (call(r, 'MPI_Wait')?.timeUs ?? 0) + (call(r, 'MPI_Test')?.timeUs ?? 0);
    expect(waited(yes)).toBeLessThan(waited(no) / 2);
  });

  it('a skeleton run (every iteration, no data) takes the time of the real run', async () => {
    const raw = { n: '8', tol: '0', iterations: '5' };
    const real = await cg(raw);
    const skeleton = await cg(raw, { skeleton: true });
    expect(skeleton.timeUs).toBe(real.timeUs);
    expect(skeleton.row.check).toBe('skipped (skeleton run)');
  });
});
