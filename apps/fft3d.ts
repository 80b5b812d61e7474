import type { CartComm, Comm } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { checkPowerOfTwo, checksum, COMPLEX_BYTES, fftFlops, gatherTimes, GRID_PARAMS, inputValue, LineFft, permuteAxes, processGrid, referenceFft, verifyFft } from './fft-util.ts';

/**
 * Distributed 3-D complex FFT of an n^3 array x[i][j][k] on a Pr x Pc process grid (a Cartesian
 * communicator; rank (a, b)). Pencil decomposition: the rank starts with the z-pencils i in slab
 * a of n/Pr, j in slab b of n/Pc, all k; FFTs along z; a transpose inside its row communicator
 * (cartSub, the Pc ranks sharing a) by `alltoall` gives y-pencils (all j, k in slab b); FFTs
 * along y; a transpose inside its column communicator (the Pr ranks sharing b) gives x-pencils
 * (all i, j in slab a of n/Pr, k in slab b); FFTs along x. The output stays in that transposed
 * layout, as in P3DFFT. `decomposition=slab` is the P x 1 grid: the row transpose is a local
 * reorder and one global alltoall remains. Checked, timed and charged as fft2d (and, as fft2d, a
 * skeleton run computes and checks nothing but charges the same time).
 */
export const fft3d: App = {
  name: 'fft3d',
  summary: '3-D complex FFT, pencil (2-D grid, two alltoall transposes on cartSub communicators) or slab decomposition; checked against a serial FFT',
  merit: { key: 'gflops', higherIsBetter: true },
  minRanks: 1,
  params: {
    n: { type: 'int', default: 64, min: 2, help: 'points along each axis (a power of two, divisible by both grid dimensions)' },
    decomposition: { type: 'choice', default: 'pencil', choices: ['pencil', 'slab'], help: 'pencil: Pr x Pc grid, two transposes; slab: P x 1, one transpose' },
    ...GRID_PARAMS,
    iterations: { type: 'int', default: 1, min: 1, help: 'forward transforms timed (figures are per transform)' },
  },
  check: (p) => checkPowerOfTwo('fft3d', p),
  main: runFft3d,
};

async function runFft3d(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  checkPowerOfTwo('fft3d', p);
  const { mpi } = ctx;
  const n = p.n as number;
  const size = mpi.size;
  const slab = p.decomposition === 'slab';
  const rowsParam = p.gridRows as number;
  const colsParam = p.gridCols as number;
  if (slab && colsParam > 1) throw new RangeError(`parameter gridCols=${colsParam} of app fft3d: the slab decomposition is a ${size}x1 grid`);
  const [pr, pc] = processGrid('fft3d', size, rowsParam, slab ? 1 : colsParam, (k, d) => mpi.dimsCreate(k, d));
  if (n % pr !== 0 || n % pc !== 0) throw new RangeError(`parameter n=${n} of app fft3d: the ${pr}x${pc} grid needs n divisible by ${pr} and by ${pc}`);
  const iterations = p.iterations as number;
  const cart = (await mpi.cartCreate([pr, pc], [false, false])) as CartComm;
  const rowComm = await cart.cartSub([false, true]);
  const colComm = await cart.cartSub([true, false]);
  const [a, b] = cart.coords as [number, number];
  const mi = n / pr; // i slab (z- and y-pencils), j slab (x-pencils)
  const mj = n / pc; // j slab (z-pencils), k slab (y- and x-pencils)
  const len = (2 * n * n * n) / size;
  // a skeleton run moves sizes only: no input, no arithmetic, no check (the same time is charged)
  const real = !ctx.skeleton;
  const input = ctx.alloc(Float64Array, len);
  for (let il = 0; real && il < mi; il++) {
    for (let jl = 0; jl < mj; jl++) {
      for (let k = 0; k < n; k++) inputValue(((a * mi + il) * n + (b * mj + jl)) * n + k, input, 2 * ((il * mj + jl) * n + k));
    }
  }
  const work = ctx.alloc(Float64Array, len);
  const send = ctx.alloc(Float64Array, len);
  const recv = ctx.alloc(Float64Array, len);
  const line = new LineFft(n);
  const lines = len / (2 * n);
  const fftWork = { flops: lines * fftFlops(n), bytes: 2 * COMPLEX_BYTES * lines * n };
  const moveWork = { bytes: len * 8 * 2 };
  let computeUs = 0;
  let commUs = 0;
  const compute = async (w: { flops?: number; bytes: number }): Promise<void> => {
    const t = ctx.now();
    await ctx.compute(w);
    computeUs += ctx.now() - t;
  };
  const exchange = async (comm: Comm): Promise<Float64Array> => {
    if (comm.size === 1) return send;
    const t = ctx.now();
    await comm.alltoall(send, recv);
    commUs += ctx.now() - t;
    return recv;
  };

  /** z-pencils work[il][jl][k] -> y-pencils work[il][kl][j] (k slab b, blocks of mi·mj·mj). */
  const rowTranspose = async (): Promise<void> => {
    let o = 0;
    for (let q = 0; real && q < pc; q++) {
      for (let il = 0; il < mi; il++) {
        for (let kl = 0; kl < mj; kl++) {
          for (let jl = 0; jl < mj; jl++) {
            const from = 2 * ((il * mj + jl) * n + q * mj + kl);
            send[o++] = work[from]!;
            send[o++] = work[from + 1]!;
          }
        }
      }
    }
    await compute(moveWork);
    const got = await exchange(rowComm);
    const block = mi * mj * mj;
    for (let s = 0; real && s < pc; s++) {
      for (let il = 0; il < mi; il++) {
        for (let kl = 0; kl < mj; kl++) {
          const from = 2 * (s * block + (il * mj + kl) * mj);
          work.set(got.subarray(from, from + 2 * mj), 2 * ((il * mj + kl) * n + s * mj));
        }
      }
    }
    await compute(moveWork);
  };

  /** y-pencils work[il][kl][j] -> x-pencils work[kl][jl][i] (j slab a, blocks of mj·mi·mi). */
  const colTranspose = async (): Promise<void> => {
    let o = 0;
    for (let q = 0; real && q < pr; q++) {
      for (let kl = 0; kl < mj; kl++) {
        for (let jl = 0; jl < mi; jl++) {
          for (let il = 0; il < mi; il++) {
            const from = 2 * ((il * mj + kl) * n + q * mi + jl);
            send[o++] = work[from]!;
            send[o++] = work[from + 1]!;
          }
        }
      }
    }
    await compute(moveWork);
    const got = await exchange(colComm);
    const block = mj * mi * mi;
    for (let s = 0; real && s < pr; s++) {
      for (let kl = 0; kl < mj; kl++) {
        for (let jl = 0; jl < mi; jl++) {
          const from = 2 * (s * block + (kl * mi + jl) * mi);
          work.set(got.subarray(from, from + 2 * mi), 2 * ((kl * mi + jl) * n + s * mi));
        }
      }
    }
    await compute(moveWork);
  };

  await cart.barrier();
  const start = ctx.now();
  for (let it = 0; it < iterations; it++) {
    if (real) line.linesInto(work, input, lines);
    await compute(fftWork);
    await rowTranspose();
    if (real) line.lines(work, lines);
    await compute(fftWork);
    await colTranspose();
    if (real) line.lines(work, lines);
    await compute(fftWork);
  }
  await cart.barrier();
  const timeUs = (ctx.now() - start) / iterations;

  // work[kl][jl][i] = X[i][a·mi + jl][b·mj + kl]
  const ref = real
    ? referenceFft(n, [
        [0, n],
        [a * mi, (a + 1) * mi],
        [b * mj, (b + 1) * mj],
      ])
    : null;
  await verifyFft('fft3d', ctx, cart, work, ref && permuteAxes(ref, [n, mi, mj], [2, 1, 0]));
  const run = await gatherTimes(cart, { timeUs, computeUs: computeUs / iterations, commUs: commUs / iterations });
  if (!run) return undefined;
  return {
    rows: [
      {
        ranks: size,
        n,
        decomposition: slab ? 'slab' : 'pencil',
        grid: `${pr}x${pc}`,
        iterations,
        timeUs: round(run.timeUs),
        computeUs: round(run.computeUs),
        commUs: round(run.commUs),
        gflops: round((5 * n ** 3 * Math.log2(n ** 3)) / run.timeUs / 1e3),
        check: real ? 'passed' : SKELETON_CHECK,
      },
    ],
    ...(real ? { checksum: checksum(work) } : {}),
  };
}
