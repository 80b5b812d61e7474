import type { Comm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';

/** NPB LU problem classes (NPB 3 lu.f / npbparams.h): grid points per axis and SSOR iterations. */
export const LU_CLASSES: Readonly<Record<string, { readonly n: number; readonly itmax: number }>> = {
  S: { n: 12, itmax: 50 },
  W: { n: 33, itmax: 300 },
  A: { n: 64, itmax: 250 },
  B: { n: 102, itmax: 250 },
  C: { n: 162, itmax: 250 },
};
/** Variables per grid point (lu.f: the 5 conserved quantities of the Navier-Stokes system). */
const VARS = 5;
/**
 * NPB's operation count per iteration (lu.f: Mop/s = itmax (1984.77 n^3 - 10923.3 n^2 +
 * 27770.9 n - 144010) / time for an n^3 grid). Its n^3 term, 1984.77 per point, is charged a
 * third to each of the lower sweep (jacld, blts), the upper sweep (jacu, buts) and the right-hand
 * side (rhs): an even split assumed here, lu.f giving no per-routine figure. Bytes per point and
 * routine: the 5x5 blocks of the Jacobians (4 of 200 bytes each) built and read once and the 5
 * variables read and written (80): 880.
 */
const PER_POINT = { flops: 1984.77 / 3, bytes: 880 };
/** The values the data check moves: small integers, exact in doubles. */
const MOD = 1_048_573;

/** lu.f's process grid: xdim = 2^(d/2), doubled when d = log2(ranks) is odd; ydim the rest. */
export function luGrid(size: number): [number, number] {
  const d = Math.log2(size);
  if (!Number.isInteger(d)) throw new RangeError(`npb-lu: ${size} ranks; NPB LU runs on a power of two of ranks (1, 2, 4, 8, ...)`);
  const x = 2 ** Math.floor(d / 2) * (d % 2 === 1 ? 2 : 1);
  return [x, size / x];
}

/** The class's points per axis, if the grid leaves every rank at least 2 along each (RangeError otherwise). */
function luPoints(cls: string, [xdim, ydim]: [number, number]): number {
  const n = LU_CLASSES[cls]!.n;
  if (n < 2 * Math.max(xdim, ydim)) throw new RangeError(`npb-lu: class ${cls} (${n}^3 points) on a ${xdim}x${ydim} grid leaves a rank fewer than 2 points per axis; use fewer ranks or a larger class`);
  return n;
}

/** Points [first, first + count) of part `q` of `n` split into `parts`, the first n mod parts one longer. */
function share(n: number, parts: number, q: number): [number, number] {
  const base = Math.floor(n / parts);
  const extra = n % parts;
  return [q * base + Math.min(q, extra), base + (q < extra ? 1 : 0)];
}

/**
 * The NAS parallel benchmarks' LU solver (LU, NPB 3 MPI version) communication: SSOR iterations
 * on an n^3 grid split over a 2-D process grid in x and y, each rank holding whole columns in z.
 * Each iteration's lower-triangular sweep (blts) runs plane by plane in z as a pipelined
 * wavefront: for each interior plane a rank receives the line of 5 variables along its west face
 * from the west neighbour and along its south face from the south one (exchange_1), computes the
 * plane and sends its east and north lines on; the upper sweep (buts) runs the planes backwards
 * the other way. The right-hand side (rhs) exchanges two layers of ghost faces with the four
 * neighbours (exchange_3), and the residual norm closing the run is an allreduce of 5 doubles
 * (l2norm). Real data: the sweeps compute a wavefront recurrence (each point the sum of its
 * upstream neighbours, modulo a prime), which only the right values arriving in the right order
 * reproduce; every rank checks its points against a serial computation of the whole grid, and
 * every ghost point of the rhs exchange against its owner's value.
 */
export const npbLu: App = {
  name: 'npb-lu',
  summary: 'NAS LU: SSOR with pipelined wavefront sweeps (lines to the east and north neighbours plane by plane, then back), two-layer ghost exchanges for the right-hand side; Mop/s as NPB counts them, every swept value checked',
  merit: { key: 'mops', higherIsBetter: true, label: 'Mop/s' },
  minRanks: 1,
  params: {
    class: { type: 'choice', default: 'S', choices: Object.keys(LU_CLASSES), help: 'NPB class: 12^3 (S), 33^3 (W), 64^3 (A), 102^3 (B), 162^3 (C) points; 50 (S), 300 (W) or 250 SSOR iterations' },
    iterations: { type: 'int', default: 0, min: 0, help: "SSOR iterations (0: the class's)" },
  },
  check: (p: ParamValues, ranks?: number): void => {
    if (ranks !== undefined) luPoints(p.class as string, luGrid(ranks));
  },
  main: runLu,
};

async function runLu(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const comm: Comm = mpi.COMM_WORLD;
  const real = !ctx.skeleton;
  const cls = LU_CLASSES[p.class as string]!;
  const n = cls.n;
  const itmax = (p.iterations as number) || cls.itmax;
  const [xdim, ydim] = luGrid(mpi.size);
  luPoints(p.class as string, [xdim, ydim]);
  const me = mpi.rank;
  const col = me % xdim;
  const row = Math.floor(me / xdim);
  const west = col > 0 ? me - 1 : -1;
  const east = col < xdim - 1 ? me + 1 : -1;
  const south = row > 0 ? me - xdim : -1;
  const north = row < ydim - 1 ? me + xdim : -1;
  const [x0, mx] = share(n, xdim, col);
  const [y0, my] = share(n, ydim, row);
  // the local block with a ghost layer of one in x and y: [k][j + 1][i + 1]
  const sx = mx + 2;
  const sy = my + 2;
  const at = (i: number, j: number, k: number): number => (k * sy + j + 1) * sx + i + 1;
  const v = real ? new Float64Array(sx * sy * n) : null;
  const w = real ? new Float64Array(sx * sy * n) : null;
  const bufs = [my, my, mx, mx].map((m) => ctx.alloc(Float64Array, VARS * m));
  const [sendX, recvX, sendY, recvY] = [bufs[0]!, bufs[1]!, bufs[2]!, bufs[3]!];
  const face = [my, my, mx, mx].map((m) => [0, 1].map(() => ctx.alloc(Float64Array, 2 * VARS * m * n)));
  let compute = 0;
  let errors = 0;
  const work = async (points: number): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops: PER_POINT.flops * points, bytes: PER_POINT.bytes * points });
    compute += ctx.now() - t;
  };
  const source = (i: number, j: number, k: number): number => ((i + 1) * 7919 + (j + 1) * 104_729 + (k + 1) * 1_299_709) % MOD;

  /** One plane of a sweep: receive the upstream lines, compute, send the downstream lines (exchange_1). */
  const plane = async (k: number, lower: boolean): Promise<void> => {
    const fromX = lower ? west : east;
    const fromY = lower ? south : north;
    const toX = lower ? east : west;
    const toY = lower ? north : south;
    const a = lower ? v! : w!;
    const reqs: Request[] = [];
    if (fromY >= 0) reqs.push(comm.irecv(recvY.subarray(0, VARS * mx), fromY, lower ? 1 : 3));
    if (fromX >= 0) reqs.push(comm.irecv(recvX.subarray(0, VARS * my), fromX, lower ? 2 : 4));
    await comm.waitAll(reqs);
    if (real) {
      const gi = lower ? -1 : mx;
      const gj = lower ? -1 : my;
      for (let i = 0; i < mx; i++) a[at(i, gj, k)] = fromY >= 0 ? recvY[VARS * i]! : 0;
      for (let j = 0; j < my; j++) a[at(gi, j, k)] = fromX >= 0 ? recvX[VARS * j]! : 0;
      const d = lower ? 1 : -1;
      for (let jj = 0; jj < my; jj++) {
        const j = lower ? jj : my - 1 - jj;
        for (let ii = 0; ii < mx; ii++) {
          const i = lower ? ii : mx - 1 - ii;
          const kk = k - d;
          const below = kk >= 1 && kk <= n - 2 ? a[at(i, j, kk)]! : 0;
          const extra = lower ? source(x0 + i, y0 + j, k) : v![at(i, j, k)]!;
          a[at(i, j, k)] = (a[at(i - d, j, k)]! + a[at(i, j - d, k)]! + below + extra) % MOD;
        }
      }
      const ei = lower ? mx - 1 : 0;
      const ej = lower ? my - 1 : 0;
      for (let i = 0; i < mx; i++) sendY[VARS * i] = a[at(i, ej, k)]!;
      for (let j = 0; j < my; j++) sendX[VARS * j] = a[at(ei, j, k)]!;
    }
    await work(mx * my);
    if (toY >= 0) await comm.send(sendY.subarray(0, VARS * mx), toY, lower ? 1 : 3);
    if (toX >= 0) await comm.send(sendX.subarray(0, VARS * my), toX, lower ? 2 : 4);
  };

  /** exchange_3: two layers of every face to the south and north, then to the west and east; ghost values checked. */
  const rhs = async (): Promise<void> => {
    await work(mx * my * n);
    const axes: [number, number, number][] = [
      [south, north, 1],
      [west, east, 0],
    ];
    for (const [lo, hi, axis] of axes) {
      const m = axis === 1 ? mx : my;
      const [sLo, sHi] = face[axis === 1 ? 2 : 0]!;
      const [rLo, rHi] = face[axis === 1 ? 3 : 1]!;
      const point = (layer: number, e: number, k: number): [number, number, number] => (axis === 1 ? [x0 + e, layer, k] : [layer, y0 + e, k]);
      const fill = (buf: Float64Array, first: number): void => {
        for (let l = 0; l < 2; l++) for (let k = 0; k < n; k++) for (let e = 0; e < m; e++) buf[VARS * ((l * n + k) * m + e)] = source(...point(first + l, e, k));
      };
      const check = (buf: Float64Array, first: number): void => {
        for (let l = 0; l < 2; l++) for (let k = 0; k < n; k++) for (let e = 0; e < m; e++) if (buf[VARS * ((l * n + k) * m + e)] !== source(...point(first + l, e, k))) errors++;
      };
      const base = axis === 1 ? y0 : x0;
      const size = axis === 1 ? my : mx;
      const reqs: Request[] = [];
      if (lo >= 0) reqs.push(comm.irecv(rLo!, lo, 5 + 2 * axis));
      if (hi >= 0) reqs.push(comm.irecv(rHi!, hi, 6 + 2 * axis));
      if (real) {
        fill(sLo!, base);
        fill(sHi!, base + size - 2);
      }
      if (lo >= 0) reqs.push(comm.isend(sLo!, lo, 6 + 2 * axis));
      if (hi >= 0) reqs.push(comm.isend(sHi!, hi, 5 + 2 * axis));
      await comm.waitAll(reqs);
      if (real && lo >= 0) check(rLo!, base - 2);
      if (real && hi >= 0) check(rHi!, base + size);
    }
  };

  await rhs();
  await comm.barrier();
  compute = 0;
  const start = ctx.now();
  for (let it = 0; it < itmax; it++) {
    for (let k = 1; k <= n - 2; k++) await plane(k, true);
    for (let k = n - 2; k >= 1; k--) await plane(k, false);
    await rhs();
  }
  const norms = new Float64Array(VARS);
  await comm.allreduce(new Float64Array(VARS), norms, mpi.SUM);
  const elapsed = ctx.now() - start;

  if (real) errors += checkSweeps(n, x0, y0, mx, my, (i, j, k) => v![at(i, j, k)]!, (i, j, k) => w![at(i, j, k)]!, source);
  const errs = new Float64Array(1);
  await comm.allreduce(Float64Array.of(errors), errs, mpi.SUM);
  if (errs[0]! > 0) throw new Error(`npb-lu: data check failed: ${errs[0]} swept or ghost values differ from a serial sweep of the whole grid`);
  if (me !== 0) return undefined;
  const mops = (itmax * (1984.77 * n ** 3 - 10923.3 * n ** 2 + 27770.9 * n - 144010)) / elapsed;
  return {
    rows: [
      {
        ranks: mpi.size,
        class: p.class as string,
        grid: `${n}x${n}x${n}`,
        procGrid: `${xdim}x${ydim}`,
        iterations: itmax,
        timeUs: round(elapsed),
        computeUs: round(compute),
        commUs: round(elapsed - compute),
        mops: round(mops),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** The serial sweeps over the whole grid; counts this rank's points whose lower or upper sweep value differs. */
function checkSweeps(
  n: number,
  x0: number,
  y0: number,
  mx: number,
  my: number,
  lowerAt: (i: number, j: number, k: number) => number,
  upperAt: (i: number, j: number, k: number) => number,
  source: (i: number, j: number, k: number) => number,
): number {
  const idx = (i: number, j: number, k: number): number => (k * n + j) * n + i;
  const lo = new Float64Array(n * n * n);
  const up = new Float64Array(n * n * n);
  const get = (a: Float64Array, i: number, j: number, k: number): number => (i < 0 || j < 0 || i >= n || j >= n || k < 1 || k > n - 2 ? 0 : a[idx(i, j, k)]!);
  for (let k = 1; k <= n - 2; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) lo[idx(i, j, k)] = (get(lo, i - 1, j, k) + get(lo, i, j - 1, k) + get(lo, i, j, k - 1) + source(i, j, k)) % MOD;
  for (let k = n - 2; k >= 1; k--) for (let j = n - 1; j >= 0; j--) for (let i = n - 1; i >= 0; i--) up[idx(i, j, k)] = (get(up, i + 1, j, k) + get(up, i, j + 1, k) + get(up, i, j, k + 1) + lo[idx(i, j, k)]!) % MOD;
  let errors = 0;
  for (let k = 1; k <= n - 2; k++) {
    for (let j = 0; j < my; j++) {
      for (let i = 0; i < mx; i++) {
        if (lowerAt(i, j, k) !== lo[idx(x0 + i, y0 + j, k)]) errors++;
        if (upperAt(i, j, k) !== up[idx(x0 + i, y0 + j, k)]) errors++;
      }
    }
  }
  return errors;
}
