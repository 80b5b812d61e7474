// tests-uh feature_tests/Fortran/accessibility/test_shmem_acc_01.f90 and test_shmem_acc_02.f90: PE 0 asks shmem_pe_accessible of PE npes-1 (accessible) and of PE npes+1 (not a PE).
import type { ShmemTest } from '../../../shmem/harness.ts';

export default async function fortranAcc(t: ShmemTest): Promise<number> {
  const second = t.name === 'test_shmem_acc_02';
  const s = t.shmem;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes < 2) {
    t.printf(' This test requires 2+ PEs to run.');
    return 0; // stop
  }
  if (me === 0) {
    const rc = s.peAccessible(second ? npes + 1 : npes - 1);
    t.printf(` ${t.name}: ${rc === !second ? 'Passed' : 'Failed'}`);
  }
  await s.finalize();
  return 0;
}
