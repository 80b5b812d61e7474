// MPICH test/mpi/rma/derived_acc_flush_local.c: rank 1, then rank 2, accumulates (SUM) a vector of
// 5000 blocks of 199 ints (stride 200) of ones into 995,000 contiguous ints of rank 0's window 500
// times under a shared lock, with MPI_Win_flush_local after each; every element must end at 500.
import type { MTest, MTestResult } from '../mtest.ts';

const DATA_SIZE = 1000000;
const COUNT = 5000;
const BLOCKLENGTH = DATA_SIZE / COUNT;
const STRIDE = BLOCKLENGTH;
const OPS_NUM = 500;

export default async function derivedAccFlushLocal(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const nproc = mpi.size;
  const rank = mpi.rank;
  if (nproc < 3) throw new Error('MPI_Abort: Run this program with at least 3 processes');
  const origMem = mpi.allocMem(4 * DATA_SIZE, mpi.INFO_NULL);
  const tarMem = mpi.allocMem(4 * DATA_SIZE, mpi.INFO_NULL);
  const origBuf = new Int32Array(origMem.buffer, origMem.byteOffset, DATA_SIZE);
  const tarBuf = new Int32Array(tarMem.buffer, tarMem.byteOffset, DATA_SIZE);
  for (let i = 0; i < DATA_SIZE; i++) {
    origBuf[i] = 1;
    tarBuf[i] = 0;
  }
  const derivedDtp = mpi.typeVector(COUNT, BLOCKLENGTH - 1, STRIDE, mpi.INT);
  mpi.typeCommit(derivedDtp);
  const win = await mpi.winCreate(tarMem, 4, mpi.INFO_NULL);
  const check = (): void => {
    if (rank !== 0) return;
    for (let i = 0; i < DATA_SIZE - COUNT; i++) {
      if (tarBuf[i] !== OPS_NUM) {
        if (errs < 10) mt.printf(`tar_buf[${i}] = ${tarBuf[i]}, expected ${OPS_NUM}`);
        errs++;
      }
    }
  };
  for (const origin of [1, 2]) {
    // test between rank 0 and rank `origin`
    if (rank === origin) {
      await win.lock(mpi.LOCK_SHARED, 0, 0);
      for (let i = 0; i < OPS_NUM; i++) {
        await win.accumulate(origBuf, 1, derivedDtp, 0, 0, DATA_SIZE - COUNT, mpi.INT, mpi.SUM);
        await win.flushLocal(0);
      }
      await win.unlock(0);
    }
    await mpi.barrier();
    // check results
    check();
    if (origin === 1) {
      for (let i = 0; i < DATA_SIZE; i++) tarBuf[i] = 0;
      await mpi.barrier();
    }
  }
  await win.free();
  mpi.typeFree(derivedDtp);
  mpi.freeMem(origMem);
  mpi.freeMem(tarMem);
  return mt.finalize(errs);
}
