// MPICH test/mpi/rma/lockcontention2.c: every rank writes (puts, longer puts, puts mixed with gets,
// gets alone, accumulates) the values rank + i * size at rank 0's window, one exclusive-lock epoch
// per element, never touching one location twice in an epoch; rank 0 checks the results.
import type { MTest, MTestResult } from '../mtest.ts';

const NELM = 200;
const NBLOCK = 10;
const MAX_ERRS_REPORT = 10;

export default async function lockcontention2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let toterrs = 0;
  const wsize = mpi.size;
  const rank = mpi.rank;
  if (wsize < 2) throw new Error('Run this program with at least 2 processes');
  let trank = 0;
  const windowsize = (2 * NBLOCK + 2) * NELM * wsize;
  const rmabuf = new Int32Array(windowsize);
  const localbuf = new Int32Array(NELM);
  const localbuf2 = new Int32Array(NELM * NBLOCK);
  const vals = new Int32Array(NELM);

  /** The number of elements of `buf` from `at` on that are not their own index (testValues). */
  const testValues = (nb: number, nelm: number, at: number, msg: string): number => {
    let errs = 0;
    for (let i = 0; i < nb * nelm * wsize; i++) {
      if (rmabuf[at + i] !== i) {
        if (toterrs + errs < MAX_ERRS_REPORT) mt.printf(`${msg}:rmabuf[${i}] = ${rmabuf[at + i]} expected ${i}`);
        errs++;
      }
    }
    return errs;
  };

  for (let i = 0; i < NELM; i++) localbuf[i] = rank + i * wsize;
  let cnt = 0;
  for (let i = 0; i < NELM; i++) for (let j = 0; j < NBLOCK; j++) localbuf2[cnt++] = j + NBLOCK * (rank + i * wsize);
  rmabuf.fill(-1);
  const win = await mpi.winCreate(rmabuf, 4);

  // multiple puts, with contention at trank
  await mpi.barrier();
  for (let i = 0; i < NELM; i++) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    await win.put(localbuf.subarray(i), 1, mpi.INT, trank, rank + i * wsize, 1, mpi.INT);
    await win.put(localbuf.subarray(i), 1, mpi.INT, trank, rank + (i + NELM) * wsize, 1, mpi.INT);
    await win.unlock(trank);
  }
  await mpi.barrier();
  if (rank === trank) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    toterrs += testValues(1, NELM, 0, 'Multiple puts (1)');
    toterrs += testValues(1, NELM, wsize * NELM, 'Multiple puts (2)');
    await win.unlock(trank);
  }
  await mpi.barrier();
  rmabuf.fill(-1);
  await mpi.barrier();

  // single put with contention
  trank = 0;
  for (let i = 0; i < NELM; i++) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    await win.put(localbuf.subarray(i), 1, mpi.INT, trank, rank + i * wsize, 1, mpi.INT);
    await win.unlock(trank);
  }
  await mpi.barrier();
  if (rank === trank) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    toterrs += testValues(1, NELM, 0, 'Single put');
    await win.unlock(trank);
  }

  rmabuf.fill(-1);
  // longer puts with contention at trank
  await mpi.barrier();
  for (let i = 0; i < NELM; i++) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    if (rank !== trank) {
      await win.put(localbuf2.subarray(i * NBLOCK), NBLOCK, mpi.INT, trank, NELM * wsize + NBLOCK * (rank + i * wsize), NBLOCK, mpi.INT);
      await win.put(localbuf2.subarray(i * NBLOCK), NBLOCK, mpi.INT, trank, NELM * wsize + NBLOCK * (rank + (i + NELM) * wsize), NBLOCK, mpi.INT);
    }
    await win.put(localbuf.subarray(i), 1, mpi.INT, trank, rank + i * wsize, 1, mpi.INT);
    await win.unlock(trank);
  }
  await mpi.barrier();
  if (rank === trank) {
    // for simplicity in testing, set the values that rank == trank would have set
    for (let i = 0; i < NELM; i++) {
      for (let j = 0; j < NBLOCK; j++) {
        rmabuf[NELM * wsize + NBLOCK * (trank + i * wsize) + j] = j + NBLOCK * (trank + i * wsize);
        rmabuf[NELM * wsize + NBLOCK * (trank + (i + NELM) * wsize) + j] = j + NBLOCK * (trank + i * wsize);
      }
    }
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    toterrs += testValues(1, NELM, 0, 'Long puts (1)');
    toterrs += testValues(NBLOCK, NELM, NELM * wsize, 'Long puts(2)');
    toterrs += testValues(NBLOCK, NELM, NELM * wsize * (1 + NBLOCK), 'Long puts(3)');
    await win.unlock(trank);
  }

  rmabuf.fill(-1);
  vals.fill(-2);
  // put mixed with get
  await mpi.barrier();
  for (let i = 0; i < NELM; i++) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    if (rank !== trank) {
      await win.put(localbuf2.subarray(i), NBLOCK, mpi.INT, trank, NELM * wsize + NBLOCK * (rank + i * wsize), NBLOCK, mpi.INT);
      await win.put(localbuf.subarray(i), 1, mpi.INT, trank, rank + i * wsize, 1, mpi.INT);
    } else {
      await win.get(vals.subarray(i), 1, mpi.INT, trank, i, 1, mpi.INT);
    }
    await win.unlock(trank);
  }
  await mpi.barrier();
  if (rank === trank) {
    // just test the get
    for (let i = 0; i < wsize; i++) {
      if (i === trank) {
        if (vals[i] !== -1) {
          toterrs++;
          if (toterrs < MAX_ERRS_REPORT) mt.printf(`put/get: vals[${i}] = ${vals[i]}, expected -1`);
        }
      } else if (vals[i] !== i && vals[i] !== -1) {
        toterrs++;
        if (toterrs < MAX_ERRS_REPORT) mt.printf(`put/get: vals[${i}] = ${vals[i]}, expected -1 or ${i}`);
      }
    }
  }

  // contention only with get
  for (let i = 0; i < windowsize; i++) rmabuf[i] = -i;
  vals.fill(-2);
  await mpi.barrier();
  for (let i = 0; i < NELM; i++) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    await win.get(vals.subarray(i), 1, mpi.INT, trank, i, 1, mpi.INT);
    await win.unlock(trank);
  }
  await mpi.barrier();
  if (rank === trank) {
    for (let i = 0; i < NELM; i++) {
      if (vals[i] !== -i) {
        toterrs++;
        if (toterrs < MAX_ERRS_REPORT) mt.printf(`single get: vals[${i}] = ${vals[i]}, expected ${-i}`);
      }
    }
  }

  // contention with accumulate
  await mpi.barrier();
  rmabuf.fill(0, 0, NELM * wsize);
  await mpi.barrier();
  for (let i = 0; i < NELM; i++) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    await win.accumulate(localbuf.subarray(i), 1, mpi.INT, trank, rank + i * wsize, 1, mpi.INT, mpi.SUM);
    await win.accumulate(localbuf.subarray(i), 1, mpi.INT, trank, rank + i * wsize, 1, mpi.INT, mpi.SUM);
    await win.unlock(trank);
  }
  await mpi.barrier();
  if (rank === trank) {
    await win.lock(mpi.LOCK_EXCLUSIVE, trank, 0);
    for (let i = 0; i < NELM * wsize; i++) {
      if (rmabuf[i] !== 2 * i) {
        toterrs++;
        if (toterrs < MAX_ERRS_REPORT) mt.printf(`2 accumulate: rmabuf[${i}] = ${rmabuf[i]}, expected ${2 * i}`);
      }
    }
    await win.unlock(trank);
  }
  await win.free();
  return mt.finalize(toterrs);
}
