// MPICH test/mpi/rma/win_shared_zerobyte.c: in a shared window where only the node's first and last
// ranks allocate (16 ints) and the others zero bytes, every rank's MPI_Win_shared_query base is
// usable: rank 0's store to the first rank's element 0 is seen by all, the last rank's element 0
// stays 0. The testlist's 4 ranks run on one node here, as MPICH runs them; alone on a node, a
// rank checks nothing.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

export default async function winSharedZerobyte(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
  const shmRank = shmComm.rank;
  const shmNproc = shmComm.size;
  // platform does not support shared memory, just return
  if (shmNproc >= 2) {
    const elemPerProc = shmRank === 0 || shmRank === shmNproc - 1 ? 16 : 0;
    // allocate elemPerProc integers for each process
    const { win: shmWin, buf: mine } = await shmComm.winAllocateShared(4 * elemPerProc, 4, mpi.INFO_NULL);
    const myBase = new Int32Array(mine.buffer, mine.byteOffset, elemPerProc);
    const bases: Int32Array[] = [];
    for (let i = 0; i < shmNproc; i++) {
      const q = shmWin.sharedQuery(i);
      bases.push(new Int32Array(q.buf.buffer, q.buf.byteOffset, q.buf.byteLength / 4));
    }
    await shmWin.lockAll(mpi.MODE_NOCHECK);
    // reset data
    for (let i = 0; i < elemPerProc; i++) myBase[i] = 0;
    await shmWin.sync();
    await shmComm.barrier();
    await shmWin.sync();
    // read and verify everyone's data
    if (shmRank === 0) bases[0]![0] = 1;
    await shmWin.sync();
    await shmComm.barrier();
    await shmWin.sync();
    if (bases[0]![0] !== 1) {
      errors++;
      mt.printf(`${shmRank} -- Got ${bases[0]![0]} at rank 0 index 0, expected 1`);
    }
    if (bases[shmNproc - 1]![0] !== 0) {
      errors++;
      mt.printf(`${shmRank} -- Got ${bases[shmNproc - 1]![0]} at rank ${shmNproc - 1} index 0, expected 0`);
    }
    await shmWin.unlockAll();
    await shmWin.free();
  }
  await shmComm.free();
  return mt.finalize(errors);
}
