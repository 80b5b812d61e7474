// tests-uh feature_tests/C/test_shmem_query.c: PE 0 checks shmem_info_get_version against the header's version and that shmem_info_get_name's name is shorter than _SHMEM_MAX_NAME_LEN.
import type { ShmemTest } from '../../shmem/harness.ts';

/** The header's _SHMEM_MAJOR_VERSION, _SHMEM_MINOR_VERSION and _SHMEM_MAX_NAME_LEN as phit defines them. */
const SHMEM_MAJOR_VERSION = 1;
const SHMEM_MINOR_VERSION = 5;
const SHMEM_MAX_NAME_LEN = 256;

export default async function testShmemQuery(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let failCount = 0;
  s.init();
  const me = s.myPe();
  if (me === 0) {
    const { major: majorVer, minor: minorVer } = s.infoGetVersion();
    const name = s.infoGetName();
    if (majorVer === SHMEM_MAJOR_VERSION) t.printf('Test shmem_info_get_version (Major):Passed');
    else {
      t.printf('Test shmem_info_get_version (Major):Failed');
      failCount++;
    }
    if (minorVer === SHMEM_MINOR_VERSION) t.printf('Test shmem_info_get_version (Minor):Passed');
    else {
      t.printf('Test shmem_info_get_version (Minor):Failed');
      failCount++;
    }
    if (name.length < SHMEM_MAX_NAME_LEN) t.printf('Test shmem_info_get_name: Passed');
    else {
      t.printf('Test shmem_info_get_name: Undefined');
      failCount++;
    }
    if (failCount === 0) t.printf('All Tests Passed');
    else t.printf(`${failCount} Tests Failed`);
  }
  await s.finalize();
  return 0;
}
