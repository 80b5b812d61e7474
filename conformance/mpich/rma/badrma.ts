// MPICH test/mpi/rma/badrma.c: rank 0 calls MPI_Put, MPI_Get, MPI_Accumulate and
// MPI_Get_accumulate (SUM) on rank 1 with every combination of zero counts and zero-size types
// (a contiguous type of 0 ints) among MPI_INT, MPI_DOUBLE and a contiguous type of 1 int, and with
// NULL buffers where no data moves, in one fence epoch. Nothing moves, so nothing may fail: the
// window's handler is MPI_ERRORS_ARE_FATAL, and the C source ignores the counts it returns.
import type { Datatype } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const SIZE = 100;

export default async function badrma(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const nprocs = mpi.size;
  const rank = mpi.rank;
  if (nprocs < 2) throw new Error('MPI_Abort: Run this program with 2 or more processes');
  const winBuf = new Int32Array(SIZE);
  const originBuf = new Int32Array(SIZE);
  const resultBuf = new Int32Array(SIZE);
  // types[0] is of zero size; everything else is of non-zero size
  const types: Datatype[] = [mpi.typeContiguous(0, mpi.INT), mpi.typeContiguous(1, mpi.INT), mpi.INT, mpi.DOUBLE];
  mpi.typeCommit(types[0]!);
  mpi.typeCommit(types[1]!);
  const win = await mpi.winCreate(winBuf, 4, mpi.INFO_NULL);
  await win.fence(0);
  // under MPI_ERRORS_ARE_FATAL a failing call ends the run (the C source's `if (ret) errs++` never counts)
  const doTest = async (originCount: number, originType: Datatype, resultCount: number, resultType: Datatype, targetCount: number, targetType: Datatype): Promise<void> => {
    const call = async (f: () => Promise<unknown>): Promise<void> => {
      await f();
    };
    await call(() => win.put(originBuf, originCount, originType, 1, 0, targetCount, targetType));
    await call(() => win.get(originBuf, originCount, originType, 1, 0, targetCount, targetType));
    await call(() => win.accumulate(originBuf, originCount, originType, 1, 0, targetCount, targetType, mpi.SUM));
    await call(() => win.getAccumulate(originBuf, originCount, originType, resultBuf, resultCount, resultType, 1, 0, targetCount, targetType, mpi.SUM));
    const originTypeSize = mpi.typeSize(originType);
    const resultTypeSize = mpi.typeSize(resultType);
    if (originCount === 0 || originTypeSize === 0) {
      const nul = null as unknown as Int32Array;
      await call(() => win.put(nul, originCount, originType, 1, 0, targetCount, targetType));
      await call(() => win.get(nul, originCount, originType, 1, 0, targetCount, targetType));
      await call(() => win.accumulate(nul, originCount, originType, 1, 0, targetCount, targetType, mpi.SUM));
      await call(() => win.getAccumulate(nul, originCount, originType, resultBuf, resultCount, resultType, 1, 0, targetCount, targetType, mpi.SUM));
      if (resultCount === 0 || resultTypeSize === 0) await call(() => win.getAccumulate(nul, originCount, originType, nul, resultCount, resultType, 1, 0, targetCount, targetType, mpi.SUM));
    }
  };
  if (rank === 0) {
    const t = (i: number): Datatype => types[i]!;
    // zero-count
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) await doTest(0, t(i), 0, t(j), 0, t(k));
    // single zero-size datatype, but non-zero count
    for (let i = 1; i < 4; i++) {
      for (let j = 1; j < 4; j++) {
        await doTest(1, t(0), 0, t(i), 0, t(j));
        await doTest(0, t(i), 1, t(0), 0, t(j));
        await doTest(0, t(i), 0, t(j), 1, t(0));
      }
    }
    // two zero-size datatypes, but non-zero count
    for (let i = 1; i < 4; i++) {
      await doTest(1, t(0), 1, t(0), 0, t(i));
      await doTest(1, t(0), 0, t(i), 1, t(0));
      await doTest(0, t(i), 1, t(0), 1, t(0));
      await doTest(1, t(0), 2, t(0), 0, t(i));
      await doTest(2, t(0), 1, t(0), 0, t(i));
      await doTest(1, t(0), 0, t(i), 2, t(0));
      await doTest(2, t(0), 0, t(i), 1, t(0));
      await doTest(0, t(i), 1, t(0), 2, t(0));
      await doTest(0, t(i), 2, t(0), 1, t(0));
    }
    // three zero-size datatypes, but non-zero count
    await doTest(1, t(0), 1, t(0), 1, t(0));
    await doTest(1, t(0), 1, t(0), 2, t(0));
    await doTest(1, t(0), 2, t(0), 1, t(0));
    await doTest(1, t(0), 2, t(0), 2, t(0));
    await doTest(2, t(0), 1, t(0), 1, t(0));
    await doTest(2, t(0), 1, t(0), 2, t(0));
    await doTest(2, t(0), 2, t(0), 1, t(0));
  }
  await win.fence(0);
  await win.free();
  mpi.typeFree(types[0]!);
  mpi.typeFree(types[1]!);
  return mt.finalize(errs);
}
