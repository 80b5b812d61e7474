import type { CartComm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';

/** NPB MG problem classes (NPB 3 mg.f / npbparams.h): grid points per axis and V-cycles. */
export const MG_CLASSES: Readonly<Record<string, { readonly n: number; readonly iterations: number }>> = {
  S: { n: 32, iterations: 4 },
  W: { n: 128, iterations: 4 },
  A: { n: 256, iterations: 4 },
  B: { n: 256, iterations: 20 },
  C: { n: 512, iterations: 20 },
};
/**
 * Work per grid point and level of a V-cycle. NPB counts 58 operations per point of the finest
 * grid and iteration (mg.f: Mop/s = 58 x nit x nx x ny x nz / time), all levels included; the
 * levels hold 1 + 1/8 + 1/64 ... = 8/7 of the finest grid's points, so each point of each level is
 * charged 58 x 7/8. Bytes: the V-cycle's sweeps over a level (resid reads u and v and writes r,
 * psinv reads r and updates u, the projection or interpolation reads one grid and writes another).
 */
const PER_POINT = { flops: (58 * 7) / 8, bytes: 64 };

/**
 * The NAS parallel benchmarks' multigrid (MG, NPB 3 MPI version) communication: a V-cycle over
 * the levels of a periodic n^3 grid split over a 3-D process grid, each rank's block with a ghost
 * layer of one point. Every residual, smoothing and projection on a level ends with NPB's comm3:
 * the ghost faces exchanged axis by axis (irecv first, then isend to both neighbours along the
 * axis and wait), each axis's face carrying the ghost lines the previous axes filled, so edges and
 * corners arrive too (faces of n^2, (n+2)·n and (n+2)^2 points). A V-cycle exchanges after the
 * projection to each coarser level, after the smoothing on the coarsest, after the residual and
 * the smoothing on each finer level, and after the residual that closes the iteration; the
 * residual norm (norm2u3) is an allreduce of a sum and one of a maximum, before and after the
 * iterations. Levels go down while every rank keeps 2 points per axis (NPB goes further on fewer
 * ranks). Computation is charged per point and level (PER_POINT). Real data: before each exchange
 * a rank writes known values (a function of the global point and the exchange's number) into its
 * block, and after it every ghost point, faces, edges and corners, must hold its neighbour's value.
 */
export const npbMg: App = {
  name: 'npb-mg',
  summary: 'NAS MG: V-cycles with axis-by-axis ghost-face exchanges (comm3) on every level of a periodic 3-D grid, norm allreduces; Mop/s as NPB counts them; every ghost point checked',
  merit: { key: 'mops', higherIsBetter: true, label: 'Mop/s' },
  minRanks: 1,
  params: {
    class: { type: 'choice', default: 'S', choices: Object.keys(MG_CLASSES), help: 'NPB class: 32^3 (S), 128^3 (W), 256^3 (A, B), 512^3 (C) points; 4 (S, W, A) or 20 (B, C) iterations' },
    iterations: { type: 'int', default: 0, min: 0, help: "V-cycles (0: the class's)" },
  },
  main: runMg,
};

interface Level {
  readonly local: readonly number[];
  readonly padded: readonly number[];
  readonly u: Float64Array;
  readonly points: number;
}

async function runMg(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const real = !ctx.skeleton;
  const cls = MG_CLASSES[p.class as string]!;
  const iterations = (p.iterations as number) || cls.iterations;
  const procs = mpi.dimsCreate(mpi.size, [0, 0, 0]);
  const cart = (await mpi.cartCreate(procs, [true, true, true])) as CartComm;
  procs.forEach((q, d) => {
    if (cls.n % q !== 0) throw new RangeError(`npb-mg: class ${p.class as string} has ${cls.n} points per axis, which the ${procs.join('x')} process grid does not divide along axis ${d}`);
  });
  const levels: Level[] = [];
  for (let l = 0; ; l++) {
    const local = procs.map((q) => cls.n / q / 2 ** l);
    if (l > 0 && local.some((v) => v < 2 || !Number.isInteger(v))) break;
    const padded = local.map((v) => v + 2);
    levels.push({ local, padded, u: ctx.alloc(Float64Array, padded[0]! * padded[1]! * padded[2]!), points: local[0]! * local[1]! * local[2]! });
    if (local.some((v) => v < 4 || v % 2 !== 0)) break;
  }
  const nbr = [0, 1, 2].map((d) => cart.cartShift(d, 1));
  const maxFace = Math.max(...levels.map((lv) => Math.max(lv.padded[0]! * lv.padded[1]!, lv.padded[0]! * lv.padded[2]!, lv.padded[1]! * lv.padded[2]!)));
  const bufs = [0, 1, 2, 3].map(() => ctx.alloc(Float64Array, maxFace));
  const origin = (lv: Level): number[] => cart.coords.map((c, d) => c * lv.local[d]!);
  const global = (lv: Level): number[] => procs.map((q, d) => q * lv.local[d]!);
  let exchanges = 0;
  let errors = 0;
  let compute = 0;
  const value = (g: readonly number[], G: readonly number[], e: number): number => ((g[0]! * G[1]! + g[1]!) * G[2]! + g[2]!) % 4093 + 4096 * (e % 1000);

  /** comm3: fill the block with known values, exchange the ghost faces axis by axis, check every ghost point. */
  const comm3 = async (lv: Level): Promise<void> => {
    const e = exchanges++;
    const [p0, p1, p2] = lv.padded as [number, number, number];
    const at = (i: number, j: number, k: number): number => (i * p1 + j) * p2 + k;
    const o = origin(lv);
    const G = global(lv);
    const wrap = (v: number, d: number): number => (((v % G[d]!) + G[d]!) % G[d]!);
    if (real) {
      lv.u.fill(-1);
      for (let i = 1; i <= lv.local[0]!; i++) for (let j = 1; j <= lv.local[1]!; j++) for (let k = 1; k <= lv.local[2]!; k++) lv.u[at(i, j, k)] = value([o[0]! + i - 1, o[1]! + j - 1, o[2]! + k - 1], G, e);
    }
    for (let d = 0; d < 3; d++) {
      // axis d's face: the interior along the axes after d, ghosts included along the axes before it
      const span = [0, 1, 2].map((a) => (a < d ? [0, lv.padded[a]! - 1] : [1, lv.local[a]!])) as [number, number][];
      const face = (c: number): Int32Array => {
        const r = span.map((s, a) => (a === d ? [c, c] : s)) as [number, number][];
        const out = new Int32Array((r[0]![1] - r[0]![0] + 1) * (r[1]![1] - r[1]![0] + 1) * (r[2]![1] - r[2]![0] + 1));
        let n = 0;
        for (let i = r[0]![0]; i <= r[0]![1]; i++) for (let j = r[1]![0]; j <= r[1]![1]; j++) for (let k = r[2]![0]; k <= r[2]![1]; k++) out[n++] = at(i, j, k);
        return out;
      };
      const none = new Int32Array(0);
      const [sendLo, sendHi, recvLo, recvHi] = real ? [face(1), face(lv.local[d]!), face(0), face(lv.local[d]! + 1)] : [none, none, none, none];
      const len = span.reduce((acc, s, a) => acc * (a === d ? 1 : s[1] - s[0] + 1), 1);
      const [rLo, rHi, sLo, sHi] = bufs.map((b) => b.subarray(0, len)) as [Float64Array, Float64Array, Float64Array, Float64Array];
      const { source, dest } = nbr[d]!;
      const reqs: Request[] = [cart.irecv(rLo, source, 2 * d), cart.irecv(rHi, dest, 2 * d + 1)];
      if (real) for (let i = 0; i < len; i++) {
        sLo[i] = lv.u[sendLo[i]!]!;
        sHi[i] = lv.u[sendHi[i]!]!;
      }
      reqs.push(cart.isend(sHi, dest, 2 * d), cart.isend(sLo, source, 2 * d + 1));
      await cart.waitAll(reqs);
      if (real) for (let i = 0; i < len; i++) {
        lv.u[recvLo[i]!] = rLo[i]!;
        lv.u[recvHi[i]!] = rHi[i]!;
      }
    }
    if (!real) return;
    for (let i = 0; i < p0; i++) for (let j = 0; j < p1; j++) for (let k = 0; k < p2; k++) {
      const g = [wrap(o[0]! + i - 1, 0), wrap(o[1]! + j - 1, 1), wrap(o[2]! + k - 1, 2)];
      if (lv.u[at(i, j, k)] !== value(g, G, e)) errors++;
    }
  };
  const work = async (lv: Level): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops: PER_POINT.flops * lv.points, bytes: PER_POINT.bytes * lv.points });
    compute += ctx.now() - t;
  };
  const sums = new Float64Array(1);
  const norm = async (): Promise<void> => {
    await cart.allreduce(Float64Array.of(1), sums, mpi.SUM);
    await cart.allreduce(Float64Array.of(1), sums, mpi.MAX);
  };

  const top = levels[0]!;
  const L = levels.length;
  // the initial residual and its norm
  await comm3(top);
  await norm();
  await cart.barrier();
  const start = ctx.now();
  for (let it = 0; it < iterations; it++) {
    // down: project the residual to each coarser level
    for (let l = 1; l < L; l++) {
      await work(levels[l]!);
      await comm3(levels[l]!);
    }
    // the coarsest: smooth
    await work(levels[L - 1]!);
    await comm3(levels[L - 1]!);
    // up: interpolate, residual, smooth on each finer level
    for (let l = L - 2; l >= 0; l--) {
      await work(levels[l]!);
      await comm3(levels[l]!);
      await comm3(levels[l]!);
    }
    // the residual closing the iteration
    await comm3(top);
  }
  const elapsed = ctx.now() - start;
  await norm();
  const errs = new Float64Array(1);
  await cart.allreduce(Float64Array.of(errors), errs, mpi.SUM);
  if (errs[0]! > 0) throw new Error(`npb-mg: data check failed: ${errs[0]} ghost points differ from their neighbours' values`);
  if (cart.rank !== 0) return undefined;
  return {
    rows: [
      {
        ranks: mpi.size,
        class: p.class as string,
        grid: `${cls.n}x${cls.n}x${cls.n}`,
        procGrid: procs.join('x'),
        levels: L,
        iterations,
        exchangesPerIteration: iterations > 0 ? (exchanges - 1) / iterations : 0,
        timeUs: round(elapsed),
        computeUs: round(compute),
        commUs: round(elapsed - compute),
        mops: round((58 * iterations * cls.n ** 3) / elapsed),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}
