// tests-uh feature_tests/C/test_shmem_barrier.c: a p to the right neighbour seen by PE 0 after shmem_barrier_all, and a p from PE 1 seen by PE 0 after shmem_barrier over PEs 0 and 1.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testShmemBarrier(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // long pSync[_SHMEM_BARRIER_SYNC_SIZE]; int x = 10101
  const [pSync, xSym] = await t.statics([8 * s.BARRIER_SYNC_SIZE, 4], ([, x]) => (x!.int32()[0] = 10101));
  const x = xSym!.int32();
  let failCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  pSync!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
  if (npes > 1) {
    await s.pInt32(xSym!, 4, (me + 1) % npes);
    await s.barrierAll();
    if (me === 0) {
      if (x[0] === 4) t.printf('Test shmem_barrier_all: Passed');
      else {
        t.printf('Test shmem_barrier_all: Failed');
        failCount++;
      }
    }
    x[0] = -9;
    await s.barrierAll();
    if (me === 0 || me === 1) {
      if (me === 1) await s.pInt32(xSym!, 4, 0);
      await s.barrier(0, 0, 2, pSync!);
      if (me === 0) {
        if (x[0] === 4) t.printf('Test shmem_barrier: Passed');
        else {
          t.printf('Test shmem_barrier: Failed');
          failCount++;
        }
      }
    }
    if (me === 0) {
      if (failCount === 0) t.printf('All Tests Passed');
      else t.printf(`${failCount} Tests Failed`);
    }
  } else t.printf('Number of PEs must be > 1 to test barrier, test skipped');
  await s.finalize();
  return 0;
}
