// tests-uh feature_tests/C/test_shmem_lock.c: every PE increments an int on PE 0 (get, add one, put, quiet) under shmem_set_lock, then under shmem_test_lock; PE 0 checks it reaches npes each time.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testShmemLock(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // long L = 0; int x
  const [L, xSym] = await t.statics([8, 4]);
  const x = xSym!.int32();
  const newVal = new Int32Array(1);
  let failCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  x[0] = 0;
  let retVal: number;
  if (npes > 1) {
    await s.barrierAll();
    await s.setLock(L!);
    await s.getInt32(newVal, xSym!, 1, 0);
    newVal[0]!++;
    await s.putInt32(xSym!, newVal, 1, 0); // increment x on PE 0
    await s.quiet();
    await s.clearLock(L!);
    await s.barrierAll();
    if (me === 0) {
      if (x[0] === npes) t.printf('Test for set, and clear lock: Passed');
      else {
        t.printf('Test for set, and clear lock: Failed');
        failCount++;
      }
      x[0] = 0;
    }
    await s.barrierAll();
    do {
      retVal = await s.testLock(L!);
    } while (retVal === 1);
    await s.getInt32(newVal, xSym!, 1, 0);
    newVal[0]!++;
    await s.putInt32(xSym!, newVal, 1, 0); // increment x on PE 0
    await s.quiet();
    await s.clearLock(L!);
    await s.barrierAll();
    if (me === 0) {
      if (x[0] === npes) t.printf('Test for test lock: Passed');
      else {
        t.printf('Test for test lock: Failed');
        failCount++;
      }
    }
    await s.barrierAll();
    if (me === 0) {
      if (failCount === 0) t.printf('All Tests Passed');
      else t.printf(`${failCount} Tests Failed`);
    }
  } else t.printf('Number of PEs must be > 1 to test locks, test skipped');
  await s.finalize();
  return 0;
}
