// SOS test/unit/cxx_shmem_test_all.c: every PE atomically sets its flag in a calloc'd int array on every PE; each polls shmem_int_test_all (status NULL) until all are 1, then checks them.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function cxxShmemTestAll(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const mype = s.myPe();
  const npes = s.nPes();
  const flags = await s.calloc(npes, 4);
  const status = null;
  for (let i = 0; i < npes; i++) await s.atomicSet(flags.at(4 * mype), 1n, i, 'int32');
  while (!(await s.testAll(flags, npes, status, 'eq', 1, 'int32')));
  // check the flags array
  const f = flags.int32();
  for (let i = 0; i < npes; i++) {
    if (f[i] !== 1) {
      t.printf(`[${mype}] incorrect value at index ${i} (${f[i]})`);
      await s.globalExit(1);
    }
  }
  await s.free(flags);
  await s.finalize();
  return 0;
}
