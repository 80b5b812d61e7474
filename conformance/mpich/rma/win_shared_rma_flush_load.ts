// MPICH test/mpi/rma/win_shared_rma_flush_load.c, built as win_shared_put_flush_load,
// win_shared_acc_flush_load, _gacc_, _fop_ and _cas_: a window over MPI_Win_allocate_shared memory,
// made again with MPI_Win_create over MPI_COMM_WORLD; 10,000 times the target resets its int, the
// origin issues one RMA operation (REPLACE) to it over the world window and flushes, tells the
// checker, and the checker, on the target's node, loads the int from the shared segment. The
// testlist's 3 ranks run on one node here, as MPICH runs them (the origin is then the third rank
// of the node); with every rank on its own node the C test has nothing to check and ends.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { issueRmaOp, RMA_NAMES, type RmaOp } from './rma-op.ts';

const ITER = 10000;
const BUF_CNT = 1;

function winSharedRmaFlushLoad(kind: RmaOp): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    const rank = mpi.rank;
    const nproc = mpi.size;
    const rmaName = RMA_NAMES[kind];
    let errors = 0;
    const localBuf = new Int32Array(BUF_CNT);
    const resultAddr = new Int32Array(BUF_CNT);
    const compareBuf = new Int32Array(BUF_CNT);
    if (nproc !== 3) throw new Error('MPI_Abort: must be run with three processes');
    const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
    const shmRank = shmComm.rank;
    const shmRanks = new Int32Array(nproc);
    const shmRootRanks = new Int32Array(nproc);
    // the node's id
    const root = Int32Array.of(shmRank === 0 ? rank : -1);
    await shmComm.bcast(root, 0);
    shmRanks[rank] = shmRank;
    shmRootRanks[rank] = root[0]!;
    await mpi.allgather(mpi.IN_PLACE, shmRanks);
    await mpi.allgather(mpi.IN_PLACE, shmRootRanks);
    // at least two processes in shared memory?
    let targetShmRoot = -1;
    for (let i = 0; i < nproc; i++) {
      if (shmRanks[i] !== 0) {
        targetShmRoot = shmRootRanks[i]!;
        break;
      }
    }
    if (targetShmRoot >= 0) {
      // the first process in shared memory is the target, the second the checker, the last the origin
      let target = -1;
      let checker = -1;
      let origin = -1;
      const shmTarget = 0;
      for (let i = 0; i < nproc; i++) {
        if (shmRootRanks[i] === targetShmRoot) {
          if (shmRanks[i] === 0) target = i;
          else if (shmRanks[i] === 1) checker = i;
          else origin = i;
        } else {
          origin = i;
        }
      }
      const { win: shmWin, buf } = await shmComm.winAllocateShared(4 * BUF_CNT, 4, mpi.INFO_NULL);
      const myBase = new Int32Array(buf.buffer, buf.byteOffset, BUF_CNT);
      const win = await mpi.winCreate(myBase, 4, mpi.INFO_NULL);
      let shmTargetBase: Int32Array | null = null;
      if (rank === checker) {
        const seg = shmWin.sharedQuery(shmTarget);
        shmTargetBase = new Int32Array(seg.buf.buffer, seg.buf.byteOffset, seg.size / 4);
      }
      await win.lockAll(0);
      await shmWin.lockAll(0);
      const sbuf = new Int32Array(1);
      const rbuf = new Int32Array(1);
      for (let x = 0; x < ITER; x++) {
        // 1. the target resets its window data
        if (rank === target) {
          for (let i = 0; i < BUF_CNT; i++) myBase[i] = i;
          await shmWin.sync();
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
            if (kind === 'cas') compareBuf[i] = i;
            await issueRmaOp(kind, win, mpi.INT, mpi.REPLACE, localBuf.subarray(i, i + 1), resultAddr.subarray(i, i + 1), compareBuf.subarray(i, i + 1), target, i);
          }
          await win.flush(target);
          if (kind === 'gacc' || kind === 'fop' || kind === 'cas') {
            for (let i = 0; i < BUF_CNT; i++) {
              if (resultAddr[i] !== i) {
                mt.printf(`rank ${rank} (iter ${x}) - check ${rmaName}, got result_addr[${i}] = ${resultAddr[i]}, expected ${i}`);
                errors++;
              }
            }
          }
          await mpi.send(sbuf, checker, 999);
        }
        // 4. the checker loads the result from the target's shared segment
        if (rank === checker) {
          await mpi.recv(rbuf, origin, 999);
          await shmWin.sync();
          for (let i = 0; i < BUF_CNT; i++) {
            if (shmTargetBase![i] !== localBuf[i]) {
              mt.printf(`rank ${rank} (iter ${x}) - check ${rmaName}, got shm_target_base[${i}] = ${shmTargetBase![i]}, expected ${localBuf[i]}`);
              errors++;
            }
          }
        }
        await mpi.barrier();
      }
      await shmWin.unlockAll();
      await win.unlockAll();
      await shmWin.free();
      await win.free();
    }
    await shmComm.free();
    return mt.finalize(errors);
  };
}

export const winSharedPutFlushLoad = winSharedRmaFlushLoad('put');
export const winSharedAccFlushLoad = winSharedRmaFlushLoad('acc');
export const winSharedGaccFlushLoad = winSharedRmaFlushLoad('gacc');
export const winSharedFopFlushLoad = winSharedRmaFlushLoad('fop');
export const winSharedCasFlushLoad = winSharedRmaFlushLoad('cas');
