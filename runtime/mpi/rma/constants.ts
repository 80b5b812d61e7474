import type { Op, ReduceArray } from '../ops.ts';
import { MpiError } from '../request.ts';

/** Lock type of `win.lock` (MPI_LOCK_EXCLUSIVE, MPICH's value): one origin at a time. */
export const LOCK_EXCLUSIVE = 234;
/** Lock type of `win.lock` (MPI_LOCK_SHARED, MPICH's value): any number of origins at once. */
export const LOCK_SHARED = 235;

/** Assert of start, post and lock: the matching post (or no conflicting lock) has already happened (MPI_MODE_NOCHECK). */
export const MODE_NOCHECK = 1024;
/** Assert of fence and post: the local window was not updated by stores since the last synchronisation (MPI_MODE_NOSTORE). */
export const MODE_NOSTORE = 2048;
/** Assert of fence and post: the local window will not be updated by puts or accumulates until the next synchronisation (MPI_MODE_NOPUT). */
export const MODE_NOPUT = 4096;
/** Assert of fence: the fence ends no epoch, no RMA call came before it (MPI_MODE_NOPRECEDE). */
export const MODE_NOPRECEDE = 8192;
/** Assert of fence: no epoch starts, no RMA call follows (MPI_MODE_NOSUCCEED). */
export const MODE_NOSUCCEED = 16384;

/** Asserts each synchronisation call accepts. */
export const ASSERTS: Readonly<Record<string, number>> = {
  fence: MODE_NOSTORE | MODE_NOPUT | MODE_NOPRECEDE | MODE_NOSUCCEED,
  post: MODE_NOCHECK | MODE_NOSTORE | MODE_NOPUT,
  start: MODE_NOCHECK,
  lock: MODE_NOCHECK,
  lockAll: MODE_NOCHECK,
};

/** Checks that `assert` is an OR of the MODE_* flags that `call` accepts (MPI_ERR_ASSERT otherwise). */
export function checkAssert(call: string, assert: number): void {
  const allowed = ASSERTS[call] ?? 0;
  if (!Number.isInteger(assert) || assert < 0 || (assert & ~allowed) !== 0) {
    throw new MpiError('MPI_ERR_ASSERT', `${call}: assert=${assert} is not an OR of the MODE_* flags ${call} accepts (${allowed === 0 ? 'none' : describeAsserts(allowed)})`);
  }
}

function describeAsserts(bits: number): string {
  const names: [number, string][] = [
    [MODE_NOCHECK, 'MODE_NOCHECK'],
    [MODE_NOSTORE, 'MODE_NOSTORE'],
    [MODE_NOPUT, 'MODE_NOPUT'],
    [MODE_NOPRECEDE, 'MODE_NOPRECEDE'],
    [MODE_NOSUCCEED, 'MODE_NOSUCCEED'],
  ];
  return names
    .filter(([b]) => (bits & b) !== 0)
    .map(([, n]) => n)
    .join(', ');
}

/** MPI_REPLACE: the target element becomes the origin's (accumulate's put). */
export const REPLACE: Op = {
  name: 'MPI_REPLACE',
  commutative: false,
  unit: 1,
  apply(inout: ReduceArray, input: ReduceArray): void {
    sameKind('MPI_REPLACE', inout, input);
    (inout as Float64Array).set((input as Float64Array).subarray(0, inout.length));
  },
};

/** MPI_NO_OP: the target element stays (getAccumulate's and fetchAndOp's atomic read). */
export const NO_OP: Op = {
  name: 'MPI_NO_OP',
  commutative: false,
  unit: 1,
  apply(inout: ReduceArray, input: ReduceArray): void {
    sameKind('MPI_NO_OP', inout, input);
  },
};

function sameKind(name: string, a: ReduceArray, b: ReduceArray): void {
  if (a.constructor !== b.constructor || b.length < a.length) {
    throw new MpiError('MPI_ERR_TYPE', `${name}: operands must have the same type and length (got ${a.constructor.name}[${a.length}] and ${b.constructor.name}[${b.length}])`);
  }
}
