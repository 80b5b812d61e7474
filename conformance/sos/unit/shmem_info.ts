// SOS test/unit/shmem_info.c: shmem_info_get_version and shmem_info_get_name agree with the header's constants.
import type { ShmemTest } from '../../shmem/harness.ts';

/** SHMEM_MAX_NAME_LEN of SOS's shmem.h. */
const SHMEM_MAX_NAME_LEN = 256;
/** The header's SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION and SHMEM_VENDOR_STRING as phit defines them. */
const SHMEM_MAJOR_VERSION = 1;
const SHMEM_MINOR_VERSION = 5;
const SHMEM_VENDOR_STRING = 'phit OpenSHMEM over DMAPP';

export default async function shmemInfo(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const { major: majorVer, minor: minorVer } = s.infoGetVersion();
  const name = s.infoGetName();
  t.assert(name.length <= SHMEM_MAX_NAME_LEN, 'strlen(name) <= SHMEM_MAX_NAME_LEN');
  t.assert(majorVer === SHMEM_MAJOR_VERSION, 'major_ver == SHMEM_MAJOR_VERSION');
  t.assert(minorVer === SHMEM_MINOR_VERSION, 'minor_ver == SHMEM_MINOR_VERSION');
  t.assert(majorVer >= 1, 'major_ver >= 1');
  t.assert(minorVer >= 0, 'minor_ver >= 0');
  t.assert(name === SHMEM_VENDOR_STRING, 'strcmp(name, SHMEM_VENDOR_STRING) == 0');
  t.printf(`${s.myPe()}: OpenSHMEM ${majorVer}.${minorVer} -- "${name}"`);
  await s.finalize();
  return 0;
}
