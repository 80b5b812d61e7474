import type { CartComm, Datatype, Mpi, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamSpec, type ParamValues } from './app.ts';
import { faceOffset, forLayer, layoutOf, type Layout } from './grid-util.ts';

const AXES = ['x', 'y', 'z'] as const;

/** How the faces move: the app's own face buffers, datatypes over the array, or one neighbourhood collective. */
export const EXCHANGES = ['sendrecv', 'datatype', 'neighbor'] as const;

/** Cells of block `c` of `n` cells split over `p` blocks (the first n mod p blocks get one more). */
function blockCells(n: number, p: number, c: number): number {
  return Math.floor(n / p) + (c < n % p ? 1 : 0);
}

/** First cell of block `c` of `n` cells split over `p` blocks. */
function blockStart(n: number, p: number, c: number): number {
  return c * Math.floor(n / p) + Math.min(c, n % p);
}

/**
 * The face normal to dimension `d` as a datatype over the padded array (count 1 from the face's
 * first cell): rows of the fastest dimension are contiguous runs, so a vector of runs when d is
 * not the fastest, else a vector of single doubles; each further dimension an hvector of those.
 * In 3-D: x faces ny runs of nz, y faces nx runs of nz a plane apart, z faces nx x ny single doubles.
 */
function faceType(mpi: Mpi, l: Layout, d: number): Datatype {
  const dims = l.local.length;
  const last = dims - 1;
  const run = d === last ? 1 : l.local[last]!;
  const outer: number[] = [];
  for (let k = 0; k < last; k++) if (k !== d) outer.push(k);
  if (outer.length === 0) return mpi.typeCommit(mpi.typeContiguous(run, mpi.DOUBLE));
  const inner = outer.pop()!;
  let t = mpi.typeVector(l.local[inner]!, run, l.stride[inner]!, mpi.DOUBLE);
  while (outer.length > 0) {
    const k = outer.pop()!;
    t = mpi.typeCreateHvector(l.local[k]!, 1, l.stride[k]! * 8, t);
  }
  return mpi.typeCommit(t);
}

/**
 * A `dims`-dimensional domain decomposition with a halo exchange on a Cartesian communicator:
 * every rank owns a block of doubles with a halo of one cell, computes on it (a 2·dims+1-point
 * stencil on the processor model, or a fixed time), then exchanges its 2·dims faces with its
 * neighbours (the ranks `cartShift` names) and checks every face-halo cell against the value
 * of the neighbour's cell there (a skeleton run moves the faces as sizes only and skips the
 * check). `exchange` says how the faces move: `sendrecv`, irecv/isend of face buffers the app
 * fills itself (within its compute phase, at no extra cost) and empties into the halo, all at
 * once, then waitAll; `datatype`, the same calls in their (buffer, count, datatype) form with
 * each face a vector (and hvector) datatype over the array itself, so the library packs and
 * unpacks non-contiguous faces at its cost (`mpi.packBlock`, `mpi.copyBandwidth`); `neighbor`,
 * one neighborAlltoallw on the Cartesian communicator with those datatypes. All three leave the
 * same halo. Weak scaling keeps the block per rank; strong scaling splits a fixed global grid.
 * Non-periodic grids have no neighbour at the edges (PROC_NULL).
 */
export function haloApp(dims: 2 | 3): App {
  const axes = AXES.slice(0, dims);
  const params: Record<string, ParamSpec> = {};
  for (const a of axes) params[`n${a}`] = { type: 'int', default: dims === 3 ? 32 : 128, min: 1, help: `cells along ${a}: per rank (weak scaling) or in all (strong)` };
  params.scaling = { type: 'choice', default: 'weak', choices: ['weak', 'strong'], help: 'weak: n* cells per rank; strong: n* cells in the whole grid, split over the ranks' };
  params.periodic = { type: 'int', default: 1, min: 0, max: 1, help: '1: periodic boundaries (every rank has 2·dims neighbours); 0: none at the edges' };
  params.iterations = { type: 'int', default: 10, min: 1, help: 'compute + exchange steps' };
  params.computeUs = { type: 'number', default: -1, min: -1, help: `compute time per iteration in us (-1: ${2 * dims + 2} flops and 16 bytes per cell on the processor model)` };
  params.exchange = {
    type: 'choice',
    default: 'sendrecv',
    choices: EXCHANGES,
    help: 'sendrecv: isend/irecv of face buffers the app packs itself (free); datatype: isend/irecv of vector datatypes over the array, packed by the library at its cost; neighbor: one neighborAlltoallw with those datatypes',
  };
  return {
    name: `halo${dims}d`,
    summary: `${dims}-D halo exchange on a Cartesian communicator (${2 * dims} faces: isend/irecv of face buffers, of vector datatypes, or neighborAlltoallw) with a compute phase and a data check`,
    merit: { key: 'timePerIterationUs', higherIsBetter: false },
    minRanks: 1,
    params,
    main: (ctx, p) => runHalo(ctx, p, dims),
  };
}

async function runHalo(ctx: RankContext, p: ParamValues, dims: number): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const axes = AXES.slice(0, dims);
  const periodic = p.periodic === 1;
  const strong = p.scaling === 'strong';
  const exchange = p.exchange as (typeof EXCHANGES)[number];
  const procs = mpi.dimsCreate(mpi.size, new Array<number>(dims).fill(0));
  const cart = (await mpi.cartCreate(procs, procs.map(() => periodic))) as CartComm;
  const n = axes.map((a) => p[`n${a}`] as number);
  if (strong) {
    axes.forEach((a, d) => {
      if (n[d]! < procs[d]!) throw new RangeError(`halo${dims}d: strong scaling splits n${a}=${n[d]} cells over ${procs[d]} ranks along ${a}; give at least one cell per rank`);
    });
  }
  const local = n.map((v, d) => (strong ? blockCells(v, procs[d]!, cart.coords[d]!) : v));
  const global = n.map((v, d) => (strong ? v : v * procs[d]!));
  const origin = n.map((v, d) => (strong ? blockStart(v, procs[d]!, cart.coords[d]!) : v * cart.coords[d]!));
  const cells = local.reduce((a, b) => a * b, 1);
  const lay = layoutOf(local);
  // faces: direction 2d is -axis d, 2d+1 is +axis d (the neighbour order of a grid's neighbourhood collectives)
  const neighbour: number[] = [];
  const faceCells: number[] = [];
  for (let d = 0; d < dims; d++) {
    const { source, dest } = cart.cartShift(d, 1);
    neighbour.push(source, dest);
    const f = cells / local[d]!;
    faceCells.push(f, f);
  }
  // toward direction 2d goes the first interior layer along d, toward 2d+1 the last; from 2d lands in the low halo, from 2d+1 the high one
  const sendLayer = (k: number): number => (k % 2 === 0 ? 1 : local[k >> 1]!);
  const recvLayer = (k: number): number => (k % 2 === 0 ? 0 : local[k >> 1]! + 1);
  const u = ctx.alloc(Float64Array, lay.padded.reduce((a, b) => a * b, 1));
  const own = exchange === 'sendrecv';
  const sendBufs = own ? faceCells.map((k) => ctx.alloc(Float64Array, k)) : [];
  const recvBufs = own ? faceCells.map((k) => ctx.alloc(Float64Array, k)) : [];
  const faces = own ? [] : axes.map((_, d) => faceType(mpi, lay, d));
  const types = faces.length > 0 ? neighbour.map((_, k) => faces[k >> 1]!) : [];
  const ones = types.map(() => 1);
  const sendAt = neighbour.map((_, k) => faceOffset(lay, k >> 1, sendLayer(k)));
  const recvAt = neighbour.map((_, k) => faceOffset(lay, k >> 1, recvLayer(k)));
  const sendBytes = sendAt.map((o) => 8 * o);
  const recvBytes = recvAt.map((o) => 8 * o);
  const real = !ctx.skeleton;
  const iterations = p.iterations as number;
  const computeUs = p.computeUs as number;
  // the value of the cell at local (padded) index idx in iteration it: its global cell number, offset by the iteration
  const gcells = global.reduce((a, b) => a * b, 1);
  const value = (it: number, idx: readonly number[]): number => {
    let g = 0;
    for (let d = 0; d < dims; d++) g = g * global[d]! + ((((origin[d]! + idx[d]! - 1) % global[d]!) + global[d]!) % global[d]!);
    return it * gcells + g;
  };
  let computeTime = 0;
  let commTime = 0;
  let errors = 0;
  await cart.barrier();
  const start = ctx.now();
  for (let it = 0; it < iterations; it++) {
    let t = ctx.now();
    if (computeUs >= 0) await ctx.compute({ us: computeUs });
    else await ctx.compute({ flops: (2 * dims + 2) * cells, bytes: 16 * cells });
    if (real) for (let k = 0; k < 2 * dims; k++) fillLayer(lay, k >> 1, sendLayer(k), u, it, value);
    computeTime += ctx.now() - t;
    t = ctx.now();
    if (exchange === 'neighbor') {
      await cart.neighborAlltoallw(u, ones, sendBytes, types, u, ones, recvBytes, types);
    } else {
      const reqs: Request[] = [];
      // what arrives from the neighbour in direction k was sent toward the opposite direction
      for (let k = 0; k < 2 * dims; k++) {
        if (own) reqs.push(cart.irecv(recvBufs[k]!, neighbour[k]!, k ^ 1));
        else reqs.push(cart.irecv(u.subarray(recvAt[k]!), 1, types[k]!, neighbour[k]!, k ^ 1));
      }
      for (let k = 0; k < 2 * dims; k++) {
        if (own) {
          const buf = sendBufs[k]!;
          if (real) forLayer(lay, k >> 1, sendLayer(k), (o, i) => (buf[i] = u[o]!));
          reqs.push(cart.isend(buf, neighbour[k]!, k));
        } else reqs.push(cart.isend(u.subarray(sendAt[k]!), 1, types[k]!, neighbour[k]!, k));
      }
      await cart.waitAll(reqs);
    }
    commTime += ctx.now() - t;
    if (!real) continue;
    for (let k = 0; k < 2 * dims; k++) {
      if (neighbour[k] === mpi.PROC_NULL) continue;
      const d = k >> 1;
      const c = recvLayer(k);
      if (own) {
        const buf = recvBufs[k]!;
        forLayer(lay, d, c, (o, i) => (u[o] = buf[i]!));
      }
      errors += checkLayer(lay, d, c, u, it, value);
    }
  }
  const elapsed = ctx.now() - start;
  for (const f of faces) mpi.typeFree(f);
  const total = new Float64Array(1);
  await cart.allreduce(Float64Array.of(errors), total, mpi.SUM);
  if (total[0]! > 0) throw new Error(`halo${dims}d: data check failed: ${total[0]} halo values differ from the neighbours' cells`);
  if (cart.rank !== 0) return undefined;
  const bytesPerIteration = neighbour.reduce((s, r, k) => s + (r === mpi.PROC_NULL ? 0 : faceCells[k]! * 8), 0);
  return {
    rows: [
      {
        ranks: mpi.size,
        procGrid: procs.join('x'),
        localGrid: local.join('x'),
        globalGrid: global.join('x'),
        scaling: strong ? 'strong' : 'weak',
        exchange,
        iterations,
        bytesPerIteration,
        timeUs: round(elapsed),
        timePerIterationUs: round(elapsed / iterations),
        computeUs: round(computeTime),
        commUs: round(commTime),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}

/** Writes iteration `it`'s values into the layer of interior cells at coordinate `c` along `d`. */
function fillLayer(l: Layout, d: number, c: number, u: Float64Array, it: number, value: (it: number, idx: readonly number[]) => number): void {
  forLayer(l, d, c, (o, _, idx) => (u[o] = value(it, idx)));
}

/** Cells of the halo layer at coordinate `c` along `d` (its face part) that differ from the neighbour's values. */
function checkLayer(l: Layout, d: number, c: number, u: Float64Array, it: number, value: (it: number, idx: readonly number[]) => number): number {
  let bad = 0;
  forLayer(l, d, c, (o, _, idx) => {
    if (u[o] !== value(it, idx)) bad++;
  });
  return bad;
}
