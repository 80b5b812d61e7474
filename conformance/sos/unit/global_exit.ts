// SOS test/unit/global_exit.c: PE 0 ends the job with shmem_global_exit(0) while the others wait in a barrier.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function globalExit(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  if (s.myPe() === 0) {
    await s.globalExit(0);
    t.abort();
  }
  // all other PEs wait in this barrier
  await s.barrierAll();
  await s.finalize();
  return 0;
}
