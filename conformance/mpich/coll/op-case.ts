// The pattern of MPICH's op*.c tests (opband.c ... opsum.c): a reduction of three elements of one
// type to rank 0, checked there. C's char, short, int, long and long long map to typed arrays of
// their width on LP64; a value is compared as C compares it, both sides in the element's type.
import type { MTest } from '../mtest.ts';
import type { Op, ReduceArray } from '../../../runtime/mpi/mpi.ts';

/** A typed-array class. */
export type Ctor = { new (n: number): ReduceArray };

/** `v` converted to the element type of `T`, as a C assignment converts it. */
export function cast(T: Ctor, v: number): number | bigint {
  const a = new T(1);
  if (a instanceof BigInt64Array || a instanceof BigUint64Array) a[0] = BigInt(v);
  else a[0] = v;
  return a[0]!;
}

/** What rank 0 got: element i, compared as C compares it. */
export class Got {
  constructor(
    private readonly T: Ctor,
    private readonly out: ReduceArray,
  ) {}
  /** Element i equals v (both in the element type). */
  is(i: number, v: number): boolean {
    return this.out[i] === cast(this.T, v);
  }
  /** Element i is non-zero (C's truth). */
  truthy(i: number): boolean {
    const x = this.out[i]!;
    return x !== 0 && x !== 0n;
  }
  /** Element i as a number, for messages. */
  at(i: number): number {
    return Number(this.out[i]!);
  }
}

/**
 * MPI_Reduce of `inp` (elements of `T`) with `op` to rank 0, the output starting as `out0`
 * ({0, 1, 1} in the tests); rank 0 gets the result, the others null.
 */
export async function reduceTo0(mt: MTest, T: Ctor, op: Op, inp: readonly number[], out0: readonly number[] = [0, 1, 1]): Promise<Got | null> {
  const i = new T(inp.length);
  const o = new T(out0.length);
  inp.forEach((v, k) => (i[k] = cast(T, v) as never));
  out0.forEach((v, k) => (o[k] = cast(T, v) as never));
  await mt.mpi.reduce(i, o, op, 0);
  return mt.mpi.rank === 0 ? new Got(T, o) : null;
}
