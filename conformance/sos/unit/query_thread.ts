// SOS test/unit/query_thread.c (built without ENABLE_THREADS): shmem_query_thread gives one of the four thread levels.
import type { ShmemTest } from '../../shmem/harness.ts';

/** SHMEM_THREAD_SINGLE .. SHMEM_THREAD_MULTIPLE of SOS's shmem.h. */
const SHMEM_THREAD_SINGLE = 0;
const SHMEM_THREAD_FUNNELED = 1;
const SHMEM_THREAD_SERIALIZED = 2;
const SHMEM_THREAD_MULTIPLE = 3;

export default async function queryThread(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const provided = s.queryThread();
  t.printf(`${s.myPe()}: Query result for thread level ${provided}`);
  if (provided !== SHMEM_THREAD_SINGLE && provided !== SHMEM_THREAD_FUNNELED && provided !== SHMEM_THREAD_SERIALIZED && provided !== SHMEM_THREAD_MULTIPLE) await s.globalExit(1);
  await s.finalize();
  return 0;
}
