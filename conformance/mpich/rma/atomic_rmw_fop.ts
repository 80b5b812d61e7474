// MPICH test/mpi/rma/atomic_rmw_fop.c: ranks 0 and 1 each add 1 to rank 2's int with
// MPI_Fetch_and_op (1000 and 10 times, flushing after each) inside one lock_all epoch; the results
// the two ranks fetched never coincide and the int ends at 1010, in each of 15 rounds.
import type { MTest, MTestResult } from '../mtest.ts';

const AM_BUF_SIZE = 10;
const SHM_BUF_SIZE = 1000;
const WIN_BUF_SIZE = 1;
const LOOP_SIZE = 15;
const CHECK_TAG = 123;

export default async function atomicRmwFop(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  // run this test with three processes
  if (mpi.size !== 3) return mt.finalize(errors);
  const dest = 2;
  const originShm = 0;
  const originAm = 1;
  const myBufSize = rank === originAm ? AM_BUF_SIZE : rank === originShm ? SHM_BUF_SIZE : 0;
  const origBuf = new Int32Array(myBufSize);
  const resultBuf = new Int32Array(myBufSize);
  const { win, buf } = await mpi.winAllocate(4 * WIN_BUF_SIZE, 4);
  const targetBuf = new Int32Array(buf.buffer, buf.byteOffset, WIN_BUF_SIZE);
  for (let k = 0; k < LOOP_SIZE; k++) {
    // init buffers
    if (rank !== dest) {
      origBuf.fill(1);
      resultBuf.fill(0);
    } else {
      await win.lock(mpi.LOCK_SHARED, rank, 0);
      targetBuf.fill(0);
      await win.unlock(rank);
    }
    await mpi.barrier();
    // perform FOP
    await win.lockAll(0);
    if (rank !== dest) {
      for (let i = 0; i < myBufSize; i++) {
        await win.fetchAndOp(origBuf.subarray(i, i + 1), resultBuf.subarray(i, i + 1), dest, 0, mpi.SUM);
        await win.flush(dest);
      }
    }
    await win.unlockAll();
    await mpi.barrier();
    if (rank !== dest) {
      // check the results of the two origins
      if (rank === originAm) {
        await mpi.send(resultBuf, AM_BUF_SIZE, mpi.INT, originShm, CHECK_TAG);
      } else if (rank === originShm) {
        const checkBuf = new Int32Array(AM_BUF_SIZE);
        await mpi.recv(checkBuf, AM_BUF_SIZE, mpi.INT, originAm, CHECK_TAG);
        for (let i = 0; i < AM_BUF_SIZE; i++) {
          for (let j = 0; j < SHM_BUF_SIZE; j++) {
            if (checkBuf[i] === resultBuf[j]) {
              mt.printf(`LOOP=${k}, rank=${rank}, FOP, both check_buf[${i}] and result_buf[${j}] equal to ${checkBuf[i]}, expected to be different.`);
              errors++;
            }
          }
        }
      }
    } else {
      await win.lock(mpi.LOCK_SHARED, rank, 0);
      if (targetBuf[0] !== AM_BUF_SIZE + SHM_BUF_SIZE) {
        mt.printf(`LOOP=${k}, rank=${rank}, FOP, target_buf[0] = ${targetBuf[0]}, expected ${AM_BUF_SIZE + SHM_BUF_SIZE}.`);
        errors++;
      }
      await win.unlock(rank);
    }
  }
  await win.free();
  return mt.finalize(errors);
}
