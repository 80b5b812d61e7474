// MPICH test/mpi/rma/win_shared_query_null.c: MPI_Win_shared_query of MPI_PROC_NULL gives the
// first segment that is not empty: over MPI_COMM_SELF the rank's own, and over a node's ranks
// (the first allocating zero bytes) the second rank's. The testlist's 4 ranks run on one node
// here, as MPICH runs them; alone on a node, a rank skips the second part.
import type { Comm } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

export default async function winSharedQueryNull(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const size = 4 * 4;
  let { win: shmWin } = await mpi.COMM_SELF.winAllocateShared(size, 4, mpi.INFO_NULL);
  let q = shmWin.sharedQuery(mpi.PROC_NULL);
  if (q.buf.length === 0 || q.size !== size || q.dispUnit !== 4) {
    mt.printf(`Self shared query with PROC_NULL: base of ${q.buf.length} bytes, size ${q.size}, unit ${q.dispUnit}`);
    errors++;
  }
  await shmWin.free();
  const rank = mpi.rank;
  const shmComm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, rank)) as Comm;
  const shmRank = shmComm.rank;
  if (shmComm.size >= 2) {
    shmWin = (await shmComm.winAllocateShared(shmRank === 0 ? 0 : size, 4, mpi.INFO_NULL)).win;
    q = shmWin.sharedQuery(mpi.PROC_NULL);
    if (q.buf.length === 0) {
      mt.printf(`${shmRank} --   shared query with PROC_NULL: an empty base, expected a segment`);
      errors++;
    }
    if (q.size !== size) {
      mt.printf(`${shmRank} --   shared query with PROC_NULL: size ${q.size}, expected ${size}`);
      errors++;
    }
    if (q.dispUnit !== 4) {
      mt.printf(`${shmRank} --   shared query with PROC_NULL: disp_unit ${q.dispUnit}, expected 4`);
      errors++;
    }
    await shmWin.free();
  }
  await shmComm.free();
  return mt.finalize(errors);
}
