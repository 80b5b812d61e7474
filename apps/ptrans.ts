import type { CartComm, Request } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { gatherTimes, GRID_PARAMS, processGrid } from './fft-util.ts';

/** Element (i, j) of A before the transpose: its position, so a misplaced value is always wrong. */
function aValue(n: number, i: number, j: number): number {
  return i * n + j;
}

/** Element (i, j) of B. */
function bValue(i: number, j: number): number {
  return 1 / (1 + i + 2 * j);
}

/** First global index and length of block `k` of `nb` along an axis of `n` (the last block may be short). */
function blockSpan(n: number, nb: number, k: number): [number, number] {
  return [k * nb, Math.min(nb, n - k * nb)];
}

/**
 * Parallel matrix transpose (HPCC PTRANS): A = A^T + B for an n x n matrix of doubles in a 2-D
 * block-cyclic distribution (nb x nb blocks, P x Q process grid on a Cartesian communicator;
 * block (I, J) lives on rank (I mod P, J mod Q), stored row-major in its local matrix). Every
 * rank packs each of its blocks of A, transposed, for the owner of the mirrored block (J, I),
 * one message per destination rank (irecv/isend, then waitAll; its own blocks are copied), and
 * adds what arrives to its B. n need not be a multiple of nb or of nb·P: edge blocks are short.
 * Every element is checked against the serial A^T + B. timeUs is the slowest rank's time between
 * barriers (pack, exchange, add), computeUs and commUs those of the busiest rank; GB/s is
 * n^2 · 8 bytes over timeUs, as HPCC reports it. A skeleton run (matrices and messages from
 * `ctx.alloc`) fills, packs, adds and checks nothing but charges the same compute time.
 */
export const ptrans: App = {
  name: 'ptrans',
  summary: 'parallel matrix transpose A = A^T + B (HPCC PTRANS) on a block-cyclic P x Q grid, one message per partner; GB/s, every element checked',
  merit: { key: 'bandwidthGBs', higherIsBetter: true },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 1024, min: 1, help: 'matrix order' },
    nb: { type: 'int', default: 64, min: 1, help: 'block size of the block-cyclic distribution' },
    ...GRID_PARAMS,
  },
  main: runPtrans,
};

async function runPtrans(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const n = p.n as number;
  const nb = p.nb as number;
  const [P, Q] = processGrid('ptrans', mpi.size, p.gridRows as number, p.gridCols as number, (k, d) => mpi.dimsCreate(k, d));
  const cart = (await mpi.cartCreate([P, Q], [false, false])) as CartComm;
  const [myRow, myCol] = cart.coords as [number, number];
  const me = cart.rank;
  const blocks = Math.ceil(n / nb);
  const rowBlocks: number[] = [];
  const colBlocks: number[] = [];
  for (let k = myRow; k < blocks; k += P) rowBlocks.push(k);
  for (let k = myCol; k < blocks; k += Q) colBlocks.push(k);
  // global index of each local row and column; local offset of block k is floor(k / P) · nb
  const globalIndices = (ks: readonly number[]): number[] =>
    ks.flatMap((k) => {
      const [first, len] = blockSpan(n, nb, k);
      return Array.from({ length: len }, (_, x) => first + x);
    });
  const rowGlobal = globalIndices(rowBlocks);
  const colGlobal = globalIndices(colBlocks);
  const lr = rowGlobal.length;
  const lc = colGlobal.length;
  // a skeleton run moves sizes only: no values, no arithmetic, no check (the same time is charged)
  const real = !ctx.skeleton;
  const A = ctx.alloc(Float64Array, lr * lc);
  const B = ctx.alloc(Float64Array, lr * lc);
  for (let i = 0; real && i < lr; i++) {
    for (let j = 0; j < lc; j++) {
      A[i * lc + j] = aValue(n, rowGlobal[i]!, colGlobal[j]!);
      B[i * lc + j] = bValue(rowGlobal[i]!, colGlobal[j]!);
    }
  }
  // my block (I, J) of A goes to the owner of block (J, I) of the result; blocks in (I, J) order.
  // A rank trades with a few others only: counts and buffers are kept for those (a dense array per
  // rank would be p^2 entries over the job: 34 million at 5,832 ranks)
  const sendCount = new Map<number, number>();
  const recvCount = new Map<number, number>();
  const destOf = (I: number, J: number): number => cart.cartRank([J % P, I % Q]);
  const add = (m: Map<number, number>, r: number, c: number): Map<number, number> => m.set(r, (m.get(r) ?? 0) + c);
  for (const I of rowBlocks) for (const J of colBlocks) add(sendCount, destOf(I, J), blockSpan(n, nb, I)[1] * blockSpan(n, nb, J)[1]);
  // result block (I, J) comes from the owner (J mod P, I mod Q) of A's block (J, I), in the sender's order: J, then I
  for (const J of colBlocks) for (const I of rowBlocks) add(recvCount, destOf(I, J), blockSpan(n, nb, I)[1] * blockSpan(n, nb, J)[1]);
  const sendBufs = new Map([...sendCount].map(([r, c]) => [r, ctx.alloc(Float64Array, c)]));
  const recvBufs = new Map([...recvCount].map(([r, c]) => [r, r === me ? sendBufs.get(me)! : ctx.alloc(Float64Array, c)]));
  const ascending = (m: Map<number, number>): number[] => [...m.keys()].sort((a, b) => a - b);
  const elements = lr * lc;
  let computeUs = 0;
  let commUs = 0;

  await cart.barrier();
  const start = ctx.now();
  let t = ctx.now();
  const fill = new Map<number, number>();
  for (let bi = 0; real && bi < rowBlocks.length; bi++) {
    const I = rowBlocks[bi]!;
    const [, rows] = blockSpan(n, nb, I);
    for (let bj = 0; bj < colBlocks.length; bj++) {
      const J = colBlocks[bj]!;
      const [, cols] = blockSpan(n, nb, J);
      const d = destOf(I, J);
      const buf = sendBufs.get(d)!;
      let o = fill.get(d) ?? 0;
      for (let c = 0; c < cols; c++) for (let r = 0; r < rows; r++) buf[o++] = A[(bi * nb + r) * lc + bj * nb + c]!;
      fill.set(d, o);
    }
  }
  await ctx.compute({ bytes: 16 * elements });
  computeUs += ctx.now() - t;
  t = ctx.now();
  const reqs: Request[] = [];
  for (const r of ascending(recvCount)) if (r !== me) reqs.push(cart.irecv(recvBufs.get(r)!, r, 0));
  for (const r of ascending(sendCount)) if (r !== me) reqs.push(cart.isend(sendBufs.get(r)!, r, 0));
  await cart.waitAll(reqs);
  commUs += ctx.now() - t;
  t = ctx.now();
  fill.clear();
  for (let bj = 0; real && bj < colBlocks.length; bj++) {
    const J = colBlocks[bj]!;
    const [, cols] = blockSpan(n, nb, J);
    for (let bi = 0; bi < rowBlocks.length; bi++) {
      const I = rowBlocks[bi]!;
      const [, rows] = blockSpan(n, nb, I);
      const s = destOf(I, J);
      const buf = recvBufs.get(s)!;
      let o = fill.get(s) ?? 0;
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const at = (bi * nb + r) * lc + bj * nb + c;
          A[at] = buf[o++]! + B[at]!;
        }
      }
      fill.set(s, o);
    }
  }
  await ctx.compute({ flops: elements, bytes: 24 * elements });
  computeUs += ctx.now() - t;
  await cart.barrier();
  const timeUs = ctx.now() - start;

  let errors = 0;
  for (let i = 0; real && i < lr; i++) {
    for (let j = 0; j < lc; j++) {
      const gi = rowGlobal[i]!;
      const gj = colGlobal[j]!;
      if (A[i * lc + j] !== aValue(n, gj, gi) + bValue(gi, gj)) errors++;
    }
  }
  const total = new Float64Array(1);
  await cart.allreduce(Float64Array.of(errors), total, mpi.SUM);
  if (total[0]! > 0) throw new Error(`ptrans: check failed: ${total[0]} of ${n * n} elements differ from the serial A^T + B`);
  const run = await gatherTimes(cart, { timeUs, computeUs, commUs });
  if (!run) return undefined;
  return {
    rows: [
      {
        ranks: mpi.size,
        n,
        nb,
        grid: `${P}x${Q}`,
        timeUs: round(run.timeUs),
        computeUs: round(run.computeUs),
        commUs: round(run.commUs),
        bandwidthGBs: round((n * n * 8) / run.timeUs / 1e3),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
  };
}
