// tests-uh feature_tests/C/test_shmem_synchronization.c: PE 0 puts 9 four times, then rand()%10 until a value other than 9, to PE 1, which waits with shmem_long_wait (the deprecated call: wait until not equal) and then shmem_long_wait_until(NE 9). srand(time + pid) here is srand(1 + PE).
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testShmemSynchronization(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // srand(now + getpid()): a seed of its own per PE
  t.srand(1 + t.ctx.rank);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const src = BigInt64Array.of(9n);
  if (npes > 1) {
    const dest = await s.malloc(8);
    dest.int64()[0] = 9n;
    await s.barrierAll();
    const sendToOne = async (first: BigInt64Array): Promise<void> => {
      for (let i = 0; i < 4; i += 1) await s.putInt64(dest, first, 1, 1);
      for (let i = 0; i < 10; i += 1) {
        const r = BigInt64Array.of(BigInt(t.rand() % 10));
        await s.putInt64(dest, r, 1, 1);
        if (r[0] !== 9n) break;
      }
    };
    if (me === 0) await sendToOne(src);
    await s.barrierAll();
    if (me === 1) {
      // shmem_long_wait(dest, 9): wait until *dest != 9
      await s.waitUntil(dest, 'ne', 9, 'int64');
      t.printf('Test for conditional wait: Passed');
    }
    await s.barrierAll();
    dest.int64()[0] = 9n;
    await s.barrierAll();
    if (me === 0) await sendToOne(BigInt64Array.of(9n));
    await s.barrierAll();
    if (me === 1) {
      await s.waitUntil(dest, 'ne', 9, 'int64');
      t.printf('Test for explicit conditional wait: Passed');
    }
    await s.barrierAll();
  } else t.printf('Test for conditional wait requires more than 1 PE, test skipped');
  await s.finalize();
  return 0;
}
