// SOS test/unit/query_thread.c built with ENABLE_THREADS (query_thread_funneled): shmem_init_thread(SHMEM_THREAD_FUNNELED) provides at least FUNNELED, and shmem_query_thread says so.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function queryThreadFunneled(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const tl = s.initThread(s.THREAD_FUNNELED);
  if (tl < s.THREAD_FUNNELED) {
    t.printf(`Init failed (requested thread level ${s.THREAD_FUNNELED}, got ${tl}, ret 0)`);
    await s.globalExit(1);
  }
  const provided = s.queryThread();
  t.printf(`${s.myPe()}: Query result for thread level ${provided}`);
  if (provided < s.THREAD_FUNNELED) await s.globalExit(1);
  await s.finalize();
  return 0;
}
