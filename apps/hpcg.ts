import type { CartComm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { neighbourRanks, OFFSETS26, opposite, region } from './neighbours26.ts';

/**
 * Work of HPCG's kernels, as HPCG 3.1 counts it in src/ReportResults.cpp (nrow rows, nnz
 * nonzeros; 8-byte values, 4-byte local indices): a dot product 2 flops and 2 reads per row; a
 * WAXPBY 2 flops, 2 reads and a write per row; an SpMV 2 flops per nonzero, reading each value and
 * index and the row's vector entries, writing one per row; a symmetric Gauss-Seidel sweep (forward
 * and back) 4 flops per nonzero with twice the SpMV's reads.
 */
const dot = (nrow: number): Work => ({ flops: 2 * nrow, bytes: 16 * nrow });
const waxpby = (nrow: number): Work => ({ flops: 2 * nrow, bytes: 24 * nrow });
const spmv = (nrow: number, nnz: number): Work => ({ flops: 2 * nnz, bytes: 12 * nnz + 16 * nrow });
const symgs = (nrow: number, nnz: number): Work => ({ flops: 4 * nnz, bytes: 24 * nnz + 16 * nrow });
type Work = { flops: number; bytes: number };

/** One multigrid level: a local grid of n^3 points in an (n+2)^3 array with a halo of one, and its exchange. */
interface Level {
  readonly n: number;
  readonly m: number;
  readonly nrow: number;
  readonly nnz: number;
  readonly send: Int32Array[];
  readonly recv: Int32Array[];
  readonly sendBufs: Float64Array[];
  readonly recvBufs: Float64Array[];
  readonly x: Float64Array;
  readonly r: Float64Array;
  readonly ax: Float64Array;
}

/**
 * HPCG (Dongarra, Heroux, Luszczek, "HPCG Benchmark: a New Metric for Ranking High Performance
 * Computing Systems", 2015): conjugate gradients preconditioned by a V-cycle multigrid on the
 * 27-point operator (26 on the diagonal, -1 to each neighbour) of a grid of n^3 points per rank on
 * a non-periodic 3-D Cartesian communicator, right-hand side A·1 so the solution is all ones. Every
 * SpMV and Gauss-Seidel sweep first exchanges the halo with the 26 neighbours (faces of n^2 points,
 * edges of n, corners of one; irecv and isend at once, as HPCG's ExchangeHalo); each level of the
 * multigrid (HPCG's 4: n, n/2, n/4, n/8 points) exchanges its own halo: a pre-smoothing sweep, an
 * SpMV for the residual, restriction by injection, the coarser level, prolongation and a
 * post-smoothing sweep, one sweep on the coarsest. Each iteration has three dot products, each an
 * allreduce of one double. The arithmetic is real (HPCG's reference kernels); after the last
 * iteration the true residual b - A x and the error against the all-ones solution are worked out,
 * and the error must be within the operator's condition number times the residual.
 */
export const hpcg: App = {
  name: 'hpcg',
  summary: 'HPCG: multigrid-preconditioned CG on a 27-point operator; 26-neighbour halo exchanges on every multigrid level, 3 dot-product allreduces per iteration; GFLOP/s as HPCG counts them, solution checked',
  merit: { key: 'gflops', higherIsBetter: true },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 32, min: 2, max: 512, help: 'grid points per rank along each axis (divisible by 2^(levels-1))' },
    iterations: { type: 'int', default: 50, min: 1, help: 'CG iterations (HPCG runs sets of 50)' },
    levels: { type: 'int', default: 4, min: 1, max: 8, help: 'multigrid levels (HPCG: 4)' },
  },
  check: checkHpcg,
  main: runHpcg,
};

function checkHpcg(p: ParamValues): void {
  const n = p.n as number;
  const div = 2 ** ((p.levels as number) - 1);
  if (n % div !== 0) throw new RangeError(`parameter n=${n} of app hpcg: must be divisible by ${div} (2^(levels-1) for levels=${p.levels})`);
}

async function runHpcg(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  checkHpcg(p);
  const { mpi } = ctx;
  const real = !ctx.skeleton;
  const iterations = p.iterations as number;
  const procs = mpi.dimsCreate(mpi.size, [0, 0, 0]);
  const cart = (await mpi.cartCreate(procs, [false, false, false])) as CartComm;
  const nbr = neighbourRanks(cart, OFFSETS26, mpi.PROC_NULL);
  const live = nbr.map((r) => r !== mpi.PROC_NULL);
  const back = OFFSETS26.map((_, k) => opposite(k));
  const levels: Level[] = [];
  for (let l = 0; l < (p.levels as number); l++) {
    const n = (p.n as number) >> l;
    const m = n + 2;
    const ext = [m, m, m];
    const send = OFFSETS26.map((o) => region(ext, o, (_, od) => (od < 0 ? [1, 1] : od > 0 ? [n, n] : [1, n])));
    const recv = OFFSETS26.map((o) => region(ext, o, (_, od) => (od < 0 ? [0, 0] : od > 0 ? [n + 1, n + 1] : [1, n])));
    // nonzeros of the local rows: per axis 3 neighbours, 2 at the global grid's edge
    const perAxis = cart.coords.map((c, d) => 3 * n - (c === 0 ? 1 : 0) - (c === procs[d]! - 1 ? 1 : 0));
    const vec = (): Float64Array => ctx.alloc(Float64Array, m * m * m);
    levels.push({
      n, m, nrow: n * n * n, nnz: perAxis[0]! * perAxis[1]! * perAxis[2]!,
      send, recv,
      sendBufs: send.map((s) => ctx.alloc(Float64Array, s.length)),
      recvBufs: recv.map((s) => ctx.alloc(Float64Array, s.length)),
      x: vec(), r: vec(), ax: vec(),
    });
  }
  const top = levels[0]!;
  const N = top.m * top.m * top.m;
  const [b, x, rr, z, pp, ap] = Array.from({ length: 6 }, () => ctx.alloc(Float64Array, N)) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];

  let flops = 0;
  let computeTime = 0;
  const work = async (w: Work): Promise<void> => {
    const t = ctx.now();
    flops += w.flops;
    await ctx.compute(w);
    computeTime += ctx.now() - t;
  };
  /** ExchangeHalo: irecv from and isend to the 26 neighbours at once; off the grid's edges the halo stays zero. */
  const halo = async (lv: Level, u: Float64Array, level: number): Promise<void> => {
    const reqs: Request[] = [];
    for (let k = 0; k < 26; k++) if (live[k]) reqs.push(cart.irecv(lv.recvBufs[k]!, nbr[k]!, 32 * level + back[k]!));
    for (let k = 0; k < 26; k++) {
      if (!live[k]) continue;
      const buf = lv.sendBufs[k]!;
      const reg = lv.send[k]!;
      if (real) for (let i = 0; i < reg.length; i++) buf[i] = u[reg[i]!]!;
      reqs.push(cart.isend(buf, nbr[k]!, 32 * level + k));
    }
    await cart.waitAll(reqs);
    if (!real) return;
    for (let k = 0; k < 26; k++) {
      if (!live[k]) continue;
      const buf = lv.recvBufs[k]!;
      const reg = lv.recv[k]!;
      for (let i = 0; i < reg.length; i++) u[reg[i]!] = buf[i]!;
    }
  };
  /** out = A u on the interior (after the halo exchange). */
  const applyA = async (lv: Level, u: Float64Array, out: Float64Array, level: number): Promise<void> => {
    await halo(lv, u, level);
    if (real) interior(lv, (o) => (out[o] = 26 * u[o]! - neighbourSum(lv.m, u, o)));
    await work(spmv(lv.nrow, lv.nnz));
  };
  /** ComputeSYMGS_ref: halo exchange, a forward then a backward Gauss-Seidel sweep over the local rows. */
  const gs = async (lv: Level, rhs: Float64Array, u: Float64Array, level: number): Promise<void> => {
    await halo(lv, u, level);
    if (real) {
      const rows: number[] = [];
      interior(lv, (o) => rows.push(o));
      for (const o of rows) u[o] = (rhs[o]! + neighbourSum(lv.m, u, o)) / 26;
      for (let i = rows.length - 1; i >= 0; i--) {
        const o = rows[i]!;
        u[o] = (rhs[o]! + neighbourSum(lv.m, u, o)) / 26;
      }
    }
    await work(symgs(lv.nrow, lv.nnz));
  };
  /** ComputeMG_ref on level l: z = M^-1 r. */
  const mg = async (l: number, r: Float64Array, out: Float64Array): Promise<void> => {
    const lv = levels[l]!;
    if (real) out.fill(0);
    await gs(lv, r, out, l);
    if (l === levels.length - 1) return;
    const c = levels[l + 1]!;
    await applyA(lv, out, lv.ax, l);
    // restriction by injection: the coarse point (i, j, k) is the fine point (2i, 2j, 2k)
    if (real) interior(c, (o, i, j, k) => {
      const f = ((2 * i - 1) * lv.m + 2 * j - 1) * lv.m + 2 * k - 1;
      c.r[o] = r[f]! - lv.ax[f]!;
    });
    await work({ flops: c.nrow, bytes: 24 * c.nrow });
    await mg(l + 1, c.r, c.x);
    if (real) interior(c, (o, i, j, k) => (out[((2 * i - 1) * lv.m + 2 * j - 1) * lv.m + 2 * k - 1]! += c.x[o]!));
    await work({ flops: c.nrow, bytes: 24 * c.nrow });
    await gs(lv, r, out, l);
  };
  const sum = new Float64Array(1);
  const dotAll = async (a: Float64Array, c: Float64Array): Promise<number> => {
    let s = 0;
    if (real) interior(top, (o) => (s += a[o]! * c[o]!));
    await work(dot(top.nrow));
    await cart.allreduce(Float64Array.of(s), sum, mpi.SUM);
    return sum[0]!;
  };

  // b = A·1 as HPCG's GenerateProblem sets it, from global coordinates: 26 minus the row's
  // neighbours inside the grid (so a halo that missed a neighbour's values would miss the solution)
  const global = procs.map((q) => q * top.n);
  const inAxis = (d: number, i: number): number => {
    const g = cart.coords[d]! * top.n + i - 1;
    return 1 + (g > 0 ? 1 : 0) + (g < global[d]! - 1 ? 1 : 0);
  };
  if (real) interior(top, (o, i, j, k) => (b[o] = 27 - inAxis(0, i) * inAxis(1, j) * inAxis(2, k)));
  // x0 = 0: r = b
  if (real) rr.set(b);
  const bNorm = Math.sqrt(await dotAll(b, b));
  await cart.barrier();
  const start = ctx.now();
  flops = 0;
  computeTime = 0;
  let rtz = 0;
  let normr = bNorm;
  for (let it = 0; it < iterations; it++) {
    await mg(0, rr, z);
    const old = rtz;
    rtz = await dotAll(rr, z);
    const beta = it === 0 ? 0 : rtz / old;
    if (real) interior(top, (o) => (pp[o] = z[o]! + beta * pp[o]!));
    await work(waxpby(top.nrow));
    await applyA(top, pp, ap, 0);
    const alpha = rtz / (await dotAll(pp, ap));
    if (real) interior(top, (o) => {
      x[o]! += alpha * pp[o]!;
      rr[o]! -= alpha * ap[o]!;
    });
    await work(waxpby(top.nrow));
    await work(waxpby(top.nrow));
    normr = Math.sqrt(await dotAll(rr, rr));
  }
  const elapsed = ctx.now() - start;
  const counted = flops;
  const computeUs = computeTime;

  // the true residual and the error against the all-ones solution
  await applyA(top, x, ap, 0);
  const err = new Float64Array(2);
  if (real) interior(top, (o) => {
    err[0]! += (b[o]! - ap[o]!) ** 2;
    err[1]! += (x[o]! - 1) ** 2;
  });
  const errSum = new Float64Array(2);
  await cart.allreduce(err, errSum, mpi.SUM);
  const totals = new Float64Array(1);
  await cart.allreduce(Float64Array.of(counted), totals, mpi.SUM);
  const rows = top.nrow * mpi.size;
  const residual = Math.sqrt(errSum[0]!) / bNorm;
  const error = Math.sqrt(errSum[1]! / rows);
  const kappa = conditionNumber(global);
  if (real && !(error <= kappa * residual * (1 + 1e-9) + 1e-12)) {
    throw new Error(`hpcg: check failed: the error against the all-ones solution (${error.toExponential(3)}) exceeds the condition number ${kappa.toFixed(1)} times the residual (${residual.toExponential(3)})`);
  }
  if (cart.rank !== 0) return undefined;
  return {
    rows: [
      {
        ranks: mpi.size,
        procGrid: procs.join('x'),
        localGrid: `${top.n}x${top.n}x${top.n}`,
        levels: levels.length,
        iterations,
        residual: real ? Number(residual.toPrecision(4)) : 0,
        recurrenceResidual: real ? Number((normr / bNorm).toPrecision(4)) : 0,
        error: real ? Number(error.toPrecision(4)) : 0,
        timeUs: round(elapsed),
        timePerIterationUs: round(elapsed / iterations),
        computeUs: round(computeUs),
        commUs: round(elapsed - computeUs),
        gflops: round(totals[0]! / elapsed / 1e3),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** Sum of the 26 neighbours of padded point `o` in an m^3 array. */
function neighbourSum(m: number, u: Float64Array, o: number): number {
  let s = 0;
  for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) s += u[o + (a * m + b) * m + c]!;
  return s - u[o]!;
}

/** Calls f(offset, i, j, k) for the interior points (padded indices 1..n) of a level. */
function interior(lv: Level, f: (o: number, i: number, j: number, k: number) => void): void {
  const { n, m } = lv;
  for (let i = 1; i <= n; i++) for (let j = 1; j <= n; j++) for (let k = 1, o = (i * m + j) * m + 1; k <= n; k++, o++) f(o, i, j, k);
}

/**
 * The 2-norm condition number of the 27-point operator on a grid of `g` points per axis with zero
 * boundary: its eigenvalues are 27 - Π_d (1 + 2 cos(π k_d / (g_d + 1))), k_d = 1..g_d.
 */
function conditionNumber(g: readonly number[]): number {
  const ends = g.map((gd) => [1 + 2 * Math.cos(Math.PI / (gd + 1)), 1 + 2 * Math.cos((Math.PI * gd) / (gd + 1))]);
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of ends[0]!) for (const b of ends[1]!) for (const c of ends[2]!) {
    lo = Math.min(lo, 27 - a * b * c);
    hi = Math.max(hi, 27 - a * b * c);
  }
  return hi / lo;
}
