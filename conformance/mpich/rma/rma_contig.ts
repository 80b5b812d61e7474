// MPICH test/mpi/rma/rma_contig.c (-iter=N): rank 0 times MPI_Get, MPI_Put and MPI_Accumulate
// (BXOR on ints) of 8 bytes to 2 MiB, one operation per lock epoch, to each rank, under exclusive
// and shared locks with and without MPI_MODE_NOCHECK; N / log2(size) iterations (at least 8) after
// one warm-up. It checks no value: it passes when every epoch completes.
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_DATA_SIZE = 1024 * 128 * 16;
const MAX_NUM_ITERATIONS = 8192 * 4;
const MIN_NUM_ITERATIONS = 8;
const NUM_WARMUP_ITER = 1;

export default async function rmaContig(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const maxNumIterations = mt.argInt('iter', MAX_NUM_ITERATIONS);
  const rank = mpi.rank;
  const nproc = mpi.size;

  const runTest = async (lockMode: number, lockAssert: number): Promise<void> => {
    const mem = mpi.allocMem(MAX_DATA_SIZE, mpi.INFO_NULL);
    const winMem = mpi.allocMem(MAX_DATA_SIZE, mpi.INFO_NULL);
    mem.fill(rank);
    winMem.fill(rank);
    const buf = new Int32Array(mem.buffer, mem.byteOffset, MAX_DATA_SIZE / 4);
    const win = await mpi.winCreate(winMem, 1, mpi.INFO_NULL);
    for (let targetRank = 0; rank === 0 && targetRank < nproc; targetRank++) {
      for (let dataSize = 8; dataSize <= MAX_DATA_SIZE; dataSize *= 2) {
        let numIter = maxNumIterations;
        // scale the number of iterations by log_2 of the data size
        const myLog2 = Math.log2(dataSize);
        if (myLog2) numIter = Math.trunc(numIter / myLog2) < MIN_NUM_ITERATIONS ? MIN_NUM_ITERATIONS : Math.trunc(numIter / myLog2);
        let tGet = 0;
        for (let testIter = 0; testIter < numIter + NUM_WARMUP_ITER; testIter++) {
          if (testIter === NUM_WARMUP_ITER) tGet = mpi.wtime();
          await win.lock(lockMode, targetRank, lockAssert);
          await win.get(mem, dataSize, mpi.BYTE, targetRank, 0, dataSize, mpi.BYTE);
          await win.unlock(targetRank);
        }
        tGet = (mpi.wtime() - tGet) / numIter;
        let tPut = 0;
        for (let testIter = 0; testIter < numIter + NUM_WARMUP_ITER; testIter++) {
          if (testIter === NUM_WARMUP_ITER) tPut = mpi.wtime();
          await win.lock(lockMode, targetRank, lockAssert);
          await win.put(mem, dataSize, mpi.BYTE, targetRank, 0, dataSize, mpi.BYTE);
          await win.unlock(targetRank);
        }
        tPut = (mpi.wtime() - tPut) / numIter;
        let tAcc = 0;
        for (let testIter = 0; testIter < numIter + NUM_WARMUP_ITER; testIter++) {
          if (testIter === NUM_WARMUP_ITER) tAcc = mpi.wtime();
          await win.lock(lockMode, targetRank, lockAssert);
          await win.accumulate(buf, dataSize / 4, mpi.INT, targetRank, 0, dataSize / 4, mpi.INT, mpi.BXOR);
          await win.unlock(targetRank);
        }
        tAcc = (mpi.wtime() - tAcc) / numIter;
        mt.printfMsg(1, `${targetRank} ${dataSize} ${(tGet * 1e6).toFixed(3)} ${(tPut * 1e6).toFixed(3)} ${(tAcc * 1e6).toFixed(3)}`);
      }
    }
    await mpi.barrier();
    await win.free();
    mpi.freeMem(winMem);
    mpi.freeMem(mem);
  };

  await runTest(mpi.LOCK_EXCLUSIVE, 0);
  await runTest(mpi.LOCK_EXCLUSIVE, mpi.MODE_NOCHECK);
  await runTest(mpi.LOCK_SHARED, 0);
  await runTest(mpi.LOCK_SHARED, mpi.MODE_NOCHECK);
  return mt.finalize(0);
}
