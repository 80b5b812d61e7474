// tests-uh feature_tests/C/test_shmem_finalize.c: a put64 to the right neighbour, then shmem_finalize, which must complete it: PE 0 checks what its left neighbour put.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testShmemFinalize(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // uint64_t dest = -9
  const [destSym] = await t.statics([8], ([d]) => (d!.uint64()[0] = BigInt.asUintN(64, -9n)));
  let failCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes > 1) {
    const src = BigUint64Array.of(BigInt((me + 1) % npes));
    const nextpe = (me + 1) % npes;
    await s.put64(destSym!, src, 1, nextpe);
    await s.finalize();
    if (me === 0) {
      // check for completion of all communication: (int)dest
      if (Number(BigInt.asIntN(32, destSym!.uint64()[0]!)) === me) t.printf('Test shmem_finalize: Passed');
      else {
        t.printf('Test shmem_finalize: Failed');
        failCount++;
      }
    }
    if (me === 0) {
      if (failCount === 0) t.printf('All Tests Passed');
      else t.printf(`${failCount} Tests Failed`);
    }
  } else {
    t.printf('Number of PEs must be > 1 to test shmem finalize, test skipped');
    await s.finalize();
  }
  return 0;
}
