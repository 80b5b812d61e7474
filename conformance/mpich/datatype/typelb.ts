// MPICH test/mpi/datatype/typelb.c: an hindexed type (displacement 1) of an hindexed byte
// (displacement 3) has lower bound 4, upper bound 5 and extent 1.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function typelb(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  // values in places that must not be read
  const blockcnt = [0, -1];
  const offsets = [0, -1];
  const rank = mpi.rank;
  if (rank === 0) {
    blockcnt[0] = 1;
    offsets[0] = 3;
    const tmpType = mpi.typeCreateHindexed(1, blockcnt, offsets, mpi.BYTE);
    blockcnt[0] = 1;
    offsets[0] = 1;
    const newtype = mpi.typeCreateHindexed(1, blockcnt, offsets, tmpType);
    mpi.typeCommit(newtype);
    const { lb, extent } = mpi.typeGetExtent(newtype);
    const ub = lb + extent;
    // the results are correct
    if (lb !== 4 || ub !== 5 || extent !== 1) {
      mt.printf(`lb = ${lb} (should be 4), ub = ${ub} (should be 5) extent = ${extent} should be 1`);
      errs++;
    }
    mpi.typeFree(tmpType);
    mpi.typeFree(newtype);
  }
  return mt.finalize(errs);
}
