// MPICH test/mpi/rma/win_shared_noncontig_put.c: in a shared window with the hint
// alloc_shared_noncontig, the even ranks of a node allocate 10000 ints and the odd ranks none; in
// 10000 fence epochs each even rank puts i at element i of the next even rank's segment; then every
// rank reads every segment through MPI_Win_shared_query (the empty ones have size 0 and no bytes).
// The testlist's 4 ranks run on one node here, as MPICH runs them.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { assert } from '../mtest.ts';

const ELEM_PER_PROC = 10000;

export default async function winSharedNoncontigPut(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const allocSharedInfo = mpi.infoCreate();
  allocSharedInfo.set('alloc_shared_noncontig', 'true');
  const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
  const shmRank = shmComm.rank;
  const shmNproc = shmComm.size;
  // allocate ELEM_PER_PROC integers on each even rank process
  const mySize = shmRank % 2 === 0 ? 4 * ELEM_PER_PROC : 0;
  const { win: shmWin } = await shmComm.winAllocateShared(mySize, 4, allocSharedInfo);
  const value = new Int32Array(1);
  for (let i = 0; i < ELEM_PER_PROC; i++) {
    await shmWin.fence(mpi.MODE_NOPRECEDE);
    if (shmRank % 2 === 0) {
      value[0] = i;
      await shmWin.put(value, 1, mpi.INT, shmRank + 2 > shmNproc ? 0 : (shmRank + 2) % shmNproc, i, 1, mpi.INT);
    }
    await shmWin.fence(mpi.MODE_NOSUCCEED);
  }
  await shmComm.barrier();
  // read and verify everyone's data
  for (let i = 0; i < shmNproc; i++) {
    const q = shmWin.sharedQuery(i);
    if (i % 2 === 0) {
      assert(q.size >= ELEM_PER_PROC * 4, 'size >= ELEM_PER_PROC * sizeof(int)');
      const base = new Int32Array(q.buf.buffer, q.buf.byteOffset, q.buf.byteLength / 4);
      for (let j = 0; j < ELEM_PER_PROC; j++) {
        if (base[j] !== j) {
          errors++;
          mt.printf(`${shmRank} -- Got ${base[j]} at rank ${i} index ${j}, expected ${j}`);
        }
      }
    } else {
      assert(q.size === 0, 'size == 0');
      assert(q.buf.byteLength === 0, 'base == NULL');
    }
  }
  await shmWin.free();
  await shmComm.free();
  allocSharedInfo.free();
  return mt.finalize(errors);
}
