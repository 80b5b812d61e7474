// MPICH test/mpi/rma/win_dynamic_rma_flush_get.c, built as win_dynamic_rma_flush_get and (with the
// hint coll_attach) win_dynamic_rma_flush_get_collattach: a dynamic window with two regions of
// 8192 ints attached, back to back in one array; in a lock_all epoch each rank ten times puts,
// accumulates (REPLACE), get-accumulates, fetch-and-ops or compare-and-swaps -count ints at the
// next rank's first region, flushes, and gets them back to check. 9216 ints reach into the second
// region: one operation on two regions. MPI_Get_address of the regions becomes the addresses
// MPI_Win_attach returns, gathered once both are attached.
import type { MTest, MTestResult } from '../mtest.ts';

const ITER = 10;
const MEM_CNT = 8192;
const MAX_RMA_CNT = MEM_CNT * 2;
const NAMES = { put: 'Put', acc: 'Accumulate', gacc: 'Get_accumulate', fop: 'Fetch_and_op', cas: 'Compare_and_swap' } as const;

function winDynamicRmaFlushGet(collAttach: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errors = 0;
    const rank = mpi.rank;
    const nprocs = mpi.size;
    const memRegion = new Int32Array(MAX_RMA_CNT);
    const localBuf = new Int32Array(MAX_RMA_CNT);
    const checkBuf = new Int32Array(MAX_RMA_CNT);
    const resultBuf = new Int32Array(MAX_RMA_CNT);
    const compareBuf = new Int32Array(MAX_RMA_CNT);
    let rmaCnt = mt.argInt('count', 4096);
    const opStr = mt.argString('op', '');
    if (rmaCnt < 0 || rmaCnt >= MAX_RMA_CNT) {
      if (rank === 0) mt.printf(`Invalid input: rma_cnt = ${rmaCnt} but valid range is [0, ${MAX_RMA_CNT}]`);
      return mt.finalize(1);
    }
    const op = (['put', 'acc', 'gacc', 'fop', 'cas'] as const).find((o) => opStr.startsWith(o));
    if (op === undefined) {
      if (rank === 0) mt.printf(`Invalid op: op = ${opStr} but valid option is one of put,acc,gacc,fop,cas`);
      return mt.finalize(1);
    }
    // count 1 for FOP and CAS
    if (op === 'fop' || op === 'cas') rmaCnt = 1;
    // init_window
    let info = mpi.INFO_NULL as ReturnType<typeof mpi.infoCreate> | null;
    if (collAttach) {
      info = mpi.infoCreate();
      info.set('coll_attach', 'true');
    }
    const dynWin = await mpi.winCreateDynamic(info);
    const region0 = memRegion.subarray(0, MEM_CNT);
    const region1 = memRegion.subarray(MEM_CNT);
    const memPtrs = new Float64Array(nprocs * 2);
    memPtrs[rank * 2] = dynWin.attach(region0);
    memPtrs[rank * 2 + 1] = dynWin.attach(region1);
    info?.free();
    await mpi.allgather(mpi.IN_PLACE, memPtrs);
    await mpi.barrier();
    // run_test
    const dst = (rank + 1) % nprocs;
    await dynWin.lock(mpi.LOCK_SHARED, rank, 0);
    memRegion.fill(0);
    await dynWin.unlock(rank);
    await dynWin.lockAll(0);
    await mpi.barrier();
    const targetDisp = memPtrs[dst * 2]!;
    for (let x = 0; x < ITER; x++) {
      // set_iteration_data
      for (let i = 0; i < rmaCnt; i++) localBuf[i] = rank + i + x;
      if (op === 'cas') compareBuf[0] = x === 0 ? 0 : rank + x - 1;
      checkBuf.fill(0);
      // issue_rma_op
      if (op === 'put') await dynWin.put(localBuf, rmaCnt, mpi.INT, dst, targetDisp, rmaCnt, mpi.INT);
      else if (op === 'acc') await dynWin.accumulate(localBuf, rmaCnt, mpi.INT, dst, targetDisp, rmaCnt, mpi.INT, mpi.REPLACE);
      else if (op === 'gacc') await dynWin.getAccumulate(localBuf, rmaCnt, mpi.INT, resultBuf, rmaCnt, mpi.INT, dst, targetDisp, rmaCnt, mpi.INT, mpi.REPLACE);
      else if (op === 'fop') await dynWin.fetchAndOp(localBuf, resultBuf, mpi.INT, dst, targetDisp, mpi.REPLACE);
      else await dynWin.compareAndSwap(localBuf, compareBuf, resultBuf, mpi.INT, dst, targetDisp);
      await dynWin.flush(dst);
      await dynWin.get(checkBuf, rmaCnt, mpi.INT, dst, targetDisp, rmaCnt, mpi.INT);
      await dynWin.flush(dst);
      // check_iteration_data
      for (let i = 0; i < rmaCnt; i++) {
        if (checkBuf[i] !== rank + i + x) {
          mt.printf(`rank ${rank} (iter ${x}) - check ${NAMES[op]}, got buf[${i}] = ${checkBuf[i]}, expected ${rank + i + x}`);
          errors++;
        }
      }
    }
    await dynWin.unlockAll();
    await mpi.barrier();
    dynWin.detach(region0);
    dynWin.detach(region1);
    await dynWin.free();
    return mt.finalize(errors);
  };
}

export const winDynamicRmaFlushGetPlain = winDynamicRmaFlushGet(false);
export const winDynamicRmaFlushGetCollattach = winDynamicRmaFlushGet(true);
