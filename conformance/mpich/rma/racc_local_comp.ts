// MPICH test/mpi/rma/racc_local_comp.c: MPI_Raccumulate (REPLACE) of 1 and of 65536 ints, 100
// times each, is complete locally at MPI_Wait: the buffer changed afterwards does not change what
// rank 0's window receives (read back after a flush).
import type { MTest, MTestResult } from '../mtest.ts';

const ITER = 100;
const MAX_SIZE = 65536;

export default async function raccLocalComp(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  if (mpi.size < 2) throw new Error('MPI_Abort: must be run with two or more processes');
  const bufMem = mpi.allocMem(MAX_SIZE * 4, mpi.INFO_NULL);
  const winMem = mpi.allocMem(MAX_SIZE * 4, mpi.INFO_NULL);
  const buf = new Int32Array(bufMem.buffer, bufMem.byteOffset, MAX_SIZE);
  const winbuf = new Int32Array(winMem.buffer, winMem.byteOffset, MAX_SIZE);
  const window = await mpi.winCreate(winbuf, 4, mpi.INFO_NULL);
  await window.lockAll(0);
  // small data
  if (rank === 1) {
    for (let i = 0; i < ITER; i++) {
      const val = Int32Array.of(-1);
      buf[0] = rank * i;
      const accReq = await window.raccumulate(buf, 1, mpi.INT, 0, 0, 1, mpi.INT, mpi.REPLACE);
      await mpi.wait(accReq);
      // reset the local buffer to check local completion
      buf[0] = 0;
      await window.flush(0);
      await window.get(val, 1, mpi.INT, 0, 0, 1, mpi.INT);
      await window.flush(0);
      if (val[0] !== rank * i) {
        mt.printf(`${rank} - Got ${val[0]} in small Raccumulate test, expected ${rank * i} (${rank} * ${i})`);
        errors++;
      }
    }
  }
  await mpi.barrier();
  // large data
  if (rank === 1) {
    for (let i = 0; i < ITER; i++) {
      const [val0, val1, val2] = [Int32Array.of(-1), Int32Array.of(-1), Int32Array.of(-1)];
      for (let j = 0; j < MAX_SIZE; j++) buf[j] = rank + j + i;
      const accReq = await window.raccumulate(buf, MAX_SIZE, mpi.INT, 0, 0, MAX_SIZE, mpi.INT, mpi.REPLACE);
      await mpi.wait(accReq);
      // reset the local buffer to check local completion
      buf[0] = 0;
      buf[MAX_SIZE - 1] = 0;
      buf[MAX_SIZE / 2] = 0;
      await window.flush(0);
      // the remote values of what changed locally after the wait
      await window.get(val0, 1, mpi.INT, 0, 0, 1, mpi.INT);
      await window.get(val1, 1, mpi.INT, 0, MAX_SIZE - 1, 1, mpi.INT);
      await window.get(val2, 1, mpi.INT, 0, MAX_SIZE / 2, 1, mpi.INT);
      await window.flush(0);
      if (val0[0] !== rank + i) {
        mt.printf(`${rank} - Got ${val0[0]} in large Raccumulate test, expected ${rank + i}`);
        errors++;
      }
      if (val1[0] !== rank + MAX_SIZE - 1 + i) {
        mt.printf(`${rank} - Got ${val1[0]} in large Raccumulate test, expected ${rank + MAX_SIZE - 1 + i}`);
        errors++;
      }
      if (val2[0] !== rank + MAX_SIZE / 2 + i) {
        mt.printf(`${rank} - Got ${val2[0]} in large Raccumulate test, expected ${rank + MAX_SIZE / 2 + i}`);
        errors++;
      }
    }
  }
  await window.unlockAll();
  await mpi.barrier();
  await window.free();
  mpi.freeMem(bufMem);
  mpi.freeMem(winMem);
  return mt.finalize(errors);
}
