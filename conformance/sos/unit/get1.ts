// SOS test/unit/get1.c: PE 0 gets PE 1's static source array.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function get1(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [sourceSym, targetSym] = await t.statics([8 * 10, 8 * 10], ([src]) => src!.int64().set([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n]));
  const source = sourceSym!.int64();
  const target = targetSym!.int64();
  s.init();
  if (s.nPes() === 1) {
    t.printf('get1: Requires number of PEs > 1');
    await s.finalize();
    return 0;
  }
  if (s.myPe() === 0) {
    target.fill(0n);
    // get 10 elements from source on PE 1
    await s.getInt64(target, sourceSym!, 10, 1);
  }
  await s.barrierAll(); // sync sender and receiver
  if (s.myPe() === 0) {
    if (source.some((v, i) => i < 10 && v !== target[i])) {
      t.printf(`[${s.myPe()}] Src & Target mismatch?`);
      t.printf(Array.from(source.subarray(0, 10), (v, i) => `${v},${target[i]} `).join(''));
      await s.globalExit(1);
    }
  }
  await s.finalize();
  return 0;
}
