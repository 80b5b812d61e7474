// MPICH test/mpi/rma/mixedsync.c: three rounds of two loops mixing synchronisation types on one
// window: puts (then accumulates and puts, then accumulates, puts and gets) of 1000, 1 and 100 ints
// from rank 1 to rank 0 under an exclusive lock, then again one int further in a fence epoch;
// rank 0 checks what the fence epoch left. The C test's busy-wait of 0.1 ms on MPI_Wtime is a
// computation of that time here.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function mixedsync(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const count0 = 1000;
  const count1 = 1;
  const count2 = 100;
  const count = count0 + count1 + count2 + 2;
  // the local buffers
  const buf0 = Int32Array.from({ length: count0 }, (_, i) => i);
  const buf1 = Int32Array.from({ length: count1 }, (_, i) => i + count0);
  const buf2 = Int32Array.from({ length: count2 }, (_, i) => i + count0 + count1);
  const inbuf2 = new Int32Array(count2);
  // the window buffer
  const mem = mpi.allocMem(count * 4, mpi.INFO_NULL);
  const winbuf = new Int32Array(mem.buffer, mem.byteOffset, count);
  const win = await comm.winCreate(winbuf, 4, mpi.INFO_NULL);
  const crank = comm.rank;
  const dest = 0;
  const source = 1;
  const delay = (): Promise<void> => mt.ctx.compute({ us: 100 });
  const check = (n: number): void => {
    for (let i = 0; i < n; i++) {
      if (winbuf[1 + i] !== i) {
        errs++;
        if (errs < 10) mt.printf(`winbuf[${1 + i}] = ${winbuf[1 + i]}, expected ${i}`);
      }
    }
  };
  const INT = mpi.INT;
  for (let loop = 0; loop < 2; loop++) {
    // puts under a lock, then in a fence epoch
    await comm.barrier();
    if (crank === source) {
      await win.lock(mpi.LOCK_EXCLUSIVE, dest, 0);
      await win.put(buf0, count0, INT, dest, 0, count0, INT);
      await win.put(buf1, count1, INT, dest, count0, count1, INT);
      await win.put(buf2, count2, INT, dest, count0 + count1, count2, INT);
      await win.unlock(dest);
    } else if (crank === dest) {
      await delay();
    }
    // the lock epoch completes before the fence (MPI 11.7)
    await comm.barrier();
    await win.fence(0);
    if (crank === source) {
      await win.put(buf0, count0, INT, dest, 1, count0, INT);
      await win.put(buf1, count1, INT, dest, 1 + count0, count1, INT);
      await win.put(buf2, count2, INT, dest, 1 + count0 + count1, count2, INT);
    }
    await win.fence(0);
    if (crank === dest) check(count0 + count1 + count2);
  }
  for (let loop = 0; loop < 2; loop++) {
    // accumulates and a put
    winbuf.fill(0);
    await comm.barrier();
    if (crank === source) {
      await win.lock(mpi.LOCK_EXCLUSIVE, dest, 0);
      await win.accumulate(buf0, count0, INT, dest, 0, count0, INT, mpi.SUM);
      await win.accumulate(buf1, count1, INT, dest, count0, count1, INT, mpi.SUM);
      await win.put(buf2, count2, INT, dest, count0 + count1, count2, INT);
      await win.unlock(dest);
    } else if (crank === dest) {
      await delay();
    }
    await comm.barrier();
    await win.fence(0);
    if (crank === source) {
      await win.accumulate(buf0, count0, INT, dest, 1, count0, INT, mpi.REPLACE);
      await win.accumulate(buf1, count1, INT, dest, 1 + count0, count1, INT, mpi.REPLACE);
      await win.put(buf2, count2, INT, dest, 1 + count0 + count1, count2, INT);
    }
    await win.fence(0);
    if (crank === dest) check(count0 + count1 + count2);
  }
  for (let loop = 0; loop < 2; loop++) {
    // an accumulate, a put and a get
    await comm.barrier();
    if (crank === source) {
      await win.lock(mpi.LOCK_EXCLUSIVE, dest, 0);
      await win.accumulate(buf0, count0, INT, dest, 0, count0, INT, mpi.REPLACE);
      await win.put(buf1, count1, INT, dest, count0, count1, INT);
      await win.get(inbuf2, count2, INT, dest, count0 + count1, count2, INT);
      await win.unlock(dest);
    } else if (crank === dest) {
      await delay();
    }
    await comm.barrier();
    await win.fence(0);
    if (crank === source) {
      await win.accumulate(buf0, count0, INT, dest, 1, count0, INT, mpi.REPLACE);
      await win.put(buf1, count1, INT, dest, 1 + count0, count1, INT);
      await win.get(inbuf2, count2, INT, dest, 1 + count0 + count1, count2, INT);
    }
    await win.fence(0);
    // the put and accumulate parts
    if (crank === dest) check(count0 + count1);
  }
  await comm.barrier();
  await win.free();
  mpi.freeMem(mem);
  return mt.finalize(errs);
}
