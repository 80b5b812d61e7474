// MPICH test/mpi/comm/dup_with_info.c: MPI_Comm_dup_with_info with no info, with three info keys,
// and with the info freed right after the dup; each copy keeps size and ranks and carries messages.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Info } from '../../../runtime/mpi/mpi.ts';

/** run_tests of the original: size and rank as MPI_COMM_WORLD's, and a sendrecv between the first and last rank. */
export async function runTests(mt: MTest, comm: Comm): Promise<number> {
  const { mpi } = mt;
  let errs = 0;
  const size = comm.size;
  const rank = comm.rank;
  if (size !== mpi.size || rank !== mpi.rank) {
    errs++;
    mt.printf(`Size (${size}) or rank (${rank}) wrong`);
  }
  await comm.barrier();
  if (rank === 0 || rank === size - 1) {
    const dest = rank === 0 ? size - 1 : 0;
    const a = Int32Array.of(rank);
    const b = Int32Array.of(-1);
    const status = await comm.sendrecv(a, dest, 0, b, dest, 0);
    if (b[0] !== dest) {
      errs++;
      mt.printf(`Received ${b[0]} expected ${dest} on ${rank}`);
    }
    if (status.source !== dest) {
      errs++;
      mt.printf(`Source not set correctly in status on ${rank}`);
    }
  }
  await comm.barrier();
  return errs;
}

/** The three keys the original sets. */
export function threeKeys(mt: MTest): Info {
  const info = mt.mpi.infoCreate();
  info.set('host', 'myhost.myorg.org');
  info.set('file', 'runfile.txt');
  info.set('soft', '2:1000:4,3:1000:7');
  return info;
}

export default async function dupWithInfo(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let totalErrs = 0;
  // dup with no info
  let newcomm = await mpi.dupWithInfo(mpi.INFO_NULL);
  totalErrs += await runTests(mt, newcomm);
  await newcomm.free();
  // dup with info keys
  let info = threeKeys(mt);
  newcomm = await mpi.dupWithInfo(info);
  totalErrs += await runTests(mt, newcomm);
  info.free();
  await newcomm.free();
  // dup with deleted info keys
  info = threeKeys(mt);
  newcomm = await mpi.dupWithInfo(info);
  info.free();
  totalErrs += await runTests(mt, newcomm);
  await newcomm.free();
  return mt.finalize(totalErrs);
}
