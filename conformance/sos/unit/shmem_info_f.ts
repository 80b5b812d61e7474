// SOS test/unit/shmem_info_f.f90: shmem_info_get_name and shmem_info_get_version agree with SHMEM_VENDOR_STRING and the version constants.
import type { ShmemTest } from '../../shmem/harness.ts';

const SHMEM_MAJOR_VERSION = 1;
const SHMEM_MINOR_VERSION = 5;
const SHMEM_VENDOR_STRING = 'phit OpenSHMEM over DMAPP';

export default async function shmemInfoF(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const me = s.myPe();
  const { major: majorVer, minor: minorVer } = s.infoGetVersion();
  const libName = s.infoGetName();
  if (libName !== SHMEM_VENDOR_STRING) {
    t.printf(` ${me} Vendor strings did not match!`);
    await s.globalExit(1);
  }
  if (majorVer !== SHMEM_MAJOR_VERSION || minorVer !== SHMEM_MINOR_VERSION) {
    t.printf(` ${me} Version numbers did not match!`);
    await s.globalExit(1);
  }
  await s.finalize();
  return 0;
}
