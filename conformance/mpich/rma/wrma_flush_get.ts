// MPICH test/mpi/rma/wrma_flush_get.c, built as put_flush_get, acc_flush_get, gacc_flush_get,
// fop_flush_get and cas_flush_get: in a lock_all epoch on an MPI_Win_allocate window of one int,
// 10,000 times rank 0 resets its window, rank 1 issues one RMA operation (REPLACE) to it and
// flushes, tells rank 2 by a message, and rank 2 gets the int and checks it (the fetching
// operations also check the old value came back).
import type { MTest, MTestResult } from '../mtest.ts';
import { issueRmaOp, RMA_NAMES, type RmaOp } from './rma-op.ts';

const ITER = 10000;
const BUF_CNT = 1;

function wrmaFlushGet(kind: RmaOp): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const rmaName = RMA_NAMES[kind];
    const localBuf = new Int32Array(BUF_CNT);
    const resultAddr = new Int32Array(BUF_CNT);
    const checkAddr = new Int32Array(BUF_CNT);
    const compareBuf = new Int32Array(BUF_CNT);
    if (nproc !== 3) throw new Error('MPI_Abort: must be run with three processes');
    const target = 0;
    const checker = 2;
    const origin = 1;
    const { win, buf } = await mpi.winAllocate(4 * BUF_CNT, 4, mpi.INFO_NULL);
    const myBase = new Int32Array(buf.buffer, buf.byteOffset, BUF_CNT);
    await win.lockAll(0);
    let errors = 0;
    const sbuf = new Int32Array(1);
    const rbuf = new Int32Array(1);
    for (let x = 0; x < ITER; x++) {
      // 1. the target resets its window data
      if (rank === target) {
        for (let i = 0; i < BUF_CNT; i++) myBase[i] = i;
        await win.sync();
      }
      await mpi.barrier();
      // 2. everyone resets its local data
      for (let i = 0; i < BUF_CNT; i++) {
        localBuf[i] = BUF_CNT + x * BUF_CNT + i;
        resultAddr[i] = 0;
      }
      // 3. the origin issues the operation to the target
      if (rank === origin) {
        for (let i = 0; i < BUF_CNT; i++) {
          // CAS: always equal to the window's value, so the swap happens
          if (kind === 'cas') compareBuf[i] = i;
          await issueRmaOp(kind, win, mpi.INT, mpi.REPLACE, localBuf.subarray(i, i + 1), resultAddr.subarray(i, i + 1), compareBuf.subarray(i, i + 1), target, i);
        }
        await win.flush(target);
        await mpi.send(sbuf, checker, 999);
        if (kind === 'gacc' || kind === 'fop' || kind === 'cas') {
          for (let i = 0; i < BUF_CNT; i++) {
            if (resultAddr[i] !== i) {
              mt.printf(`rank ${rank} (iter ${x}) - check ${rmaName}, got result_addr[${i}] = ${resultAddr[i]}, expected ${i}`);
              errors++;
            }
          }
        }
      }
      // 4. the checker gets the target's data and checks it
      if (rank === checker) {
        await mpi.recv(rbuf, origin, 999);
        await win.get(checkAddr, BUF_CNT, mpi.INT, target, 0, BUF_CNT, mpi.INT);
        await win.flush(target);
        for (let i = 0; i < BUF_CNT; i++) {
          if (checkAddr[i] !== localBuf[i]) {
            mt.printf(`rank ${rank} (iter ${x}) - check ${rmaName}, got check_addr[${i}] = ${checkAddr[i]}, expected ${localBuf[i]}`);
            errors++;
          }
        }
      }
      await mpi.barrier();
    }
    await win.unlockAll();
    await win.free();
    return mt.finalize(errors);
  };
}

export const putFlushGet = wrmaFlushGet('put');
export const accFlushGet = wrmaFlushGet('acc');
export const gaccFlushGet = wrmaFlushGet('gacc');
export const fopFlushGet = wrmaFlushGet('fop');
export const casFlushGet = wrmaFlushGet('cas');
