// MPICH test/mpi/rma/get_accumulate.c, built as get_accumulate_<type>[_derived]: MPI_Get_accumulate
// of COUNT elements with MPI_SUM to self, to the next rank, with every rank contending for rank 0,
// and all-to-all in fence, lock_all and lock_all+flush epochs; then MPI_NO_OP with no origin buffer
// (also with origin count 0 and no origin datatype) to the next rank and to self. The _derived
// builds pass MPI_Type_contiguous(1, type) for every buffer.
import type { Datatype } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { Squelch } from './squelch.ts';

const ITER = 100;
const COUNT = 5;

type Num = number | bigint;
type Arr = Int16Array | Int32Array | BigInt64Array | Float64Array;

/** One build's element type: TYPE_C, TYPE_MPI_BASE, and C's conversion of an int to TYPE_C. */
interface GaccType {
  readonly make: (n: number) => Arr;
  readonly type: (mt: MTest) => Datatype;
  readonly cast: (v: number) => Num;
}

const TYPES = {
  short: { make: (n) => new Int16Array(n), type: (mt) => mt.mpi.SHORT, cast: (v) => (v << 16) >> 16 },
  int: { make: (n) => new Int32Array(n), type: (mt) => mt.mpi.INT, cast: (v) => v | 0 },
  long: { make: (n) => new BigInt64Array(n), type: (mt) => mt.mpi.LONG, cast: (v) => BigInt(v) },
  double: { make: (n) => new Float64Array(n), type: (mt) => mt.mpi.DOUBLE, cast: (v) => v },
} satisfies Record<string, GaccType>;

function getAccumulate(kind: keyof typeof TYPES, derived: boolean): (mt: MTest) => Promise<MTestResult> {
  const T: GaccType = TYPES[kind];
  return async (mt) => {
    const { mpi } = mt;
    const sq = new Squelch(mt);
    let errors = 0;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const winPtr = T.make(nproc * COUNT);
    const resPtr = T.make(nproc * COUNT);
    const valPtr = T.make(COUNT);
    const base = T.type(mt);
    const TYPE_MPI = derived ? mpi.typeCommit(mpi.typeContiguous(1, base)) : base;
    const win = await mpi.winCreate(winPtr, winPtr.BYTES_PER_ELEMENT, mpi.INFO_NULL);
    const set = (a: Arr, i: number, v: number): void => {
      a[i] = T.cast(v) as never;
    };
    const resetBufs = async (value: number): Promise<void> => {
      await mpi.barrier();
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      for (let i = 0; i < nproc * COUNT; i++) set(winPtr, i, 0);
      await win.unlock(rank);
      // memset(res_ptr, -1, ...)
      new Uint8Array(resPtr.buffer, resPtr.byteOffset, resPtr.byteLength).fill(0xff);
      for (let i = 0; i < COUNT; i++) set(valPtr, i, value);
      await mpi.barrier();
    };
    const gacc = (origin: Arr | null, result: Arr, target: number, disp: number, op = mpi.SUM): Promise<void> =>
      win.getAccumulate(origin, COUNT, TYPE_MPI, result, COUNT, TYPE_MPI, target, disp, COUNT, TYPE_MPI, op);

    // self communication
    await resetBufs(1);
    for (let i = 0; i < ITER; i++) {
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      await gacc(valPtr, resPtr, rank, 0);
      await win.unlock(rank);
    }
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    for (let i = 0; i < COUNT; i++) {
      if (winPtr[i] !== T.cast(ITER)) {
        sq.printf(`${rank}->${rank} -- SELF[${i}]: expected ${T.cast(ITER)}, got ${winPtr[i]}`);
        errors++;
      }
    }
    await win.unlock(rank);

    // neighbour communication
    const next = (rank + 1) % nproc;
    await resetBufs(1);
    for (let i = 0; i < ITER; i++) {
      await win.lock(mpi.LOCK_EXCLUSIVE, next, 0);
      await gacc(valPtr, resPtr, next, 0);
      await win.unlock(next);
    }
    await mpi.barrier();
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    for (let i = 0; i < COUNT; i++) {
      if (winPtr[i] !== T.cast(ITER)) {
        sq.printf(`${next}->${rank} -- NEIGHBOR[${i}]: expected ${T.cast(ITER)}, got ${winPtr[i]}`);
        errors++;
      }
    }
    await win.unlock(rank);

    // contention
    await resetBufs(1);
    if (rank !== 0) {
      for (let i = 0; i < ITER; i++) {
        await win.lock(mpi.LOCK_EXCLUSIVE, 0, 0);
        await gacc(valPtr, resPtr, 0, 0);
        await win.unlock(0);
      }
    }
    await mpi.barrier();
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    if (rank === 0 && nproc > 1) {
      for (let i = 0; i < COUNT; i++) {
        if (winPtr[i] !== T.cast(ITER * (nproc - 1))) {
          sq.printf(`*->${rank} - CONTENTION[${i}]: expected=${T.cast(ITER * (nproc - 1))} val=${winPtr[i]}`);
          errors++;
        }
      }
    }
    await win.unlock(rank);

    // all-to-all in three kinds of epoch
    const allToAll = async (label: string, epoch: (ops: () => Promise<void>) => Promise<void>, flush: boolean): Promise<void> => {
      await resetBufs(rank);
      for (let i = 0; i < ITER; i++) {
        await epoch(async () => {
          for (let j = 0; j < nproc; j++) {
            await gacc(valPtr, resPtr.subarray(j * COUNT), j, rank * COUNT);
            if (flush) await win.flush(j);
          }
        });
        await mpi.barrier();
        for (let j = 0; j < nproc; j++) {
          for (let c = 0; c < COUNT; c++) {
            if (resPtr[j * COUNT + c] !== T.cast(i * rank)) {
              sq.printf(`${rank}->${j} -- ALL-TO-ALL (${label}) [${c}]: iter ${i}, expected result ${T.cast(i * rank)}, got ${resPtr[j * COUNT + c]}`);
              errors++;
            }
          }
        }
      }
      await mpi.barrier();
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      for (let i = 0; i < nproc; i++) {
        for (let c = 0; c < COUNT; c++) {
          if (winPtr[i * COUNT + c] !== T.cast(ITER * i)) {
            sq.printf(`${i}->${rank} -- ALL-TO-ALL (${label}): expected ${T.cast(ITER * i)}, got ${winPtr[i * COUNT + c]}`);
            errors++;
          }
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

    // NO_OP, to the next rank and to self: no origin buffer; and origin count 0; and no origin
    // datatype (phit has no MPI_DATATYPE_NULL: null in its place, which NO_OP ignores)
    const noOrigin: readonly [number, Datatype][] = [[COUNT, TYPE_MPI], [0, TYPE_MPI], [0, null as unknown as Datatype]];
    for (const [label, target] of [['NOP', next], ['NOP_SELF', rank]] as const) {
      await resetBufs(1);
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      for (let i = 0; i < COUNT * nproc; i++) set(winPtr, i, rank);
      await win.unlock(rank);
      await mpi.barrier();
      for (let i = 0; i < ITER; i++) {
        for (const [n, [oc, ot]] of noOrigin.entries()) {
          await win.lock(mpi.LOCK_EXCLUSIVE, target, 0);
          await win.getAccumulate(null, oc, ot, resPtr, COUNT, TYPE_MPI, target, 0, COUNT, TYPE_MPI, mpi.NO_OP);
          await win.unlock(target);
          for (let j = 0; j < COUNT; j++) {
            if (resPtr[j] !== T.cast(target)) {
              sq.printf(`${target}->${rank} -- ${label}(${Math.min(n + 1, 2)})[${i}]: expected ${T.cast(target)}, got ${resPtr[j]}`);
              errors++;
            }
          }
        }
      }
    }

    await win.free();
    if (derived) mpi.typeFree(TYPE_MPI);
    return mt.finalize(errors);
  };
}

export const getAccumulateShort = getAccumulate('short', false);
export const getAccumulateInt = getAccumulate('int', false);
export const getAccumulateLong = getAccumulate('long', false);
export const getAccumulateDouble = getAccumulate('double', false);
export const getAccumulateShortDerived = getAccumulate('short', true);
export const getAccumulateIntDerived = getAccumulate('int', true);
export const getAccumulateLongDerived = getAccumulate('long', true);
export const getAccumulateDoubleDerived = getAccumulate('double', true);
