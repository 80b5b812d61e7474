// MPICH test/mpi/topo/cartshift1.c: MPI_Cart_shift by 1, 0 and -1 on a periodic and a
// non-periodic 1-D grid of every rank.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function cartshift1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  let comm = (await mpi.cartCreate([size], [true], false))!;
  let s = comm.cartShift(0, 1);
  if (s.source !== (rank - 1 + size) % size) {
    errs++;
    mt.printf(`source for shift 1 is ${s.source}`);
  }
  if (s.dest !== (rank + 1) % size) {
    errs++;
    mt.printf(`dest for shift 1 is ${s.dest}`);
  }
  s = comm.cartShift(0, 0);
  if (s.source !== rank) {
    errs++;
    mt.printf(`Source for shift 0 is ${s.source}`);
  }
  if (s.dest !== rank) {
    errs++;
    mt.printf(`Dest for shift 0 is ${s.dest}`);
  }
  s = comm.cartShift(0, -1);
  if (s.source !== (rank + 1) % size) {
    errs++;
    mt.printf(`source for shift -1 is ${s.source}`);
  }
  if (s.dest !== (rank - 1 + size) % size) {
    errs++;
    mt.printf(`dest for shift -1 is ${s.dest}`);
  }
  // now non-periodic
  await comm.free();
  comm = (await mpi.cartCreate([size], [false], false))!;
  s = comm.cartShift(0, 1);
  if ((rank > 0 && s.source !== rank - 1) || (rank === 0 && s.source !== mpi.PROC_NULL)) {
    errs++;
    mt.printf(`source for non-periodic shift 1 is ${s.source}`);
  }
  if ((rank < size - 1 && s.dest !== rank + 1) || (rank === size - 1 && s.dest !== mpi.PROC_NULL)) {
    errs++;
    mt.printf(`dest for non-periodic shift 1 is ${s.dest}`);
  }
  s = comm.cartShift(0, 0);
  if (s.source !== rank) {
    errs++;
    mt.printf(`Source for non-periodic shift 0 is ${s.source}`);
  }
  if (s.dest !== rank) {
    errs++;
    mt.printf(`Dest for non-periodic shift 0 is ${s.dest}`);
  }
  s = comm.cartShift(0, -1);
  if ((rank < size - 1 && s.source !== rank + 1) || (rank === size - 1 && s.source !== mpi.PROC_NULL)) {
    errs++;
    mt.printf(`source for non-periodic shift -1 is ${s.source}`);
  }
  if ((rank > 0 && s.dest !== rank - 1) || (rank === 0 && s.dest !== mpi.PROC_NULL)) {
    errs++;
    mt.printf(`dest for non-periodic shift -1 is ${s.dest}`);
  }
  await comm.free();
  return mt.finalize(errs);
}
