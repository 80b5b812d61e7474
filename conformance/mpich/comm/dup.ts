// MPICH test/mpi/comm/dup.c: MPI_Comm_dup keeps size and ranks, and the copy carries messages.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function dup(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const newcomm = await mpi.dup();
  const wsize = mpi.size;
  const wrank = mpi.rank;
  const size = newcomm.size;
  const rank = newcomm.rank;
  if (size !== wsize || rank !== wrank) {
    errs++;
    mt.printf(`Size (${size}) or rank (${rank}) wrong`);
  }
  // can we communicate with the new communicator?
  if (rank === 0 || rank === size - 1) {
    const dest = rank === 0 ? size - 1 : 0;
    const a = Int32Array.of(rank);
    const b = Int32Array.of(-1);
    const status = await newcomm.sendrecv(a, dest, 0, b, dest, 0);
    if (b[0] !== dest) {
      errs++;
      mt.printf(`Received ${b[0]} expected ${dest} on ${rank}`);
    }
    if (status.source !== dest) {
      errs++;
      mt.printf(`Source not set correctly in status on ${rank}`);
    }
  }
  await newcomm.free();
  return mt.finalize(errs);
}
