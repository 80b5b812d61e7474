// MPICH test/mpi/rma/fetchandadd_tree.c (Using MPI-2, Fig. 6.16, with its bugs fixed): a shared
// counter as a binary tree of ints in rank 0's window; each other rank, 20 times under an exclusive
// lock, adds 1 along its path (MPI_Accumulate into an indexed-block type) and gets the sibling
// subtrees' counts (MPI_Get with another), and sums them with its own count; rank 0 gathers every
// value and checks that, sorted, they step by one. fetchandadd_tree_am.c takes the counter from
// MPI_Alloc_mem.
import type { Datatype, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const NTIMES = 20;

function fetchandaddTreeBuild(am: boolean): (mt: MTest) => Promise<MTestResult> {
  return async (mt) => {
    const { mpi } = mt;
    let errs = 0;
    const nprocs = mpi.size;
    const rank = mpi.rank;
    // contribution of this process to the counter
    let localvalue = 0;
    if (rank === 0) {
      // find the next power-of-two >= nprocs
      let pof2 = 1;
      while (pof2 < nprocs) pof2 *= 2;
      const counterMem = am ? mpi.allocMem(pof2 * 2 * 4, mpi.INFO_NULL) : new Uint8Array(pof2 * 2 * 4);
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
      // the largest power of two smaller than nprocs
      let mask = 1;
      let nlevels = 0;
      while (mask < nprocs) {
        mask <<= 1;
        nlevels++;
      }
      mask >>= 1;
      const getArray = new Int32Array(nlevels);
      const getIdx: number[] = [];
      const accIdx: number[] = [];
      let level = 0;
      let idx = 0;
      let tmpRank = rank;
      while (mask >= 1) {
        if (tmpRank < mask) {
          // go to left for acc_idx, go to right for get_idx; set idx = acc_idx for next iteration
          accIdx[level] = idx + 1;
          getIdx[level] = idx + mask * 2;
          idx = idx + 1;
        } else {
          // go to right for acc_idx, go to left for get_idx; set idx = acc_idx for next iteration
          accIdx[level] = idx + mask * 2;
          getIdx[level] = idx + 1;
          idx = idx + mask * 2;
        }
        level++;
        tmpRank = tmpRank % mask;
        mask >>= 1;
      }
      const getType = mpi.typeCreateIndexedBlock(nlevels, 1, getIdx, mpi.INT);
      const accType = mpi.typeCreateIndexedBlock(nlevels, 1, accIdx, mpi.INT);
      mpi.typeCommit(getType);
      mpi.typeCommit(accType);
      // the values obtained from the fetch-and-add counter
      const counterVals = new Int32Array(NTIMES);
      const win = await mpi.winCreate(new Uint8Array(0), 1, mpi.INFO_NULL);
      const getNextvalTree = async (win: Win, getT: Datatype, accT: Datatype): Promise<number> => {
        const one = new Int32Array(nlevels).fill(1);
        await win.lock(mpi.LOCK_EXCLUSIVE, 0, 0);
        await win.accumulate(one, nlevels, mpi.INT, 0, 0, 1, accT, mpi.SUM);
        await win.get(getArray, nlevels, mpi.INT, 0, 0, 1, getT);
        await win.unlock(0);
        let value = localvalue;
        for (let i = 0; i < nlevels; i++) value += getArray[i]!;
        localvalue++;
        return value;
      };
      for (let i = 0; i < NTIMES; i++) counterVals[i] = await getNextvalTree(win, getType, accType);
      await win.free();
      mpi.typeFree(getType);
      mpi.typeFree(accType);
      // gather the results to the root
      await mpi.gather(counterVals, NTIMES, mpi.INT, null, 0, mpi.INT, 0);
    }
    return mt.finalize(errs);
  };
}

export default fetchandaddTreeBuild(false);
/** fetchandadd_tree_am.c. */
export const fetchandaddTreeAm = fetchandaddTreeBuild(true);
