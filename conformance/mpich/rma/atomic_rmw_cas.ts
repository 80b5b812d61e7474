// MPICH test/mpi/rma/atomic_rmw_cas.c: rank 0 swaps 0 for 1 and rank 1 swaps 1 for 0 at rank 2's
// int (initially 0) with MPI_Compare_and_swap, both in one lock_all epoch; only two outcomes are
// atomic (results 0 and 0 with the int at 1, or 0 and 1 with the int at 0), checked in each of
// 10000 rounds.
import type { MTest, MTestResult } from '../mtest.ts';

const LOOP_SIZE = 10000;

export default async function atomicRmwCas(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  // run this test with three processes
  if (mpi.size !== 3) return mt.finalize(errors);
  const dest = 2;
  const originShm = 0;
  const originAm = 1;
  const origBuf = new Int32Array(1);
  const resultBuf = new Int32Array(1);
  const compareBuf = new Int32Array(1);
  const { win, buf } = await mpi.winAllocate(4, 4);
  const targetBuf = new Int32Array(buf.buffer, buf.byteOffset, 1);
  for (let k = 0; k < LOOP_SIZE; k++) {
    // init buffers
    if (rank === originShm) {
      origBuf[0] = 1;
      compareBuf[0] = 0;
      resultBuf[0] = 0;
    } else if (rank === originAm) {
      origBuf[0] = 0;
      compareBuf[0] = 1;
      resultBuf[0] = 0;
    } else {
      await win.lock(mpi.LOCK_SHARED, rank, 0);
      targetBuf[0] = 0;
      await win.unlock(rank);
    }
    await mpi.barrier();
    await win.lockAll(0);
    if (rank !== dest) {
      await win.compareAndSwap(origBuf, compareBuf, resultBuf, mpi.INT, dest, 0);
      await win.flush(dest);
    }
    await win.unlockAll();
    await mpi.barrier();
    // check results
    if (rank !== dest) {
      await mpi.gather(resultBuf, 1, mpi.INT, null, 1, mpi.INT, dest);
    } else {
      await win.lock(mpi.LOCK_SHARED, rank, 0);
      const targetValue = Int32Array.of(targetBuf[0]!);
      await win.unlock(rank);
      const checkBuf = new Int32Array(3);
      await mpi.gather(targetValue, 1, mpi.INT, checkBuf, 1, mpi.INT, dest);
      if (!(checkBuf[dest] === 0 && checkBuf[originShm] === 0 && checkBuf[originAm] === 1) && !(checkBuf[dest] === 1 && checkBuf[originShm] === 0 && checkBuf[originAm] === 0)) {
        mt.printf(`Wrong results: target result = ${checkBuf[dest]}, origin_shm result = ${checkBuf[originShm]}, origin_am result = ${checkBuf[originAm]}`);
        mt.printf('Expected results (1): target result = 1, origin_shm result = 0, origin_am result = 0');
        mt.printf('Expected results (2): target result = 0, origin_shm result = 0, origin_am result = 1');
        errors++;
      }
    }
  }
  await win.free();
  return mt.finalize(errors);
}
