import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { checkPowerOfTwo, checksum, COMPLEX_BYTES, fftFlops, gatherTimes, inputValue, LineFft, permuteAxes, referenceFft, verifyFft } from './fft-util.ts';

/**
 * Distributed 2-D complex FFT of an n x n array with a slab decomposition: rank r owns rows
 * r·n/P .. (r+1)·n/P - 1. One forward transform is: 1-D FFTs along the local rows (fft.js), a
 * global transpose (pack one m x m block per rank, `alltoall`, unpack it transposed), FFTs along
 * the rows again (the former columns) and, with transposeBack=1, a second transpose so the output
 * has the input's layout. The input is a hash of each element's position; the result is compared
 * with a serial FFT of the same input on every rank. Compute (FFTs at 5 n log2 n flops each,
 * pack and unpack by the bytes they move) is charged on the processor model; comm is the time
 * inside `alltoall`, whose algorithm the run chooses (`--coll alltoall=pairwise`). Figures are per
 * transform: timeUs is the slowest rank's time between barriers, computeUs and commUs those of the
 * busiest rank; gflops is 5 n^2 log2(n^2) over timeUs. A skeleton run (arrays from `ctx.alloc`)
 * computes no transform, packs nothing and checks nothing, but charges the same compute time.
 */
export const fft2d: App = {
  name: 'fft2d',
  summary: '2-D complex FFT, slab decomposition: row FFTs (fft.js), global transpose by alltoall, row FFTs again; checked against a serial FFT',
  merit: { key: 'gflops', higherIsBetter: true },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 256, min: 2, help: 'points along each axis (a power of two, divisible by the ranks)' },
    iterations: { type: 'int', default: 1, min: 1, help: 'forward transforms timed (figures are per transform)' },
    transposeBack: { type: 'int', default: 1, min: 0, max: 1, help: '1: transpose back so the output has the input layout; 0: leave it transposed' },
  },
  check: (p) => checkPowerOfTwo('fft2d', p),
  main: runFft2d,
};

async function runFft2d(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  checkPowerOfTwo('fft2d', p);
  const { mpi } = ctx;
  const n = p.n as number;
  const size = mpi.size;
  const me = mpi.rank;
  if (n % size !== 0) throw new RangeError(`parameter n=${n} of app fft2d: the slab decomposition needs n divisible by the ${size} ranks`);
  const iterations = p.iterations as number;
  const back = p.transposeBack === 1;
  const m = n / size;
  const len = 2 * m * n;
  // a skeleton run moves sizes only: no input, no arithmetic, no check (the same time is charged)
  const real = !ctx.skeleton;
  const input = ctx.alloc(Float64Array, len);
  for (let r = 0; real && r < m; r++) for (let j = 0; j < n; j++) inputValue((me * m + r) * n + j, input, 2 * (r * n + j));
  const work = ctx.alloc(Float64Array, len);
  const send = ctx.alloc(Float64Array, len);
  const recv = ctx.alloc(Float64Array, len);
  const line = new LineFft(n);
  const fftWork = { flops: m * fftFlops(n), bytes: 2 * COMPLEX_BYTES * m * n };
  const moveWork = { bytes: 2 * COMPLEX_BYTES * m * n };
  let computeUs = 0;
  let commUs = 0;
  const compute = async (work: { flops?: number; bytes: number }): Promise<void> => {
    const t = ctx.now();
    await ctx.compute(work);
    computeUs += ctx.now() - t;
  };

  /** work (m rows of n) -> its transpose's slab: row c of the result is global column me·m + c. */
  const transpose = async (): Promise<void> => {
    for (let q = 0; real && q < size; q++) {
      for (let r = 0; r < m; r++) send.set(work.subarray(2 * (r * n + q * m), 2 * (r * n + q * m + m)), 2 * (q * m * m + r * m));
    }
    await compute(moveWork);
    const t = ctx.now();
    await mpi.alltoall(send, recv);
    commUs += ctx.now() - t;
    // block s holds global rows s·m.., my columns: element (r, c) goes to row c, column s·m + r
    for (let s = 0; real && s < size; s++) {
      for (let r = 0; r < m; r++) {
        const from = 2 * (s * m * m + r * m);
        for (let c = 0; c < m; c++) {
          const to = 2 * (c * n + s * m + r);
          work[to] = recv[from + 2 * c]!;
          work[to + 1] = recv[from + 2 * c + 1]!;
        }
      }
    }
    await compute(moveWork);
  };

  await mpi.barrier();
  const start = ctx.now();
  for (let it = 0; it < iterations; it++) {
    if (real) line.linesInto(work, input, m);
    await compute(fftWork);
    await transpose();
    if (real) line.lines(work, m);
    await compute(fftWork);
    if (back) await transpose();
  }
  await mpi.barrier();
  const timeUs = (ctx.now() - start) / iterations;

  const mine: [number, number] = [me * m, (me + 1) * m];
  const expected = !real ? null : back ? referenceFft(n, [mine, [0, n]]) : permuteAxes(referenceFft(n, [[0, n], mine]), [n, m], [1, 0]);
  await verifyFft('fft2d', ctx, mpi, work, expected);
  const run = await gatherTimes(mpi, { timeUs, computeUs: computeUs / iterations, commUs: commUs / iterations });
  if (!run) return undefined;
  return {
    rows: [
      {
        ranks: size,
        n,
        decomposition: 'slab',
        iterations,
        timeUs: round(run.timeUs),
        computeUs: round(run.computeUs),
        commUs: round(run.commUs),
        gflops: round((5 * n * n * Math.log2(n * n)) / run.timeUs / 1e3),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
    layout: back ? 'rows' : 'transposed',
    ...(real ? { checksum: checksum(work) } : {}),
  };
}
