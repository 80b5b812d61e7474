// MPICH test/mpi/datatype/concurrent_irecv.c: two receives into an hvector type (64 blocks of 1,024
// doubles, one double apart) from two ranks at once, the type freed while they are pending.
import type { MTest, MTestResult } from '../mtest.ts';

const BLKLEN = 1024;
const NUM_BLKS = 64;

export default async function concurrentIrecv(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const nranks = mpi.size;
  if (nranks !== 3) throw new Error('MPI_Abort: needs 3 processes');
  const largeBuf = new Float64Array((BLKLEN + 1) * NUM_BLKS);
  const largeBuf1 = new Float64Array((BLKLEN + 1) * NUM_BLKS);
  if (rank === 0) {
    const r = 0;
    const type = mpi.typeCommit(mpi.typeCreateHvector(NUM_BLKS, BLKLEN, (BLKLEN + 1) * 8, mpi.DOUBLE));
    const reqs = [mpi.irecv(largeBuf, 1, type, r + 1, 111), mpi.irecv(largeBuf1, 1, type, r + 2, 111)];
    mpi.typeFree(type);
    await mpi.waitAll(reqs);
    for (let i = 0; i < BLKLEN * NUM_BLKS; i += 1025) {
      for (let j = i; j < i + 1024; j++) {
        if (largeBuf[j] !== rank + 1) ++errs;
        if (largeBuf1[j] !== rank + 2) ++errs;
      }
    }
  } else {
    for (let i = 0; i < BLKLEN * NUM_BLKS; i++) largeBuf[i] = rank;
    await mpi.send(largeBuf.subarray(0, BLKLEN * NUM_BLKS), BLKLEN * NUM_BLKS, mpi.DOUBLE, 0, 111);
  }
  return mt.finalize(errs);
}
