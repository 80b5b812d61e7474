import type { CartComm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamSpec, type ParamValues } from './app.ts';

const AXES = ['x', 'y', 'z'] as const;

/** Value a rank writes at index `i` of the face it sends toward direction `dir` in iteration `it`. */
function faceValue(rank: number, it: number, dir: number, i: number): number {
  return rank * 1e6 + it * 1e3 + dir * 100 + (i % 97);
}

/** Cells of block `c` of `n` cells split over `p` blocks (the first n mod p blocks get one more). */
function blockCells(n: number, p: number, c: number): number {
  return Math.floor(n / p) + (c < n % p ? 1 : 0);
}

/**
 * A `dims`-dimensional domain decomposition with a halo exchange on a Cartesian communicator:
 * every rank owns a block of doubles, computes on it (a 2·dims+1-point stencil on the processor
 * model, or a fixed time), then exchanges its 2·dims faces with its neighbours (irecv/isend to
 * the ranks `cartShift` names, all at once, then waitAll) and checks every received value against
 * what the neighbour must have sent (a skeleton run moves the faces as sizes only and skips the
 * check). Weak scaling keeps the block per rank; strong scaling splits
 * a fixed global grid. Non-periodic grids have no neighbour at the edges (PROC_NULL).
 */
export function haloApp(dims: 2 | 3): App {
  const axes = AXES.slice(0, dims);
  const params: Record<string, ParamSpec> = {};
  for (const a of axes) params[`n${a}`] = { type: 'int', default: dims === 3 ? 32 : 128, min: 1, help: `cells along ${a}: per rank (weak scaling) or in all (strong)` };
  params.scaling = { type: 'choice', default: 'weak', choices: ['weak', 'strong'], help: 'weak: n* cells per rank; strong: n* cells in the whole grid, split over the ranks' };
  params.periodic = { type: 'int', default: 1, min: 0, max: 1, help: '1: periodic boundaries (every rank has 2·dims neighbours); 0: none at the edges' };
  params.iterations = { type: 'int', default: 10, min: 1, help: 'compute + exchange steps' };
  params.computeUs = { type: 'number', default: -1, min: -1, help: `compute time per iteration in us (-1: ${2 * dims + 2} flops and 16 bytes per cell on the processor model)` };
  return {
    name: `halo${dims}d`,
    summary: `${dims}-D halo exchange on a Cartesian communicator (${2 * dims} faces, isend/irecv) with a compute phase and a data check`,
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
  const procs = mpi.dimsCreate(mpi.size, new Array<number>(dims).fill(0));
  const cart = (await mpi.cartCreate(procs, procs.map(() => periodic))) as CartComm;
  const n = axes.map((a) => p[`n${a}`] as number);
  if (strong) {
    axes.forEach((a, d) => {
      if (n[d]! < procs[d]!) throw new RangeError(`halo${dims}d: strong scaling splits n${a}=${n[d]} cells over ${procs[d]} ranks along ${a}; give at least one cell per rank`);
    });
  }
  const local = n.map((v, d) => (strong ? blockCells(v, procs[d]!, cart.coords[d]!) : v));
  const cells = local.reduce((a, b) => a * b, 1);
  // faces: direction 2d is -axis d, 2d+1 is +axis d
  const neighbour: number[] = [];
  const faceCells: number[] = [];
  for (let d = 0; d < dims; d++) {
    const { source, dest } = cart.cartShift(d, 1);
    neighbour.push(source, dest);
    const f = cells / local[d]!;
    faceCells.push(f, f);
  }
  const sendBufs = faceCells.map((k) => ctx.alloc(Float64Array, k));
  const recvBufs = faceCells.map((k) => ctx.alloc(Float64Array, k));
  const real = !ctx.skeleton;
  const iterations = p.iterations as number;
  const computeUs = p.computeUs as number;
  const me = cart.rank;
  let computeTime = 0;
  let commTime = 0;
  let errors = 0;
  await cart.barrier();
  const start = ctx.now();
  for (let it = 0; it < iterations; it++) {
    let t = ctx.now();
    if (computeUs >= 0) await ctx.compute({ us: computeUs });
    else await ctx.compute({ flops: (2 * dims + 2) * cells, bytes: 16 * cells });
    computeTime += ctx.now() - t;
    t = ctx.now();
    const reqs: Request[] = [];
    // what arrives from the neighbour in direction k was sent toward the opposite direction
    for (let k = 0; k < 2 * dims; k++) reqs.push(cart.irecv(recvBufs[k]!, neighbour[k]!, k ^ 1));
    for (let k = 0; k < 2 * dims; k++) {
      const buf = sendBufs[k]!;
      for (let i = 0; real && i < buf.length; i++) buf[i] = faceValue(me, it, k, i);
      reqs.push(cart.isend(buf, neighbour[k]!, k));
    }
    await cart.waitAll(reqs);
    commTime += ctx.now() - t;
    for (let k = 0; k < 2 * dims; k++) {
      const from = neighbour[k]!;
      if (from === mpi.PROC_NULL || !real) continue;
      const buf = recvBufs[k]!;
      for (let i = 0; i < buf.length; i++) if (buf[i] !== faceValue(from, it, k ^ 1, i)) errors++;
    }
  }
  const elapsed = ctx.now() - start;
  const total = new Float64Array(1);
  await cart.allreduce(Float64Array.of(errors), total, mpi.SUM);
  if (total[0]! > 0) throw new Error(`halo${dims}d: data check failed: ${total[0]} received values differ from what the neighbours sent`);
  if (me !== 0) return undefined;
  const bytesPerIteration = neighbour.reduce((s, r, k) => s + (r === mpi.PROC_NULL ? 0 : faceCells[k]! * 8), 0);
  return {
    rows: [
      {
        ranks: mpi.size,
        procGrid: procs.join('x'),
        localGrid: local.join('x'),
        globalGrid: n.map((v, d) => (strong ? v : v * procs[d]!)).join('x'),
        scaling: strong ? 'strong' : 'weak',
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
