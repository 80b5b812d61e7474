import type { Comm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type AppResult, type ParamValues } from './app.ts';

/** One cell of the multi-partition: its cell coordinates and, per axis, its first grid point and size. */
export interface MpCell {
  readonly coord: readonly [number, number, number];
  readonly low: readonly [number, number, number];
  readonly size: readonly [number, number, number];
}

/** A rank's share of NPB BT's and SP's multi-partition (NPB 3 MPI make_set.f). */
export interface MultiPartition {
  /** Cells per axis, sqrt(ranks); each rank owns this many cells. */
  readonly ncells: number;
  /** The rank's cells; cell c lies in z slab c. */
  readonly cells: readonly MpCell[];
  /** `slice[axis][coordinate]`: the rank's cell at that cell coordinate along the axis. */
  readonly slice: readonly (readonly number[])[];
  /** The rank owning, for each of the rank's cells, the next cell down each axis (x, y, z). */
  readonly predecessor: readonly [number, number, number];
  /** The rank owning, for each of the rank's cells, the next cell up each axis (x, y, z). */
  readonly successor: readonly [number, number, number];
}

/** NPB's smallest cell, in points per axis (make_set.f aborts below it). */
export const MIN_CELL = 3;

/**
 * The multi-partition of an n^3 grid over `size` ranks (NPB 3 MPI make_set.f): the grid is cut
 * into ncells^3 cells, ncells = sqrt(size); rank i + ncells j owns the diagonal set of cells
 * (i + c, j - c, c) mod ncells for c = 0 .. ncells - 1, so that every rank holds one cell of each
 * slab along every axis and all its cells' neighbours along an axis belong to one rank. The first
 * n mod ncells cells along an axis are one point longer. Throws a RangeError naming the rank count
 * when it is not a square and the class when its cells would be under 3 points per axis.
 */
export function multiPartition(app: string, cls: string, n: number, size: number, rank: number): MultiPartition {
  const p = Math.round(Math.sqrt(size));
  if (p * p !== size) throw new RangeError(`${app}: ${size} ranks; NPB ${app.slice(4).toUpperCase()} runs on a square number of ranks (1, 4, 9, 16, ...)`);
  if (Math.floor(n / p) < MIN_CELL) {
    throw new RangeError(`${app}: class ${cls} (${n}^3 points) on ${size} ranks (${p} cells per axis) leaves cells of fewer than ${MIN_CELL} points per axis, NPB's minimum; use fewer ranks or a larger class`);
  }
  const i = rank % p;
  const j = Math.floor(rank / p);
  const wrap = (v: number): number => ((v % p) + p) % p;
  const extent = (q: number): [number, number] => {
    const base = Math.floor(n / p);
    const extra = n % p;
    return [q * base + Math.min(q, extra), base + (q < extra ? 1 : 0)];
  };
  const cells: MpCell[] = [];
  const slice = [0, 1, 2].map(() => new Array<number>(p).fill(0));
  for (let c = 0; c < p; c++) {
    const coord: [number, number, number] = [wrap(i + c), wrap(j - c), c];
    const e = coord.map(extent);
    cells.push({ coord, low: [e[0]![0], e[1]![0], e[2]![0]], size: [e[0]![1], e[1]![1], e[2]![1]] });
    coord.forEach((q, axis) => (slice[axis]![q] = c));
  }
  return {
    ncells: p,
    cells,
    slice,
    predecessor: [wrap(i - 1) + p * j, i + p * wrap(j - 1), wrap(i + 1) + p * wrap(j - 1)],
    successor: [wrap(i + 1) + p * j, i + p * wrap(j + 1), wrap(i - 1) + p * wrap(j + 1)],
  };
}

/**
 * How a benchmark's line solves talk: the recurrence standing for the solve (coefficients of the
 * upstream points: one for BT's block tridiagonal systems, two for SP's pentadiagonal ones), the
 * length of each stage's message, where a line's boundary values sit in it, and its tag.
 */
export interface SolveScheme {
  /** Forward elimination: f(i) = r(i) + forward[0] f(i-1) + forward[1] f(i-2) mod a prime. */
  readonly forward: readonly number[];
  /** Back substitution: b(i) = f(i) + backward[0] b(i+1) + backward[1] b(i+2) mod a prime. */
  readonly backward: readonly number[];
  /** Doubles of a forward stage's message, for a cell with `lines` interior lines; maxd is NPB's MAX_CELL_DIM. */
  forwardDoubles(lines: number, maxd: number): number;
  /** Doubles of a back substitution stage's message. */
  backwardDoubles(lines: number, maxd: number): number;
  /** Where line `line` (local coordinates p, q across the sweep) keeps its value `back` points before the cell's end. */
  forwardSlot(line: number, p: number, q: number, maxd: number, back: number): number;
  /** Where line `line` keeps its value `ahead` points after the cell's start. */
  backwardSlot(line: number, p: number, q: number, maxd: number, ahead: number): number;
  /** Tag of a forward (or, with `back`, back substitution) message of the cell at cell coordinates (cp, cq) across the sweep. */
  tag(axis: number, back: boolean, cp: number, cq: number, ncells: number): number;
  /** Share of a stage's work done between posting the receive and waiting for it (SP overlaps, BT does not). */
  readonly overlap: number;
  /** Whether a stage waits with one waitall (SP) or a wait on the send, then one on the receive (BT). */
  readonly waitAll: boolean;
}

/** Work of one point, in flops and bytes. */
export interface PointWork {
  /** Floating-point operations. */
  readonly flops: number;
  /** Bytes moved to and from memory. */
  readonly bytes: number;
}

/** What tells BT and SP apart on the common multi-partition driver. */
export interface MultiPartitionBenchmark {
  /** The app's name, `npb-bt` or `npb-sp`. */
  readonly name: string;
  /** Classes: grid points per axis and time steps (NPB 3 setparams.c). */
  readonly classes: Readonly<Record<string, { readonly n: number; readonly iterations: number }>>;
  /** How its line solves talk. */
  readonly scheme: SolveScheme;
  /** Work per point of compute_rhs (with add), per time step. */
  readonly rhs: PointWork;
  /** Work per point of each of the three solves, per time step. */
  readonly solve: PointWork;
  /** NPB's operation count of one time step on an n^3 grid. */
  opsPerStep(n: number): number;
}

/** An app's `check`: with the run's rank count, refuses a count that is not a square or cells under 3 points (before any rank starts). */
export function checkMultiPartition(bench: MultiPartitionBenchmark, p: ParamValues, ranks?: number): void {
  if (ranks !== undefined) multiPartition(bench.name, p.class as string, bench.classes[p.class as string]!.n, ranks, 0);
}

/**
 * Share of a solve's work in the forward elimination; the back substitution does the rest (an
 * assumed split: per point it is one matrix-vector product, or two scalar updates in SP, against
 * the Jacobians, the block inversion and the elimination).
 */
const FORWARD_SHARE = 0.9;
/** The values the data check moves: small integers, exact in doubles. */
const MOD = 1_048_573;
/** Variables per grid point (the 5 conserved quantities); the ghost faces carry all five. */
const VARS = 5;
/** NPB's tags of the ghost faces (BT and SP header.h): the direction a face travels. */
const EAST = 2000;
const WEST = 3000;
const NORTH = 4000;
const SOUTH = 5000;
const BOTTOM = 6000;
const TOP = 7000;
/** Tags of BT's solve messages: forward toward the successor, back substitution toward the predecessor (x_solve.f, y_solve.f, z_solve.f). */
export const BT_SOLVE_TAGS: readonly (readonly [number, number])[] = [
  [WEST, EAST],
  [SOUTH, NORTH],
  [BOTTOM, TOP],
];
/** The two axes across a sweep along `axis`, the lower first. */
const ACROSS: readonly (readonly [number, number])[] = [
  [1, 2],
  [0, 2],
  [0, 1],
];

/** The source term of step t at global point (x, y, z); step 0 gives the initial field. */
const source = (x: number, y: number, z: number, t: number): number => ((x + 1) * 7919 + (y + 1) * 104_729 + (z + 1) * 1_299_709 + t * 15_485_863) % MOD;

/** Forward elimination along one line standing for the real one: f(i) = r(i) + c0 f(i-1) + c1 f(i-2), with f(-1) = in0, f(-2) = in1. */
function forwardLine(r: Float64Array, base: number, stride: number, len: number, c: readonly number[], in0: number, in1: number): void {
  const c0 = c[0]!;
  const c1 = c[1] ?? 0;
  let f1 = in0;
  let f2 = in1;
  for (let i = 0, at = base; i < len; i++, at += stride) {
    const f = (r[at]! + c0 * f1 + c1 * f2) % MOD;
    r[at] = f;
    f2 = f1;
    f1 = f;
  }
}

/** Back substitution along one line: b(i) = f(i) + c0 b(i+1) + c1 b(i+2), with b(len) = in0, b(len+1) = in1. */
function backwardLine(r: Float64Array, base: number, stride: number, len: number, c: readonly number[], in0: number, in1: number): void {
  const c0 = c[0]!;
  const c1 = c[1] ?? 0;
  let b1 = in0;
  let b2 = in1;
  for (let i = len - 1, at = base + (len - 1) * stride; i >= 0; i--, at -= stride) {
    const b = (r[at]! + c0 * b1 + c1 * b2) % MOD;
    r[at] = b;
    b2 = b1;
    b1 = b;
  }
}

/** The 13-point stencil of compute_rhs (each point and its two neighbours each way along each axis) over `u`, whose y and z strides are s1 and s2. */
function stencil(u: Float64Array, at: number, s1: number, s2: number): number {
  return u[at]! + u[at - 1]! + u[at + 1]! + u[at - 2]! + u[at + 2]! + u[at - s1]! + u[at + s1]! + u[at - 2 * s1]! + u[at + 2 * s1]! + u[at - s2]! + u[at + s2]! + u[at - 2 * s2]! + u[at + 2 * s2]!;
}

/**
 * The serial model of the whole grid: the same rhs, sweeps and add on one (n + 4)^3 array with a
 * zero border of two points, which every rank runs beside its cells to check them.
 */
class SerialGrid {
  readonly u: Float64Array;
  readonly r: Float64Array;
  readonly m: number;
  constructor(readonly n: number) {
    this.m = n + 4;
    this.u = new Float64Array(this.m ** 3);
    this.r = new Float64Array(this.m ** 3);
    for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) this.u[this.at(x, y, z)] = source(x, y, z, 0);
  }
  at(x: number, y: number, z: number): number {
    return ((z + 2) * this.m + y + 2) * this.m + x + 2;
  }
  rhs(t: number): void {
    const { n, m } = this;
    for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const at = this.at(x, y, z);
      this.r[at] = (source(x, y, z, t) + stencil(this.u, at, m, m * m)) % MOD;
    }
  }
  sweep(axis: number, s: SolveScheme): void {
    const { n, m } = this;
    const stride = [1, m, m * m][axis]!;
    const [pa, qa] = ACROSS[axis]!;
    for (let q = 1; q <= n - 2; q++) for (let p = 1; p <= n - 2; p++) {
      const g = [0, 0, 0];
      g[pa] = p;
      g[qa] = q;
      const base = this.at(g[0]!, g[1]!, g[2]!);
      forwardLine(this.r, base, stride, n, s.forward, 0, 0);
      backwardLine(this.r, base, stride, n, s.backward, 0, 0);
    }
  }
  add(): void {
    const { n } = this;
    for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const at = this.at(x, y, z);
      this.u[at] = (this.u[at]! + this.r[at]!) % MOD;
    }
  }
}

/** A cell's data: u with ghost layers of two points ([k + 2][j + 2][i + 2]) and the right-hand side r ([k][j][i]). */
interface CellData extends MpCell {
  readonly u: Float64Array | null;
  readonly r: Float64Array | null;
  readonly points: number;
}

/**
 * Runs NPB BT or SP (NPB 3 MPI versions) on the rank: per time step copy_faces (two layers of the
 * 5 variables of every cell face with a neighbour, one message per direction to each of the six
 * neighbour ranks, gathered over the rank's cells), compute_rhs, then x_solve, y_solve and
 * z_solve, each a pipelined sweep through the cells along the axis (forward elimination cell by
 * cell from the predecessor's last points to the successor, then back substitution the other
 * way), then add. After the timed steps, verify's error norm (an allreduce of 5 doubles), one more
 * copy_faces and the rhs norm (another). NPB's untimed warm-up step is left out. Real data: the
 * solves carry a recurrence of the scheme's order in place of the block or scalar systems, the rhs
 * a 13-point stencil over u, so a face that came late, from the wrong rank or not at all changes
 * the values; every rank runs the same steps serially on the whole grid and checks every ghost
 * point after each copy_faces and every swept value after each solve.
 */
export async function runMultiPartition(ctx: RankContext, p: ParamValues, bench: MultiPartitionBenchmark): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const world: Comm = mpi.COMM_WORLD;
  const real = !ctx.skeleton;
  const cls = bench.classes[p.class as string]!;
  const n = cls.n;
  const steps = (p.iterations as number) || cls.iterations;
  const mp = multiPartition(bench.name, p.class as string, n, mpi.size, mpi.rank);
  const P = mp.ncells;
  const maxd = Math.floor(n / P) + 1;
  const s = bench.scheme;
  const commSolve = await world.dup();
  const commRhs = await world.dup();
  const serial = real ? new SerialGrid(n) : null;
  const cells: CellData[] = mp.cells.map((c) => {
    const [sx, sy, sz] = c.size;
    const u = real ? new Float64Array((sx + 4) * (sy + 4) * (sz + 4)) : null;
    if (u) for (let k = 0; k < sz; k++) for (let j = 0; j < sy; j++) for (let i = 0; i < sx; i++) u[((k + 2) * (sy + 4) + j + 2) * (sx + 4) + i + 2] = source(c.low[0] + i, c.low[1] + j, c.low[2] + k, 0);
    return { ...c, u, r: real ? new Float64Array(sx * sy * sz) : null, points: sx * sy * sz };
  });
  const uAt = (c: CellData, i: number, j: number, k: number): number => ((k + 2) * (c.size[1] + 4) + j + 2) * (c.size[0] + 4) + i + 2;
  let compute = 0;
  let errors = 0;
  const work = async (w: PointWork, points: number, share = 1): Promise<void> => {
    if (points * share <= 0) return;
    const t = ctx.now();
    await ctx.compute({ flops: w.flops * points * share, bytes: w.bytes * points * share });
    compute += ctx.now() - t;
  };

  // copy_faces: per axis, the faces toward the successor and toward the predecessor, summed over the cells that have one
  const hasNext = (c: MpCell, axis: number): boolean => c.coord[axis] !== P - 1;
  const hasPrev = (c: MpCell, axis: number): boolean => c.coord[axis] !== 0;
  const faceDoubles = (c: MpCell, axis: number): number => 2 * VARS * (c.size[ACROSS[axis]![0]]! * c.size[ACROSS[axis]![1]]!);
  const faceLen = [0, 1, 2].map((axis) => [cells.reduce((a, c) => a + (hasNext(c, axis) ? faceDoubles(c, axis) : 0), 0), cells.reduce((a, c) => a + (hasPrev(c, axis) ? faceDoubles(c, axis) : 0), 0)] as const);
  const faceBufs = faceLen.map(([up, down]) => ({ sendUp: ctx.alloc(Float64Array, up), sendDown: ctx.alloc(Float64Array, down), recvUp: ctx.alloc(Float64Array, up), recvDown: ctx.alloc(Float64Array, down) }));
  /** Calls fn on the u index and global point of each point of two layers of `c` along `axis` starting at local coordinate `first`, k outermost. */
  const layers = (c: CellData, axis: number, first: number, fn: (at: number, x: number, y: number, z: number) => void): void => {
    const lo = [0, 0, 0];
    const hi = [c.size[0], c.size[1], c.size[2]];
    lo[axis] = first;
    hi[axis] = first + 2;
    for (let k = lo[2]!; k < hi[2]!; k++) for (let j = lo[1]!; j < hi[1]!; j++) for (let i = lo[0]!; i < hi[0]!; i++) fn(uAt(c, i, j, k), c.low[0] + i, c.low[1] + j, c.low[2] + k);
  };
  const copyFaces = async (): Promise<void> => {
    if (P === 1) return;
    if (real) {
      for (let axis = 0; axis < 3; axis++) {
        const b = faceBufs[axis]!;
        let up = 0;
        let down = 0;
        for (const c of cells) {
          const u = c.u!;
          if (hasNext(c, axis)) layers(c, axis, c.size[axis]! - 2, (at) => ((b.sendUp[up] = u[at]!), (up += VARS)));
          if (hasPrev(c, axis)) layers(c, axis, 0, (at) => ((b.sendDown[down] = u[at]!), (down += VARS)));
        }
      }
    }
    const reqs: Request[] = [];
    const up = [EAST, NORTH, TOP];
    const down = [WEST, SOUTH, BOTTOM];
    for (let axis = 0; axis < 3; axis++) {
      reqs.push(commRhs.irecv(faceBufs[axis]!.recvUp, mp.successor[axis]!, down[axis]!));
      reqs.push(commRhs.irecv(faceBufs[axis]!.recvDown, mp.predecessor[axis]!, up[axis]!));
    }
    for (let axis = 0; axis < 3; axis++) {
      reqs.push(commRhs.isend(faceBufs[axis]!.sendUp, mp.successor[axis]!, up[axis]!));
      reqs.push(commRhs.isend(faceBufs[axis]!.sendDown, mp.predecessor[axis]!, down[axis]!));
    }
    await commRhs.waitAll(reqs);
    if (!real) return;
    for (let axis = 0; axis < 3; axis++) {
      const b = faceBufs[axis]!;
      let up = 0;
      let down = 0;
      const check = (u: Float64Array, at: number, x: number, y: number, z: number): void => {
        if (u[at] !== serial!.u[serial!.at(x, y, z)]) errors++;
      };
      for (const c of cells) {
        const u = c.u!;
        if (hasPrev(c, axis)) layers(c, axis, -2, (at, x, y, z) => ((u[at] = b.recvDown[down]!), (down += VARS), check(u, at, x, y, z)));
        if (hasNext(c, axis)) layers(c, axis, c.size[axis]!, (at, x, y, z) => ((u[at] = b.recvUp[up]!), (up += VARS), check(u, at, x, y, z)));
      }
    }
  };

  /** compute_rhs (and, for SP, txinvr): the stencil over each cell's u and its ghosts. */
  const computeRhs = async (t: number): Promise<void> => {
    if (real) {
      serial!.rhs(t);
      for (const c of cells) {
        const [sx, sy, sz] = c.size;
        const s1 = sx + 4;
        const s2 = s1 * (sy + 4);
        for (let k = 0; k < sz; k++) for (let j = 0; j < sy; j++) for (let i = 0; i < sx; i++) {
          c.r![(k * sy + j) * sx + i] = (source(c.low[0] + i, c.low[1] + j, c.low[2] + k, t) + stencil(c.u!, uAt(c, i, j, k), s1, s2)) % MOD;
        }
      }
    }
    for (const c of cells) await work(bench.rhs, c.points);
  };

  const buf = Math.max(...[0, 1, 2].flatMap((axis) => cells.map((c) => Math.max(s.forwardDoubles(interiorLines(c, axis, n), maxd), s.backwardDoubles(interiorLines(c, axis, n), maxd)))));
  const sendBuf = ctx.alloc(Float64Array, buf);
  const recvBuf = ctx.alloc(Float64Array, buf);
  const order = s.forward.length;

  /** Runs fn on each interior line of `c` across `axis`: its number, local coordinates p, q and r index of its first point. */
  const eachLine = (c: CellData, axis: number, fn: (line: number, p: number, q: number, base: number) => void): void => {
    const [pa, qa] = ACROSS[axis]!;
    const strides = [1, c.size[0], c.size[0] * c.size[1]];
    let line = 0;
    for (let q = 0; q < c.size[qa]!; q++) {
      const gq = c.low[qa]! + q;
      if (gq < 1 || gq > n - 2) continue;
      for (let pp = 0; pp < c.size[pa]!; pp++) {
        const gp = c.low[pa]! + pp;
        if (gp < 1 || gp > n - 2) continue;
        fn(line++, pp, q, pp * strides[pa]! + q * strides[qa]!);
      }
    }
  };
  /** One stage's wait: the previous send and this receive, as the benchmark waits for them. */
  const waitStage = async (comm: Comm, send: Request | null, recv: Request): Promise<void> => {
    if (s.waitAll) await comm.waitAll(send ? [recv, send] : [recv]);
    else {
      if (send) await send.wait();
      await recv.wait();
    }
  };

  /** x_solve, y_solve or z_solve: the forward sweep through the rank's cells along the axis, then back substitution. */
  const solve = async (axis: number): Promise<void> => {
    const comm = commSolve;
    const stride = (c: CellData): number => [1, c.size[0], c.size[0] * c.size[1]][axis]!;
    const coordsAcross = (c: CellData): [number, number] => [c.coord[ACROSS[axis]![0]]!, c.coord[ACROSS[axis]![1]]!];
    let send: Request | null = null;
    for (let stage = 0; stage < P; stage++) {
      const c = cells[mp.slice[axis]![stage]!]!;
      const lines = interiorLines(c, axis, n);
      const len = s.forwardDoubles(lines, maxd);
      const tag = s.tag(axis, false, ...coordsAcross(c), P);
      if (stage > 0) {
        const recv = comm.irecv(recvBuf.subarray(0, len), mp.predecessor[axis]!, tag);
        await work(bench.solve, c.points, FORWARD_SHARE * s.overlap);
        await waitStage(comm, send, recv);
        send = null;
        await work(bench.solve, c.points, FORWARD_SHARE * (1 - s.overlap));
      } else await work(bench.solve, c.points, FORWARD_SHARE);
      if (real) {
        const r = c.r!;
        const st = stride(c);
        const last = c.size[axis]! - 1;
        eachLine(c, axis, (line, pp, q, base) => {
          const in0 = stage > 0 ? recvBuf[s.forwardSlot(line, pp, q, maxd, 0)]! : 0;
          const in1 = stage > 0 && order > 1 ? recvBuf[s.forwardSlot(line, pp, q, maxd, 1)]! : 0;
          forwardLine(r, base, st, last + 1, s.forward, in0, in1);
          if (stage === P - 1) return;
          for (let b = 0; b < order; b++) sendBuf[s.forwardSlot(line, pp, q, maxd, b)] = r[base + (last - b) * st]!;
        });
      }
      if (stage < P - 1) send = comm.isend(sendBuf.subarray(0, len), mp.successor[axis]!, tag);
    }
    for (let stage = P - 1; stage >= 0; stage--) {
      const c = cells[mp.slice[axis]![stage]!]!;
      const lines = interiorLines(c, axis, n);
      const len = s.backwardDoubles(lines, maxd);
      const tag = s.tag(axis, true, ...coordsAcross(c), P);
      if (stage < P - 1) {
        const recv = comm.irecv(recvBuf.subarray(0, len), mp.successor[axis]!, tag);
        await work(bench.solve, c.points, (1 - FORWARD_SHARE) * s.overlap);
        await waitStage(comm, send, recv);
        send = null;
        await work(bench.solve, c.points, (1 - FORWARD_SHARE) * (1 - s.overlap));
      } else await work(bench.solve, c.points, 1 - FORWARD_SHARE);
      if (real) {
        const r = c.r!;
        const st = stride(c);
        eachLine(c, axis, (line, pp, q, base) => {
          const in0 = stage < P - 1 ? recvBuf[s.backwardSlot(line, pp, q, maxd, 0)]! : 0;
          const in1 = stage < P - 1 && order > 1 ? recvBuf[s.backwardSlot(line, pp, q, maxd, 1)]! : 0;
          backwardLine(r, base, st, c.size[axis]!, s.backward, in0, in1);
          if (stage === 0) return;
          for (let b = 0; b < order; b++) sendBuf[s.backwardSlot(line, pp, q, maxd, b)] = r[base + b * st]!;
        });
      }
      if (stage > 0) send = comm.isend(sendBuf.subarray(0, len), mp.predecessor[axis]!, tag);
    }
    if (!real) return;
    serial!.sweep(axis, s);
    for (const c of cells) {
      for (let k = 0; k < c.size[2]; k++) for (let j = 0; j < c.size[1]; j++) for (let i = 0; i < c.size[0]; i++) {
        if (c.r![(k * c.size[1] + j) * c.size[0] + i] !== serial!.r[serial!.at(c.low[0] + i, c.low[1] + j, c.low[2] + k)]) errors++;
      }
    }
  };

  /** add: u += r on every point of the rank's cells. */
  const add = (): void => {
    if (!real) return;
    serial!.add();
    for (const c of cells) {
      for (let k = 0; k < c.size[2]; k++) for (let j = 0; j < c.size[1]; j++) for (let i = 0; i < c.size[0]; i++) {
        const at = uAt(c, i, j, k);
        c.u![at] = (c.u![at]! + c.r![(k * c.size[1] + j) * c.size[0] + i]!) % MOD;
      }
    }
  };

  await world.barrier();
  compute = 0;
  const start = ctx.now();
  for (let t = 1; t <= steps; t++) {
    await copyFaces();
    await computeRhs(t);
    for (let axis = 0; axis < 3; axis++) await solve(axis);
    add();
  }
  const elapsed = ctx.now() - start;
  const timedCompute = compute;
  // verify: the error norm, copy_faces and compute_rhs, the rhs norm
  const norms = new Float64Array(VARS);
  await world.allreduce(new Float64Array(VARS), norms, mpi.SUM);
  await copyFaces();
  await computeRhs(steps + 1);
  await world.allreduce(new Float64Array(VARS), norms, mpi.SUM);

  const errs = new Float64Array(1);
  await world.allreduce(Float64Array.of(errors), errs, mpi.SUM);
  if (errs[0]! > 0) throw new Error(`${bench.name}: data check failed: ${errs[0]} ghost or swept values differ from a serial run of the whole grid`);
  if (mpi.rank !== 0) return undefined;
  return {
    rows: [
      {
        ranks: mpi.size,
        class: p.class as string,
        grid: `${n}x${n}x${n}`,
        cells: `${P}x${P}x${P}`,
        iterations: steps,
        timeUs: round(elapsed),
        computeUs: round(timedCompute),
        commUs: round(elapsed - timedCompute),
        mops: round((steps * bench.opsPerStep(n)) / elapsed),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** Lines of `c` along `axis` whose other two coordinates are interior to the grid (the lines NPB solves). */
export function interiorLines(c: MpCell, axis: number, n: number): number {
  const inner = (a: number): number => {
    const lo = Math.max(c.low[a]!, 1);
    const hi = Math.min(c.low[a]! + c.size[a]! - 1, n - 2);
    return Math.max(0, hi - lo + 1);
  };
  return inner(ACROSS[axis]![0]!) * inner(ACROSS[axis]![1]!);
}
