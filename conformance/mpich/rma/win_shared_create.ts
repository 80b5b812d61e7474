// MPICH test/mpi/rma/win_shared_create.c, built as win_shared_create_no_allocshm and (with the hint
// alloc_shm for MPI_Win_create) win_shared_create_allocshm: the ranks of a node allocate 4 ints each
// in a shared window, and a world window is created over the same memory; the node's first rank puts
// elements 0 and 3 to the last rank through the world window and flushes, and every rank of the
// node sees them through the shared window. The testlist's 4 ranks run on one node here, as MPICH
// runs them; alone on a node, a rank checks nothing.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const ELEM_PER_PROC = 4;

function winSharedCreateBuild(allocShm: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errors = 0;
    const rank = mpi.rank;
    const localBuf = new Int32Array(ELEM_PER_PROC);
    const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
    const shmRank = shmComm.rank;
    const shmNproc = shmComm.size;
    // platform does not support shared memory, just return
    if (shmNproc >= 2) {
      // the last process in the node is the target process
      const dstShmRank = shmNproc - 1;
      const dstWorldRank = shmComm.group.translateRanks([dstShmRank], mpi.group)[0]!;
      // allocate a shm window among local processes, then create a global window with its buffers
      const { win: shmWin, buf: mine } = await shmComm.winAllocateShared(4 * ELEM_PER_PROC, 4, mpi.INFO_NULL);
      const myBase = new Int32Array(mine.buffer, mine.byteOffset, ELEM_PER_PROC);
      const bases: Int32Array[] = [];
      for (let i = 0; i < shmNproc; i++) {
        const q = shmWin.sharedQuery(i);
        bases.push(new Int32Array(q.buf.buffer, q.buf.byteOffset, q.buf.byteLength / 4));
      }
      let createInfo = mpi.INFO_NULL as ReturnType<typeof mpi.infoCreate> | null;
      if (allocShm) {
        createInfo = mpi.infoCreate();
        createInfo.set('alloc_shm', 'true');
      }
      // reset data
      for (let i = 0; i < ELEM_PER_PROC; i++) {
        myBase[i] = 0;
        localBuf[i] = i + 1;
      }
      const win = await mpi.winCreate(myBase, 4, createInfo);
      // do RMA through the global window, then check the values through the shared window
      await win.lockAll(0);
      await shmWin.lockAll(0);
      if (shmRank === 0) {
        await win.put(localBuf.subarray(0), 1, mpi.INT, dstWorldRank, 0, 1, mpi.INT);
        await win.put(localBuf.subarray(ELEM_PER_PROC - 1), 1, mpi.INT, dstWorldRank, ELEM_PER_PROC - 1, 1, mpi.INT);
        await win.flush(dstWorldRank);
      }
      await shmWin.sync();
      await shmComm.barrier();
      await shmWin.sync();
      const dst = bases[dstShmRank]!;
      if (dst[0] !== localBuf[0]) {
        errors++;
        mt.printf(`${rank} -- Got ${dst[0]} at rank ${dstShmRank} index 0, expected ${localBuf[0]}`);
      }
      if (dst[ELEM_PER_PROC - 1] !== localBuf[ELEM_PER_PROC - 1]) {
        errors++;
        mt.printf(`${rank} -- Got ${dst[ELEM_PER_PROC - 1]} at rank ${dstShmRank} index ${ELEM_PER_PROC - 1}, expected ${localBuf[ELEM_PER_PROC - 1]}`);
      }
      await shmWin.unlockAll();
      await win.unlockAll();
      await win.free();
      await shmWin.free();
      createInfo?.free();
    }
    await shmComm.free();
    return mt.finalize(errors);
  };
}

export const winSharedCreateAllocshm = winSharedCreateBuild(true);
export const winSharedCreateNoAllocshm = winSharedCreateBuild(false);
