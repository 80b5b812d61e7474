// The checking loops that MPICH's test/mpi/rma/strided_*.c tests share: a SUB_XDIM x SUB_YDIM
// patch of an XDIM x YDIM array of doubles (x fastest) holds one value, every element outside it
// another, each mismatch printed through SQUELCH.
import { Squelch } from './squelch.ts';

/** The array and patch sizes of one test. */
export interface Dims {
  readonly xdim: number;
  readonly ydim: number;
  readonly subX: number;
  readonly subY: number;
}

/** The errors of `buf`: the patch must hold `inside`, the rest `outside`. */
export function checkPatch(sq: Squelch, rank: number, buf: Float64Array, d: Dims, inside: number, outside = -1.0): number {
  let errors = 0;
  const check = (i: number, j: number, expected: number): void => {
    const actual = buf[i + j * d.xdim]!;
    if (Math.abs(actual - expected) > 1.0e-10) {
      sq.printf(`${rank}: Data validation failed at [${j}, ${i}] expected=${expected.toFixed(6)} actual=${actual.toFixed(6)}`);
      errors++;
    }
  };
  for (let i = 0; i < d.subX; i++) for (let j = 0; j < d.subY; j++) check(i, j, inside);
  for (let i = d.subX; i < d.xdim; i++) for (let j = 0; j < d.subY; j++) check(i, j, outside);
  for (let i = 0; i < d.xdim; i++) for (let j = d.subY; j < d.ydim; j++) check(i, j, outside);
  return errors;
}
