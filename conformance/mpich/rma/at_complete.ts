// MPICH test/mpi/rma/at_complete.c: 100 times, rank 0 gets 100,000 ints of rank 1's window and
// puts one int before them, once in a fence epoch and once in a post-start-complete-wait epoch;
// the get must see the window as it was before the target's later store to its last int.
import type { MTest, MTestResult } from '../mtest.ts';

const PUT_SIZE = 1;
const GET_SIZE = 100000;
const WIN_SIZE = PUT_SIZE + GET_SIZE;
const LOOP = 100;

export default async function atComplete(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const origRank = 0;
  const destRank = 1;
  const winBuf = new Int32Array(WIN_SIZE);
  const origGetBuf = new Int32Array(GET_SIZE);
  const origPutBuf = new Int32Array(PUT_SIZE);
  const commGroup = mpi.group;
  const origGroup = commGroup.incl([origRank]);
  const destGroup = commGroup.incl([destRank]);
  origPutBuf.fill(1);
  origGetBuf.fill(0);
  winBuf.fill(1);
  const win = await mpi.winCreate(winBuf, 4, mpi.INFO_NULL);
  const reset = async (): Promise<void> => {
    origPutBuf.fill(1);
    origGetBuf.fill(0);
    await win.lock(mpi.LOCK_SHARED, rank, 0);
    winBuf.fill(1);
    await win.unlock(rank);
    await mpi.barrier();
  };
  const check = (k: number, how: string): void => {
    for (let i = 0; i < GET_SIZE; i++) {
      if (origGetBuf[i] !== 1) {
        mt.printf(`LOOP=${k}, ${how}, orig_get_buf[${i}] = ${origGetBuf[i]}, expected 1.`);
        errs++;
      }
    }
  };
  for (let k = 0; k < LOOP; k++) {
    if (rank === origRank) {
      await win.fence(mpi.MODE_NOPRECEDE);
      await win.get(origGetBuf, GET_SIZE, mpi.INT, destRank, PUT_SIZE, GET_SIZE, mpi.INT);
      await win.put(origPutBuf, PUT_SIZE, mpi.INT, destRank, 0, PUT_SIZE, mpi.INT);
      await win.fence(mpi.MODE_NOSUCCEED);
      check(k, 'FENCE');
    } else if (rank === destRank) {
      await win.fence(mpi.MODE_NOPRECEDE);
      await win.fence(mpi.MODE_NOSUCCEED);
      await win.lock(mpi.LOCK_SHARED, rank, 0);
      winBuf[WIN_SIZE - 1] = 2;
      await win.unlock(rank);
    }
    await mpi.barrier();
    await reset();
    if (rank === origRank) {
      await win.start(destGroup, 0);
      await win.get(origGetBuf, GET_SIZE, mpi.INT, destRank, PUT_SIZE, GET_SIZE, mpi.INT);
      await win.put(origPutBuf, PUT_SIZE, mpi.INT, destRank, 0, PUT_SIZE, mpi.INT);
      await win.complete();
      check(k, 'PSCW');
    } else if (rank === destRank) {
      await win.post(origGroup, 0);
      await win.wait();
      await win.lock(mpi.LOCK_SHARED, rank, 0);
      winBuf[WIN_SIZE - 1] = 2;
      await win.unlock(rank);
    }
    await mpi.barrier();
    await reset();
  }
  await win.free();
  return mt.finalize(errs);
}
