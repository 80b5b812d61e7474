// SOS test/unit/put_nbi.c: PE 0 puts to every PE with put_nbi, then a fence, then an atomic increment of the PE's flag, which each PE waits for.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function putNbi(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = BigInt64Array.of(1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n);
  let failed = 0;
  s.init();
  const targetSym = await s.malloc(8 * 10);
  const flagSym = await s.malloc(4);
  flagSym.int32()[0] = 0;
  const numPes = s.nPes();
  const target = targetSym.int64();
  target.fill(0n);
  await s.barrierAll();
  if (s.myPe() === 0) {
    for (let i = 0; i < numPes; i++) {
      await s.putInt64Nbi(targetSym, source, 10, i);
      await s.fence();
      await s.atomicInc(flagSym, i, 'int32');
    }
  }
  await s.waitUntil(flagSym, 'eq', 1, 'int32');
  for (let i = 0; i < 10; i++) {
    if (target[i] !== source[i]) {
      t.printf(`[${s.myPe()}] target[${i}] = ${target[i]}, expected ${source[i]}`);
      failed = 1;
    }
  }
  await s.free(targetSym);
  await s.free(flagSym);
  await s.finalize();
  return failed;
}
