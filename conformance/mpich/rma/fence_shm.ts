// MPICH test/mpi/rma/fence_shm.c: on a shared window of the node's ranks, a put of rank 0 into
// rank 1's int between two fences, then a put of rank 1 to itself under a lock followed by a
// fence epoch in which rank 0 gets the int back. The testlist's 2 ranks run on one node here, as
// MPICH runs them; alone on a node, the ranks skip the test.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const ELEM_PER_PROC = 1;

export default async function fenceShm(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
  const shmRank = shmComm.rank;
  const one = Int32Array.of(1);
  if (shmComm.size >= 2) {
    const { win: shmWin, buf } = await shmComm.winAllocateShared(4 * ELEM_PER_PROC, 4, mpi.INFO_NULL);
    const myBase = new Int32Array(buf.buffer, buf.byteOffset, ELEM_PER_PROC);
    if (shmRank === 1) {
      myBase[0] = 0;
      await shmWin.fence(0);
      await shmWin.fence(0);
      if (myBase[0] !== one[0]) {
        errs++;
        mt.printf(`Expected: my_base[0] = ${one[0]}   Actual: my_base[0] = ${myBase[0]}`);
      }
    }
    if (shmRank === 0) {
      await shmWin.fence(0);
      await shmWin.put(one, 1, mpi.INT, 1, 0, 1, mpi.INT);
      await shmWin.fence(0);
    }
    if (shmRank > 1) {
      await shmWin.fence(0);
      await shmWin.fence(0);
    }
    if (shmRank === 1) {
      await shmWin.lock(mpi.LOCK_EXCLUSIVE, 1, 0);
      await shmWin.put(one, 1, mpi.INT, 1, 0, 1, mpi.INT);
      await shmWin.unlock(1);
      await shmWin.fence(mpi.MODE_NOPRECEDE);
      await shmWin.fence(0);
    }
    if (shmRank === 0) {
      const resultData = Int32Array.of(0);
      await shmWin.fence(mpi.MODE_NOPRECEDE);
      await shmWin.get(resultData, 1, mpi.INT, 1, 0, 1, mpi.INT);
      await shmWin.fence(0);
      if (resultData[0] !== one[0]) {
        errs++;
        mt.printf(`Expected: result_data = ${one[0]}   Actual: result_data = ${resultData[0]}`);
      }
    }
    if (shmRank > 1) {
      await shmWin.fence(mpi.MODE_NOPRECEDE);
      await shmWin.fence(0);
    }
    await shmWin.free();
  }
  await shmComm.free();
  return mt.finalize(errs);
}
