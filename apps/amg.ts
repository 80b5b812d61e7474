import type { RankContext } from '../runtime/rank.ts';
import { aggregate, displacements, galerkin, halo, haloAdd, makeLevel, type Level, type Rows } from './amg-hierarchy.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';

type Work = { flops: number; bytes: number };
/**
 * Work of the kernels, counted from hypre's (no per-level figure is published for AMG2013): a
 * Gauss-Seidel sweep (hypre_BoomerAMGRelax) 2 flops per nonzero and a divide per row, reading each
 * value, column index and the vector entry it points to (20 bytes) and writing the row's entry;
 * a residual (hypre_ParCSRMatrixMatvecOutOfPlace) the same without the divide; restriction and
 * interpolation 2 flops per nonzero of P, as a matvec; the setup's aggregation a pass over the nonzeros (index
 * reads) and the Galerkin product an add per fine nonzero into a hashed coarse row (about 4 memory
 * touches of 8 bytes); the coarsest level's direct solve two triangular solves, 2 n^2 flops.
 */
const sweep = (lv: Level): Work => ({ flops: 2 * (2 * lv.nnz + lv.nrow), bytes: 2 * (20 * lv.nnz + 16 * lv.nrow) });
const residual = (lv: Level): Work => ({ flops: 2 * lv.nnz, bytes: 20 * lv.nnz + 24 * lv.nrow });
const transfer = (P: Level): Work => ({ flops: 2 * P.nnz, bytes: 20 * P.nnz + 16 * P.nrow });
const setupWork = (lv: Level): Work => ({ flops: lv.nnz, bytes: 4 * lv.nnz });
const galerkinWork = (ops: number): Work => ({ flops: 2 * ops, bytes: 32 * ops });
/** BoomerAMG's default max_coarse_size: the hierarchy stops at a level of at most this many rows. */
const MAX_COARSE = 9;
/** A level whose aggregates keep more than this share of its rows counts as stalled. */
const STALL = 0.5;
/** Rows a direct solve of the coarsest level may hold (a dense factorisation on one rank). */
const MAX_DIRECT = 2000;
/** First tag of the setup's exchanges: 10 per level from here (the halo exchanges use 100 .. 424). */
const PKG_TAG = 1000;

/**
 * An AMG solver in the manner of AMG2013 (LLNL's benchmark of hypre's BoomerAMG; Yang and
 * Henson, "BoomerAMG: a parallel algebraic multigrid solver and preconditioner", 2002) on its
 * Laplace problem: the 3-D 7-point Laplacian (6 on the diagonal, -1 to each face neighbour, zero
 * Dirichlet boundary) on n^3 points per rank of a process grid from dimsCreate, right-hand side
 * all ones. As in AMG2013: the rows of every level split in contiguous ranges over the ranks,
 * externals sorted, a communication package per level (of A and of P) found by asking the owners
 * point to point with hypre's DataExchangeList (a contact to each owner, answered, and a
 * termination sweep over a binary tree: amg-exchange.ts), the Galerkin contributions' counts sent
 * over P's package as hypre's RAP sends them over the package of P^T. (Until this was so, each
 * package took an alltoall of counts, which MPICH runs as Bruck's algorithm for 4-byte blocks:
 * log2(p) messages of p/2 counts per rank, 2 KiB at 1,024 ranks, three per level, so the setup's
 * bytes per rank grew with the ranks where hypre's stay with the neighbours); a Galerkin
 * coarse operator P^T A P whose contributions to other ranks' coarse rows are sent to them;
 * l1 hybrid symmetric Gauss-Seidel smoothing (Gauss-Seidel within a rank, Jacobi across with the
 * l1 diagonal: BoomerAMG's relaxation type 8), one sweep down and one up, each after a halo
 * exchange; V-cycles with restriction by P^T and interpolation by P; the residual norm an
 * allreduce per cycle; the coarsest level gathered to one rank and solved directly. Simplified:
 * the coarsening is smoothed aggregation (each rank aggregates its own rows, in an order drawn
 * from the run's seed; P = (I - 2/3 D^-1 A) P0) instead of PMIS with distance-2 interpolation; the
 * setup's exchanges of data (coarse indices and rows of P for the externals, the Galerkin
 * contributions) are alltoallvs of irregular counts, nothing sent for a zero count, where hypre
 * sends point-to-point messages over the same neighbours; the first row of every rank on each
 * level comes from an allgather of the counts (hypre without HYPRE_NO_GLOBAL_PARTITION; AMG2013 is
 * built with it and uses an MPI_Scan and its assumed partition, not modelled: see the README);
 * when a level has fewer than `minRows` rows per rank holding rows, or its coarsening
 * stalls, the next level's rows go to half as many ranks, or fewer still until each holds
 * `minRows` (the others drop out). Since P reaches
 * the neighbours' aggregates, the coarse operators widen: their halos reach edge and corner
 * neighbours, more messages with fewer values each. Real runs check every halo value of every
 * level against its owner's global row and that each V-cycle after the first lowers the
 * residual. The figure of merit is rows x cycles per second of setup and solve.
 */
export const amg: App = {
  name: 'amg',
  summary: 'AMG-like solver (AMG2013 / BoomerAMG manner): aggregation coarsening, Galerkin product by irregular alltoallv, communication packages found point to point (hypre\'s DataExchangeList), ranks dropping out on coarse levels, V-cycles with a halo exchange per sweep; residual checked per cycle',
  merit: { key: 'fomMs', higherIsBetter: true, label: 'FOM (M rows/s)' },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 16, min: 2, max: 256, help: 'points per rank along each axis (AMG2013 -n)' },
    cycles: { type: 'int', default: 10, min: 1, help: 'V-cycles of the solve' },
    levels: { type: 'int', default: 25, min: 2, max: 25, help: "most levels of the hierarchy (BoomerAMG's max_levels, 25)" },
    minRows: { type: 'int', default: 16, min: 1, help: 'rows per rank holding rows below which the next level moves to fewer ranks (halving until each holds at least this many)' },
    seed: { type: 'int', default: 1, min: 0, help: 'seed of the aggregation order' },
  },
  main: runAmg,
};

async function runAmg(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const world = mpi.COMM_WORLD;
  const size = mpi.size;
  const me = mpi.rank;
  const real = !ctx.skeleton;
  const n = p.n as number;
  const cycles = p.cycles as number;
  let compute = 0;
  const work = async (w: Work): Promise<void> => {
    const t = ctx.now();
    await ctx.compute(w);
    compute += ctx.now() - t;
  };

  // setup: the fine level, then coarser ones until one is small enough
  await world.barrier();
  const t0 = ctx.now();
  const procs = mpi.dimsCreate(size, [0, 0, 0]);
  const offsets0 = new Int32Array(size + 1);
  for (let r = 0; r <= size; r++) offsets0[r] = r * n ** 3;
  const levels: Level[] = [await makeLevel(ctx, laplacian(ctx, procs, n), offsets0, PKG_TAG)];
  /** The first row of every rank on the coarsest level so far (for its direct solve's gathers). */
  let coarseOffsets: Int32Array = offsets0;
  /** Per level but the coarsest, the prolongator P to it from the next, with its own halo (the coarse rows its rows reach). */
  const transfers: Level[] = [];
  const strides = [1];
  while (levels.length < (p.levels as number) && levels[levels.length - 1]!.globalRows > MAX_COARSE) {
    const l = levels.length - 1;
    const lv = levels[l]!;
    const { agg, count } = aggregate(lv, (p.seed as number) * 1_000_003 + me * 131 + l);
    await work(setupWork(lv));
    const counts = new Int32Array(size);
    await world.allgather(Int32Array.of(count), counts);
    const cOff = displacements(counts);
    const holders = counts.reduce((s, c) => s + (c > 0 ? 1 : 0), 0);
    const stride = strides[l]!;
    // fewer than minRows rows per rank holding rows, or a coarsening that stalls (each rank
    // aggregates only its own rows): the next level's rows move to fewer ranks
    const stalls = cOff[size]! > STALL * lv.globalRows;
    if (stalls && stride >= size) break;
    const minRows = p.minRows as number;
    let next = stride;
    if ((cOff[size]! < minRows * holders || stalls) && stride < size) {
      // halved, then halved again until each rank holding rows gets minRows of them: a level left
      // with a row or two per rank would stall level after level, each Galerkin product widening
      // the operator until its rows reach most ranks (hypre's global coarsening goes on instead)
      next = 2 * stride;
      while (next < size && cOff[size]! < minRows * Math.ceil(size / next)) next *= 2;
    }
    const { rows, offsets, ops, prolongator } = await galerkin(ctx, lv, agg, cOff, next, PKG_TAG + 10 * l + 10);
    await work(galerkinWork(ops));
    strides.push(next);
    transfers.push(prolongator);
    levels.push(await makeLevel(ctx, rows, offsets, PKG_TAG + 10 * l + 15));
    coarseOffsets = offsets;
  }
  const coarsest = levels[levels.length - 1]!;
  if (coarsest.globalRows > MAX_DIRECT) throw new RangeError(`amg: the coarsest of ${levels.length} levels has ${coarsest.globalRows} rows, more than a direct solve's ${MAX_DIRECT}; raise levels (at most 25) or lower n`);
  // every halo value of every level checked against its owner's global row
  let haloErrors = 0;
  for (let l = 0; l < levels.length; l++) {
    const lv = levels[l]!;
    const v = ctx.alloc(Float64Array, lv.nrow + lv.ext.length);
    if (real) for (let i = 0; i < lv.nrow; i++) v[i] = lv.firstRow + i;
    await halo(ctx, lv, v, 200 + l);
    if (real) for (let i = 0; i < lv.ext.length; i++) if (v[lv.nrow + i] !== lv.ext[i]) haloErrors++;
  }
  const direct = await gatherCoarsest(ctx, coarsest, coarseOffsets);
  const setupUs = ctx.now() - t0;

  // the vectors of every level: right-hand side, solution (with room for externals), residual
  const B = levels.map((lv) => ctx.alloc(Float64Array, Math.max(1, lv.nrow)));
  const X = levels.map((lv) => ctx.alloc(Float64Array, Math.max(1, lv.nrow + lv.ext.length)));
  const R = levels.map((lv) => ctx.alloc(Float64Array, Math.max(1, lv.nrow)));
  const T = transfers.map((P) => ctx.alloc(Float64Array, Math.max(1, P.ncol + P.ext.length)));
  if (real) B[0]!.fill(1);

  /**
   * An l1 hybrid symmetric Gauss-Seidel sweep (BoomerAMG's relaxation type 8): one halo exchange,
   * a forward then a backward pass over the rank's rows, each row's diagonal enlarged by its
   * couplings to other ranks' rows (plain hybrid Gauss-Seidel, Jacobi across ranks, diverges on
   * coarse levels where few rows per rank leave those couplings strong).
   */
  const gs = async (l: number): Promise<void> => {
    const lv = levels[l]!;
    const x = X[l]!;
    const b = B[l]!;
    await halo(ctx, lv, x, 100 + l);
    if (real) for (let s = 0; s < 2 * lv.nrow; s++) {
      const i = s < lv.nrow ? s : 2 * lv.nrow - 1 - s;
      let sum = b[i]!;
      let aii = 0;
      let l1 = 0;
      for (let k = lv.rowStart[i]!; k < lv.rowStart[i + 1]!; k++) {
        const c = lv.cols[k]!;
        if (c === i) aii += lv.coefs[k]!;
        else {
          sum -= lv.coefs[k]! * x[c]!;
          if (c >= lv.nrow) l1 += Math.abs(lv.coefs[k]!);
        }
      }
      x[i]! += (sum - aii * x[i]!) / (aii + l1);
    }
    await work(sweep(lv));
  };
  const resid = async (l: number): Promise<number> => {
    const lv = levels[l]!;
    const x = X[l]!;
    await halo(ctx, lv, x, 100 + l);
    let s2 = 0;
    if (real) for (let i = 0; i < lv.nrow; i++) {
      let ax = 0;
      for (let k = lv.rowStart[i]!; k < lv.rowStart[i + 1]!; k++) ax += lv.coefs[k]! * x[lv.cols[k]!]!;
      R[l]![i] = B[l]![i]! - ax;
      s2 += R[l]![i]! ** 2;
    }
    await work(residual(lv));
    return s2;
  };
  const vcycle = async (l: number): Promise<void> => {
    if (l === levels.length - 1) {
      await direct.solve(B[l]!, X[l]!);
      return;
    }
    const lv = levels[l]!;
    await gs(l);
    await resid(l);
    // restriction r_c = P^T r: each rank's rows add into the coarse rows their P reaches, the
    // other ranks' by the prolongator's halo run backwards
    const P = transfers[l]!;
    const rc = T[l]!;
    if (real) {
      rc.fill(0);
      for (let i = 0; i < lv.nrow; i++) for (let k = P.rowStart[i]!; k < P.rowStart[i + 1]!; k++) rc[P.cols[k]!]! += P.coefs[k]! * R[l]![i]!;
    }
    await work(transfer(P));
    await haloAdd(ctx, P, rc, 300 + l);
    if (real) {
      B[l + 1]!.set(rc.subarray(0, P.ncol));
      X[l + 1]!.fill(0);
    }
    await vcycle(l + 1);
    // interpolation x += P x_c: the coarse values P reaches, by the prolongator's halo
    if (real) rc.set(X[l + 1]!.subarray(0, P.ncol));
    await halo(ctx, P, rc, 400 + l);
    if (real) for (let i = 0; i < lv.nrow; i++) for (let k = P.rowStart[i]!; k < P.rowStart[i + 1]!; k++) X[l]![i]! += P.coefs[k]! * rc[P.cols[k]!]!;
    await work(transfer(P));
    await gs(l);
  };

  const norm = new Float64Array(1);
  const normAll = async (): Promise<number> => {
    const s2 = await resid(0);
    await world.allreduce(Float64Array.of(s2), norm, mpi.SUM);
    return Math.sqrt(norm[0]!);
  };
  compute = 0;
  const start = ctx.now();
  const r0 = await normAll();
  const history = [r0];
  for (let k = 0; k < cycles; k++) {
    await vcycle(0);
    history.push(await normAll());
  }
  const solveUs = ctx.now() - start;
  const computeUs = compute;

  // halo errors, and each level's halo messages and values summed over the ranks
  const stats = new Float64Array(1 + 2 * levels.length);
  stats[0] = haloErrors;
  levels.forEach((lv, l) => {
    stats[1 + 2 * l] = lv.send.length;
    stats[2 + 2 * l] = lv.send.reduce((a, x) => a + x.idx.length, 0);
  });
  const errs = new Float64Array(stats.length);
  await world.allreduce(stats, errs, mpi.SUM);
  if (real && errs[0]! > 0) throw new Error(`amg: check failed: ${errs[0]} halo values differ from their owners' rows`);
  // each V-cycle after the first must lower the residual (the first may raise the 2-norm of the
  // smooth initial residual: the cycle contracts the error in the energy norm)
  const factors = history.slice(1).map((h, k) => h / history[k]!);
  const worst = factors.length > 1 ? Math.max(...factors.slice(1)) : 0;
  if (real && !(worst < 1)) throw new Error(`amg: check failed: a V-cycle did not lower the residual (factors per cycle ${factors.map((f) => f.toFixed(3)).join(', ')})`);
  if (me !== 0) return undefined;
  const rows = levels[0]!.globalRows;
  return {
    rows: [
      {
        ranks: size,
        procGrid: procs.join('x'),
        localGrid: `${n}x${n}x${n}`,
        levels: levels.length,
        levelRows: levels.map((lv) => lv.globalRows).join('/'),
        levelRanks: levels.map((lv) => lv.holders).join('/'),
        ranksLastLevel: coarsest.holders,
        haloMessages: levels.map((_, l) => errs[1 + 2 * l]!).join('/'),
        valuesPerMessage: levels.map((_, l) => (errs[1 + 2 * l]! > 0 ? round(errs[2 + 2 * l]! / errs[1 + 2 * l]!, 3) : 0)).join('/'),
        cycles,
        residual: real ? Number((history[history.length - 1]! / r0).toPrecision(4)) : 0,
        factor: real && cycles > 1 ? Number(((history[history.length - 1]! / history[1]!) ** (1 / (cycles - 1))).toPrecision(4)) : 0,
        worstFactor: real ? Number(worst.toPrecision(4)) : 0,
        setupUs: round(setupUs),
        solveUs: round(solveUs),
        timePerCycleUs: round(solveUs / cycles),
        computeUs: round(computeUs),
        commUs: round(solveUs - computeUs),
        fomMs: round((rows * cycles) / (setupUs + solveUs)),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** The fine level's rows on this rank: the 7-point Laplacian of its n^3 block of the global grid, global rows numbered rank by rank (x fastest). */
function laplacian(ctx: RankContext, procs: readonly number[], n: number): Rows {
  const me = ctx.mpi.rank;
  const c = [Math.floor(me / (procs[1]! * procs[2]!)), Math.floor(me / procs[2]!) % procs[1]!, me % procs[2]!];
  const G = procs.map((q) => q * n);
  const nrow = n ** 3;
  const rowStart = new Int32Array(nrow + 1);
  const gcols: number[] = [];
  const vals: number[] = [];
  const id = (g: readonly number[]): number => {
    const q = g.map((v) => Math.floor(v / n));
    const rank = (q[0]! * procs[1]! + q[1]!) * procs[2]! + q[2]!;
    return rank * nrow + ((g[2]! % n) * n + (g[1]! % n)) * n + (g[0]! % n);
  };
  let i = 0;
  for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < n; x++, i++) {
    const g = [c[0]! * n + x, c[1]! * n + y, c[2]! * n + z];
    gcols.push(id(g));
    vals.push(6);
    for (let d = 0; d < 3; d++) for (const s of [-1, 1]) {
      const h = [...g];
      h[d]! += s;
      if (h[d]! < 0 || h[d]! >= G[d]!) continue;
      gcols.push(id(h));
      vals.push(-1);
    }
    rowStart[i + 1] = gcols.length;
  }
  const coefs = ctx.alloc(Float64Array, vals.length);
  if (!ctx.skeleton) coefs.set(vals);
  return { nrow, firstRow: me * nrow, rowStart, gcols: Int32Array.from(gcols), coefs };
}

/**
 * The coarsest level gathered to rank 0 (a gather of the entry counts, gathervs of the indices
 * and values), factored there once (dense LU); each solve gathers the right-hand side to rank 0,
 * solves, and scatters the solution back; `offsets` is the level's first row of every rank.
 */
async function gatherCoarsest(ctx: RankContext, lv: Level, offsets: Int32Array): Promise<{ solve(b: Float64Array, x: Float64Array): Promise<void> }> {
  const { mpi } = ctx;
  const world = mpi.COMM_WORLD;
  const size = mpi.size;
  const real = !ctx.skeleton;
  const N = lv.globalRows;
  const rowCounts = new Int32Array(size);
  for (let r = 0; r < size; r++) rowCounts[r] = offsets[r + 1]! - offsets[r]!;
  const rowDispl = displacements(rowCounts);
  const cnt = new Int32Array(size);
  await world.gather(Int32Array.of(lv.nnz), cnt, 0);
  const cd = displacements(cnt);
  const root = mpi.rank === 0;
  const I = new Int32Array(Math.max(1, lv.nnz));
  const J = new Int32Array(Math.max(1, lv.nnz));
  for (let i = 0; i < lv.nrow; i++) for (let k = lv.rowStart[i]!; k < lv.rowStart[i + 1]!; k++) {
    I[k] = lv.firstRow + i;
    const c = lv.cols[k]!;
    J[k] = c < lv.nrow ? lv.firstRow + c : lv.ext[c - lv.nrow]!;
  }
  const allI = new Int32Array(Math.max(1, root ? cd[size]! : 1));
  const allJ = new Int32Array(Math.max(1, root ? cd[size]! : 1));
  const allV = ctx.alloc(Float64Array, Math.max(1, root ? cd[size]! : 1));
  await world.gatherv(I.subarray(0, lv.nnz), root ? allI : null, root ? cnt : null, root ? cd.subarray(0, size) : null, 0);
  await world.gatherv(J.subarray(0, lv.nnz), root ? allJ : null, root ? cnt : null, root ? cd.subarray(0, size) : null, 0);
  await world.gatherv(lv.coefs.subarray(0, lv.nnz), root ? allV : null, root ? cnt : null, root ? cd.subarray(0, size) : null, 0);
  // dense LU with partial pivoting on rank 0
  const lu = root && real ? new Float64Array(N * N) : null;
  const piv = new Int32Array(N);
  if (lu) {
    for (let k = 0; k < cd[size]!; k++) lu[allI[k]! * N + allJ[k]!]! += allV[k]!;
    for (let k = 0; k < N; k++) {
      let pmax = k;
      for (let i = k + 1; i < N; i++) if (Math.abs(lu[i * N + k]!) > Math.abs(lu[pmax * N + k]!)) pmax = i;
      piv[k] = pmax;
      if (pmax !== k) for (let j = 0; j < N; j++) [lu[k * N + j], lu[pmax * N + j]] = [lu[pmax * N + j]!, lu[k * N + j]!];
      for (let i = k + 1; i < N; i++) {
        const f = (lu[i * N + k]! /= lu[k * N + k]!);
        for (let j = k + 1; j < N; j++) lu[i * N + j]! -= f * lu[k * N + j]!;
      }
    }
  }
  if (root) await ctx.compute({ flops: (2 * N ** 3) / 3, bytes: 8 * N * N });
  const full = ctx.alloc(Float64Array, Math.max(1, N));
  return {
    async solve(b: Float64Array, x: Float64Array): Promise<void> {
      await world.gatherv(b.subarray(0, lv.nrow), root ? full : null, root ? rowCounts : null, root ? rowDispl.subarray(0, size) : null, 0);
      if (lu) {
        for (let k = 0; k < N; k++) if (piv[k] !== k) [full[k], full[piv[k]!]] = [full[piv[k]!]!, full[k]!];
        for (let i = 0; i < N; i++) for (let j = 0; j < i; j++) full[i]! -= lu[i * N + j]! * full[j]!;
        for (let i = N - 1; i >= 0; i--) {
          for (let j = i + 1; j < N; j++) full[i]! -= lu[i * N + j]! * full[j]!;
          full[i]! /= lu[i * N + i]!;
        }
      }
      if (root) await ctx.compute({ flops: 2 * N * N, bytes: 8 * N * N });
      await world.scatterv(root ? full : null, root ? rowCounts : null, root ? rowDispl.subarray(0, size) : null, x.subarray(0, lv.nrow), 0);
    },
  };
}
