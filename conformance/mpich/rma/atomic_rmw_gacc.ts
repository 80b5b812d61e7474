// MPICH test/mpi/rma/atomic_rmw_gacc.c: ranks 0 and 1 each add 1 to rank 2's 10 ints with
// MPI_Get_accumulate (SUM; 10000 and 10 times, flushing after each) inside one lock_all epoch; the
// results the two ranks fetched never coincide at any index and the ints end at 10010, in each of
// 15 rounds, with four type pairings: MPI_INT on both sides, a contiguous type of 10 ints on both,
// on the target only, and on the origin only.
import type { Datatype } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const OP_COUNT = 10;
const AM_BUF_NUM = 10;
const SHM_BUF_NUM = 10000;
const WIN_BUF_NUM = 1;
const LOOP_SIZE = 15;
const CHECK_TAG = 123;

export default async function atomicRmwGacc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  // run this test with three processes
  if (mpi.size !== 3) return mt.finalize(errors);
  const originDtp = mpi.typeCommit(mpi.typeContiguous(OP_COUNT, mpi.INT));
  const targetDtp = mpi.typeCommit(mpi.typeContiguous(OP_COUNT, mpi.INT));
  const dest = 2;
  const originShm = 0;
  const originAm = 1;
  const myBufNum = rank === originAm ? AM_BUF_NUM : rank === originShm ? SHM_BUF_NUM : 0;
  const origMem = rank !== dest ? mpi.allocMem(4 * myBufNum * OP_COUNT, mpi.INFO_NULL) : null;
  const resultMem = rank !== dest ? mpi.allocMem(4 * myBufNum * OP_COUNT, mpi.INFO_NULL) : null;
  const ints = (m: Uint8Array | null): Int32Array => (m ? new Int32Array(m.buffer, m.byteOffset, m.byteLength / 4) : new Int32Array(0));
  const origBuf = ints(origMem);
  const resultBuf = ints(resultMem);
  const { win, buf } = await mpi.winAllocate(4 * WIN_BUF_NUM * OP_COUNT, 4, mpi.INFO_NULL);
  const targetBuf = ints(buf);

  const checkResults = async (loopK: number): Promise<void> => {
    if (rank !== dest) {
      // the two origins' results
      if (rank === originAm) {
        await mpi.send(resultBuf, AM_BUF_NUM * OP_COUNT, mpi.INT, originShm, CHECK_TAG);
      } else if (rank === originShm) {
        const checkMem = mpi.allocMem(4 * AM_BUF_NUM * OP_COUNT, mpi.INFO_NULL);
        const checkBuf = ints(checkMem);
        await mpi.recv(checkBuf, AM_BUF_NUM * OP_COUNT, mpi.INT, originAm, CHECK_TAG);
        for (let i = 0; i < AM_BUF_NUM; i++) {
          for (let j = 0; j < SHM_BUF_NUM; j++) {
            for (let m = 0; m < OP_COUNT; m++) {
              if (checkBuf[i * OP_COUNT + m] === resultBuf[j * OP_COUNT + m]) {
                mt.printf(`LOOP=${loopK}, rank=${rank}, FOP, both check_buf[${i * OP_COUNT + m}] and result_buf[${j * OP_COUNT + m}] equal to ${checkBuf[i * OP_COUNT + m]}, expected to be different.`);
                errors++;
              }
            }
          }
        }
        mpi.freeMem(checkMem);
      }
    } else {
      await win.lock(mpi.LOCK_SHARED, rank, 0);
      for (let i = 0; i < OP_COUNT; i++) {
        if (targetBuf[i] !== AM_BUF_NUM + SHM_BUF_NUM) {
          mt.printf(`LOOP=${loopK}, rank=${rank}, FOP, target_buf[${i}] = ${targetBuf[i]}, expected ${AM_BUF_NUM + SHM_BUF_NUM}.`);
          errors++;
        }
      }
      await win.unlock(rank);
    }
  };

  /** One part: every origin's get-accumulates of `count` x `type` at the origin, `tcount` x `ttype` at the target. */
  const part = async (loopK: number, count: number, type: Datatype, tcount: number, ttype: Datatype): Promise<void> => {
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
    await win.lockAll(0);
    if (rank !== dest) {
      for (let i = 0; i < myBufNum; i++) {
        const at = i * OP_COUNT;
        await win.getAccumulate(origBuf.subarray(at), count, type, resultBuf.subarray(at), count, type, dest, 0, tcount, ttype, mpi.SUM);
        await win.flush(dest);
      }
    }
    await win.unlockAll();
    await mpi.barrier();
    await checkResults(loopK);
  };

  for (let k = 0; k < LOOP_SIZE; k++) {
    // basic datatypes
    await part(k, OP_COUNT, mpi.INT, OP_COUNT, mpi.INT);
    // origin derived, target derived
    await part(k, 1, originDtp, 1, targetDtp);
    // origin basic, target derived
    await part(k, OP_COUNT, mpi.INT, 1, targetDtp);
    // origin derived, target basic
    await part(k, 1, originDtp, OP_COUNT, mpi.INT);
  }
  await win.free();
  if (origMem) mpi.freeMem(origMem);
  if (resultMem) mpi.freeMem(resultMem);
  mpi.typeFree(originDtp);
  mpi.typeFree(targetDtp);
  return mt.finalize(errors);
}
