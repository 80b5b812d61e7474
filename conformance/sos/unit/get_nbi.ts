// SOS test/unit/get_nbi.c: PE 0 gets every PE's static source with get_nbi and quiet.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function getNbi(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [sourceSym, targetSym] = await t.statics([8 * 10, 8 * 10], ([src]) => src!.int64().set([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n]));
  const source = sourceSym!.int64();
  const target = targetSym!.int64();
  let failed = false;
  s.init();
  if (s.myPe() === 0) {
    const numPes = s.nPes();
    for (let j = 0; j < numPes; j++) {
      target.fill(0n, 0, 10);
      await s.getInt64Nbi(target, sourceSym!, 10, j);
      await s.quiet();
      for (let i = 0; i < 10; i++) {
        if (source[i] !== target[i]) {
          t.printf(`[${s.myPe()}] get_nbi from PE ${j}: target[${i}] = ${target[i]}, expected ${source[i]}`);
          failed = true;
        }
      }
      if (failed) await s.globalExit(1);
    }
  }
  await s.finalize();
  return 0;
}
