// MPICH test/mpi/rma/win_shared_put_flush_get.c: two nodes of two ranks; each node's ranks share a
// window of 4 doubles each, and a second window (MPI_Win_create over the same memory) spans both
// segments at node 0's first rank. The first rank of node 1 locks both ranks of node 0, puts to the
// second, flushes, and gets the same doubles through the first rank's larger window: a flush
// completes the puts at the target, so they are there (100 rounds). The testlist's 4 ranks run two
// to a node here, as the test requires.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const ITER = 100;
const BUF_CNT = 4;

export default async function winSharedPutFlushGet(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const nproc = mpi.size;
  const localBuf = new Float64Array(BUF_CNT);
  const checkBuf = new Float64Array(BUF_CNT);
  const worldGroup = mpi.group;
  if (nproc !== 4) throw new Error('Error: must be run with four processes');
  const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
  const shmRank = shmComm.rank;
  const shmNproc = shmComm.size;
  const shmGroup = shmComm.group;
  // platform does not support shared memory or wrong host file, just return
  if (shmNproc === 2) {
    const winSize = 8 * BUF_CNT;
    const winUnit = 8;
    let origin = -1;
    const shmRootRankInWorld = Int32Array.of(shmRank === 0 ? rank : 0);
    await shmComm.bcast(shmRootRankInWorld, 1, mpi.INT, 0);
    // identify ranks of target processes which are located on node 0
    const shmRanksInWorld = new Int32Array(shmNproc);
    if (rank === 0) {
      const shmRanks = Array.from({ length: shmNproc }, (_, i) => i);
      shmRanksInWorld.set(shmGroup.translateRanks(shmRanks, worldGroup));
    }
    await mpi.bcast(shmRanksInWorld, shmNproc, mpi.INT, 0);
    const putTarget = shmRanksInWorld[shmNproc - 1]!;
    const getTarget = shmRanksInWorld[0]!;
    // identify the rank of origin process which are located on node 1
    if (shmRootRankInWorld[0] === 1 && shmRank === 0) origin = rank;
    // allocate shared memory among local processes
    const { win: shmWin, buf: mine } = await shmComm.winAllocateShared(winSize, winUnit, mpi.INFO_NULL);
    // offset of put target (1) on get target (0)
    const getTargetBaseOffsets = ((shmNproc - 1) * winSize) / winUnit;
    // create using MPI_Win_create(): the get target's window spans the node's shared segments,
    // so it reads the bytes of the put target
    const myBase = new Float64Array(mine.buffer, mine.byteOffset, BUF_CNT);
    for (let i = 0; i < BUF_CNT; i++) {
      localBuf[i] = (i + 1) * 1.0;
      myBase[i] = 0.0;
    }
    const newWinSize = getTarget === rank ? winSize * shmNproc : winSize;
    const win = await mpi.winCreate(new Uint8Array(mine.buffer, mine.byteOffset, newWinSize), winUnit, mpi.INFO_NULL);
    await mpi.barrier();
    // the origin locks two processes whose windows are shared with each other, puts to one and
    // flushes, then gets the updated data from the other
    for (let x = 0; x < ITER; x++) {
      for (let i = 0; i < BUF_CNT; i++) {
        localBuf[i] = localBuf[i]! + x;
        checkBuf[i] = 0;
      }
      if (rank === origin) {
        await win.lock(mpi.LOCK_EXCLUSIVE, putTarget, 0);
        await win.lock(mpi.LOCK_EXCLUSIVE, getTarget, 0);
        for (let i = 0; i < BUF_CNT; i++) await win.put(localBuf.subarray(i), 1, mpi.DOUBLE, putTarget, i, 1, mpi.DOUBLE);
        await win.flush(putTarget);
        await win.get(checkBuf, BUF_CNT, mpi.DOUBLE, getTarget, getTargetBaseOffsets, BUF_CNT, mpi.DOUBLE);
        await win.flush(getTarget);
        for (let i = 0; i < BUF_CNT; i++) {
          if (checkBuf[i] !== localBuf[i]) {
            mt.printf(`${rank}(iter ${x}) - Got check_buf[${i}] = ${checkBuf[i]!.toFixed(1)}, expected ${localBuf[i]!.toFixed(1)}`);
            errors++;
          }
        }
        await win.unlock(putTarget);
        await win.unlock(getTarget);
      }
    }
    await mpi.barrier();
    await shmWin.free();
    await win.free();
  }
  await shmComm.free();
  return mt.finalize(errors);
}
