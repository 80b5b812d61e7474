import type { Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { boxPartition, grow, neighbours, nodeBox, volume, type Box, type Neighbour } from './minife-partition.ts';

type Work = { flops: number; bytes: number };
/**
 * Work of miniFE's CG kernels, as its driver counts flops (driver.hpp: 2 per nonzero of a
 * matvec, 2 per row of a dot, 3 per row of a waxpby); bytes as HPCG counts the same kernels
 * (8-byte values, 4-byte local column indices).
 */
const dot = (nrow: number): Work => ({ flops: 2 * nrow, bytes: 16 * nrow });
const waxpby = (nrow: number): Work => ({ flops: 3 * nrow, bytes: 24 * nrow });
const matvec = (nrow: number, nnz: number): Work => ({ flops: 2 * nnz, bytes: 12 * nnz + 16 * nrow });
/**
 * Work per element of the assembly (perform_element_loop: compute_element_matrix_and_vector and
 * sum_into_global_linear_system), counted from miniFE's Hex8 kernels as no figure is published: at
 * each of 8 Gauss points the Jacobian from 8 nodes' gradients (144 flops), its determinant and
 * inverse (about 40), the gradients transformed (144) and the symmetric 8x8 diffusion matrix's 36
 * entries updated (216), plus the source vector (128); the 64 matrix and 8 vector entries summed
 * into the rows, each a read and a write of a value and a search of the row's column indices.
 */
const ASSEMBLY: Work = { flops: 8 * (144 + 40 + 144 + 216) + 128, bytes: 72 * 36 };
/** MPI tags of exchange_externals and make_local_matrix (MPI_MY_TAG 99, then 100, 101). */
const TAG = 99;

/**
 * miniFE (Mantevo, the reference version 2.x; Heroux et al., "Improving Performance via
 * Mini-applications", SAND2009-5574): an implicit finite-element mini-app. A box of nx x ny x nz
 * hexahedral elements on the unit cube is split over the ranks by recursive coordinate bisection
 * (box_partition); each rank owns the nodes at its elements' low corners (and the last layer at
 * the box's far faces) and assembles their rows of the 27-point stiffness matrix of trilinear
 * elements (Laplace's equation) from its elements and a ghost layer of elements around them, with
 * no communication, as assemble_FE_data does. Dirichlet conditions: 1 on the face x = 1, 0 on the
 * other faces. make_local_matrix then finds, for the matrix's columns of other ranks' nodes, who
 * owns them (an allreduce of every rank's first row), tells each owner how many and which values it
 * wants (an allreduce of the neighbour counts, a one-integer message to each neighbour received
 * from any source, the lengths, then the global indices): irregular neighbour lists and sizes from
 * the partition. cg_solve: unpreconditioned CG, per iteration one exchange_externals (irecv from
 * every neighbour, then a blocking send of the shared nodes' values to each), one matvec, two dot
 * products each an allreduce of one double (MPI_SUM) and three waxpby's, until the residual norm
 * falls below the tolerance (machine epsilon, as miniFE) or after `iterations` (miniFE's
 * max_iters, 200). The arithmetic is real: the solution is checked as verify_solution does,
 * against the analytic solution of the problem (Carslaw and Jaeger's series), the largest
 * absolute error over all nodes at most 0.06 (miniFE's tolerance). A skeleton run builds no
 * matrix: its neighbours, message sizes and nonzeros come from the boxes. The figure of merit is
 * miniFE's "Total CG Mflops" with its own flop count (driver.hpp: num_iters + 1 matvecs,
 * 2 num_iters dots and 3 num_iters + 2 waxpby's, the dots and waxpby's counted on nx ny nz rows).
 */
export const minife: App = {
  name: 'minife',
  summary: 'miniFE: CG on the 27-point matrix of a hex-element box split by recursive bisection; irregular neighbour exchange per matvec, 2 dot-product allreduces per iteration; Total CG Mflops, solution checked against the analytic one',
  merit: { key: 'mflops', higherIsBetter: true, label: 'CG Mflops' },
  minRanks: 1,
  params: {
    nx: { type: 'int', default: 40, min: 1, max: 4096, help: 'elements along x of the whole box (miniFE -nx)' },
    ny: { type: 'int', default: 40, min: 1, max: 4096, help: 'elements along y (miniFE -ny)' },
    nz: { type: 'int', default: 40, min: 1, max: 4096, help: 'elements along z (miniFE -nz)' },
    iterations: { type: 'int', default: 200, min: 1, help: "most CG iterations (miniFE's max_iters, 200)" },
  },
  main: runMinife,
};

/** Local CSR matrix of a rank's rows, columns local (owned rows first, then the externals by neighbour). */
interface Matrix {
  readonly rowStart: Int32Array;
  readonly cols: Int32Array;
  readonly coefs: Float64Array;
}

async function runMinife(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const world = mpi.COMM_WORLD;
  const size = mpi.size;
  const me = mpi.rank;
  const real = !ctx.skeleton;
  const global: [number, number, number] = [p.nx as number, p.ny as number, p.nz as number];
  const maxIters = p.iterations as number;
  const elems = boxPartition(size, global);
  const empty = elems.findIndex((b) => volume(b) === 0);
  if (empty >= 0) throw new RangeError(`minife: a box of ${global.join('x')} elements leaves rank ${empty} of ${size} no elements; use a larger box (nx, ny, nz) or fewer ranks`);
  const nodes = elems.map((b) => nodeBox(b, global));
  const mine = nodes[me]!;
  const nrow = volume(mine);
  let firstRow = 0;
  for (let q = 0; q < me; q++) firstRow += volume(nodes[q]!);
  const nbrs = size > 1 ? neighbours(me, nodes, global) : [];
  const nExt = nbrs.reduce((s, n) => s + n.recv, 0);
  const nSend = nbrs.reduce((s, n) => s + n.send, 0);
  // nonzeros of the local rows: per axis 3 neighbours, 2 at the global box's faces
  let nnz = 1;
  for (let d = 0; d < 3; d++) nnz *= 3 * (mine.hi[d]! - mine.lo[d]!) - (mine.lo[d] === 0 ? 1 : 0) - (mine.hi[d] === global[d]! + 1 ? 1 : 0);

  let compute = 0;
  const work = async (w: Work, k = 1): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops: w.flops * k, bytes: w.bytes * k });
    compute += ctx.now() - t;
  };

  // setup: generate_matrix_structure and assemble_FE_data (no communication), impose_dirichlet
  const t0 = ctx.now();
  const A = real ? assemble(elems[me]!, nodes[me]!, nodes, nbrs, global) : null;
  const b = ctx.alloc(Float64Array, nrow);
  if (A) dirichlet(A.matrix, b, mine, global);
  await work(ASSEMBLY, volume(grow(elems[me]!, 1, global)));
  // make_local_matrix's communication
  const sendIdx = await makeLocalMatrix(ctx, nbrs, firstRow, nrow, A?.externalIds ?? null);
  // compute_matrix_stats: the global row and nonzero counts
  const stats = new Float64Array(2);
  await world.allreduce(Float64Array.of(nrow, nnz), stats, mpi.SUM);
  const setupUs = ctx.now() - t0;

  const ncols = nrow + nExt;
  const x = ctx.alloc(Float64Array, nrow);
  const r = ctx.alloc(Float64Array, nrow);
  const ap = ctx.alloc(Float64Array, nrow);
  const pv = ctx.alloc(Float64Array, ncols);
  const sendBuf = ctx.alloc(Float64Array, nSend);
  const sum = new Float64Array(1);

  /** exchange_externals: irecv each neighbour's values into the externals, then a blocking send to each. */
  const exchange = async (v: Float64Array): Promise<void> => {
    if (size < 2) return;
    const reqs: Request[] = [];
    let off = nrow;
    for (const n of nbrs) {
      reqs.push(world.irecv(v.subarray(off, off + n.recv), n.rank, TAG));
      off += n.recv;
    }
    if (real) for (let i = 0; i < nSend; i++) sendBuf[i] = v[sendIdx![i]!]!;
    let s = 0;
    for (const n of nbrs) {
      await world.send(sendBuf.subarray(s, s + n.send), n.rank, TAG);
      s += n.send;
    }
    await world.waitAll(reqs);
  };
  const spmv = async (v: Float64Array, out: Float64Array): Promise<void> => {
    await exchange(v);
    if (A) {
      const { rowStart, cols, coefs } = A.matrix;
      for (let i = 0; i < nrow; i++) {
        let s = 0;
        for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) s += coefs[k]! * v[cols[k]!]!;
        out[i] = s;
      }
    }
    await work(matvec(nrow, nnz));
  };
  const dotAll = async (u: Float64Array, v: Float64Array): Promise<number> => {
    let s = 0;
    if (real) for (let i = 0; i < nrow; i++) s += u[i]! * v[i]!;
    await work(dot(nrow));
    await world.allreduce(Float64Array.of(s), sum, mpi.SUM);
    return sum[0]!;
  };
  const axpby = async (alpha: number, u: Float64Array, beta: number, v: Float64Array, out: Float64Array): Promise<void> => {
    if (real) for (let i = 0; i < nrow; i++) out[i] = alpha * u[i]! + beta * v[i]!;
    await work(waxpby(nrow));
  };

  // cg_solve
  compute = 0;
  const start = ctx.now();
  await axpby(1, x, 0, x, pv);
  await spmv(pv, ap);
  await axpby(1, b, -1, ap, r);
  let rtrans = await dotAll(r, r);
  const rtrans0 = rtrans;
  let normr = Math.sqrt(rtrans);
  const tolerance = Number.EPSILON;
  let iters = 0;
  for (let k = 1; k <= maxIters && (!real || normr > tolerance); k++) {
    if (k === 1) await axpby(1, r, 0, r, pv);
    else {
      const old = rtrans;
      rtrans = await dotAll(r, r);
      await axpby(1, r, rtrans / old, pv, pv);
    }
    normr = Math.sqrt(rtrans);
    await spmv(pv, ap);
    const pAp = await dotAll(ap, pv);
    if (real && !(pAp > 0)) throw new Error(`minife: CG broke down at iteration ${k} (p.Ap = ${pAp})`);
    const alpha = rtrans / pAp;
    await axpby(1, x, alpha, pv, x);
    await axpby(1, r, -alpha, ap, r);
    iters = k;
  }
  const elapsed = ctx.now() - start;
  const computeUs = compute;
  const normr0 = Math.sqrt(rtrans0);

  // after the timed solve: the true residual b - A x, which the recurrence's r must equal (a
  // value lost or misplaced by an exchange during the solve parts them)
  await axpby(1, x, 0, x, pv);
  await spmv(pv, ap);
  let drift = 0;
  if (real) for (let i = 0; i < nrow; i++) drift += (b[i]! - ap[i]! - r[i]!) ** 2;

  // verify_solution: the largest absolute error against the analytic solution at the nodes
  // within 0.05 of the centre along each axis (miniFE's release build; the whole domain in its
  // debug build, where the nodes next to the edges of the x = 1 face, at which the boundary value
  // jumps from 1 to 0, keep an error of about 0.11 however fine the mesh)
  let err = 0;
  if (real) {
    let i = 0;
    for (let z = mine.lo[2]; z < mine.hi[2]; z++) for (let y = mine.lo[1]; y < mine.hi[1]; y++) for (let xi = mine.lo[0]; xi < mine.hi[0]; xi++, i++) {
      if (nearCentre(xi, global[0]) && nearCentre(y, global[1]) && nearCentre(z, global[2])) err = Math.max(err, Math.abs(x[i]! - exact(xi, y, z, global)));
    }
  }
  const maxErr = new Float64Array(2);
  await world.allreduce(Float64Array.of(err, drift), maxErr, mpi.MAX);
  const driftNorm = Math.sqrt(maxErr[1]!);
  if (real && !(driftNorm <= 1e-10 * normr0)) {
    throw new Error(`minife: check failed: the recurrence's residual differs from b - A x by ${driftNorm.toExponential(3)} (initial residual ${normr0.toExponential(3)}): a value went astray in an exchange`);
  }
  // verified once CG has converged (a run cut short by `iterations` is checked by its residual only)
  const converged = normr <= CONVERGED * normr0;
  if (real && converged && !(maxErr[0]! <= VERIFY_TOLERANCE)) {
    throw new Error(`minife: check failed: the largest error against the analytic solution is ${maxErr[0]!.toExponential(3)}, more than miniFE's tolerance ${VERIFY_TOLERANCE} (residual ${normr.toExponential(3)} after ${iters} iterations)`);
  }
  if (me !== 0) return undefined;
  // driver.hpp's count: matvecs on the global nonzeros, dots and waxpby's on nx ny nz rows
  const elemRows = global[0] * global[1] * global[2];
  const flops = 2 * stats[1]! * (iters + 1) + 2 * elemRows * 2 * iters + 3 * elemRows * (3 * iters + 2);
  return {
    rows: [
      {
        ranks: size,
        box: global.join('x'),
        rows: stats[0]!,
        nonzeros: stats[1]!,
        neighbours: nbrs.length,
        iterations: iters,
        residual: real ? Number(normr.toPrecision(4)) : 0,
        converged: real && converged,
        error: real ? Number(maxErr[0]!.toPrecision(4)) : 0,
        checkedNodes: centreNodes(global),
        setupUs: round(setupUs),
        timeUs: round(elapsed),
        timePerIterationUs: round(elapsed / Math.max(1, iters)),
        computeUs: round(computeUs),
        commUs: round(elapsed - computeUs),
        mflops: round(flops / elapsed),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** verify_solution's tolerance on the largest absolute error (miniFE 2.x driver.hpp: 0.06). */
const VERIFY_TOLERANCE = 0.06;

/** The residual's fall below which CG counts as converged and the solution is verified. */
const CONVERGED = 1e-8;

/** Whether node i of an axis of n elements lies within 0.05 of the centre (verify_solution's test). */
function nearCentre(i: number, n: number): boolean {
  return Math.abs(i / n - 0.5) < 0.05;
}

/** The nodes verify_solution checks: those within 0.05 of the centre along every axis. */
export function centreNodes(g: readonly number[]): number {
  let count = 1;
  for (const n of g) {
    let k = 0;
    for (let i = 0; i <= n; i++) if (nearCentre(i, n)) k++;
    count *= k;
  }
  return count;
}

/**
 * make_local_matrix's communication: the first rows of all ranks (an allreduce), the neighbour
 * counts (an allreduce of numprocs integers, each rank adding numprocs per value it wants from a
 * rank and 1 per rank it wants any from), a one-integer message to each neighbour received from
 * any source, the lengths, then the global indices of the wanted values, which their owner turns
 * into its local rows (checked to be its own). Returns the local indices to send, in order.
 */
async function makeLocalMatrix(ctx: RankContext, nbrs: readonly Neighbour[], firstRow: number, nrow: number, externalIds: Int32Array | null): Promise<Int32Array | null> {
  const { mpi } = ctx;
  const world = mpi.COMM_WORLD;
  const size = mpi.size;
  const real = !ctx.skeleton;
  if (size < 2) return new Int32Array(0);
  const tmp = new Int32Array(size);
  const offsets = new Int32Array(size);
  tmp[mpi.rank] = firstRow;
  await world.allreduce(tmp, offsets, mpi.SUM);
  if (real && offsets[mpi.rank] !== firstRow) throw new Error(`minife: rank ${mpi.rank}'s first row came back as ${offsets[mpi.rank]}, not ${firstRow}`);
  tmp.fill(0);
  for (const n of nbrs) tmp[n.rank] = 1 + size * n.recv;
  const counts = new Int32Array(size);
  await world.allreduce(tmp, counts, mpi.SUM);
  const sendNeighbours = real ? counts[mpi.rank]! % size : nbrs.length;
  const totalSend = real ? (counts[mpi.rank]! - sendNeighbours) / size : nbrs.reduce((s, n) => s + n.send, 0);
  if (real && (sendNeighbours !== nbrs.length || totalSend !== nbrs.reduce((s, n) => s + n.send, 0))) {
    throw new Error(`minife: rank ${mpi.rank} must send ${totalSend} values to ${sendNeighbours} ranks, the partition says ${nbrs.reduce((s, n) => s + n.send, 0)} to ${nbrs.length}`);
  }
  // a one-integer message to each rank we want values from, received from any source
  const one = new Int32Array(Math.max(1, sendNeighbours));
  const reqs: Request[] = [];
  for (let i = 0; i < sendNeighbours; i++) reqs.push(world.irecv(one.subarray(i, i + 1), mpi.ANY_SOURCE, TAG));
  for (const n of nbrs) await world.send(Int32Array.of(0), n.rank, TAG);
  const from = (await world.waitAll(reqs)).map((s) => s.source).sort((a, b) => a - b);
  const expected = nbrs.map((n) => n.rank).sort((a, b) => a - b);
  if (from.join() !== expected.join()) throw new Error(`minife: rank ${mpi.rank} heard from ranks ${from.join(', ')}, its neighbours are ${expected.join(', ')}`);
  // the lengths, then the global indices
  const lengths = new Int32Array(nbrs.length);
  reqs.length = 0;
  nbrs.forEach((n, i) => reqs.push(world.irecv(lengths.subarray(i, i + 1), n.rank, TAG + 1)));
  for (const n of nbrs) await world.send(Int32Array.of(n.recv), n.rank, TAG + 1);
  await world.waitAll(reqs);
  if (real) nbrs.forEach((n, i) => {
    if (lengths[i] !== n.send) throw new Error(`minife: rank ${n.rank} wants ${lengths[i]} values from rank ${mpi.rank}, the partition says ${n.send}`);
  });
  const toSend = ctx.alloc(Int32Array, totalSend);
  const ids = externalIds ?? ctx.alloc(Int32Array, nbrs.reduce((s, n) => s + n.recv, 0));
  reqs.length = 0;
  let off = 0;
  for (const n of nbrs) {
    reqs.push(world.irecv(toSend.subarray(off, off + n.send), n.rank, TAG + 2));
    off += n.send;
  }
  off = 0;
  for (const n of nbrs) {
    await world.send(ids.subarray(off, off + n.recv), n.rank, TAG + 2);
    off += n.recv;
  }
  await world.waitAll(reqs);
  if (!real) return null;
  for (let i = 0; i < totalSend; i++) {
    const local = toSend[i]! - firstRow;
    if (local < 0 || local >= nrow) throw new Error(`minife: rank ${mpi.rank} was asked for row ${toSend[i]}, outside its rows ${firstRow}..${firstRow + nrow - 1}`);
    toSend[i] = local;
  }
  return toSend;
}

/** The 8x8 stiffness matrix of a trilinear brick of sides h (exact: 2x2x2 Gauss points integrate it exactly). */
function brickStiffness(h: readonly number[]): Float64Array {
  const S = [[1, -1], [-1, 1]];
  const M = [[1 / 3, 1 / 6], [1 / 6, 1 / 3]];
  const k = new Float64Array(64);
  for (let a = 0; a < 8; a++) for (let c = 0; c < 8; c++) {
    const [ax, ay, az, cx, cy, cz] = [a & 1, (a >> 1) & 1, a >> 2, c & 1, (c >> 1) & 1, c >> 2];
    k[a * 8 + c] = ((h[1]! * h[2]!) / h[0]!) * S[ax]![cx]! * M[ay]![cy]! * M[az]![cz]!
      + ((h[0]! * h[2]!) / h[1]!) * M[ax]![cx]! * S[ay]![cy]! * M[az]![cz]!
      + ((h[0]! * h[1]!) / h[2]!) * M[ax]![cx]! * M[ay]![cy]! * S[az]![cz]!;
  }
  return k;
}

/**
 * generate_matrix_structure and assemble_FE_data for one rank: rows of its nodes (x fastest),
 * columns in the stencil's order, externals numbered after the owned rows grouped by owner in the
 * order of `nbrs` (each owner's in order of first appearance); every element of the rank's box and
 * a ghost layer around it adds its stiffness into the rows the rank owns. Returns the matrix and
 * the global row index of every external (what make_local_matrix sends to the owners).
 */
function assemble(elemBox: Box, mine: Box, nodes: readonly Box[], nbrs: readonly Neighbour[], global: readonly [number, number, number]): { matrix: Matrix; externalIds: Int32Array } {
  const L = [global[0] + 1, global[1] + 1, global[2] + 1];
  const n = [mine.hi[0] - mine.lo[0], mine.hi[1] - mine.lo[1], mine.hi[2] - mine.lo[2]];
  const nrow = n[0]! * n[1]! * n[2]!;
  const owners = nbrs.map((nb) => nb.rank);
  const firstRows = new Map<number, number>();
  let acc = 0;
  for (let q = 0; q < nodes.length; q++) {
    firstRows.set(q, acc);
    acc += volume(nodes[q]!);
  }
  const inBox = (bx: Box, c: readonly number[]): boolean => c[0]! >= bx.lo[0] && c[0]! < bx.hi[0] && c[1]! >= bx.lo[1] && c[1]! < bx.hi[1] && c[2]! >= bx.lo[2] && c[2]! < bx.hi[2];
  const globalRow = (q: number, c: readonly number[]): number => {
    const bx = nodes[q]!;
    const w = [bx.hi[0] - bx.lo[0], bx.hi[1] - bx.lo[1]];
    return firstRows.get(q)! + ((c[2]! - bx.lo[2]) * w[1]! + (c[1]! - bx.lo[1])) * w[0]! + (c[0]! - bx.lo[0]);
  };
  // the structure: 27 slots per row, -1 off the global box; externals keyed by global row
  const rowStart = new Int32Array(nrow + 1);
  const slot = new Int32Array(nrow * 27).fill(-1);
  const colsTmp: number[] = [];
  const extOf = new Map<number, number>();
  const extOwner: number[] = [];
  const extId: number[] = [];
  let i = 0;
  for (let z = mine.lo[2]; z < mine.hi[2]; z++) for (let y = mine.lo[1]; y < mine.hi[1]; y++) for (let x = mine.lo[0]; x < mine.hi[0]; x++, i++) {
    rowStart[i] = colsTmp.length;
    for (let s = 0; s < 27; s++) {
      const c = [x + (s % 3) - 1, y + (Math.floor(s / 3) % 3) - 1, z + Math.floor(s / 9) - 1];
      if (c.some((v, d) => v < 0 || v >= L[d]!)) continue;
      slot[i * 27 + s] = colsTmp.length;
      if (inBox(mine, c)) {
        colsTmp.push(((c[2]! - mine.lo[2]) * n[1]! + (c[1]! - mine.lo[1])) * n[0]! + (c[0]! - mine.lo[0]));
        continue;
      }
      const q = owners.find((o) => inBox(nodes[o]!, c));
      if (q === undefined) throw new Error(`minife: node (${c.join(', ')}) of rank's rows has no owner among its neighbours`);
      const g = globalRow(q, c);
      let e = extOf.get(g);
      if (e === undefined) {
        e = extId.length;
        extOf.set(g, e);
        extId.push(g);
        extOwner.push(q);
      }
      colsTmp.push(-1 - e);
    }
  }
  rowStart[nrow] = colsTmp.length;
  // externals grouped by owner in the order of `nbrs`, each owner's in order of first appearance
  const local = new Int32Array(extId.length);
  const externalIds = new Int32Array(extId.length);
  let next = 0;
  for (const q of owners) for (let e = 0; e < extId.length; e++) if (extOwner[e] === q) {
    local[e] = nrow + next;
    externalIds[next++] = extId[e]!;
  }
  const cols = Int32Array.from(colsTmp, (c) => (c >= 0 ? c : local[-1 - c]!));
  const coefs = new Float64Array(cols.length);
  // assembly over the rank's elements and a ghost layer of elements
  const k = brickStiffness([1 / global[0], 1 / global[1], 1 / global[2]]);
  const eb = grow(elemBox, 1, global);
  for (let ez = eb.lo[2]; ez < eb.hi[2]; ez++) for (let ey = eb.lo[1]; ey < eb.hi[1]; ey++) for (let ex = eb.lo[0]; ex < eb.hi[0]; ex++) {
    for (let a = 0; a < 8; a++) {
      const c = [ex + (a & 1), ey + ((a >> 1) & 1), ez + (a >> 2)];
      if (!inBox(mine, c)) continue;
      const row = ((c[2]! - mine.lo[2]) * n[1]! + (c[1]! - mine.lo[1])) * n[0]! + (c[0]! - mine.lo[0]);
      for (let cc = 0; cc < 8; cc++) {
        const s = ((cc >> 2) - (a >> 2) + 1) * 9 + (((cc >> 1) & 1) - ((a >> 1) & 1) + 1) * 3 + ((cc & 1) - (a & 1) + 1);
        coefs[slot[row * 27 + s]!]! += k[a * 8 + cc]!;
      }
    }
  }
  return { matrix: { rowStart, cols, coefs }, externalIds };
}

/** The Dirichlet value of node (x, y, z), or NaN inside: 1 on the face x = 1, else 0 on the faces. */
function boundaryValue(x: number, y: number, z: number, g: readonly number[]): number {
  if (x === g[0]) return 1;
  if (x === 0 || y === 0 || z === 0 || y === g[1] || z === g[2]) return 0;
  return NaN;
}

/**
 * impose_dirichlet, the 0-valued faces first, then x = 1: a boundary row becomes the identity with
 * its value on the right-hand side; an inner row's boundary columns are zeroed, moving their value
 * times the coefficient to the right-hand side. As in miniFE, a node on an edge of the x = 1 face
 * is also on a 0-valued face, so its column is zeroed in the first pass and adds nothing.
 */
function dirichlet(A: Matrix, b: Float64Array, mine: Box, g: readonly number[]): void {
  const L = [g[0]! + 1, g[1]! + 1, g[2]! + 1];
  let i = 0;
  for (let z = mine.lo[2]; z < mine.hi[2]; z++) for (let y = mine.lo[1]; y < mine.hi[1]; y++) for (let x = mine.lo[0]; x < mine.hi[0]; x++, i++) {
    const v = boundaryValue(x, y, z, g);
    let k = A.rowStart[i]!;
    for (let s = 0; s < 27; s++) {
      const c = [x + (s % 3) - 1, y + (Math.floor(s / 3) % 3) - 1, z + Math.floor(s / 9) - 1];
      if (c.some((w, d) => w < 0 || w >= L[d]!)) continue;
      if (!Number.isNaN(v)) A.coefs[k] = s === 13 ? 1 : 0;
      else {
        const cv = boundaryValue(c[0]!, c[1]!, c[2]!, g);
        if (!Number.isNaN(cv)) {
          const onZeroFace = c[0] === 0 || c[1] === 0 || c[2] === 0 || c[1] === g[1] || c[2] === g[2];
          if (!onZeroFace) b[i]! -= A.coefs[k]! * cv;
          A.coefs[k] = 0;
        }
      }
      k++;
    }
    if (!Number.isNaN(v)) b[i] = v;
  }
}

/**
 * The analytic solution at node (x, y, z) (analytic_soln.hpp: Carslaw and Jaeger, "Conduction of
 * Heat in Solids", section 6.2, equations 9 and 10; the boundary values as verify_solution sets
 * them). miniFE sums 300 x 300 terms; the terms fall as exp(-l (1 - x)), so the sum stops once they
 * are below 1e-18 (the same value to double precision).
 */
function exact(ix: number, iy: number, iz: number, g: readonly number[]): number {
  const x = ix / g[0]!;
  const y = iy / g[1]!;
  const z = iz / g[2]!;
  if (ix === g[0]) return 1;
  if (ix === 0 || iy === 0 || iz === 0 || iy === g[1] || iz === g[2]) return 0;
  let sum = 0;
  for (let pp = 0; pp <= 300; pp++) {
    const sy = Math.sin((2 * pp + 1) * Math.PI * y) / (2 * pp + 1);
    let any = false;
    for (let q = 0; q <= 300; q++) {
      const l = Math.PI * Math.sqrt((2 * pp + 1) ** 2 + (2 * q + 1) ** 2);
      const decay = Math.exp(l * (x - 1));
      if (decay < 1e-18) break;
      any = true;
      const ratio = (decay * (1 - Math.exp(-2 * l * x))) / (1 - Math.exp(-2 * l));
      sum += ratio * sy * (Math.sin((2 * q + 1) * Math.PI * z) / (2 * q + 1));
    }
    if (!any) break;
  }
  return (16 / (Math.PI * Math.PI)) * sum;
}
