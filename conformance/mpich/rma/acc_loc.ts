// MPICH test/mpi/rma/acc_loc.c: every rank accumulates a struct { int val; int loc; } as MPI_2INT
// with MPI_MAXLOC and MPI_MINLOC into rank 0's window, in fence epochs (value nproc - rank: rank 0
// wins MAXLOC, the last rank MINLOC) and under shared MODE_NOCHECK locks (all values 1: the
// lowest loc, rank 0, wins both).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function accLoc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const me = mpi.rank;
  const nproc = mpi.size;
  const mem = me === 0 ? mpi.allocMem(8, mpi.INFO_NULL) : new Uint8Array(0);
  // twoint_t: val at 0, loc at 4
  const data = new Int32Array(mem.buffer, mem.byteOffset, me === 0 ? 2 : 0);
  const mine = new Int32Array(2);
  const setMine = (val: number, loc: number): void => {
    mine[0] = val;
    mine[1] = loc;
  };
  const win = await mpi.winCreate(mem, 1, mpi.INFO_NULL);
  const check = (loc: number, val: number): void => {
    if (me === 0 && (data[1] !== loc || data[0] !== val)) {
      errs++;
      mt.printf(`Expected: { loc = ${loc}, val = ${val} }  Actual: { loc = ${data[1]}, val = ${data[0]} }`);
    }
  };
  await win.fence(mpi.MODE_NOPRECEDE);

  // test MAXLOC
  if (me === 0) [data[0], data[1]] = [0, -1];
  await win.fence(0);
  setMine(nproc - me, me);
  await win.accumulate(mine, 1, mpi.TWO_INT, 0, 0, 1, mpi.TWO_INT, mpi.MAXLOC);
  await win.fence(0);
  check(0, nproc);

  // test MINLOC
  if (me === 0) [data[0], data[1]] = [nproc, -1];
  await win.fence(0);
  setMine(nproc - me, me);
  await win.accumulate(mine, 1, mpi.TWO_INT, 0, 0, 1, mpi.TWO_INT, mpi.MINLOC);
  await win.fence(0);
  check(nproc - 1, 1);

  // equal values under locks: the lowest loc wins; test MAXLOC
  if (me === 0) [data[0], data[1]] = [0, -1];
  await win.fence(mpi.MODE_NOSUCCEED);
  setMine(1, me);
  await win.lock(mpi.LOCK_SHARED, 0, mpi.MODE_NOCHECK);
  await win.accumulate(mine, 1, mpi.TWO_INT, 0, 0, 1, mpi.TWO_INT, mpi.MAXLOC);
  await win.unlock(0);
  await mpi.barrier();
  check(0, 1);
  await win.fence(mpi.MODE_NOPRECEDE);

  // test MINLOC
  if (me === 0) [data[0], data[1]] = [nproc, -1];
  await win.fence(mpi.MODE_NOSUCCEED);
  setMine(1, me);
  await win.lock(mpi.LOCK_SHARED, 0, mpi.MODE_NOCHECK);
  await win.accumulate(mine, 1, mpi.TWO_INT, 0, 0, 1, mpi.TWO_INT, mpi.MINLOC);
  await win.unlock(0);
  await mpi.barrier();
  check(0, 1);

  await win.free();
  if (me === 0) mpi.freeMem(mem);
  return mt.finalize(errs);
}
