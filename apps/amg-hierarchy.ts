/**
 * The levels of the amg app's hierarchy: a distributed sparse matrix per level with its halo
 * (communication package), the aggregation that coarsens it, and the Galerkin product that makes
 * the next level, as hypre's BoomerAMG lays them out (rows of a level split in contiguous ranges
 * over the ranks, columns of other ranks' rows kept as a sorted list of externals). The
 * structure (row and column indices) is real in every run, so a skeleton run sends the messages
 * a real run sends; the values live in `ctx.alloc` buffers and are worked out only in real runs.
 */
import { Prng } from '../fabric/engine/prng.ts';
import type { Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { dataExchangeList } from './amg-exchange.ts';

/** Rows of one level as a rank builds them: global column indices, values. */
export interface Rows {
  readonly nrow: number;
  readonly firstRow: number;
  readonly rowStart: Int32Array;
  readonly gcols: Int32Array;
  readonly coefs: Float64Array;
}

/** One level of the hierarchy on one rank. */
export interface Level {
  readonly nrow: number;
  /** Owned columns (the rows' own index space: nrow; a prolongator's: the coarse rows this rank holds). */
  readonly ncol: number;
  readonly firstRow: number;
  readonly globalRows: number;
  /**
   * Ranks holding rows of this level. (The level's first row of every rank, size + 1 entries, is
   * not kept: every rank would hold a copy per level, size^2 entries over the run, 1 GB at 4,096
   * ranks; the app keeps the coarsest level's.)
   */
  readonly holders: number;
  readonly rowStart: Int32Array;
  /** Local columns: below ncol an owned one, else ncol + the index in `ext`. */
  readonly cols: Int32Array;
  readonly coefs: Float64Array;
  /** Global rows of other ranks this rank's rows reach, ascending (hypre's col_map_offd). */
  readonly ext: Int32Array;
  /** Per owner of externals: the slice of `ext` it sends. */
  readonly recv: readonly { readonly rank: number; readonly offset: number; readonly count: number }[];
  /** Per rank that reaches this rank's rows: the local rows it gets. */
  readonly send: readonly { readonly rank: number; readonly idx: Int32Array }[];
  readonly sendBuf: Float64Array;
  /** Nonzeros of the local rows. */
  readonly nnz: number;
}

/** The rank owning global row g: the last rank whose first row is at most g. */
export function ownerOf(offsets: Int32Array, g: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= g) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Turns a rank's rows into a level: externals sorted and grouped by owner, and the communication
 * package set up by asking each owner for its rows, as hypre_ParCSRCommPkgCreateApart's second
 * exchange: a contact to each owner the rows reach with the global rows wanted, found and
 * answered by `dataExchangeList` (tags `tag` .. `tag + 2`), so that a rank exchanges messages
 * with its neighbours only. The owner checks each wanted row is its own.
 */
export async function makeLevel(ctx: RankContext, rows: Rows, offsets: Int32Array, tag: number, columns?: { first: number; count: number }): Promise<Level> {
  const { mpi } = ctx;
  const size = mpi.size;
  const { nrow, rowStart, gcols } = rows;
  const firstRow = columns ? columns.first : rows.firstRow;
  const ncol = columns ? columns.count : nrow;
  const outside = new Set<number>();
  for (let k = 0; k < gcols.length; k++) {
    const g = gcols[k]!;
    if (g < firstRow || g >= firstRow + ncol) outside.add(g);
  }
  const ext = Int32Array.from(outside).sort();
  const extIndex = new Map<number, number>();
  ext.forEach((g, i) => extIndex.set(g, i));
  const cols = new Int32Array(gcols.length);
  for (let k = 0; k < gcols.length; k++) {
    const g = gcols[k]!;
    cols[k] = g >= firstRow && g < firstRow + ncol ? g - firstRow : ncol + extIndex.get(g)!;
  }
  const recv: { rank: number; offset: number; count: number }[] = [];
  for (let i = 0; i < ext.length; i++) {
    const q = ownerOf(offsets, ext[i]!);
    if (recv.length === 0 || recv[recv.length - 1]!.rank !== q) recv.push({ rank: q, offset: i, count: 0 });
    recv[recv.length - 1]!.count++;
  }
  const asked = await dataExchangeList(ctx, recv.map((r) => ({ rank: r.rank, data: ext.subarray(r.offset, r.offset + r.count) })), ncol, tag);
  const send: { rank: number; idx: Int32Array }[] = [];
  for (const { rank: q, data: idx } of asked) {
    for (let i = 0; i < idx.length; i++) {
      const local = idx[i]! - firstRow;
      if (local < 0 || local >= ncol) throw new Error(`amg: rank ${mpi.rank} was asked by rank ${q} for row ${idx[i]}, outside its rows ${firstRow}..${firstRow + ncol - 1}`);
      idx[i] = local;
    }
    send.push({ rank: q, idx });
  }
  const total = send.reduce((s, x) => s + x.idx.length, 0);
  let holders = 0;
  for (let r = 0; r < size; r++) if (offsets[r + 1]! > offsets[r]!) holders++;
  return {
    nrow, ncol, firstRow: rows.firstRow, globalRows: offsets[size]!, holders, rowStart, cols, coefs: rows.coefs, ext, recv, send,
    sendBuf: ctx.alloc(Float64Array, total), nnz: gcols.length,
  };
}

/** Exclusive prefix sums with the total last (size + 1 entries). */
export function displacements(counts: ArrayLike<number>): Int32Array {
  const d = new Int32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) d[i + 1] = d[i]! + counts[i]!;
  return d;
}

/** The halo exchange of a level (hypre's ParCSRCommHandle): irecv the externals of `v` (nrow + ext entries) from their owners, isend the rows each neighbour reaches. */
export async function halo(ctx: RankContext, lv: Level, v: Float64Array, tag: number): Promise<void> {
  const world = ctx.mpi.COMM_WORLD;
  const reqs: Request[] = [];
  for (const r of lv.recv) reqs.push(world.irecv(v.subarray(lv.ncol + r.offset, lv.ncol + r.offset + r.count), r.rank, tag));
  let off = 0;
  for (const s of lv.send) {
    const buf = lv.sendBuf.subarray(off, off + s.idx.length);
    if (!ctx.skeleton) for (let i = 0; i < s.idx.length; i++) buf[i] = v[s.idx[i]!]!;
    reqs.push(world.isend(buf, s.rank, tag));
    off += s.idx.length;
  }
  await world.waitAll(reqs);
}

/**
 * The halo exchange run backwards (for P^T): each external entry of `v` goes to its owner, which
 * adds what it receives into the rows it sent in the forward exchange.
 */
export async function haloAdd(ctx: RankContext, lv: Level, v: Float64Array, tag: number): Promise<void> {
  const world = ctx.mpi.COMM_WORLD;
  const reqs: Request[] = [];
  let off = 0;
  for (const s of lv.send) {
    reqs.push(world.irecv(lv.sendBuf.subarray(off, off + s.idx.length), s.rank, tag));
    off += s.idx.length;
  }
  for (const r of lv.recv) reqs.push(world.isend(v.subarray(lv.ncol + r.offset, lv.ncol + r.offset + r.count), r.rank, tag));
  await world.waitAll(reqs);
  if (ctx.skeleton) return;
  off = 0;
  for (const s of lv.send) for (let i = 0; i < s.idx.length; i++) v[s.idx[i]!]! += lv.sendBuf[off++]!;
}

/**
 * Aggregation of a rank's own rows, in an order drawn from the run's seed (a stand-in for
 * BoomerAMG's PMIS coarsening, whose measure ties are broken by random numbers): a row none of
 * whose local neighbours is taken starts an aggregate with them; then each row left joins the
 * aggregate of its first taken local neighbour, or stays alone. Returns each row's aggregate.
 */
export function aggregate(lv: Level, seed: number): { agg: Int32Array; count: number } {
  const { nrow, rowStart, cols } = lv;
  const order = new Int32Array(nrow);
  for (let i = 0; i < nrow; i++) order[i] = i;
  const rng = new Prng(seed);
  for (let i = nrow - 1; i > 0; i--) {
    const j = rng.nextU32() % (i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  const agg = new Int32Array(nrow).fill(-1);
  let count = 0;
  for (const i of order) {
    if (agg[i]! >= 0) continue;
    let free = true;
    for (let k = rowStart[i]!; k < rowStart[i + 1]! && free; k++) if (cols[k]! < nrow && agg[cols[k]!]! >= 0) free = false;
    if (!free) continue;
    agg[i] = count;
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (cols[k]! < nrow) agg[cols[k]!] = count;
    count++;
  }
  for (const i of order) {
    if (agg[i]! >= 0) continue;
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const c = cols[k]!;
      if (c < nrow && c !== i && agg[c]! >= 0) {
        agg[i] = agg[c]!;
        break;
      }
    }
    if (agg[i]! < 0) agg[i] = count++;
  }
  return { agg, count };
}

/** Damping of the smoothed prolongator, P = (I - omega D^-1 A) P0 (4/3 over the bound 2 on the spectral radius of D^-1 A of the Laplacian). */
const OMEGA = 2 / 3;

/** A sparse row: column to value. */
type SparseRow = Map<number, number>;

/** Adds v to row[k]. */
function add(row: SparseRow, k: number, v: number): void {
  row.set(k, (row.get(k) ?? 0) + v);
}

/** Alltoallv with counts of `size` entries (the displacements worked out), returning the received buffer and its per-rank counts. */
async function exchange<T extends Int32Array | Float64Array>(ctx: RankContext, send: T, sendCounts: Int32Array, recv: T, recvCounts: Int32Array): Promise<T> {
  const size = ctx.mpi.size;
  const sd = displacements(sendCounts);
  const rd = displacements(recvCounts);
  await ctx.mpi.COMM_WORLD.alltoallv(send, sendCounts, sd.subarray(0, size), recv, recvCounts, rd.subarray(0, size));
  return recv;
}

/**
 * The Galerkin product A_c = P^T A P with a smoothed-aggregation prolongator P = (I - omega D^-1 A)
 * P0 (P0 one 1 per row, in its aggregate's column), and the next level's rows. Its communication,
 * as hypre's RAP: the coarse index of every external column from its owner, then the rows of P
 * of the externals (their lengths, columns and values: hypre's ExchangeRAPData), each an alltoallv
 * of irregular counts over the level's communication package; each rank forms (A P) for its rows
 * and their contributions P^T (A P) to coarse rows, which belong to the aggregates' owners, its
 * own and its neighbours': these go to their owners (an alltoall of counts, alltoallvs of row,
 * column and value), who sum them. On the next level the rank `me - me % stride` owns the coarse
 * rows of ranks me .. me + stride - 1 (ranks drop out as `stride` grows). Returns the next level's
 * rows, its offsets, and the multiply-adds of the products (for the compute charge).
 */
export async function galerkin(ctx: RankContext, lv: Level, agg: Int32Array, coarseOffsets: Int32Array, stride: number, tag: number): Promise<{ rows: Rows; offsets: Int32Array; ops: number; prolongator: Level }> {
  const { mpi } = ctx;
  const size = mpi.size;
  const me = mpi.rank;
  const real = !ctx.skeleton;
  const base = coarseOffsets[me]!;
  const { nrow, rowStart, cols, coefs } = lv;
  const nExt = lv.ext.length;
  // coarse indices of the externals, from their owners
  const sendCounts = new Int32Array(size);
  const recvCounts = new Int32Array(size);
  for (const s of lv.send) sendCounts[s.rank] = s.idx.length;
  for (const r of lv.recv) recvCounts[r.rank] = r.count;
  const sendRows: number[] = [];
  for (const s of lv.send) for (const i of s.idx) sendRows.push(i);
  const extCoarse = await exchange(ctx, Int32Array.from(sendRows, (i) => base + agg[i]!), sendCounts, new Int32Array(Math.max(1, nExt)), recvCounts);
  const cid = (c: number): number => (c < nrow ? base + agg[c]! : extCoarse[c - nrow]!);
  // P's rows for this rank's rows
  const P: SparseRow[] = [];
  for (let i = 0; i < nrow; i++) {
    const row: SparseRow = new Map([[cid(i), real ? 1 : 0]]);
    let diag = 1;
    if (real) for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (cols[k] === i) diag = coefs[k]!;
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) add(row, cid(cols[k]!), real ? (-OMEGA * coefs[k]!) / diag : 0);
    P.push(row);
  }
  // P's rows of the externals: lengths, then columns and values
  const lens = Int32Array.from(sendRows, (i) => P[i]!.size);
  const extLens = await exchange(ctx, lens, sendCounts, new Int32Array(Math.max(1, nExt)), recvCounts);
  const entrySend = new Int32Array(size);
  const entryRecv = new Int32Array(size);
  let k0 = 0;
  for (const s of lv.send) for (let i = 0; i < s.idx.length; i++) entrySend[s.rank]! += lens[k0++]!;
  k0 = 0;
  for (const r of lv.recv) for (let i = 0; i < r.count; i++) entryRecv[r.rank]! += extLens[k0++]!;
  const total = lens.reduce((a, b) => a + b, 0);
  const colsOut = new Int32Array(total);
  const valsOut = ctx.alloc(Float64Array, total);
  let e = 0;
  for (const i of sendRows) for (const [J, v] of P[i]!) {
    colsOut[e] = J;
    if (real) valsOut[e] = v;
    e++;
  }
  const got = entryRecv.reduce((a, b) => a + b, 0);
  const extCols = await exchange(ctx, colsOut, entrySend, new Int32Array(Math.max(1, got)), entryRecv);
  const extVals = await exchange(ctx, valsOut, entrySend, ctx.alloc(Float64Array, Math.max(1, got)), entryRecv);
  const Pext: SparseRow[] = [];
  e = 0;
  for (let x = 0; x < nExt; x++) {
    const row: SparseRow = new Map();
    for (let t = 0; t < extLens[x]!; t++, e++) add(row, extCols[e]!, real ? extVals[e]! : 0);
    Pext.push(row);
  }
  // A P for this rank's rows, then their contributions P^T (A P) by coarse row
  let ops = 0;
  const C = new Map<number, SparseRow>();
  for (let i = 0; i < nrow; i++) {
    const ap: SparseRow = new Map();
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const c = cols[k]!;
      const a = real ? coefs[k]! : 0;
      for (const [K, v] of c < nrow ? P[c]! : Pext[c - nrow]!) add(ap, K, a * v);
      ops += (c < nrow ? P[c]! : Pext[c - nrow]!).size;
    }
    for (const [J, pj] of P[i]!) {
      let row = C.get(J);
      if (!row) C.set(J, (row = new Map()));
      for (const [K, v] of ap) add(row, K, pj * v);
      ops += ap.size;
    }
  }
  // the next level's owners: rank o = r - r % stride holds the coarse rows of ranks o .. o + stride - 1
  const offsets = new Int32Array(size + 1);
  offsets[size] = coarseOffsets[size]!;
  for (let r = size - 1; r >= 0; r--) offsets[r] = r % stride === 0 ? coarseOffsets[r]! : offsets[Math.min(size, r - (r % stride) + stride)]!;
  const firstRow = offsets[me]!;
  const nrowC = me % stride === 0 ? offsets[Math.min(size, me + stride)]! - firstRow : 0;
  // P's rows and their communication package: the owners of the coarse rows they reach, and the
  // ranks whose rows reach this rank's coarse rows
  const prolongator = await makeLevel(ctx, compress(ctx, P, lv.firstRow, real), offsets, tag, { first: firstRow, count: nrowC });
  // the contributions' counts over P's package (as hypre's RAP sends them over the package of
  // P^T): to the owners of the coarse rows this rank's P reaches, from the ranks whose P reaches
  // this rank's; then the contributions by alltoallv, nothing to any other rank
  const byOwner = new Map<number, number[]>();
  for (const J of [...C.keys()].sort((a, b) => a - b)) {
    const q = ownerOf(offsets, J);
    if (!byOwner.has(q)) byOwner.set(q, []);
    byOwner.get(q)!.push(J);
  }
  const counts = new Int32Array(size);
  for (const [q, Js] of byOwner) for (const J of Js) counts[q]! += C.get(J)!.size;
  const incoming = new Int32Array(size);
  incoming[me] = counts[me]!;
  const world = mpi.COMM_WORLD;
  const got1 = prolongator.send.map(() => new Int32Array(1));
  const reqs: Request[] = prolongator.send.map((s, i) => world.irecv(got1[i]!, s.rank, tag + 3));
  for (const r of prolongator.recv) reqs.push(world.isend(Int32Array.of(counts[r.rank]!), r.rank, tag + 3));
  await world.waitAll(reqs);
  prolongator.send.forEach((s, i) => (incoming[s.rank] = got1[i]![0]!));
  const reached = new Set(prolongator.recv.map((r) => r.rank));
  for (const q of byOwner.keys()) if (q !== me && !reached.has(q)) throw new Error(`amg: rank ${me} has contributions for rank ${q}, which its prolongator does not reach`);
  const n = counts.reduce((a, b) => a + b, 0);
  const tI = new Int32Array(n);
  const tJ = new Int32Array(n);
  const tV = ctx.alloc(Float64Array, n);
  e = 0;
  for (let q = 0; q < size; q++) for (const J of byOwner.get(q) ?? []) for (const [K, v] of C.get(J)!) {
    tI[e] = J;
    tJ[e] = K;
    if (real) tV[e] = v;
    e++;
  }
  const m = incoming.reduce((a, b) => a + b, 0);
  const rI = await exchange(ctx, tI, counts, new Int32Array(Math.max(1, m)), incoming);
  const rJ = await exchange(ctx, tJ, counts, new Int32Array(Math.max(1, m)), incoming);
  const rV = await exchange(ctx, tV, counts, ctx.alloc(Float64Array, Math.max(1, m)), incoming);
  // the owner sums the contributions into its rows
  const rows: SparseRow[] = Array.from({ length: nrowC }, () => new Map());
  for (let t = 0; t < m; t++) {
    const r = rI[t]! - firstRow;
    if (r < 0 || r >= nrowC) throw new Error(`amg: rank ${me} got a contribution to coarse row ${rI[t]}, outside its rows ${firstRow}..${firstRow + nrowC - 1}`);
    add(rows[r]!, rJ[t]!, real ? rV[t]! : 0);
    ops++;
  }
  return { rows: compress(ctx, rows, firstRow, real), offsets, ops, prolongator };
}

/** Rows kept as one map per row, compressed (columns ascending); the values are kept only in a real run. */
function compress(ctx: RankContext, rows: readonly SparseRow[], firstRow: number, real: boolean): Rows {
  const rowStart = new Int32Array(rows.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  rows.forEach((row, r) => {
    for (const K of [...row.keys()].sort((a, b) => a - b)) {
      cols.push(K);
      vals.push(row.get(K)!);
    }
    rowStart[r + 1] = cols.length;
  });
  const coefs = ctx.alloc(Float64Array, cols.length);
  if (real) coefs.set(vals);
  return { nrow: rows.length, firstRow, rowStart, gcols: Int32Array.from(cols), coefs };
}
