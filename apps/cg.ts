import type { CartComm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { forLayer, layoutOf, type Layout } from './grid-util.ts';

/** Work per cell of the stencil product q = A w: 7 flops and one more, w read and q written. */
const SPMV = { flops: 8, bytes: 16 };
/** Work per cell of the sweep that updates six vectors and forms the next two dot products: 7 vectors read, 6 written. */
const UPDATE = { flops: 16, bytes: 104 };

/**
 * Conjugate gradients on the 3-D 7-point Laplacian (6 on the diagonal, -1 to each neighbour,
 * zero Dirichlet boundary) of a grid of n^3 cells per rank on a non-periodic 3-D Cartesian
 * communicator. The right-hand side is A x* for a known x*, worked out by each rank from global
 * coordinates, so the solution can be checked. The iteration is Ghysels and Vanroose's pipelined
 * CG ("Hiding global synchronization latency in the preconditioned Conjugate Gradient
 * algorithm", Parallel Computing 40, 2014) with the identity as preconditioner: its one reduction
 * per iteration, (r, r) and (w, r) in one iallreduce, does not depend on the stencil product
 * q = A w that follows it. With `overlap=yes` the iallreduce is started, the halo of w is
 * exchanged and the product is computed in `chunks` slabs, testing the reduction between slabs
 * (its schedule moves on only inside MPI calls unless `mpi.asyncProgress=yes`), and the rank
 * waits for it only then; with `overlap=no` it waits at once. Both do the same arithmetic in
 * the same order and give the same iterates. At the end the true residual b - A x and the error
 * against x* are worked out; the error must be within the condition number times the residual.
 */
export const cg: App = {
  name: 'cg',
  summary: 'pipelined conjugate gradients on a 3-D 7-point Laplacian over a Cartesian grid: one iallreduce per iteration, overlapped with the halo exchange and stencil product or waited for at once; solution checked',
  merit: { key: 'timePerIterationUs', higherIsBetter: false },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 16, min: 2, help: 'cells per rank along each axis (the global grid is the process grid times n)' },
    iterations: { type: 'int', default: 200, min: 1, help: 'most iterations' },
    tol: { type: 'number', default: 1e-6, min: 0, help: 'stop once the residual norm relative to the right-hand side is below this (0: run every iteration; a skeleton run always does)' },
    overlap: { type: 'choice', default: 'yes', choices: ['yes', 'no'], help: 'yes: the iallreduce runs while the halo exchange and stencil product go on, tested between slabs; no: waited for at once' },
    chunks: { type: 'int', default: 8, min: 1, help: 'slabs the stencil product is computed in (with overlap, a test of the reduction after each)' },
  },
  main: runCg,
};

async function runCg(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const n = p.n as number;
  const maxIterations = p.iterations as number;
  const overlap = p.overlap === 'yes';
  const chunks = Math.min(p.chunks as number, n);
  const real = !ctx.skeleton;
  const tol = real ? (p.tol as number) : 0;
  const procs = mpi.dimsCreate(mpi.size, [0, 0, 0]);
  const cart = (await mpi.cartCreate(procs, [false, false, false])) as CartComm;
  const lay = layoutOf([n, n, n]);
  const global = procs.map((q) => q * n);
  const origin = cart.coords.map((c) => c * n);
  const cells = n * n * n;
  const vector = (): Float64Array => ctx.alloc(Float64Array, lay.padded.reduce((a, b) => a * b, 1));
  const [b, x, r, w, q, z, s, d, exact] = Array.from({ length: 9 }, vector) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  const halo = haloExchange(ctx, cart, lay);
  let computeTime = 0;
  const work = async (per: { flops: number; bytes: number }, k: number): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops: per.flops * k, bytes: per.bytes * k });
    computeTime += ctx.now() - t;
  };

  // x* and b = A x*, from global coordinates (zero outside the grid)
  const xStar = (g: readonly number[]): number => knownSolution(global, g);
  if (real) {
    interior(lay, (o, idx) => {
      const g = idx.map((v, k) => origin[k]! + v - 1);
      let v = 6 * xStar(g);
      for (let k = 0; k < 3; k++) {
        for (const step of [-1, 1]) {
          g[k]! += step;
          v -= xStar(g);
          g[k]! -= step;
        }
      }
      b[o] = v;
      exact[o] = xStar(g);
      r[o] = v;
    });
  }
  // x0 = 0: r0 = b, w0 = A r0, and the first iteration's dot products
  await halo(r, work);
  if (real) stencil(lay, r, w, 1, n);
  await work(SPMV, cells);
  const local = new Float64Array(2);
  const sums = new Float64Array(2);
  if (real) interior(lay, (o) => (local[0]! += b[o]! * b[o]!));
  await cart.allreduce(local.subarray(0, 1), sums.subarray(0, 1), mpi.SUM);
  const bNorm = Math.sqrt(sums[0]!);
  local.fill(0);
  if (real) {
    interior(lay, (o) => {
      local[0]! += r[o]! * r[o]!;
      local[1]! += w[o]! * r[o]!;
    });
  }
  await work(UPDATE, cells);

  await cart.barrier();
  const start = ctx.now();
  computeTime = 0;
  let reductionTime = 0;
  let iterations = 0;
  let alpha = 0;
  let gammaPrev = 0;
  const slab = (c: number): [number, number] => [1 + Math.floor((c * n) / chunks), Math.floor(((c + 1) * n) / chunks)];
  for (let it = 0; it < maxIterations; it++) {
    iterations++;
    const req = cart.iallreduce(local, sums, mpi.SUM);
    let done = false;
    const finish = async (): Promise<void> => {
      const t = ctx.now();
      await req.wait();
      reductionTime += ctx.now() - t;
      done = true;
    };
    if (!overlap) await finish();
    // q = A w, while the reduction runs
    await halo(w, work);
    for (let c = 0; c < chunks; c++) {
      const [x0, x1] = slab(c);
      if (real) stencil(lay, w, q, x0, x1);
      await work(SPMV, (x1 - x0 + 1) * n * n);
      if (!done) {
        const t = ctx.now();
        done = await req.test();
        reductionTime += ctx.now() - t;
      }
    }
    if (!done) await finish();
    if (!real) {
      await work(UPDATE, cells);
      continue;
    }
    const gamma = sums[0]!;
    const delta = sums[1]!;
    if (Math.sqrt(gamma) / bNorm < tol) break;
    const beta = it > 0 ? gamma / gammaPrev : 0;
    alpha = it > 0 ? gamma / (delta - (beta * gamma) / alpha) : gamma / delta;
    gammaPrev = gamma;
    local.fill(0);
    interior(lay, (o) => {
      z[o] = q[o]! + beta * z[o]!;
      s[o] = w[o]! + beta * s[o]!;
      d[o] = r[o]! + beta * d[o]!;
      x[o]! += alpha * d[o]!;
      r[o]! -= alpha * s[o]!;
      w[o]! -= alpha * z[o]!;
      local[0]! += r[o]! * r[o]!;
      local[1]! += w[o]! * r[o]!;
    });
    await work(UPDATE, cells);
  }
  const elapsed = ctx.now() - start;
  const computeUs = computeTime;

  // the true residual b - A x and the error against x*
  await halo(x, async () => {});
  const err = new Float64Array(3);
  if (real) {
    stencil(lay, x, q, 1, n);
    interior(lay, (o) => {
      const res = b[o]! - q[o]!;
      const e = x[o]! - exact[o]!;
      err[0]! += res * res;
      err[1]! += e * e;
      err[2]! += exact[o]! * exact[o]!;
    });
  }
  const errSums = new Float64Array(3);
  await cart.allreduce(err, errSums, mpi.SUM);
  const residual = Math.sqrt(errSums[0]!) / bNorm;
  const error = Math.sqrt(errSums[1]! / errSums[2]!);
  // ||x - x*|| / ||x*|| <= kappa ||b - A x|| / ||b||, kappa = lambda_max / lambda_min of the Laplacian on this grid
  const c = global.map((g) => Math.cos(Math.PI / (g + 1)));
  const kappa = c.reduce((a, v) => a + 2 + 2 * v, 0) / c.reduce((a, v) => a + 2 - 2 * v, 0);
  if (real && !(error <= kappa * residual * (1 + 1e-9) + 1e-12)) {
    throw new Error(`cg: check failed: the error against the known solution (${error.toExponential(3)}) exceeds the condition number ${kappa.toFixed(1)} times the residual (${residual.toExponential(3)})`);
  }
  if (cart.rank !== 0) return undefined;
  return {
    rows: [
      {
        ranks: mpi.size,
        procGrid: procs.join('x'),
        localGrid: `${n}x${n}x${n}`,
        globalGrid: global.join('x'),
        overlap: overlap ? 'yes' : 'no',
        iterations,
        residual: real ? Number(residual.toPrecision(4)) : 0,
        error: real ? Number(error.toPrecision(4)) : 0,
        converged: real && tol > 0 ? residual < tol : false,
        timeUs: round(elapsed),
        timePerIterationUs: round(elapsed / iterations),
        computeUs: round(computeUs),
        reductionWaitUs: round(reductionTime),
        commUs: round(elapsed - computeUs),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** The known solution x* at global cell `g` of a grid of `global` cells: zero outside the grid (the boundary condition). */
export function knownSolution(global: readonly number[], g: readonly number[]): number {
  if (g.some((v, k) => v < 0 || v >= global[k]!)) return 0;
  return 1 + ((3 * g[0]! + 5 * g[1]! + 7 * g[2]!) % 11) / 11;
}

/** Calls `f(offset, index)` for every interior cell (padded indices), the last axis fastest. */
function interior(l: Layout, f: (o: number, idx: number[]) => void): void {
  const [nx, ny, nz] = l.local as [number, number, number];
  const [sx, sy] = l.stride as [number, number, number];
  const idx = [0, 0, 0];
  for (let i = 1; i <= nx; i++) {
    idx[0] = i;
    for (let j = 1; j <= ny; j++) {
      idx[1] = j;
      let o = i * sx + j * sy + 1;
      for (let k = 1; k <= nz; k++, o++) {
        idx[2] = k;
        f(o, idx);
      }
    }
  }
}

/** out = A u on the interior slabs x0..x1 (A: 6 on the diagonal, -1 to each of the six neighbours). */
function stencil(l: Layout, u: Float64Array, out: Float64Array, x0: number, x1: number): void {
  const [, ny, nz] = l.local as [number, number, number];
  const [sx, sy] = l.stride as [number, number, number];
  for (let i = x0; i <= x1; i++) {
    for (let j = 1; j <= ny; j++) {
      let o = i * sx + j * sy + 1;
      for (let k = 1; k <= nz; k++, o++) out[o] = 6 * u[o]! - u[o - sx]! - u[o + sx]! - u[o - sy]! - u[o + sy]! - u[o - 1]! - u[o + 1]!;
    }
  }
}

/**
 * The halo exchange of a padded vector with the six neighbours: the rank packs each face into a
 * buffer of its own and unpacks what arrives (`work` charges that memory traffic), with irecv and
 * isend all at once, then waitAll. Off the grid's edges (PROC_NULL) the halo stays zero.
 */
function haloExchange(ctx: RankContext, cart: CartComm, lay: Layout): (u: Float64Array, work: (per: { flops: number; bytes: number }, k: number) => Promise<void>) => Promise<void> {
  const neighbour: number[] = [];
  for (let dim = 0; dim < 3; dim++) {
    const { source, dest } = cart.cartShift(dim, 1);
    neighbour.push(source, dest);
  }
  const faceCells = neighbour.map((_, k) => (lay.local[0]! * lay.local[1]! * lay.local[2]!) / lay.local[k >> 1]!);
  const live = neighbour.map((nb) => nb !== ctx.mpi.PROC_NULL);
  const sendBufs = faceCells.map((f) => ctx.alloc(Float64Array, f));
  const recvBufs = faceCells.map((f) => ctx.alloc(Float64Array, f));
  // toward -axis goes the first interior layer, toward +axis the last; from below lands in the low halo
  const sendLayer = (k: number): number => (k % 2 === 0 ? 1 : lay.local[k >> 1]!);
  const recvLayer = (k: number): number => (k % 2 === 0 ? 0 : lay.local[k >> 1]! + 1);
  const moved = faceCells.reduce((a, f, k) => a + (live[k] ? f : 0), 0);
  const copy = { flops: 0, bytes: 16 };
  return async (u, work) => {
    const real = !ctx.skeleton;
    for (let k = 0; k < 6; k++) {
      const buf = sendBufs[k]!;
      if (real && live[k]) forLayer(lay, k >> 1, sendLayer(k), (o, i) => (buf[i] = u[o]!));
    }
    await work(copy, moved);
    const reqs: Request[] = [];
    for (let k = 0; k < 6; k++) reqs.push(cart.irecv(recvBufs[k]!, neighbour[k]!, k ^ 1));
    for (let k = 0; k < 6; k++) reqs.push(cart.isend(sendBufs[k]!, neighbour[k]!, k));
    await cart.waitAll(reqs);
    for (let k = 0; k < 6; k++) {
      const buf = recvBufs[k]!;
      if (real && live[k]) forLayer(lay, k >> 1, recvLayer(k), (o, i) => (u[o] = buf[i]!));
    }
    await work(copy, moved);
  };
}
