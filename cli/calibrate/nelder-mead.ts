/**
 * Nelder-Mead downhill simplex: a derivative-free minimiser for a handful of parameters whose
 * objective is a simulation (noisy steps, no gradient). Deterministic: the same function and
 * start give the same evaluations in the same order. Coefficients are the standard ones
 * (reflection 1, expansion 2, contraction 1/2, shrink 1/2); ties keep the earlier vertex first.
 */

/** Options of `nelderMead`. */
export interface NelderMeadOptions {
  /** Edge of the initial simplex along each axis (default 0.5). */
  readonly step?: number;
  /** Stop when every vertex lies within this of the best one along every axis (default 1e-4)... */
  readonly xTolerance?: number;
  /** ...and the vertices' values differ by at most this (default 1e-10). */
  readonly fTolerance?: number;
  /** Most evaluations of `f` (default 200 per parameter). */
  readonly maxEvaluations?: number;
  /** Bounds per axis (default unbounded): points outside are moved onto the nearest bound before `f` sees them. */
  readonly lower?: readonly number[];
  readonly upper?: readonly number[];
  /** Called after each evaluation with the count so far and the best value. */
  readonly onEvaluation?: (evaluations: number, best: number) => void;
}

/** Where the minimiser stopped. */
export interface NelderMeadResult {
  readonly x: readonly number[];
  readonly f: number;
  readonly evaluations: number;
  /** Whether the simplex met both tolerances (false: stopped at maxEvaluations). */
  readonly converged: boolean;
}

/** Minimises `f` from `x0`; `f` may be asynchronous (a simulation). A NaN value counts as +Infinity. */
export async function nelderMead(f: (x: readonly number[]) => number | Promise<number>, x0: readonly number[], opts: NelderMeadOptions = {}): Promise<NelderMeadResult> {
  const n = x0.length;
  if (n === 0) throw new RangeError('nelderMead: no parameters');
  const step = opts.step ?? 0.5;
  const xTol = opts.xTolerance ?? 1e-4;
  const fTol = opts.fTolerance ?? 1e-10;
  const maxEvals = opts.maxEvaluations ?? 200 * n;
  const lower = opts.lower ?? [];
  const upper = opts.upper ?? [];
  const clamp = (x: readonly number[]): number[] => x.map((v, i) => Math.min(upper[i] ?? Infinity, Math.max(lower[i] ?? -Infinity, v)));
  let evaluations = 0;
  let best = Infinity;
  const value = async (x: readonly number[]): Promise<number> => {
    const v = await f(x);
    evaluations++;
    const y = Number.isNaN(v) ? Infinity : v;
    if (y < best) best = y;
    opts.onEvaluation?.(evaluations, best);
    return y;
  };

  // the simplex: x0 and one vertex a step along each axis (against it where the bound is in the way)
  const start = clamp(x0);
  const simplex: { x: number[]; f: number }[] = [{ x: start, f: await value(start) }];
  for (let i = 0; i < n; i++) {
    const x = [...start];
    x[i] = x[i]! + step;
    if (x[i]! > (upper[i] ?? Infinity)) x[i] = start[i]! - step;
    const v = clamp(x);
    simplex.push({ x: v, f: await value(v) });
  }
  const order = (): void => {
    // a stable sort: equal values keep their order
    simplex.sort((a, b) => a.f - b.f);
  };
  const along = (c: readonly number[], to: readonly number[], t: number): number[] => clamp(c.map((v, i) => v + t * (to[i]! - v)));
  let converged = false;
  while (evaluations < maxEvals) {
    order();
    const bestV = simplex[0]!;
    const worst = simplex[n]!;
    const spreadX = Math.max(...simplex.slice(1).map((s) => Math.max(...s.x.map((v, i) => Math.abs(v - bestV.x[i]!)))));
    if (spreadX <= xTol && worst.f - bestV.f <= fTol) {
      converged = true;
      break;
    }
    // centroid of all but the worst
    const c = new Array<number>(n).fill(0);
    for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) c[i] = c[i]! + simplex[k]!.x[i]! / n;
    const xr = along(c, worst.x, -1);
    const fr = await value(xr);
    const second = simplex[n - 1]!;
    if (fr < bestV.f) {
      const xe = along(c, worst.x, -2);
      const fe = evaluations < maxEvals ? await value(xe) : Infinity;
      simplex[n] = fe < fr ? { x: xe, f: fe } : { x: xr, f: fr };
      continue;
    }
    if (fr < second.f) {
      simplex[n] = { x: xr, f: fr };
      continue;
    }
    if (evaluations >= maxEvals) break;
    // contract: outside (towards the reflected point) when it beat the worst, else inside
    const outside = fr < worst.f;
    const xc = along(c, outside ? xr : worst.x, 0.5);
    const fc = await value(xc);
    if (fc < (outside ? fr : worst.f)) {
      simplex[n] = { x: xc, f: fc };
      continue;
    }
    // shrink every vertex halfway towards the best
    for (let k = 1; k <= n && evaluations < maxEvals; k++) {
      const xs = along(bestV.x, simplex[k]!.x, 0.5);
      simplex[k] = { x: xs, f: await value(xs) };
    }
  }
  order();
  return { x: simplex[0]!.x, f: simplex[0]!.f, evaluations, converged };
}
