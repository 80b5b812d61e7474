// tests-uh feature_tests/C/test_shmem_global_exit.c: PE 0 calls shmem_global_exit(99) while the others sleep me*3 seconds; the run must end with status 99 (PE 0 reaching its barrier means global_exit did nothing).
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testShmemGlobalExit(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const status = 99;
  s.init();
  const me = s.myPe();
  if (me === 0) await s.globalExit(status);
  else await t.sleep(me * 3);
  await s.barrierAll();
  // PE 0 reaches this point if shmem_global_exit is a no-op
  if (me === 0) t.printf('Test shmem_global_exit: Failed');
  await s.finalize();
  return 0;
}
