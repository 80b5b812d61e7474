import FFT from 'fft.js';
import type { Comm } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import type { ParamSpec, ParamValues } from './app.ts';

/** Largest relative error (max |result - reference| over max |reference|) the FFT apps accept. */
export const FFT_TOLERANCE = 1e-9;

/** Bytes of one complex double (interleaved re, im). */
export const COMPLEX_BYTES = 16;

/** True for 1, 2, 4, 8, ... */
export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
}

/** Throws a RangeError naming parameter `n` of `app` unless it is a power of two. */
export function checkPowerOfTwo(app: string, p: ParamValues): void {
  const n = p.n as number;
  if (!isPowerOfTwo(n) || n < 2) throw new RangeError(`parameter n=${n} of app ${app}: must be a power of two (at least 2)`);
}

/** Flops of one complex 1-D FFT of length `n` (the usual 5 n log2 n). */
export function fftFlops(n: number): number {
  return 5 * n * Math.log2(n);
}

/** A 32-bit integer hash (lowbias32) of `x`. */
function hash32(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Writes the input value at global linear index `g` (re, im in [-0.5, 0.5)) into `out[at]`, `out[at + 1]`. */
export function inputValue(g: number, out: Float64Array, at: number): void {
  out[at] = hash32(2 * g + 1) / 2 ** 32 - 0.5;
  out[at + 1] = hash32(2 * g + 2) / 2 ** 32 - 0.5;
}

/** In-place complex FFTs of contiguous lines of one length (fft.js radix-4 underneath). */
export class LineFft {
  private readonly fft: FFT;
  private readonly tmp: Float64Array;
  constructor(readonly n: number) {
    this.fft = new FFT(n);
    this.tmp = new Float64Array(2 * n);
  }

  /** Transforms `lines` consecutive lines of `n` interleaved complex values starting at `data[0]`. */
  lines(data: Float64Array, lines: number): void {
    const len = 2 * this.n;
    for (let l = 0; l < lines; l++) {
      const line = data.subarray(l * len, (l + 1) * len);
      this.fft.transform(this.tmp, line);
      line.set(this.tmp);
    }
  }

  /** Transforms `src`'s lines into `dst` (out of place; same layout). */
  linesInto(dst: Float64Array, src: Float64Array, lines: number): void {
    const len = 2 * this.n;
    for (let l = 0; l < lines; l++) this.fft.transform(dst.subarray(l * len, (l + 1) * len), src.subarray(l * len, (l + 1) * len));
  }
}

/** Row-major strides (in complex elements) of an array of `extents`. */
function strides(extents: readonly number[]): number[] {
  const s = new Array<number>(extents.length).fill(1);
  for (let d = extents.length - 2; d >= 0; d--) s[d] = s[d + 1]! * extents[d + 1]!;
  return s;
}

/** Visits every index of `extents` (row-major, last axis fastest) with its counters. */
function forEachIndex(extents: readonly number[], visit: (idx: readonly number[]) => void): void {
  const idx = new Array<number>(extents.length).fill(0);
  if (extents.some((e) => e === 0)) return;
  for (;;) {
    visit(idx);
    let d = extents.length - 1;
    while (d >= 0 && ++idx[d]! === extents[d]!) idx[d--] = 0;
    if (d < 0) return;
  }
}

/** Complex array of `extents` with its axes reordered: output axis k is input axis `order[k]`. */
export function permuteAxes(data: Float64Array, extents: readonly number[], order: readonly number[]): Float64Array {
  const inStride = strides(extents);
  const outExtents = order.map((a) => extents[a]!);
  const out = new Float64Array(data.length);
  let o = 0;
  forEachIndex(outExtents, (idx) => {
    let i = 0;
    for (let k = 0; k < order.length; k++) i += idx[k]! * inStride[order[k]!]!;
    out[o++] = data[2 * i]!;
    out[o++] = data[2 * i + 1]!;
  });
  return out;
}

/**
 * A serial reference: the `d`-D FFT (`d` = ranges.length, every axis `n` long) of the whole
 * input, restricted to the index `ranges` [lo, hi) of each axis, row-major over the ranges.
 * Axes are transformed from the last to the first, each restricted to its range right after its
 * transform (a transform along one axis does not mix the others), so a rank that owns a small
 * part pays for little more than the first axis.
 */
export function referenceFft(n: number, ranges: readonly (readonly [number, number])[]): Float64Array {
  const extents = ranges.map(() => n);
  const total = n ** ranges.length;
  let data: Float64Array = new Float64Array(2 * total);
  for (let g = 0; g < total; g++) inputValue(g, data, 2 * g);
  const line = new LineFft(n);
  for (let a = ranges.length - 1; a >= 0; a--) {
    // bring axis a last, transform contiguous lines, put it back, keep its range
    const order = extents.map((_, k) => k).filter((k) => k !== a);
    order.push(a);
    const moved = permuteAxes(data, extents, order);
    line.lines(moved, moved.length / (2 * n));
    const back = order.map((_, k) => order.indexOf(k));
    data = permuteAxes(moved, order.map((k) => extents[k]!), back);
    const [lo, hi] = ranges[a]!;
    if (lo !== 0 || hi !== n) {
      const kept = extents.map((e, k) => (k === a ? hi - lo : e));
      const out = new Float64Array(2 * kept.reduce((x, y) => x * y, 1));
      const s = strides(extents);
      let o = 0;
      forEachIndex(kept, (idx) => {
        let i = 0;
        for (let k = 0; k < idx.length; k++) i += (k === a ? idx[k]! + lo : idx[k]!) * s[k]!;
        out[o++] = data[2 * i]!;
        out[o++] = data[2 * i + 1]!;
      });
      data = out;
      extents[a] = hi - lo;
    }
  }
  return data;
}

/**
 * Compares a rank's result with its expected values (same layout) on every rank of `comm`; throws
 * on every rank if the largest error over all ranks exceeds FFT_TOLERANCE times the largest
 * expected magnitude. Returns that relative error. `expected` null (a skeleton run): the same
 * reduction runs, so the time is that of a checked run, but nothing is compared (returns NaN).
 */
export async function verifyFft(app: string, ctx: RankContext, comm: Comm, actual: Float64Array, expected: Float64Array | null): Promise<number> {
  let err = 0;
  let scale = 0;
  for (let i = 0; expected && i < actual.length; i += 2) {
    const dr = actual[i]! - expected[i]!;
    const di = actual[i + 1]! - expected[i + 1]!;
    err = Math.max(err, Math.hypot(dr, di));
    scale = Math.max(scale, Math.hypot(expected[i]!, expected[i + 1]!));
  }
  if (Number.isNaN(err)) err = Infinity;
  const all = new Float64Array(2);
  await comm.allreduce(Float64Array.of(err, scale), all, ctx.mpi.MAX);
  if (!expected) return NaN;
  const rel = all[0]! / all[1]!;
  if (!(rel <= FFT_TOLERANCE)) throw new Error(`${app}: check failed: the result differs from a serial FFT of the same input by ${rel.toExponential(3)} (relative, tolerance ${FFT_TOLERANCE})`);
  return rel;
}

/** A sum that depends on every value and its position (equal outputs give equal checksums). */
export function checksum(data: Float64Array): number {
  let s = 0;
  for (let i = 0; i < data.length; i++) s += data[i]! * ((i % 13) + 1);
  return s;
}

/** Parameters that fix a 2-D process grid (0: chosen by dimsCreate). */
export const GRID_PARAMS: Readonly<Record<'gridRows' | 'gridCols', ParamSpec>> = {
  gridRows: { type: 'int', default: 0, min: 0, help: 'process grid rows (0: from MPI_Dims_create)' },
  gridCols: { type: 'int', default: 0, min: 0, help: 'process grid columns (0: from MPI_Dims_create)' },
};

/**
 * The 2-D process grid of `size` ranks from parameters gridRows and gridCols (0 entries filled as
 * MPI_Dims_create does); throws a RangeError naming the parameter that cannot fit the rank count.
 */
export function processGrid(app: string, size: number, rows: number, cols: number, dimsCreate: (n: number, d: number[]) => number[]): [number, number] {
  if (rows > 0 && size % rows !== 0) throw new RangeError(`parameter gridRows=${rows} of app ${app}: does not divide the ${size} ranks`);
  if (cols > 0 && size % cols !== 0) throw new RangeError(`parameter gridCols=${cols} of app ${app}: does not divide the ${size} ranks`);
  if (rows > 0 && cols > 0 && rows * cols !== size) throw new RangeError(`parameters gridRows=${rows} and gridCols=${cols} of app ${app}: a ${rows}x${cols} grid is ${rows * cols} ranks, not ${size}`);
  const d = dimsCreate(size, [rows, cols]);
  return [d[0]!, d[1]!];
}

/** Figures of a timed section over all ranks of a communicator (per iteration where the caller divides). */
export interface PhaseTimes {
  /** The slowest rank's time between the barriers. */
  readonly timeUs: number;
  /** Compute and comm time of the busiest rank (largest compute + comm), so their sum is at most timeUs. */
  readonly computeUs: number;
  readonly commUs: number;
}

/** Gathers every rank's time, compute and comm at rank 0 of `comm` and returns the run's figures there (null elsewhere). */
export async function gatherTimes(comm: Comm, mine: PhaseTimes): Promise<PhaseTimes | null> {
  const root = comm.rank === 0;
  const all = root ? new Float64Array(3 * comm.size) : null;
  await comm.gather(Float64Array.of(mine.timeUs, mine.computeUs, mine.commUs), all, 0);
  if (!all) return null;
  let timeUs = 0;
  let busiest = 0;
  for (let r = 0; r < comm.size; r++) {
    timeUs = Math.max(timeUs, all[3 * r]!);
    if (all[3 * r + 1]! + all[3 * r + 2]! > all[3 * busiest + 1]! + all[3 * busiest + 2]!) busiest = r;
  }
  return { timeUs, computeUs: all[3 * busiest + 1]!, commUs: all[3 * busiest + 2]! };
}
