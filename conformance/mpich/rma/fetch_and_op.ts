// MPICH test/mpi/rma/fetch_and_op.c, built as fetch_and_op_<type>[_hwacc|_accop_hwacc]: MPI_Fetch_and_op
// with MPI_SUM and MPI_NO_OP on one element type, to self, to the next rank, with every rank
// contending for rank 0, and all-to-all in fence, lock_all and lock_all+flush epochs. The _hwacc
// builds pass the hint disable_shm_accumulate, the _accop_hwacc ones which_accumulate_ops=sum,no_op
// too. The long double builds are left out (no long double in TypeScript).
import type { Datatype } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';

const ITER = 100;

type Num = number | bigint;
type Arr = Int8Array | Int16Array | Int32Array | BigInt64Array | Float64Array;

/** One build's element type: TYPE_C, TYPE_MPI, and C's conversion of an int to TYPE_C. */
interface FopType {
  readonly make: (n: number) => Arr;
  readonly type: (mt: MTest) => Datatype;
  readonly cast: (v: number) => Num;
}

const TYPES = {
  char: { make: (n) => new Int8Array(n), type: (mt) => mt.mpi.CHAR, cast: (v) => (v << 24) >> 24 },
  short: { make: (n) => new Int16Array(n), type: (mt) => mt.mpi.SHORT, cast: (v) => (v << 16) >> 16 },
  int: { make: (n) => new Int32Array(n), type: (mt) => mt.mpi.INT, cast: (v) => v | 0 },
  long: { make: (n) => new BigInt64Array(n), type: (mt) => mt.mpi.LONG, cast: (v) => BigInt(v) },
  double: { make: (n) => new Float64Array(n), type: (mt) => mt.mpi.DOUBLE, cast: (v) => v },
} satisfies Record<string, FopType>;

/** CMP(x, y): x - (TYPE_C) y > 1.0e-9. */
function cmp(t: FopType, x: Num, y: number): boolean {
  const c = t.cast(y);
  return typeof x === 'bigint' ? x - (c as bigint) > 0n : x - (c as number) > 1.0e-9;
}

function fetchAndOp(kind: keyof typeof TYPES, hwacc: boolean, accops: boolean): (mt: MTest) => Promise<MTestResult> {
  const T: FopType = TYPES[kind];
  return async (mt) => {
    const { mpi } = mt;
    const sq = new Squelch(mt);
    let errors = 0;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const TYPE_MPI = T.type(mt);
    const valPtr = T.make(nproc);
    const resPtr = T.make(nproc);
    const one = (v: number): Arr => {
      const a = T.make(1);
      a[0] = T.cast(v) as never;
      return a;
    };
    let info = mpi.INFO_NULL as ReturnType<typeof mpi.infoCreate> | null;
    if (hwacc) {
      info = mpi.infoCreate();
      info.set('disable_shm_accumulate', 'true');
    }
    if (accops) {
      info ??= mpi.infoCreate();
      info.set('which_accumulate_ops', 'sum,no_op');
    }
    const win = await mpi.winCreate(valPtr, valPtr.BYTES_PER_ELEMENT, info);
    info?.free();
    const resetVars = async (): Promise<void> => {
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      for (let i = 0; i < nproc; i++) {
        valPtr[i] = T.cast(0) as never;
        resPtr[i] = T.cast(-1) as never;
      }
      await win.unlock(rank);
      await mpi.barrier();
    };
    // self communication
    await resetVars();
    for (let i = 0; i < ITER; i++) {
      const result = one(-1);
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      await win.fetchAndOp(one(1), result, TYPE_MPI, rank, 0, mpi.SUM);
      await win.unlock(rank);
    }
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    if (cmp(T, valPtr[0]!, ITER)) {
      sq.printf(`${rank}->${rank} -- SELF: expected ${T.cast(ITER)}, got ${valPtr[0]}`);
      errors++;
    }
    await win.unlock(rank);
    // neighbour communication
    await resetVars();
    const next = (rank + 1) % nproc;
    for (let i = 0; i < ITER; i++) {
      const result = one(-1);
      await win.lock(mpi.LOCK_EXCLUSIVE, next, 0);
      await win.fetchAndOp(one(1), result, TYPE_MPI, next, 0, mpi.SUM);
      await win.unlock(next);
      if (cmp(T, result[0]!, i)) {
        sq.printf(`${next}->${rank} -- NEIGHBOR[${i}]: expected result ${T.cast(i)}, got ${result[0]}`);
        errors++;
      }
    }
    await mpi.barrier();
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    if (cmp(T, valPtr[0]!, ITER)) {
      sq.printf(`${next}->${rank} -- NEIGHBOR: expected ${T.cast(ITER)}, got ${valPtr[0]}`);
      errors++;
    }
    await win.unlock(rank);
    // contention
    await resetVars();
    if (rank !== 0) {
      for (let i = 0; i < ITER; i++) {
        const result = T.make(1);
        await win.lock(mpi.LOCK_EXCLUSIVE, 0, 0);
        await win.fetchAndOp(one(1), result, TYPE_MPI, 0, 0, mpi.SUM);
        await win.unlock(0);
      }
    }
    await mpi.barrier();
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    if (rank === 0 && nproc > 1 && cmp(T, valPtr[0]!, ITER * (nproc - 1))) {
      sq.printf(`*->${rank} - CONTENTION: expected=${T.cast(ITER * (nproc - 1))} val=${valPtr[0]}`);
      errors++;
    }
    await win.unlock(rank);
    // all-to-all in three kinds of epoch
    const allToAll = async (label: string, epoch: (ops: () => Promise<void>) => Promise<void>, flush: boolean): Promise<void> => {
      await resetVars();
      for (let i = 0; i < ITER; i++) {
        await epoch(async () => {
          for (let j = 0; j < nproc; j++) {
            await win.fetchAndOp(one(rank), resPtr.subarray(j, j + 1), TYPE_MPI, j, rank, mpi.SUM);
            if (flush) await win.flush(j);
          }
        });
        await mpi.barrier();
        for (let j = 0; j < nproc; j++) {
          if (cmp(T, resPtr[j]!, i * rank)) {
            sq.printf(`${rank}->${j} -- ALL-TO-ALL (${label}) [${i}]: expected result ${T.cast(i * rank)}, got ${resPtr[j]}`);
            errors++;
          }
        }
      }
      await mpi.barrier();
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      for (let i = 0; i < nproc; i++) {
        if (cmp(T, valPtr[i]!, ITER * i)) {
          sq.printf(`${i}->${rank} -- ALL-TO-ALL (${label}): expected ${T.cast(ITER * i)}, got ${valPtr[i]}`);
          errors++;
        }
      }
      await win.unlock(rank);
    };
    const fence = async (ops: () => Promise<void>): Promise<void> => {
      await win.fence(mpi.MODE_NOPRECEDE);
      await ops();
      await win.fence(mpi.MODE_NOSUCCEED);
    };
    const lockAll = async (ops: () => Promise<void>): Promise<void> => {
      await win.lockAll(0);
      await ops();
      await win.unlockAll();
    };
    await allToAll('FENCE', fence, false);
    await allToAll('LOCK-ALL', lockAll, false);
    await allToAll('LOCK-ALL+FLUSH', lockAll, true);
    // NO_OP, to the next rank and to self
    for (const [label, target] of [['NOP', next], ['NOP_SELF', rank]] as const) {
      await mpi.barrier();
      await resetVars();
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      for (let i = 0; i < nproc; i++) valPtr[i] = T.cast(rank) as never;
      await win.unlock(rank);
      await mpi.barrier();
      for (let i = 0; i < ITER; i++) {
        await win.lock(mpi.LOCK_EXCLUSIVE, target, 0);
        await win.fetchAndOp(null, resPtr, TYPE_MPI, target, 0, mpi.NO_OP);
        await win.unlock(target);
        if (resPtr[0] !== T.cast(target)) {
          sq.printf(`${target}->${rank} -- ${label}[${i}]: expected ${T.cast(target)}, got ${resPtr[0]}`);
          errors++;
        }
      }
    }
    await win.free();
    return mt.finalize(errors);
  };
}

export const fetchAndOpChar = fetchAndOp('char', false, false);
export const fetchAndOpShort = fetchAndOp('short', false, false);
export const fetchAndOpInt = fetchAndOp('int', false, false);
export const fetchAndOpLong = fetchAndOp('long', false, false);
export const fetchAndOpDouble = fetchAndOp('double', false, false);
export const fetchAndOpCharHwacc = fetchAndOp('char', true, false);
export const fetchAndOpShortHwacc = fetchAndOp('short', true, false);
export const fetchAndOpIntHwacc = fetchAndOp('int', true, false);
export const fetchAndOpLongHwacc = fetchAndOp('long', true, false);
export const fetchAndOpDoubleHwacc = fetchAndOp('double', true, false);
export const fetchAndOpCharAccopHwacc = fetchAndOp('char', true, true);
export const fetchAndOpShortAccopHwacc = fetchAndOp('short', true, true);
export const fetchAndOpIntAccopHwacc = fetchAndOp('int', true, true);
export const fetchAndOpLongAccopHwacc = fetchAndOp('long', true, true);
export const fetchAndOpDoubleAccopHwacc = fetchAndOp('double', true, true);
