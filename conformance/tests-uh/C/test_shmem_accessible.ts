// tests-uh feature_tests/C/test_shmem_accessible.c: PE 0 checks shmem_addr_accessible on PE 1 for a global, a static, a stack variable (not accessible) and a shmem_malloc'd int, and shmem_pe_accessible for every PE.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function testShmemAccessible(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // long global_dest; static int static_dest
  const [globalDest, staticDest] = await t.statics([8, 4]);
  // long local_dest (main's stack: private memory)
  const localDest = new BigInt64Array(1);
  let peAccSuccess = 0;
  let failCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const checkIt = (addr: Symmetric): boolean => s.addrAccessible(addr, 1);
  const shmDest = await s.malloc(4);
  await s.barrierAll();
  if (me === 0) {
    // long global: yes
    if (!checkIt(globalDest!)) {
      t.printf('Test Global Address Accessible: Failed');
      failCount++;
    } else t.printf('Test Global Address Accessible: Passed');
    // static int global: yes
    if (!checkIt(staticDest!)) {
      t.printf('Test Static Global Address Accessible: Failed');
      failCount++;
    } else t.printf('Test Static Global Address Accessible: Passed');
    // main() stack: no
    if (checkIt(localDest as unknown as Symmetric)) {
      t.printf('Test Stack Address Accessible: Failed');
      failCount++;
    } else t.printf('Test Stack Address Accessible: Passed');
    // shmem_malloc: yes
    if (!checkIt(shmDest)) {
      t.printf('Test Shmalloc-ed Address Accessible: Failed');
      failCount++;
    } else t.printf('Test Shmalloc-ed Address Accessible: Passed');
    for (let i = 1; i < npes; i++) if (!s.peAccessible(i)) peAccSuccess = 1;
    if (peAccSuccess === 1) {
      t.printf('Test shmem_pe_accessible: Failed');
      failCount++;
    } else t.printf('Test shmem_pe_accessible: Passed');
    if (failCount === 0) t.printf('All Tests Passed');
    else t.printf(`${failCount} Tests Failed`);
  }
  await s.free(shmDest);
  await s.finalize();
  return 0;
}
