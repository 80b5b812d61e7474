import type { Comm } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { NPB_A, NPB_SEED, randlc } from './npb-random.ts';

/**
 * NPB CG problem classes (NPB 3 cg.f / npbparams.h): matrix order, nonzeros per generating
 * vector, outer iterations, the eigenvalue shift, and the verification value of zeta (cg.f).
 */
export const CG_CLASSES: Readonly<Record<string, { readonly na: number; readonly nonzer: number; readonly niter: number; readonly shift: number; readonly zeta: number }>> = {
  S: { na: 1400, nonzer: 7, niter: 15, shift: 10, zeta: 8.5971775078648 },
  W: { na: 7000, nonzer: 8, niter: 15, shift: 12, zeta: 10.362595087124 },
  A: { na: 14000, nonzer: 11, niter: 15, shift: 20, zeta: 17.130235054029 },
  B: { na: 75000, nonzer: 13, niter: 75, shift: 60, zeta: 22.712745482631 },
  C: { na: 150000, nonzer: 15, niter: 75, shift: 110, zeta: 28.973605592845 },
};
/** CG iterations per outer iteration (cg.f: cgitmax = 25). */
const CGIT = 25;
/** cg.f's rcond: the identity times rcond bounds the smallest eigenvalue from below. */
const RCOND = 0.1;
/** NPB's verification tolerance on zeta (cg.f: epsilon = 1.0d-10). */
const EPSILON = 1e-10;

/**
 * NPB's operation count (cg.f: Mop/s = 2 niter na (3 + nz1 + 25 (5 + nz1) + 3) / time, with
 * nz1 = nonzer (nonzer + 1) nonzeros per row): 2 flops per nonzero of each sparse matrix-vector
 * product and 2 per element of each of the five vector operations of a CG iteration. Bytes per
 * nonzero: its 8-byte value, 4-byte column index and the 8-byte entry of p it gathers; per vector
 * element of a CG iteration, the reads and writes of p.q (16), z += alpha p (24), r -= alpha q
 * (24), r.r (8) and p = r + beta p (24).
 */
const PER_NONZERO = { flops: 2, bytes: 20 };
const DOT = { flops: 2, bytes: 16 };
const UPDATE_ZR_DOT_RR = { flops: 6, bytes: 56 };
const UPDATE_P = { flops: 2, bytes: 24 };

/** The process grid and this rank's share of it, as cg.f's setup_proc_info and setup_submatrix_info work them out (1-based). */
interface Layout {
  readonly npcols: number;
  readonly nprows: number;
  readonly firstrow: number;
  readonly lastrow: number;
  readonly firstcol: number;
  readonly lastcol: number;
  readonly sendStart: number;
  readonly sendLen: number;
  readonly exchProc: number;
  readonly exchRecvLength: number;
  readonly l2npcols: number;
  /** Per reduction step i = 1 .. l2npcols (index 0 unused). */
  readonly reduceExchProc: number[];
  readonly reduceSendStarts: number[];
  readonly reduceSendLengths: number[];
  readonly reduceRecvStarts: number[];
  readonly reduceRecvLengths: number[];
}

/** cg.f's 2-D layout: npcols = nprows for an even power of two of ranks, else twice as many columns as rows. */
export function cgLayout(naa: number, nprocs: number, me: number): Layout {
  const log2 = Math.log2(nprocs);
  if (!Number.isInteger(log2)) throw new RangeError(`npb-cg: ${nprocs} ranks; NPB CG runs on a power of two of ranks (1, 2, 4, 8, ...)`);
  const nprows = 2 ** Math.floor(log2 / 2);
  const npcols = 2 ** Math.ceil(log2 / 2);
  const procRow = Math.floor(me / npcols);
  const procCol = me - procRow * npcols;
  let firstrow: number, lastrow: number, firstcol: number, lastcol: number;
  if (naa % npcols === 0) {
    const colSize = naa / npcols;
    firstcol = procCol * colSize + 1;
    lastcol = firstcol - 1 + colSize;
    const rowSize = naa / nprows;
    firstrow = procRow * rowSize + 1;
    lastrow = firstrow - 1 + rowSize;
  } else {
    const split = (part: number, parts: number): [number, number] => {
      const base = Math.floor(naa / parts);
      const extra = naa - base * parts;
      if (part < extra) return [part * (base + 1) + 1, part * (base + 1) + base + 1];
      const first = extra * (base + 1) + (part - extra) * base + 1;
      return [first, first - 1 + base];
    };
    [firstrow, lastrow] = split(procRow, nprows);
    if (npcols === nprows) [firstcol, lastcol] = split(procCol, npcols);
    else {
      [firstcol, lastcol] = split(Math.floor(procCol / 2), npcols / 2);
      const colSize = lastcol - firstcol + 1;
      if (me % 2 === 0) lastcol = firstcol - 1 + Math.floor((colSize - 1) / 2) + 1;
      else {
        firstcol = firstcol + Math.floor((colSize - 1) / 2) + 1;
        lastcol = firstcol - 1 + Math.floor(colSize / 2);
      }
    }
  }
  const rows = lastrow - firstrow + 1;
  let sendStart: number, sendLen: number;
  if (npcols === nprows) {
    sendStart = 1;
    sendLen = rows;
  } else if (me % 2 === 0) {
    sendStart = 1;
    sendLen = Math.floor((1 + rows) / 2);
  } else {
    sendStart = Math.floor((1 + rows) / 2) + 1;
    sendLen = Math.floor(rows / 2);
  }
  const exchProc = npcols === nprows ? (me % nprows) * nprows + Math.floor(me / nprows) : 2 * ((Math.floor(me / 2) % nprows) * nprows + Math.floor(me / 2 / nprows)) + (me % 2);
  const l2npcols = Math.round(Math.log2(npcols));
  const reduceExchProc = [0];
  const reduceSendStarts = [0];
  const reduceSendLengths = [0];
  const reduceRecvStarts = [0];
  const reduceRecvLengths = [0];
  let div = npcols;
  for (let i = 1; i <= l2npcols; i++) {
    const j = ((procCol + div / 2) % div) + Math.floor(procCol / div) * div;
    reduceExchProc[i] = procRow * npcols + j;
    div /= 2;
  }
  for (let i = l2npcols; i >= 1; i--) {
    if (nprows === npcols) {
      reduceSendStarts[i] = sendStart;
      reduceSendLengths[i] = sendLen;
      reduceRecvLengths[i] = rows;
    } else {
      reduceRecvLengths[i] = sendLen;
      if (i === l2npcols) {
        reduceSendLengths[i] = rows - sendLen;
        reduceSendStarts[i] = me % 2 === 0 ? sendStart + sendLen : 1;
      } else {
        reduceSendLengths[i] = sendLen;
        reduceSendStarts[i] = sendStart;
      }
    }
    reduceRecvStarts[i] = sendStart;
  }
  return { npcols, nprows, firstrow, lastrow, firstcol, lastcol, sendStart, sendLen, exchProc, exchRecvLength: lastcol - firstcol + 1, l2npcols, reduceExchProc, reduceSendStarts, reduceSendLengths, reduceRecvStarts, reduceRecvLengths };
}

/**
 * This rank's block of NPB CG's matrix (cg.f's makea and sparse): the sum over n sparse random
 * vectors v_i (nonzer entries drawn with randlc, entry i set to 0.5) of size_i v_i v_i^T, size
 * shrinking geometrically to rcond, plus (rcond - shift) on the diagonal; duplicates summed in the
 * order cg.f sums them. Rows and columns 1-based, columns local (from 1 at firstcol).
 */
function makeMatrix(n: number, nonzer: number, shift: number, lay: Layout): { rowstr: Int32Array; colidx: Int32Array; a: Float64Array } {
  const state = { x: NPB_SEED };
  const amult = NPB_A;
  randlc(state, amult);
  let nn1 = 1;
  while (nn1 < n) nn1 *= 2;
  const ratio = RCOND ** (1 / n);
  let size = 1;
  const arow: number[] = [];
  const acol: number[] = [];
  const aelt: number[] = [];
  const mark = new Uint8Array(n + 1);
  const v: number[] = [];
  const iv: number[] = [];
  for (let iouter = 1; iouter <= n; iouter++) {
    v.length = 0;
    iv.length = 0;
    while (v.length < nonzer) {
      const vecelt = randlc(state, amult);
      const vecloc = randlc(state, amult);
      const i = Math.trunc(nn1 * vecloc) + 1;
      if (i > n || mark[i]) continue;
      mark[i] = 1;
      v.push(vecelt);
      iv.push(i);
    }
    for (const i of iv) mark[i] = 0;
    const at = iv.indexOf(iouter);
    if (at >= 0) v[at] = 0.5;
    else {
      v.push(0.5);
      iv.push(iouter);
    }
    for (let e = 0; e < iv.length; e++) {
      const jcol = iv[e]!;
      if (jcol < lay.firstcol || jcol > lay.lastcol) continue;
      const scale = size * v[e]!;
      for (let e1 = 0; e1 < iv.length; e1++) {
        const irow = iv[e1]!;
        if (irow < lay.firstrow || irow > lay.lastrow) continue;
        arow.push(irow);
        acol.push(jcol);
        aelt.push(v[e1]! * scale);
      }
    }
    size *= ratio;
  }
  for (let i = lay.firstrow; i <= lay.lastrow; i++) {
    if (i < lay.firstcol || i > lay.lastcol) continue;
    arow.push(i);
    acol.push(i);
    aelt.push(RCOND - shift);
  }
  // sparse: bucket the triples by row, then sum duplicates in order, columns in order of first appearance
  const nrows = lay.lastrow - lay.firstrow + 1;
  const start = new Int32Array(nrows + 2);
  for (const r of arow) start[r - lay.firstrow + 2]!++;
  start[1] = 1;
  for (let j = 2; j <= nrows + 1; j++) start[j]! += start[j - 1]!;
  const ba = new Float64Array(aelt.length + 1);
  const bc = new Int32Array(aelt.length + 1);
  const fill = start.slice();
  for (let k = 0; k < aelt.length; k++) {
    const j = arow[k]! - lay.firstrow + 1;
    ba[fill[j]!] = aelt[k]!;
    bc[fill[j]!] = acol[k]!;
    fill[j]!++;
  }
  const rowstr = new Int32Array(nrows + 2);
  const a = new Float64Array(aelt.length + 1);
  const colidx = new Int32Array(aelt.length + 1);
  const x = new Float64Array(n + 1);
  const seen = new Uint8Array(n + 1);
  const order: number[] = [];
  let nza = 0;
  rowstr[1] = 1;
  for (let j = 1; j <= nrows; j++) {
    order.length = 0;
    for (let k = start[j]!; k < start[j + 1]!; k++) {
      const i = bc[k]!;
      x[i]! += ba[k]!;
      if (!seen[i] && x[i] !== 0) {
        seen[i] = 1;
        order.push(i);
      }
    }
    for (const i of order) {
      seen[i] = 0;
      const xi = x[i]!;
      x[i] = 0;
      if (xi !== 0) {
        nza++;
        a[nza] = xi;
        colidx[nza] = i - lay.firstcol + 1;
      }
    }
    rowstr[j + 1] = nza + 1;
  }
  return { rowstr, colidx: colidx.subarray(0, nza + 1), a: a.subarray(0, nza + 1) };
}

/**
 * The NAS parallel benchmarks' conjugate gradient (CG, NPB 3 MPI version): the inverse power
 * method on NPB's random sparse symmetric matrix, each outer iteration 25 CG iterations, on
 * cg.f's 2-D process grid (a power of two of ranks, as many columns as rows or twice as many).
 * Each rank holds a block of rows and columns; every sparse matrix-vector product is followed by
 * a sum of the partial products across the process row (log2(columns) exchanges of a row
 * segment with the partner of a recursive-doubling schedule: irecv, send, wait, add) and the
 * transpose exchange (the summed segment to the rank holding the matching column block); each
 * dot product is the same recursive doubling on one double, the outer iteration's norms on two.
 * With real data the matrix is NPB's own (makea's randlc draws), the arithmetic is cg.f's, and
 * after the class's iterations zeta must match NPB's verification value to 1e-10. Computation is
 * charged per nonzero and vector element from NPB's own count,
 * the same in a skeleton run.
 */
export const npbCg: App = {
  name: 'npb-cg',
  summary: "NAS CG: sparse matrix-vector products summed across the rows of a 2-D process grid and exchanged with the transpose rank, dot products by recursive doubling; Mop/s as NPB counts them, zeta checked against NPB's value",
  merit: { key: 'mops', higherIsBetter: true, label: 'Mop/s' },
  minRanks: 1,
  params: {
    class: { type: 'choice', default: 'S', choices: Object.keys(CG_CLASSES), help: 'NPB class: matrix order 1,400 (S), 7,000 (W), 14,000 (A), 75,000 (B), 150,000 (C); 15 (S, W, A) or 75 (B, C) iterations' },
    iterations: { type: 'int', default: 0, min: 0, help: "outer iterations of 25 CG iterations each (0: the class's; zeta is checked only then)" },
  },
  check: (p: ParamValues, ranks?: number): void => {
    if (ranks !== undefined) cgLayout(CG_CLASSES[p.class as string]!.na, ranks, 0);
  },
  main: runCg,
};

async function runCg(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const comm: Comm = mpi.COMM_WORLD;
  const real = !ctx.skeleton;
  const cls = CG_CLASSES[p.class as string]!;
  const niter = (p.iterations as number) || cls.niter;
  const me = mpi.rank;
  const lay = cgLayout(cls.na, mpi.size, me);
  const rows = lay.lastrow - lay.firstrow + 1;
  const cols = lay.lastcol - lay.firstcol + 1;
  const len = Math.floor(cls.na / lay.nprows) + 3;
  const [x, z, pv, q, r, w] = [0, 1, 2, 3, 4, 5].map(() => ctx.alloc(Float64Array, len)) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  const mat = real ? makeMatrix(cls.na, cls.nonzer, cls.shift, lay) : null;
  // the nonzeros of this rank's block as NPB counts them: nz1 per row, the rows shared by the process row
  const nz1 = cls.nonzer * (cls.nonzer + 1);
  const nnz = (cls.na * nz1) / mpi.size;
  let compute = 0;
  const work = async (per: { flops: number; bytes: number }, k: number): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops: per.flops * k, bytes: per.bytes * k });
    compute += ctx.now() - t;
  };
  const one = new Float64Array(2);
  const got = new Float64Array(2);
  /** The recursive-doubling sum across the process row of `k` doubles. */
  const rowSum = async (vals: number[]): Promise<number[]> => {
    const k = vals.length;
    const out = vals.slice();
    for (let i = 1; i <= lay.l2npcols; i++) {
      for (let e = 0; e < k; e++) one[e] = out[e]!;
      const req = comm.irecv(got.subarray(0, k), lay.reduceExchProc[i]!, i);
      await comm.send(one.subarray(0, k), lay.reduceExchProc[i]!, i);
      await req.wait();
      for (let e = 0; e < k; e++) out[e]! += got[e]!;
    }
    return out;
  };
  /** out = A v: the local product into w, summed across the process row, the transpose exchange into `out`. */
  const matvec = async (v: Float64Array, out: Float64Array): Promise<void> => {
    if (mat) {
      for (let j = 1; j <= rows; j++) {
        let sum = 0;
        for (let k = mat.rowstr[j]!; k < mat.rowstr[j + 1]!; k++) sum += mat.a[k]! * v[mat.colidx[k]!]!;
        w[j] = sum;
      }
    }
    await work(PER_NONZERO, nnz);
    for (let i = lay.l2npcols; i >= 1; i--) {
      const rs = lay.reduceRecvStarts[i]!;
      const req = comm.irecv(out.subarray(rs, rs + lay.reduceRecvLengths[i]!), lay.reduceExchProc[i]!, i);
      const ss = lay.reduceSendStarts[i]!;
      await comm.send(w.subarray(ss, ss + lay.reduceSendLengths[i]!), lay.reduceExchProc[i]!, i);
      await req.wait();
      if (real) for (let j = lay.sendStart; j < lay.sendStart + lay.reduceRecvLengths[i]!; j++) w[j]! += out[j]!;
    }
    if (lay.l2npcols !== 0) {
      const req = comm.irecv(out.subarray(1, 1 + lay.exchRecvLength), lay.exchProc, 1);
      await comm.send(w.subarray(lay.sendStart, lay.sendStart + lay.sendLen), lay.exchProc, 1);
      await req.wait();
    } else if (real) for (let j = 1; j <= lay.exchRecvLength; j++) out[j] = w[j]!;
    if (real) w.fill(0);
  };

  /** cg.f's conj_grad: 25 CG iterations on A z = x, then the residual norm ||x - A z||. */
  const conjGrad = async (): Promise<number> => {
    if (real) {
      q.fill(0);
      z.fill(0);
      w.fill(0);
      r.set(x);
      pv.set(x);
    }
    let rho = real ? dotLocal(r, r, cols) : 0;
    [rho] = (await rowSum([rho])) as [number];
    for (let cgit = 1; cgit <= CGIT; cgit++) {
      await matvec(pv, q);
      await work(DOT, cols);
      const [d] = (await rowSum([real ? dotLocal(pv, q, cols) : 0])) as [number];
      const alpha = rho / d;
      const rho0 = rho;
      if (real) for (let j = 1; j <= cols; j++) {
        z[j]! += alpha * pv[j]!;
        r[j]! -= alpha * q[j]!;
      }
      await work(UPDATE_ZR_DOT_RR, cols);
      [rho] = (await rowSum([real ? dotLocal(r, r, cols) : 0])) as [number];
      const beta = rho / rho0;
      if (real) for (let j = 1; j <= cols; j++) pv[j] = r[j]! + beta * pv[j]!;
      await work(UPDATE_P, cols);
    }
    await matvec(z, r);
    let sum = 0;
    if (real) for (let j = 1; j <= cols; j++) sum += (x[j]! - r[j]!) ** 2;
    await work({ flops: 3, bytes: 16 }, cols);
    const [d] = (await rowSum([sum])) as [number];
    return Math.sqrt(d);
  };

  if (real) x.fill(1);
  await comm.barrier();
  const start = ctx.now();
  let zeta = 0;
  let rnorm = 0;
  for (let it = 1; it <= niter; it++) {
    rnorm = await conjGrad();
    const [xz, zz] = (await rowSum(real ? [dotLocal(x, z, cols), dotLocal(z, z, cols)] : [0, 0])) as [number, number];
    await work({ flops: 4, bytes: 32 }, cols);
    const scale = 1 / Math.sqrt(zz);
    zeta = cls.shift + 1 / xz;
    if (real) for (let j = 1; j <= cols; j++) x[j] = scale * z[j]!;
  }
  const elapsed = ctx.now() - start;
  const verify = real && niter === cls.niter;
  const err = Math.abs(zeta - cls.zeta) / cls.zeta;
  if (verify && !(err <= EPSILON)) throw new Error(`npb-cg: verification failed: zeta ${zeta} differs from NPB's ${cls.zeta} by ${err.toExponential(3)} (tolerance ${EPSILON})`);
  if (me !== 0) return undefined;
  const mops = (2 * niter * cls.na * (3 + nz1 + CGIT * (5 + nz1) + 3)) / elapsed;
  return {
    rows: [
      {
        ranks: mpi.size,
        class: p.class as string,
        procGrid: `${lay.nprows}x${lay.npcols}`,
        iterations: niter,
        timeUs: round(elapsed),
        computeUs: round(compute),
        commUs: round(elapsed - compute),
        mops: round(mops),
        ...(real ? { zeta: round(zeta, 14), rnorm: round(rnorm, 6) } : {}),
        check: !real ? SKELETON_CHECK : verify ? 'passed' : `not checked (NPB verifies after ${cls.niter} iterations)`,
      },
    ],
  };
}

function dotLocal(a: Float64Array, b: Float64Array, n: number): number {
  let s = 0;
  for (let j = 1; j <= n; j++) s += a[j]! * b[j]!;
  return s;
}
