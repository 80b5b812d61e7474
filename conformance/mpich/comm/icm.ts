// MPICH test/mpi/comm/icm.c: MPI_Intercomm_merge of MTest's intercommunicators with the left
// group high, then low, then both groups passing 0 and both 1; the merged size is the sum of the
// two groups' (the rank checks sit inside the size check, as in C).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function icm(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const minsize = 2;
  for await (const { comm, isLeftGroup: isLeft } of mt.intercomms(minsize)) {
    if (!comm) continue;
    const rank = comm.rank;
    const rsize = comm.remoteSize;
    const size = comm.size;
    // build intercomms
    const comm1 = await comm.intercommMerge(isLeft);
    // check the size and ranks
    let nsize = comm1.size;
    let nrank = comm1.rank;
    if (nsize !== size + rsize) {
      errs++;
      mt.printf(`(1) Comm size is ${nsize} but should be ${size + rsize}`);
      if (isLeft) {
        // the left processes should be high
        if (nrank !== rsize + rank) {
          errs++;
          mt.printf(`(1) rank for high process is ${nrank} should be ${rsize + rank}`);
        }
      } else if (nrank !== rank) {
        // the right processes should be low
        errs++;
        mt.printf(`(1) rank for low process is ${nrank} should be ${rank}`);
      }
    }
    const comm2 = await comm.intercommMerge(!isLeft);
    // check the size and ranks (of comm1, as in C)
    nsize = comm1.size;
    nrank = comm1.rank;
    if (nsize !== size + rsize) {
      errs++;
      mt.printf(`(2) Comm size is ${nsize} but should be ${size + rsize}`);
      if (!isLeft) {
        // the right processes should be high
        if (nrank !== rsize + rank) {
          errs++;
          mt.printf(`(2) rank for high process is ${nrank} should be ${rsize + rank}`);
        }
      } else if (nrank !== rank) {
        // the left processes should be low
        errs++;
        mt.printf(`(2) rank for low process is ${nrank} should be ${rank}`);
      }
    }
    const comm3 = await comm.intercommMerge(false);
    const comm4 = await comm.intercommMerge(true);
    await comm1.free();
    await comm2.free();
    await comm3.free();
    await comm4.free();
  }
  return mt.finalize(errs);
}
