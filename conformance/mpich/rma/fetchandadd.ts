// MPICH test/mpi/rma/fetchandadd.c (Using MPI-2, Fig. 6.12): a shared counter in rank 0's window,
// one int per rank; each other rank, 20 times under an exclusive lock, adds 1 to its own int
// (MPI_Accumulate) and gets the others' with an indexed type, and sums them with its own count;
// rank 0 gathers every value and checks that, sorted, they step by one. fetchandadd_am.c is the
// same with the counter from MPI_Alloc_mem.
import type { Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const NTIMES = 20;

function fetchandaddBuild(am: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const nprocs = mpi.size;
    const rank = mpi.rank;
    // contribution of this process to the counter
    let localvalue = 0;
    if (rank === 0) {
      // allocate counter memory and initialize to 0
      const counterMem = am ? mpi.allocMem(nprocs * 4, mpi.INFO_NULL) : new Uint8Array(nprocs * 4);
      counterMem.fill(0);
      const win = await mpi.winCreate(counterMem, 4, mpi.INFO_NULL);
      await win.free();
      if (am) mpi.freeMem(counterMem);
      // gather the results from other processes, sort them, and check that they step by one
      const results = new Int32Array(NTIMES * nprocs).fill(-1);
      // the long form types its send buffer as a view; IN_PLACE passes as one, as in the other ports
      await mpi.gather(mpi.IN_PLACE as unknown as Int32Array, 0, mpi.INT, results, NTIMES, mpi.INT, 0);
      results.subarray(NTIMES).sort();
      for (let i = NTIMES + 1; i < NTIMES * nprocs; i++) if (results[i] !== results[i - 1]! + 1) errs++;
    } else {
      const getType = mpi.typeIndexed(2, [rank, nprocs - rank - 1], [0, rank + 1], mpi.INT);
      mpi.typeCommit(getType);
      const valArray = new Int32Array(nprocs);
      // the values obtained from the fetch-and-add counter
      const counterVals = new Int32Array(NTIMES);
      const win = await mpi.winCreate(new Uint8Array(0), 1, mpi.INFO_NULL);
      const getNextval = async (win: Win): Promise<number> => {
        const one = Int32Array.of(1);
        await win.lock(mpi.LOCK_EXCLUSIVE, 0, 0);
        await win.accumulate(one, 1, mpi.INT, 0, rank, 1, mpi.INT, mpi.SUM);
        await win.get(valArray, 1, getType, 0, 0, 1, getType);
        await win.unlock(0);
        let value = 0;
        valArray[rank] = localvalue;
        for (let i = 0; i < nprocs; i++) value += valArray[i]!;
        localvalue++;
        return value;
      };
      for (let i = 0; i < NTIMES; i++) counterVals[i] = await getNextval(win);
      await win.free();
      mpi.typeFree(getType);
      // gather the results to the root
      await mpi.gather(counterVals, NTIMES, mpi.INT, null, 0, mpi.INT, 0);
    }
    return mt.finalize(errs);
  };
}

export default fetchandaddBuild(false);
/** fetchandadd_am.c. */
export const fetchandaddAm = fetchandaddBuild(true);
