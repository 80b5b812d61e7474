// tests-uh feature_tests/Fortran/accessibility/test_shmem_acc_mem_0{1,2,3,5}_<type>.f90: PE 0 asks shmem_addr_accessible on PE 1 of a SAVE array (_01), a COMMON block (_02), shpalloc'd memory (_03): accessible; and of an ALLOCATABLE array (_05): not accessible. One port for the 28 tests, told apart by the test's name.
import type { ShmemTest } from '../../../shmem/harness.ts';
import type { Symmetric } from '../../../../runtime/shmem/shmem.ts';
import { carray } from '../../../shmem/ctypes.ts';
import { FTYPES, parseName, shpalloc, shpdeallc } from '../../fortran.ts';

export default async function fortranAccMem(t: ShmemTest): Promise<number> {
  const { variant, type } = parseName(t.name);
  const F = FTYPES[type];
  const s = t.shmem;
  // dest(2), SAVE or COMMON
  const [dest] = variant === '01' || variant === '02' ? await t.statics([2 * F.T.bytes]) : [];
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes < 2) {
    t.printf(' This test requires 2+ PEs to run.');
    return 0; // stop
  }
  let remote: Symmetric | null = dest ?? null;
  // length = 4 (32-bit words; characters: length / 4)
  if (variant === '03') {
    const r = await shpalloc(t, type === 'char' ? 1 : 4);
    if (r.errcode !== 0) {
      t.printf(' Unable to allocate symmetric memory for the test.');
      return 0;
    }
    remote = r.ptr;
  }
  // _05: allocate(remote_dest(length)), private memory
  const allocatable = variant === '05' ? carray(F.T, 4) : null;
  await s.barrierAll();
  if (me === 0) {
    const accessible = s.addrAccessible((allocatable ?? remote) as Symmetric, 1);
    const ok = variant === '05' ? !accessible : accessible;
    t.printf(` test_shmem_acc_mem_${variant}_${F.fname}: ${ok ? 'Passed' : 'Failed'}`);
  }
  await s.barrierAll();
  if (variant === '03') await shpdeallc(t, remote);
  await s.finalize();
  return 0;
}
