import FFT from 'fft.js';
import type { CartComm, Comm } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { round, SKELETON_CHECK, type App, type AppResult, type ParamValues } from './app.ts';
import { fftFlops } from './fft-util.ts';
import { ipow46, NPB_A, NPB_SEED, randlc } from './npb-random.ts';

/** NPB FT problem classes (NPB 3 ft.f / npbparams.h): grid nx x ny x nz and time steps. */
export const FT_CLASSES: Readonly<Record<string, { readonly nx: number; readonly ny: number; readonly nz: number; readonly niter: number }>> = {
  S: { nx: 64, ny: 64, nz: 64, niter: 6 },
  W: { nx: 128, ny: 128, nz: 32, niter: 6 },
  A: { nx: 256, ny: 256, nz: 128, niter: 6 },
  B: { nx: 512, ny: 256, nz: 256, niter: 20 },
  C: { nx: 512, ny: 512, nz: 512, niter: 20 },
};
/** NPB's reference checksums per time step (ft.f: verify), real and imaginary parts; the tolerance is 1e-12. */
const FT_CHECKSUMS: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  S: [[554.6087004964, 484.5363331978], [554.6385409189, 486.5304269511], [554.6148406171, 488.3910722336], [554.5423607415, 490.1273169046], [554.4255039624, 491.7475857993], [554.2683411902, 493.2597244941]],
  W: [[567.3612178944, 529.3246849175], [563.1436885271, 528.2149986629], [559.4024089970, 527.0996558037], [556.0698047020, 526.0027904925], [553.0898991250, 524.9400845633], [550.4159734538, 523.9212247086]],
  A: [[504.6735008193, 511.4047905510], [505.9412319734, 509.8809666433], [506.9376896287, 509.8144042213], [507.7892868474, 510.1336130759], [508.5233095391, 510.4914655194], [509.1487099959, 510.7917842803]],
};
const EPSILON = 1e-12;
/** ft.f's diffusion constant alpha: each time step multiplies mode (kx, ky, kz) by exp(-4 alpha pi^2 (kx^2 + ky^2 + kz^2)). */
const ALPHA = 1e-6;
/**
 * Work per grid point. Each 1-D FFT of length n is the usual 5 n log2 n flops, reading and
 * writing each complex point (32 bytes); each transpose's packing and unpacking reads and writes
 * each point (32 bytes each); evolve multiplies u0 by the real twiddle factor (2 flops; reads
 * u0 and the factor, writes u0 and its copy u1: 56 bytes). NPB's own count (ft.f: Mop/s =
 * N (14.8157 + 7.19641 ln N + (5.23518 + 7.21113 ln N) niter) / time, N = nx ny nz) is the
 * figure of merit.
 */
const PACK_BYTES = 32;
const EVOLVE = { flops: 2, bytes: 56 };

/**
 * The NAS parallel benchmarks' 3-D FFT PDE solver (FT, NPB 3 MPI version): NPB's random initial
 * field on an nx x ny x nz grid, one forward 3-D FFT, then per time step the evolution in
 * Fourier space, an inverse 3-D FFT and a checksum of 1,024 points reduced to rank 0. The grid is
 * split as ft.f splits it: in z slabs up to nz ranks (one alltoall transpose per 3-D FFT), beyond
 * that over a 2-D grid of (ranks / nz) x nz (two alltoall transposes, each inside a row or a column
 * of the grid). Lines along x, then y, then z are transformed between the transposes. With real
 * data the field is NPB's own (randlc draws in ft.f's order), so each time step's checksum must
 * match NPB's reference to 1e-12 (classes S, W and A; B and C are not checked here, as a real run
 * of them would not fit one host).
 */
export const npbFt: App = {
  name: 'npb-ft',
  summary: "NAS FT: forward and inverse 3-D FFTs with alltoall transposes (slabs, or a 2-D grid beyond nz ranks), a checksum reduce per time step; Mop/s as NPB counts them, checksums checked against NPB's",
  merit: { key: 'mops', higherIsBetter: true, label: 'Mop/s' },
  minRanks: 1,
  params: {
    class: { type: 'choice', default: 'S', choices: Object.keys(FT_CLASSES), help: 'NPB class: 64^3 (S), 128x128x32 (W), 256x256x128 (A), 512x256x256 (B), 512^3 (C); 6 (S, W, A) or 20 (B, C) time steps' },
    iterations: { type: 'int', default: 0, min: 0, help: "time steps (0: the class's); each step's checksum is checked against NPB's" },
  },
  main: runFt,
};

/** ft.f's process grid: np1 x np2 with np1 = 1 up to nz ranks (slabs of z), else np2 = nz. */
export function ftGrid(nx: number, ny: number, nz: number, size: number): [number, number] {
  if (!Number.isInteger(Math.log2(size))) throw new RangeError(`npb-ft: ${size} ranks; NPB FT runs on a power of two of ranks (1, 2, 4, 8, ...)`);
  const [np1, np2] = size <= nz ? [1, size] : [size / nz, nz];
  if (nx % np1 !== 0 || ny % np1 !== 0 || ny % np2 !== 0) throw new RangeError(`npb-ft: ${size} ranks are too many for the ${nx}x${ny}x${nz} grid (at most ${nz * Math.min(nx, ny)})`);
  return [np1, np2];
}

/** Complex FFTs of contiguous lines of one length, forward or inverse, both unnormalised as ft.f's cfftz. */
class Lines {
  private readonly fft: FFT;
  private readonly tmp: Float64Array;
  constructor(readonly n: number) {
    this.fft = new FFT(n);
    this.tmp = new Float64Array(2 * n);
  }

  run(data: Float64Array, lines: number, inverse: boolean): void {
    const len = 2 * this.n;
    for (let l = 0; l < lines; l++) {
      const line = data.subarray(l * len, (l + 1) * len);
      if (inverse) {
        this.fft.inverseTransform(this.tmp, line);
        for (let i = 0; i < len; i++) line[i] = this.tmp[i]! * this.n;
      } else {
        this.fft.transform(this.tmp, line);
        line.set(this.tmp);
      }
    }
  }
}

async function runFt(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  const { mpi } = ctx;
  const real = !ctx.skeleton;
  const cls = FT_CLASSES[p.class as string]!;
  const { nx, ny, nz } = cls;
  const niter = (p.iterations as number) || cls.niter;
  const [np1, np2] = ftGrid(nx, ny, nz, mpi.size);
  const cart = (await mpi.cartCreate([np1, np2], [false, false])) as CartComm;
  const comm1 = await cart.cartSub([true, false]);
  const comm2 = await cart.cartSub([false, true]);
  const [p1, p2] = cart.coords as [number, number];
  // x-pencils [kl][jl][i]; y-pencils [kl][il][j]; z-pencils [jl][il][k]
  const mj = ny / np1; // j block of the x-pencils
  const mk = nz / np2; // k block of the x- and y-pencils
  const mi = nx / np1; // i block of the y- and z-pencils
  const mj2 = ny / np2; // j block of the z-pencils
  const points = (nx * ny * nz) / mpi.size;
  const len = 2 * points;
  const u0 = ctx.alloc(Float64Array, len);
  const u1 = ctx.alloc(Float64Array, len);
  const send = ctx.alloc(Float64Array, len);
  const recv = ctx.alloc(Float64Array, len);
  const lx = new Lines(nx);
  const ly = new Lines(ny);
  const lz = new Lines(nz);
  let compute = 0;
  const work = async (flops: number, bytes: number): Promise<void> => {
    const t = ctx.now();
    await ctx.compute({ flops, bytes });
    compute += ctx.now() - t;
  };
  const lineFft = async (lines: Lines, data: Float64Array, inverse: boolean): Promise<void> => {
    const count = points / lines.n;
    if (real) lines.run(data, count, inverse);
    await work(count * fftFlops(lines.n), 2 * 16 * points);
  };
  const exchange = async (comm: Comm): Promise<void> => {
    await work(0, PACK_BYTES * points);
    if (comm.size > 1) await comm.alltoall(send, recv);
    else if (real) recv.set(send);
    await work(0, PACK_BYTES * points);
  };
  const at = (i: number): number => 2 * i;
  const copy = (dst: Float64Array, d: number, src: Float64Array, s: number): void => {
    dst[at(d)] = src[at(s)]!;
    dst[at(d) + 1] = src[at(s) + 1]!;
  };

  /** x-pencils -> y-pencils inside comm1 (forward) or back (inverse); block q holds [kl][jl][il]. */
  const transposeXY = async (data: Float64Array, toY: boolean): Promise<void> => {
    const block = mk * mj * mi;
    if (real && toY) for (let q = 0; q < np1; q++) for (let kl = 0; kl < mk; kl++) for (let jl = 0; jl < mj; jl++) for (let il = 0; il < mi; il++) copy(send, q * block + (kl * mj + jl) * mi + il, data, (kl * mj + jl) * nx + q * mi + il);
    if (real && !toY) for (let q = 0; q < np1; q++) for (let kl = 0; kl < mk; kl++) for (let jl = 0; jl < mj; jl++) for (let il = 0; il < mi; il++) copy(send, q * block + (kl * mj + jl) * mi + il, data, (kl * mi + il) * ny + q * mj + jl);
    await exchange(comm1);
    if (real && toY) for (let s = 0; s < np1; s++) for (let kl = 0; kl < mk; kl++) for (let jl = 0; jl < mj; jl++) for (let il = 0; il < mi; il++) copy(data, (kl * mi + il) * ny + s * mj + jl, recv, s * block + (kl * mj + jl) * mi + il);
    if (real && !toY) for (let s = 0; s < np1; s++) for (let kl = 0; kl < mk; kl++) for (let jl = 0; jl < mj; jl++) for (let il = 0; il < mi; il++) copy(data, (kl * mj + jl) * nx + s * mi + il, recv, s * block + (kl * mj + jl) * mi + il);
  };
  /** y-pencils -> z-pencils inside comm2 (forward) or back (inverse); block q holds [kl][il][jl]. */
  const transposeYZ = async (data: Float64Array, toZ: boolean): Promise<void> => {
    const block = mk * mi * mj2;
    if (real && toZ) for (let q = 0; q < np2; q++) for (let kl = 0; kl < mk; kl++) for (let il = 0; il < mi; il++) for (let jl = 0; jl < mj2; jl++) copy(send, q * block + (kl * mi + il) * mj2 + jl, data, (kl * mi + il) * ny + q * mj2 + jl);
    if (real && !toZ) for (let q = 0; q < np2; q++) for (let kl = 0; kl < mk; kl++) for (let il = 0; il < mi; il++) for (let jl = 0; jl < mj2; jl++) copy(send, q * block + (kl * mi + il) * mj2 + jl, data, (jl * mi + il) * nz + q * mk + kl);
    await exchange(comm2);
    if (real && toZ) for (let s = 0; s < np2; s++) for (let kl = 0; kl < mk; kl++) for (let il = 0; il < mi; il++) for (let jl = 0; jl < mj2; jl++) copy(data, (jl * mi + il) * nz + s * mk + kl, recv, s * block + (kl * mi + il) * mj2 + jl);
    if (real && !toZ) for (let s = 0; s < np2; s++) for (let kl = 0; kl < mk; kl++) for (let il = 0; il < mi; il++) for (let jl = 0; jl < mj2; jl++) copy(data, (kl * mi + il) * ny + s * mj2 + jl, recv, s * block + (kl * mi + il) * mj2 + jl);
  };
  const forward = async (data: Float64Array): Promise<void> => {
    await lineFft(lx, data, false);
    await transposeXY(data, true);
    await lineFft(ly, data, false);
    await transposeYZ(data, true);
    await lineFft(lz, data, false);
  };
  const inverse = async (data: Float64Array): Promise<void> => {
    await lineFft(lz, data, true);
    await transposeYZ(data, false);
    await lineFft(ly, data, true);
    await transposeXY(data, false);
    await lineFft(lx, data, true);
  };

  // ft.f's initial conditions: point (i, j, k) takes draws 2g+1 and 2g+2 of the generator, g = (k ny + j) nx + i
  if (real) {
    const values = new Float64Array(2 * nx);
    for (let kl = 0; kl < mk; kl++) {
      for (let jl = 0; jl < mj; jl++) {
        const g = ((p2 * mk + kl) * ny + p1 * mj + jl) * nx;
        const state = { x: NPB_SEED };
        randlc(state, ipow46(NPB_A, 2 * g));
        for (let e = 0; e < 2 * nx; e++) values[e] = randlc(state, NPB_A);
        u0.set(values, 2 * (kl * mj + jl) * nx);
      }
    }
  }
  // the twiddle factors of the z-pencils, [jl][il][k]
  const twiddle = real ? new Float64Array(points) : null;
  if (twiddle) {
    const wave = (v: number, n: number): number => (v < n / 2 ? v : v - n) ** 2;
    const ap = -4 * ALPHA * Math.PI ** 2;
    for (let jl = 0; jl < mj2; jl++) for (let il = 0; il < mi; il++) for (let k = 0; k < nz; k++) twiddle[(jl * mi + il) * nz + k] = Math.exp(ap * (wave(p1 * mi + il, nx) + wave(p2 * mj2 + jl, ny) + wave(k, nz)));
  }
  const sums: [number, number][] = [];
  const chk = new Float64Array(2);
  const all = new Float64Array(2);

  await cart.barrier();
  const start = ctx.now();
  await forward(u0);
  for (let t = 1; t <= niter; t++) {
    if (twiddle) for (let e = 0; e < points; e++) {
      u0[2 * e]! *= twiddle[e]!;
      u0[2 * e + 1]! *= twiddle[e]!;
    }
    if (real) u1.set(u0);
    await work(EVOLVE.flops * points, EVOLVE.bytes * points);
    await inverse(u1);
    // the checksum: points (j mod nx, 3j mod ny, 5j mod nz), j = 1 .. 1024, of the x-pencils, over N
    chk.fill(0);
    if (real) for (let j = 1; j <= 1024; j++) {
      const q = j % nx;
      const jl = ((3 * j) % ny) - p1 * mj;
      const kl = ((5 * j) % nz) - p2 * mk;
      if (jl < 0 || jl >= mj || kl < 0 || kl >= mk) continue;
      chk[0]! += u1[2 * ((kl * mj + jl) * nx + q)]!;
      chk[1]! += u1[2 * ((kl * mj + jl) * nx + q) + 1]!;
    }
    const total = nx * ny * nz;
    chk[0]! /= total;
    chk[1]! /= total;
    await cart.reduce(chk, cart.rank === 0 ? all : null, mpi.SUM, 0);
    sums.push([all[0]!, all[1]!]);
  }
  const elapsed = ctx.now() - start;
  if (cart.rank !== 0) return undefined;
  const ref = FT_CHECKSUMS[p.class as string];
  let check: string = SKELETON_CHECK;
  if (real) {
    if (!ref) check = `not checked (no reference checksums of class ${p.class as string} here)`;
    else {
      sums.forEach(([re, im], t) => {
        if (t >= ref.length) return;
        const [rr, ri] = ref[t]!;
        const err = Math.hypot(re - rr, im - ri) / Math.hypot(rr, ri);
        if (!(err <= EPSILON)) throw new Error(`npb-ft: verification failed: the checksum of time step ${t + 1}, ${re} + ${im}i, differs from NPB's ${rr} + ${ri}i by ${err.toExponential(3)} (tolerance ${EPSILON})`);
      });
      check = niter >= ref.length ? 'passed' : `passed (${niter} of ${ref.length} time steps)`;
    }
  }
  const n = nx * ny * nz;
  const mops = (n * (14.8157 + 7.19641 * Math.log(n) + (5.23518 + 7.21113 * Math.log(n)) * niter)) / elapsed;
  const last = sums[sums.length - 1] ?? [0, 0];
  return {
    rows: [
      {
        ranks: mpi.size,
        class: p.class as string,
        grid: `${nx}x${ny}x${nz}`,
        procGrid: `${np1}x${np2}`,
        iterations: niter,
        timeUs: round(elapsed),
        computeUs: round(compute),
        commUs: round(elapsed - compute),
        mops: round(mops),
        ...(real ? { checksumRe: round(last[0], 13), checksumIm: round(last[1], 13) } : {}),
        check,
      },
    ],
  };
}
