import type { RankContext } from '../runtime/rank.ts';
import type { Shmem, ShmemTeam } from '../runtime/shmem/shmem.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { GRID_PARAMS, processGrid } from './fft-util.ts';

/** Element (i, j) of A: small integers, so every sum of products is exact in a double. */
function aValue(i: number, j: number): number {
  return ((i * 7 + j * 3) % 11) - 5;
}

/** Element (i, j) of B. */
function bValue(i: number, j: number): number {
  return ((i * 5 + j * 2) % 13) - 6;
}

/** Largest default panel width: wider panels mean fewer, larger broadcasts. */
const MAX_PANEL = 64;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * SUMMA (van de Geijn and Watts 1997), C = A B for n x n matrices of doubles, as a pure
 * OpenSHMEM program on teams: the PEs form a P x Q grid split from TEAM_WORLD with
 * `shmem.teamSplit2d` (xTeam: this PE's grid row of Q consecutive PEs; yTeam: its column), and
 * PE (r, c) holds block (r, c) of A, B and C, (n/P) x (n/Q) each, row-major. For each panel of
 * `panel` columns of A (rows of B), the PE of the row that owns A's columns packs them and
 * `shmem.broadcast` sends them along its row team, the PE of the column that owns B's rows
 * broadcasts them along its column team, and every PE adds the product of the two panels to
 * its C. Every element of C is then checked against the serial product (the error count summed
 * with `shmem.sumReduce` over TEAM_WORLD); a mismatch is an error. timeUs is the slowest PE's
 * time between barriers, broadcastUs and computeUs the most any PE spent in the broadcasts and
 * in its local products; Gflop/s is 2 n^3 over timeUs. A skeleton run (matrices on skeleton
 * segments) moves sizes only and checks nothing.
 */
export const summa: App = {
  name: 'summa',
  summary: 'SUMMA matrix multiply C = A B on a 2-D grid of SHMEM teams (teamSplit2d; panels broadcast along row and column teams); Gflop/s, every element checked against the serial product',
  merit: { key: 'gflops', higherIsBetter: true },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 256, min: 1, help: 'matrix order (divisible by the grid rows and columns)' },
    panel: { type: 'int', default: 0, min: 0, help: `columns of A (rows of B) broadcast per step; must divide n/rows and n/cols (0: their gcd, halved while above ${MAX_PANEL})` },
    ...GRID_PARAMS,
  },
  main: runSumma,
};

async function runSumma(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const shmem = ctx.shmem;
  const n = p.n as number;
  const [P, Q] = processGrid('summa', ctx.size, p.gridRows as number, p.gridCols as number, (k, d) => ctx.mpi.dimsCreate(k, d));
  if (n % P !== 0 || n % Q !== 0) throw new RangeError(`parameter n=${n} of app summa: must be divisible by the rows and columns of the ${P}x${Q} grid`);
  const mr = n / P;
  const mc = n / Q;
  const g = gcd(mr, mc);
  let w = p.panel as number;
  if (w === 0) for (w = g; w > MAX_PANEL && w % 2 === 0; ) w /= 2;
  else if (g % w !== 0) throw new RangeError(`parameter panel=${w} of app summa: must divide n/rows=${mr} and n/cols=${mc} of the ${P}x${Q} grid`);

  shmem.init();
  const { xTeam, yTeam } = await shmem.teamSplit2d(shmem.TEAM_WORLD, Q);
  const row = shmem.teamMyPe(yTeam);
  const col = shmem.teamMyPe(xTeam);
  const bulk = { skeleton: true };
  const A = await shmem.malloc(8 * mr * mc, bulk);
  const B = await shmem.malloc(8 * mr * mc, bulk);
  const aSend = await shmem.malloc(8 * mr * w, bulk);
  const aPanel = await shmem.malloc(8 * mr * w, bulk);
  const bPanel = await shmem.malloc(8 * w * mc, bulk);
  const C = new Float64Array(ctx.skeleton ? 0 : mr * mc);
  if (!ctx.skeleton) {
    const a = A.float64();
    const b = B.float64();
    for (let i = 0; i < mr; i++) {
      for (let j = 0; j < mc; j++) {
        a[i * mc + j] = aValue(row * mr + i, col * mc + j);
        b[i * mc + j] = bValue(row * mr + i, col * mc + j);
      }
    }
  }

  await shmem.barrierAll();
  const t0 = ctx.now();
  let bcastUs = 0;
  let computeUs = 0;
  for (let k = 0; k < n; k += w) {
    const aOwner = Math.floor(k / mc);
    const bOwner = Math.floor(k / mr);
    const ka = k - aOwner * mc;
    const kb = k - bOwner * mr;
    let t = ctx.now();
    if (col === aOwner) {
      // pack columns ka..ka+w of A, row-major mr x w
      if (!ctx.skeleton) {
        const a = A.float64();
        const s = aSend.float64();
        for (let i = 0; i < mr; i++) for (let j = 0; j < w; j++) s[i * w + j] = a[i * mc + ka + j]!;
      }
      await ctx.compute({ bytes: 16 * mr * w });
      computeUs += ctx.now() - t;
      t = ctx.now();
    }
    await shmem.broadcast(xTeam, aPanel, aSend, mr * w, aOwner, 'float64');
    // rows kb..kb+w of B are contiguous in its row-major block
    await shmem.broadcast(yTeam, bPanel, B.element('float64', kb * mc), w * mc, bOwner, 'float64');
    bcastUs += ctx.now() - t;
    t = ctx.now();
    if (!ctx.skeleton) multiplyAdd(C, aPanel.float64(), bPanel.float64(), mr, mc, w);
    await ctx.compute({ flops: 2 * mr * mc * w });
    computeUs += ctx.now() - t;
  }
  const myTime = ctx.now() - t0;
  await shmem.barrierAll();

  const bad = ctx.skeleton ? 0 : countWrong(C, n, row * mr, mr, col * mc, mc);
  const { count: errors, max } = await teamTotals(shmem, bad, [myTime, bcastUs, computeUs]);
  const [timeUs, bcastMax, computeMax] = max as [number, number, number];
  if (errors > 0) throw new Error(`summa: ${errors} of ${n * n} elements of C differ from the serial product A B`);
  shmem.teamDestroy(xTeam);
  shmem.teamDestroy(yTeam);
  if (ctx.rank !== 0) return undefined;
  return {
    rows: [
      {
        ranks: ctx.size,
        grid: `${P}x${Q}`,
        n,
        panel: w,
        timeUs: round(timeUs),
        broadcastUs: round(bcastMax),
        computeUs: round(computeMax),
        gflops: round((2 * n ** 3) / timeUs / 1e3),
        check: ctx.skeleton ? SKELETON_CHECK : 'passed',
      },
    ],
  };
}

/**
 * Elements of this PE's block of C (rows r0.., `mr` of them; columns c0.., `mc`) that differ
 * from the serial product: each the dot product of a whole row of A and column of B, generated
 * from their definitions (exact: the values are small integers).
 */
function countWrong(C: Float64Array, n: number, r0: number, mr: number, c0: number, mc: number): number {
  const bt = new Float64Array(mc * n);
  for (let j = 0; j < mc; j++) for (let k = 0; k < n; k++) bt[j * n + k] = bValue(k, c0 + j);
  const a = new Float64Array(n);
  let bad = 0;
  for (let i = 0; i < mr; i++) {
    for (let k = 0; k < n; k++) a[k] = aValue(r0 + i, k);
    for (let j = 0; j < mc; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += a[k]! * bt[j * n + k]!;
      if (C[i * mc + j] !== s) bad++;
    }
  }
  return bad;
}

/** C (m x q) += X (m x w) Y (w x q), all row-major. */
function multiplyAdd(c: Float64Array, x: Float64Array, y: Float64Array, m: number, q: number, w: number): void {
  for (let i = 0; i < m; i++) {
    for (let l = 0; l < w; l++) {
      const xv = x[i * w + l]!;
      if (xv === 0) continue;
      const yo = l * q;
      const co = i * q;
      for (let j = 0; j < q; j++) c[co + j]! += xv * y[yo + j]!;
    }
  }
}

/** The sum over all PEs of `count` and the maximum of each of `times`, by team reductions over TEAM_WORLD. */
async function teamTotals(shmem: Shmem, count: number, times: readonly number[]): Promise<{ count: number; max: number[] }> {
  const ints = await shmem.malloc(16);
  const reals = await shmem.malloc(16 * times.length);
  ints.int64()[0] = BigInt(count);
  reals.float64().set(times);
  const world: ShmemTeam = shmem.TEAM_WORLD;
  await shmem.sumReduce(world, ints.at(8), ints, 1, 'int64');
  await shmem.maxReduce(world, reals.at(8 * times.length), reals, times.length, 'float64');
  const out = { count: Number(ints.int64()[1]), max: [...reals.float64().subarray(times.length, 2 * times.length)] };
  await shmem.free(reals);
  await shmem.free(ints);
  return out;
}
