// MPICH test/mpi/rma/win_shared.c: the ranks of a node allocate 10000 ints each in one shared
// window; each writes its own segment in a lock_all epoch and reads every rank's segment from the
// absolute base MPI_Win_shared_query gives for MPI_PROC_NULL (segments lie back to back). The
// testlist's 4 ranks run on one node here, as MPICH runs them.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { assert } from '../mtest.ts';

const ELEM_PER_PROC = 10000;

export default async function winShared(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
  const shmRank = shmComm.rank;
  const shmNproc = shmComm.size;
  // allocate ELEM_PER_PROC integers for each process
  const { win: shmWin, buf: mine } = await shmComm.winAllocateShared(4 * ELEM_PER_PROC, 4, mpi.INFO_NULL);
  const myBase = new Int32Array(mine.buffer, mine.byteOffset, ELEM_PER_PROC);
  // locate absolute base
  const q = shmWin.sharedQuery(mpi.PROC_NULL);
  const base = new Int32Array(q.buf.buffer, q.buf.byteOffset, shmNproc * ELEM_PER_PROC);
  assert(q.size === ELEM_PER_PROC * 4, 'size == ELEM_PER_PROC * sizeof(int)');
  const same = q.buf.buffer === mine.buffer && q.buf.byteOffset === mine.byteOffset;
  if (shmRank === 0) assert(same, 'base == my_base');
  else assert(!same, 'base != my_base');
  await shmWin.lockAll(mpi.MODE_NOCHECK);
  // write to all my data
  for (let i = 0; i < ELEM_PER_PROC; i++) myBase[i] = i;
  await shmWin.sync();
  await shmComm.barrier();
  await shmWin.sync();
  // read and verify everyone's data
  for (let i = 0; i < shmNproc; i++) {
    for (let j = 0; j < ELEM_PER_PROC; j++) {
      if (base[i * ELEM_PER_PROC + j] !== j) {
        errors++;
        mt.printf(`${shmRank} -- Got ${base[i * ELEM_PER_PROC + j]} at rank ${i} index ${j}, expected ${j}`);
      }
    }
  }
  await shmWin.unlockAll();
  await shmWin.free();
  await shmComm.free();
  return mt.finalize(errors);
}
