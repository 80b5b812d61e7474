// MPICH test/mpi/rma/win_shared_query.c (-flavor=create, allocate or allocate_shared): makes a window
// of 100 ints per rank with MPI_Win_create, MPI_Win_allocate or (over the ranks of a node)
// MPI_Win_allocate_shared and asks MPI_Win_shared_query for every rank's segment; it passes when
// every query returns. The testlist's 4 ranks run on one node here, as MPICH runs them. Asking a
// window of MPI_Win_create or MPI_Win_allocate is MPI-4.1's (§12.2.3): phit answers size 0 there.
import type { Comm, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const ELEM_PER_PROC = 100;
const ELEM_SIZE = 4;
const SIZE = ELEM_PER_PROC * ELEM_SIZE;

export default async function winSharedQuery(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errors = 0;
  let flavor: 'create' | 'allocate' | 'allocate_shared' = 'allocate';
  for (const a of mt.argv) {
    if (a === '-flavor=create') flavor = 'create';
    else if (a === '-flavor=allocate') flavor = 'allocate';
    else if (a === '-flavor=allocate_shared') flavor = 'allocate_shared';
  }
  let comm: Comm = mpi;
  if (flavor === 'create') {
    mt.printfMsg(1, 'TEST MPI_Win_create');
  } else if (flavor === 'allocate') {
    mt.printfMsg(1, 'TEST MPI_Win_allocate');
  } else {
    mt.printfMsg(1, 'TEST MPI_Win_allocate_shared');
    comm = (await mpi.splitType(mpi.COMM_TYPE_SHARED, 0)) as Comm;
  }
  const rank = comm.rank;
  const nproc = comm.size;
  let win: Win;
  if (flavor === 'create') win = await comm.winCreate(new Int32Array(ELEM_PER_PROC), ELEM_SIZE, mpi.INFO_NULL);
  else if (flavor === 'allocate') win = (await comm.winAllocate(SIZE, ELEM_SIZE, mpi.INFO_NULL)).win;
  else win = (await comm.winAllocateShared(SIZE, ELEM_SIZE, mpi.INFO_NULL)).win;
  for (let i = 0; i < nproc; i++) {
    const q = win.sharedQuery(i);
    mt.printfMsg(1, `[${rank}] query [${i} / ${nproc}]: ${q.buf.byteLength} bytes - size=${q.size}, disp_unit=${q.dispUnit}`);
  }
  await win.free();
  if (flavor === 'allocate_shared') await comm.free();
  return mt.finalize(errors);
}
