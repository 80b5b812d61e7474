// SOS test/unit/shmem_malloc_with_hints.c: an int sum reduction over arrays allocated with each malloc hint (and an invalid one).
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Shmem } from '../../../runtime/shmem/shmem.ts';

const N = 128;
const NUM_TESTS = 5;

async function sumtoallWithMallocHint(t: ShmemTest, s: Shmem, hint: number, mype: number, npes: number): Promise<number> {
  let failed = false;
  if (mype === 0) t.printf('Sum reduction operation started');
  const dstSym = await s.mallocWithHints(N * 4, hint);
  const srcSym = await s.mallocWithHints(N * 4, hint);
  const dst = dstSym.int32();
  const src = srcSym.int32();
  for (let i = 0; i < N; i++) {
    src[i] = mype;
    dst[i] = -1;
  }
  await s.barrierAll();
  await s.sumReduce(s.TEAM_WORLD, dstSym, srcSym, N, 'int32');
  if (mype === 0) {
    for (let i = 0; i < N; i++) {
      const expected = (npes * (npes - 1)) / 2;
      if (dst[i] !== expected) {
        t.printf(`[${mype}] dst[${i}] = ${dst[i]}, expected ${expected}`);
        failed = true;
      }
    }
  }
  return failed ? 0 : 1;
}

export default async function shmemMallocWithHints(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const npes = s.nPes();
  const mype = s.myPe();
  // SHMEM_MALLOC_INVALID_HINT: ~SHMEM_MALLOC_ATOMICS_REMOTE
  const invalidHint = ~s.MALLOC_ATOMICS_REMOTE;
  let passed = await sumtoallWithMallocHint(t, s, 0, mype, npes);
  passed += await sumtoallWithMallocHint(t, s, s.MALLOC_ATOMICS_REMOTE, mype, npes);
  passed += await sumtoallWithMallocHint(t, s, s.MALLOC_SIGNAL_REMOTE, mype, npes);
  passed += await sumtoallWithMallocHint(t, s, s.MALLOC_ATOMICS_REMOTE | s.MALLOC_SIGNAL_REMOTE, mype, npes);
  passed += await sumtoallWithMallocHint(t, s, invalidHint, mype, npes);
  const fail = NUM_TESTS - passed;
  if (mype === 0) {
    if (passed !== NUM_TESTS) {
      t.printf(`${fail} out of ${NUM_TESTS} tests failed`);
      await s.globalExit(fail);
    } else t.printf(`All ${passed} tests passed`);
  }
  await s.finalize();
  return 0;
}
