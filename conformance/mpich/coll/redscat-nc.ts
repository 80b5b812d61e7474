// The non-commutative ops shared by MPICH's redscat2.c and red_scat_block2.c: left(x, y) = x,
// right(x, y) = y (each counting an error when its operands come out of rank order) and a sum
// marked non-commutative.
import { userOp, type MTest } from '../mtest.ts';
import type { Op } from '../../../runtime/mpi/mpi.ts';

/** The three ops, and the error count their bodies add to. */
export function ncOps(mt: MTest): { left: Op; right: Op; ncSum: Op; errors: () => number } {
  let err = 0;
  const left = (a: Int32Array, b: Int32Array, count: number): void => {
    for (let i = 0; i < count; ++i) {
      if (a[i]! > b[i]!) ++err;
      b[i] = a[i]!;
    }
  };
  const right = (a: Int32Array, b: Int32Array, count: number): void => {
    for (let i = 0; i < count; ++i) {
      if (a[i]! > b[i]!) ++err;
      b[i] = b[i]!;
    }
  };
  const ncSum = (a: Int32Array, b: Int32Array, count: number): void => {
    for (let i = 0; i < count; ++i) b[i] = a[i]! + b[i]!;
  };
  return { left: userOp(mt.mpi, left, false), right: userOp(mt.mpi, right, false), ncSum: userOp(mt.mpi, ncSum, false), errors: () => err };
}
