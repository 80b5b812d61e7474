// SOS test/unit/zero_comm.c: zero-length RMA with null addresses (OpenSHMEM Annex C).
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function zeroComm(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  // NULL: no address at all
  const NULL = null as unknown as Symmetric & Int32Array;
  await s.putmem(NULL, NULL, 0, 0);
  await s.getmem(NULL, NULL, 0, 0);
  await s.putmemNbi(NULL, NULL, 0, 0);
  await s.getmemNbi(NULL, NULL, 0, 0);
  await s.igetInt32(NULL, NULL, 1, 1, 0, 0);
  await s.iputInt32(NULL, NULL, 1, 1, 0, 0);
  await s.finalize();
  return 0;
}
