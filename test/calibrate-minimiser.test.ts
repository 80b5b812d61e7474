import { describe, expect, it } from 'vitest';
import { nelderMead } from '../cli/calibrate/nelder-mead.ts';

/** Rosenbrock's banana valley: minimum 0 at (1, 1), a classic trap for simplex methods. */
const rosenbrock = (x: readonly number[]): number => 100 * (x[1]! - x[0]! ** 2) ** 2 + (1 - x[0]!) ** 2;

describe('Nelder-Mead', () => {
  it('finds the minimum of the Rosenbrock function from (-1.2, 1) to 1e-4', async () => {
    const r = await nelderMead(rosenbrock, [-1.2, 1], { xTolerance: 1e-8, fTolerance: 1e-16, maxEvaluations: 2000 });
    expect(r.converged).toBe(true);
    expect(r.x[0]).toBeCloseTo(1, 4);
    expect(r.x[1]).toBeCloseTo(1, 4);
    expect(r.f).toBeLessThan(1e-10);
    expect(r.evaluations).toBeLessThan(2000);
  });

  it('says so when the evaluation cap stops it far from the minimum', async () => {
    let calls = 0;
    const r = await nelderMead((x) => (calls++, rosenbrock(x)), [-1.2, 1], { maxEvaluations: 15 });
    expect(r.converged).toBe(false);
    expect(r.evaluations).toBe(15);
    expect(calls).toBe(15);
    expect(r.f).toBeGreaterThan(1e-3);
  });

  it('a badly scaled 4-D bowl: every coordinate to 1e-3 of its minimum', async () => {
    const centre = [3, -2, 0.5, 10];
    const scale = [1, 100, 0.01, 5];
    const f = (x: readonly number[]): number => x.reduce((s, v, i) => s + scale[i]! * (v - centre[i]!) ** 2, 0);
    const r = await nelderMead(f, [0, 0, 0, 0], { step: 1, xTolerance: 1e-6, fTolerance: 1e-14, maxEvaluations: 5000 });
    expect(r.converged).toBe(true);
    r.x.forEach((v, i) => expect(Math.abs(v - centre[i]!)).toBeLessThan(1e-3));
  });

  it('keeps every evaluated point inside the bounds and ends on the bound that holds the minimum back', async () => {
    const seen: number[][] = [];
    const f = (x: readonly number[]): number => {
      seen.push([...x]);
      return (x[0]! - 3) ** 2 + (x[1]! + 1) ** 2;
    };
    const r = await nelderMead(f, [0, 0], { lower: [-1, -0.5], upper: [1, 1], xTolerance: 1e-7, maxEvaluations: 1000 });
    expect(r.converged).toBe(true);
    expect(r.x[0]).toBeCloseTo(1, 6);
    expect(r.x[1]).toBeCloseTo(-0.5, 6);
    for (const [a, b] of seen) {
      expect(a).toBeGreaterThanOrEqual(-1);
      expect(a).toBeLessThanOrEqual(1);
      expect(b).toBeGreaterThanOrEqual(-0.5);
      expect(b).toBeLessThanOrEqual(1);
    }
  });

  it('takes an asynchronous function and is deterministic: the same start gives the same evaluations', async () => {
    const trace = async (): Promise<number[][]> => {
      const seen: number[][] = [];
      await nelderMead(
        async (x) => {
          seen.push([...x]);
          await Promise.resolve();
          return (x[0]! - 0.3) ** 2 + 2 * (x[1]! - 0.7) ** 2 + x[0]! * x[1]!;
        },
        [0, 0],
        { maxEvaluations: 80 },
      );
      return seen;
    };
    const a = await trace();
    expect(a.length).toBeGreaterThan(20);
    expect(await trace()).toEqual(a);
  });

  it('treats NaN as worse than anything', async () => {
    const r = await nelderMead((x) => (x[0]! < 0 ? NaN : (x[0]! - 0.25) ** 2), [1], { xTolerance: 1e-7, maxEvaluations: 500 });
    expect(r.converged).toBe(true);
    expect(r.x[0]).toBeCloseTo(0.25, 5);
  });

  it('reports the best value to onEvaluation after each call, never increasing', async () => {
    const bests: number[] = [];
    await nelderMead(rosenbrock, [-1.2, 1], { maxEvaluations: 50, onEvaluation: (n, best) => bests.push(n === bests.length + 1 ? best : NaN) });
    expect(bests).toHaveLength(50);
    for (let i = 1; i < bests.length; i++) expect(bests[i]!).toBeLessThanOrEqual(bests[i - 1]!);
  });
});
