// MPICH test/mpi/rma/large_acc_flush_local.c: 500 times, a window is made over a 2 MB
// MPI_Alloc_mem'd buffer of every rank, and in a lock_all epoch every rank but 0 accumulates
// (MPI_SUM of MPI_CHARs) 256 KB, 512 KB, 1 MB and 2 MB of its own buffer into rank 0's window, ten
// times each size with MPI_Win_flush_local after each and MPI_Win_flush after the ten; then the
// window is freed. The test checks nothing but completion (the C buffers are not initialised; here
// they hold zeroes).
import type { MTest, MTestResult } from '../mtest.ts';

const MIN_DATA_SIZE = 262144;
const MAX_DATA_SIZE = 8 * 262144;
const OPS_NUM = 10;
const LOOP = 500;

export default async function largeAccFlushLocal(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const origBuf = mpi.allocMem(MAX_DATA_SIZE, mpi.INFO_NULL);
  const tarBuf = mpi.allocMem(MAX_DATA_SIZE, mpi.INFO_NULL);
  const orig = new Int8Array(origBuf.buffer, origBuf.byteOffset, MAX_DATA_SIZE);
  for (let j = 0; j < LOOP; j++) {
    const win = await mpi.winCreate(tarBuf, 1, mpi.INFO_NULL);
    await win.lockAll(0);
    if (rank !== 0) {
      for (let dataSize = MIN_DATA_SIZE; dataSize <= MAX_DATA_SIZE; dataSize *= 2) {
        for (let i = 0; i < OPS_NUM; i++) {
          await win.accumulate(orig, dataSize, mpi.CHAR, 0, 0, dataSize, mpi.CHAR, mpi.SUM);
          await win.flushLocal(0);
        }
        await win.flush(0);
      }
    }
    await win.unlockAll();
    await win.free();
  }
  mpi.freeMem(origBuf);
  mpi.freeMem(tarBuf);
  return mt.finalize(0);
}
