// MPICH test/mpi/rma/large_small_acc.c: in one fence epoch rank 0 replaces rank 1's 8192 uint64s by
// 1 with one large MPI_Accumulate, then element 0 by 2 and elements 1-2 by 3 with two small ones;
// accumulates from one origin to one target are ordered, so rank 1 sees 2, 3, 3, 1, 1, ... (5 rounds).
import type { MTest, MTestResult } from '../mtest.ts';

const LOOP = 5;
const DATA_COUNT = 8192;

export default async function largeSmallAcc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const buf = new BigUint64Array(DATA_COUNT);
  const origBuf = new BigUint64Array(DATA_COUNT);
  const smallOrigBuf1 = BigUint64Array.of(2n);
  const smallOrigBuf2 = BigUint64Array.of(3n, 3n);
  for (let j = 0; j < LOOP; j++) {
    errs = 0;
    buf.fill(0n);
    origBuf.fill(1n);
    const win = await mpi.winCreate(buf, 8);
    await win.fence(0);
    if (rank === 0) {
      // ACC (atomic PUT) to win_buf[0...DATA_COUNT-1], then to win_buf[0], then to win_buf[1,2]
      await win.accumulate(origBuf, DATA_COUNT, mpi.UINT64_T, 1, 0, DATA_COUNT, mpi.UINT64_T, mpi.REPLACE);
      await win.accumulate(smallOrigBuf1, 1, mpi.UINT64_T, 1, 0, 1, mpi.UINT64_T, mpi.REPLACE);
      await win.accumulate(smallOrigBuf2, 2, mpi.UINT64_T, 1, 1, 2, mpi.UINT64_T, mpi.REPLACE);
    }
    await win.fence(0);
    if (rank === 1) {
      for (let i = 0; i < DATA_COUNT; i++) {
        const expect = i === 0 ? 2n : i === 1 || i === 2 ? 3n : 1n;
        if (buf[i] !== expect) errs++;
      }
    }
    await win.free();
  }
  return mt.finalize(errs);
}
