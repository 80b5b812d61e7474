// MPICH test/mpi/rma/accfence2.c: over MTest's intracommunicators, every rank accumulates (SUM)
// `count` ints into rank 0's window in a fence epoch, count doubling from 1 while the expected sums
// fit an int. Also accfence2_am.c: the same with the buffers from MPI_Alloc_mem and count from
// 32768.
import type { MTest, MTestResult } from '../mtest.ts';
import { ints } from './win-over.ts';

const MAX_INT = 0x7fffffff;

function accfence2Build(am: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const minsize = 2;
    for await (const comm of mt.intracomms(minsize, true)) {
      if (comm === null) continue;
      // the sender and receiver
      const rank = comm.rank;
      const size = comm.size;
      const source = 0;
      for (let count = am ? 32768 : 1; count < 65000; count = count * 2) {
        // the expected sums must fit an int
        if (count * count > Math.trunc(MAX_INT / size) - Math.trunc((size - 1) / 2)) break;
        const winbuf = ints(mpi, count, am);
        const sbuf = ints(mpi, count, am);
        for (let i = 0; i < count; i++) winbuf[i] = 0;
        for (let i = 0; i < count; i++) sbuf[i] = rank + i * count;
        const win = await comm.winCreate(winbuf, 4, null);
        await win.fence(0);
        await win.accumulate(sbuf, count, mpi.INT, source, 0, count, mpi.INT, mpi.SUM);
        await win.fence(0);
        if (rank === source) {
          // the results
          for (let i = 0; i < count; i++) {
            const result = i * count * size + Math.trunc((size * (size - 1)) / 2);
            if (winbuf[i] !== result) {
              if (errs < 10) mt.printf(`Winbuf[${i}] = ${winbuf[i]}, expected ${result} (count = ${count}, size = ${size})`);
              errs++;
            }
          }
        }
        await win.free();
        if (am) {
          mpi.freeMem(winbuf);
          mpi.freeMem(sbuf);
        }
      }
    }
    return mt.finalize(errs);
  };
}

export default accfence2Build(false);
/** accfence2_am. */
export const accfence2Am = accfence2Build(true);
