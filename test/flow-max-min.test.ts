/** Weighted max-min fair sharing by progressive filling (fabric/flow/max-min.ts): hand-computed cases and properties. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxMinRates, MaxMinScratch, type MaxMinProblem } from '../fabric/flow/max-min.ts';

/** A flow as a list of [resource, weight] pairs and an optional cap. */
interface FlowIn {
  readonly uses: readonly (readonly [number, number])[];
  readonly cap?: number;
}

function problemOf(capacity: readonly number[], flows: readonly FlowIn[]): MaxMinProblem {
  const flowStart = new Int32Array(flows.length + 1);
  const res: number[] = [];
  const w: number[] = [];
  flows.forEach((f, i) => {
    flowStart[i] = res.length;
    for (const [r, x] of f.uses) {
      res.push(r);
      w.push(x);
    }
  });
  flowStart[flows.length] = res.length;
  return {
    flows: flows.length,
    resources: capacity.length,
    capacity: Float64Array.from(capacity),
    flowStart,
    entryResource: Int32Array.from(res),
    entryWeight: Float64Array.from(w),
    rateCap: Float64Array.from(flows, (f) => f.cap ?? Infinity),
  };
}

function solve(capacity: readonly number[], flows: readonly FlowIn[], scratch = new MaxMinScratch()): number[] {
  const rates = new Float64Array(flows.length);
  maxMinRates(problemOf(capacity, flows), rates, scratch);
  return [...rates];
}

function expectClose(actual: readonly number[], expected: readonly number[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => expect(a, `flow ${i}`).toBeCloseTo(expected[i]!, 12));
}

describe('max-min by hand', () => {
  it('the parking lot: one long flow over three links, one short flow on each', () => {
    // capacities 1, 2, 3: link 0 fills first at 1/2 (long flow and short flow 1), then link 1
    // has 1.5 left for its short flow and link 2 has 2.5 for its own
    const rates = solve([1, 2, 3], [{ uses: [[0, 1], [1, 1], [2, 1]] }, { uses: [[0, 1]] }, { uses: [[1, 1]] }, { uses: [[2, 1]] }]);
    expectClose(rates, [0.5, 0.5, 1.5, 2.5]);
  });

  it('equal links: every flow gets half', () => {
    expectClose(solve([1, 1, 1], [{ uses: [[0, 1], [1, 1], [2, 1]] }, { uses: [[0, 1]] }, { uses: [[1, 1]] }, { uses: [[2, 1]] }]), [0.5, 0.5, 0.5, 0.5]);
  });

  it('weights: flows rise at one rate and use capacity by their weight', () => {
    // r + 3r = 10
    expectClose(solve([10], [{ uses: [[0, 1]] }, { uses: [[0, 3]] }]), [2.5, 2.5]);
    // flow 0 weighs 2 on resource 1: resource 1 fills at 6/3 = 2 before resource 0 (6/2 = 3);
    // resource 0 then has 6 - 2 = 4 for flow 1
    expectClose(solve([6, 6], [{ uses: [[0, 1], [1, 2]] }, { uses: [[0, 1]] }, { uses: [[1, 1]] }]), [2, 4, 2]);
  });

  it('caps: a capped flow stops alone and leaves the rest to the others', () => {
    expectClose(solve([10], [{ uses: [[0, 1]], cap: 1 }, { uses: [[0, 3]] }]), [1, 3]);
    expectClose(solve([10], [{ uses: [[0, 1]], cap: 2 }, { uses: [[0, 1]] }, { uses: [[0, 1]] }]), [2, 4, 4]);
    // a cap above the fair share changes nothing
    expectClose(solve([10], [{ uses: [[0, 1]], cap: 7 }, { uses: [[0, 1]] }]), [5, 5]);
  });

  it('a flow with no resource gets its cap, or Infinity without one; a resource of capacity 0 stops its flows', () => {
    expectClose(solve([1], [{ uses: [], cap: 0.25 }, { uses: [[0, 1]] }]), [0.25, 1]);
    expect(solve([], [{ uses: [] }])).toEqual([Infinity]);
    expectClose(solve([0, 5], [{ uses: [[0, 1], [1, 1]] }, { uses: [[1, 1]] }]), [0, 5]);
  });

  it('reuses its scratch: a second solve of the same size allocates nothing', () => {
    const scratch = new MaxMinScratch();
    const p = problemOf([1, 2, 3], [{ uses: [[0, 1], [1, 1], [2, 1]] }, { uses: [[0, 1]] }, { uses: [[1, 1]] }, { uses: [[2, 1]] }]);
    const rates = new Float64Array(4);
    maxMinRates(p, rates, scratch);
    const arrays = [scratch.resStart, scratch.resFlow, scratch.used, scratch.frozen, scratch.heapItem];
    maxMinRates(p, rates, scratch);
    expect([scratch.resStart, scratch.resFlow, scratch.used, scratch.frozen, scratch.heapItem]).toEqual(arrays);
    arrays.forEach((a, i) => expect([scratch.resStart, scratch.resFlow, scratch.used, scratch.frozen, scratch.heapItem][i]).toBe(a));
  });
});

/** A random problem: up to 12 resources, up to 40 flows of 1 to 5 distinct resources, some capped. */
const problemArb = fc
  .record({
    capacity: fc.array(fc.double({ min: 0.5, max: 100, noNaN: true }), { minLength: 1, maxLength: 12 }),
    flows: fc.array(
      fc.record({
        picks: fc.uniqueArray(fc.nat(11), { minLength: 1, maxLength: 5 }),
        weights: fc.array(fc.double({ min: 0.1, max: 5, noNaN: true }), { minLength: 5, maxLength: 5 }),
        cap: fc.option(fc.double({ min: 0.01, max: 20, noNaN: true }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 40 },
    ),
  })
  .map(({ capacity, flows }) => ({
    capacity,
    flows: flows.map((f): FlowIn => {
      const uses = [...new Set(f.picks.map((r) => r % capacity.length))].map((r, i) => [r, f.weights[i]!] as const);
      return f.cap === undefined ? { uses } : { uses, cap: f.cap };
    }),
  }));

const TOL = 1e-9;

describe('max-min properties', () => {
  it('feasible: no resource above its capacity, no flow above its cap', () => {
    fc.assert(
      fc.property(problemArb, ({ capacity, flows }) => {
        const rates = solve(capacity, flows);
        const load = capacity.map(() => 0);
        flows.forEach((f, i) => {
          expect(rates[i]).toBeGreaterThanOrEqual(0);
          if (f.cap !== undefined) expect(rates[i]).toBeLessThanOrEqual(f.cap * (1 + TOL));
          for (const [r, w] of f.uses) load[r]! += w * rates[i]!;
        });
        load.forEach((l, r) => expect(l).toBeLessThanOrEqual(capacity[r]! * (1 + TOL)));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('max-min: every flow sits at its cap or on a saturated resource where no flow has a higher rate', () => {
    fc.assert(
      fc.property(problemArb, ({ capacity, flows }) => {
        const rates = solve(capacity, flows);
        const load = capacity.map(() => 0);
        const on: number[][] = capacity.map(() => []);
        flows.forEach((f, i) => {
          for (const [r, w] of f.uses) {
            load[r]! += w * rates[i]!;
            on[r]!.push(i);
          }
        });
        flows.forEach((f, i) => {
          const atCap = f.cap !== undefined && rates[i]! >= f.cap * (1 - TOL);
          const bottleneck = f.uses.some(([r]) => load[r]! >= capacity[r]! * (1 - TOL) && on[r]!.every((j) => rates[j]! <= rates[i]! * (1 + TOL)));
          expect(atCap || bottleneck, `flow ${i} (rate ${rates[i]}) has neither its cap nor a bottleneck`).toBe(true);
        });
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('deterministic: the same problem gives the same rates bit for bit, whatever the scratch held before', () => {
    fc.assert(
      fc.property(problemArb, problemArb, (a, b) => {
        const first = solve(a.capacity, a.flows);
        const scratch = new MaxMinScratch();
        solve(b.capacity, b.flows, scratch);
        const again = solve(a.capacity, a.flows, scratch);
        again.forEach((x, i) => expect(Object.is(x, first[i])).toBe(true));
      }),
      { numRuns: 200, seed: 13 },
    );
  });

  it('unchanged (up to rounding) when the flows come in another order', () => {
    fc.assert(
      fc.property(problemArb, fc.nat(), ({ capacity, flows }, shift) => {
        const rates = solve(capacity, flows);
        const k = shift % flows.length;
        const rotated = [...flows.slice(k), ...flows.slice(0, k)];
        const other = solve(capacity, rotated);
        rotated.forEach((_, i) => {
          const orig = (i + k) % flows.length;
          expect(Math.abs(other[i]! - rates[orig]!)).toBeLessThanOrEqual(TOL * Math.max(1, rates[orig]!));
        });
      }),
      { numRuns: 200, seed: 17 },
    );
  });
});
