// MPICH test/mpi/rma/overlap_wins_rma.c, built as overlap_wins_put, _acc, _gacc, _fop and _cas:
// every rank makes nprocs-1 windows over the same buffer; each origin (every rank but the last)
// locks the last rank through its own window and ten times puts, accumulates (SUM),
// get-accumulates, fetch-and-ops or compare-and-swaps at its own displacement, flushing each
// time, then gets the value back and checks it. Doubles, ints for compare-and-swap.
import type { MTest, MTestResult } from '../mtest.ts';
import { issueRmaOp, RMA_NAMES, type RmaOp } from './rma-op.ts';

const ITER = 10;
const BUF_CNT = 2;

function overlapWinsRma(kind: RmaOp): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const rank = mpi.rank;
    const nprocs = mpi.size;
    const rmaName = RMA_NAMES[kind];
    const make = (n: number): Int32Array | Float64Array => (kind === 'cas' ? new Int32Array(n) : new Float64Array(n));
    const TYPE = kind === 'cas' ? mpi.INT : mpi.DOUBLE;
    const localBuf = make(BUF_CNT);
    const resultBuf = make(BUF_CNT);
    const compareBuf = make(BUF_CNT);
    let expTargetVal = 0;
    if (nprocs < 3) throw new Error('MPI_Abort: must use at least 3 processes');
    // the last rank is the target, every other an origin at its own location
    const target = nprocs - 1;
    const norigins = nprocs - 1;
    const winCnt = nprocs - 1;
    // init_windows: norigins overlapping windows
    const winbuf = make(winCnt);
    const wins = [];
    for (let i = 0; i < norigins; i++) wins.push(await mpi.winCreate(winbuf, winbuf.BYTES_PER_ELEMENT, mpi.INFO_NULL));
    await mpi.barrier();
    // run_test
    let errors = 0;
    const winIdx = rank === target ? 0 : rank;
    const targetDisp = rank === target ? 0 : rank;
    const win = wins[winIdx]!;
    const dst = target;
    localBuf.fill(0);
    resultBuf.fill(0);
    compareBuf.fill(0);
    await mpi.barrier();
    if (rank !== target) {
      await win.lock(mpi.LOCK_SHARED, dst, 0);
      let x = 0;
      for (; x < ITER; x++) {
        // set_iteration_data
        if (kind === 'cas') for (let i = 0; i < BUF_CNT; i++) compareBuf[i] = localBuf[i]!;
        for (let i = 0; i < BUF_CNT; i++) {
          localBuf[i] = rank + i + x;
          if (kind === 'cas' || kind === 'put') expTargetVal = localBuf[i]!;
          else expTargetVal += localBuf[i]!;
        }
        for (let i = 0; i < BUF_CNT; i++) await issueRmaOp(kind, win, TYPE, mpi.SUM, localBuf.subarray(i, i + 1), resultBuf.subarray(i, i + 1), compareBuf.subarray(i, i + 1), dst, targetDisp);
        await win.flush(dst);
      }
      // the target's final value
      const targetVal = make(1);
      await win.get(targetVal, 1, TYPE, dst, targetDisp, 1, TYPE);
      await win.flush(dst);
      if (targetVal[0] !== expTargetVal) {
        mt.printf(`rank ${rank} (iter ${x}) - check ${rmaName}, got target_val = ${targetVal[0]}, expected ${expTargetVal}`);
        errors++;
      }
      await win.unlock(dst);
    }
    await mpi.barrier();
    await mpi.barrier();
    // destroy_windows
    for (const w of wins) await w.free();
    return mt.finalize(errors);
  };
}

export const overlapWinsPut = overlapWinsRma('put');
export const overlapWinsAcc = overlapWinsRma('acc');
export const overlapWinsGacc = overlapWinsRma('gacc');
export const overlapWinsFop = overlapWinsRma('fop');
export const overlapWinsCas = overlapWinsRma('cas');
