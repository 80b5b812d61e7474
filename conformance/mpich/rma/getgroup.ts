// MPICH test/mpi/rma/getgroup.c: MPI_Win_get_group of a window on each of MTest's
// intracommunicators is the communicator's group (MPI_IDENT).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function getgroup(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const buf = new Int32Array(10);
  const minsize = 2;
  for await (const comm of mt.intracomms(minsize, true)) {
    if (!comm) continue;
    const win = await comm.winCreate(buf, 4);
    const wingroup = win.getGroup();
    const group = comm.group;
    const result = group.compare(wingroup);
    if (result !== 'ident') {
      errs++;
      mt.printf('Group returned by Win_get_group not the same as the input group');
    }
    await win.free();
  }
  return mt.finalize(errs);
}
