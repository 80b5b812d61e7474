// MPICH test/mpi/rma/compare_and_swap.c: MPI_Compare_and_swap under exclusive locks, to self, to the
// next rank, and with every rank contending for rank 0's counter.
import type { MTest, MTestResult } from '../mtest.ts';

const ITER = 100;

export default async function compareAndSwap(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const nproc = mpi.size;
  const val = new Int32Array(1);
  const win = await mpi.winCreate(val, 4);
  const cas = async (target: number, i: number): Promise<number> => {
    const next = Int32Array.of(i + 1);
    const result = Int32Array.of(-1);
    await win.lock(mpi.LOCK_EXCLUSIVE, target, 0);
    await win.compareAndSwap(next, Int32Array.of(i), result, target, 0);
    await win.unlock(target);
    return result[0]!;
  };
  const reset = async (): Promise<void> => {
    await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
    val[0] = 0;
    await win.unlock(rank);
  };
  // self communication
  for (let i = 0; i < ITER; i++) {
    const result = await cas(rank, i);
    if (result !== i) {
      if (errors < 10) mt.printf(`${rank}->${rank} -- Error: next=${i + 1} compare=${i} result=${result} val=${val[0]}`);
      errors++;
    }
  }
  await reset();
  await mpi.barrier();
  // neighbour communication
  for (let i = 0; i < ITER; i++) {
    const result = await cas((rank + 1) % nproc, i);
    if (result !== i) {
      if (errors < 10) mt.printf(`${rank}->${(rank + 1) % nproc} -- Error: next=${i + 1} compare=${i} result=${result} val=${val[0]}`);
      errors++;
    }
  }
  await mpi.barrier();
  await reset();
  await mpi.barrier();
  // contention
  if (rank !== 0) for (let i = 0; i < ITER; i++) await cas(0, i);
  await mpi.barrier();
  if (rank === 0 && nproc > 1 && val[0] !== ITER) {
    mt.printf(`${rank} - Error: expected=${ITER} val=${val[0]}`);
    errors++;
  }
  await win.free();
  return mt.finalize(errors);
}
