// SOS test/unit/put1.c: PE 0 puts 10 longs into PE 1's static target.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function put1(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = BigInt64Array.of(1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n);
  const [targetSym] = await t.statics([8 * 10]);
  const target = targetSym!.int64();
  s.init();
  if (s.nPes() === 1) {
    t.printf('put1: Requires number of PEs > 1');
    await s.finalize();
    return 0;
  }
  if (s.myPe() === 0) {
    // put 10 elements into target on PE 1
    await s.putInt64(targetSym!, source, 10, 1);
  }
  await s.barrierAll(); // sync sender and receiver
  if (s.myPe() === 1) {
    if (source.some((v, i) => v !== target[i])) {
      t.printf(`[${s.myPe()}] Src & Target mismatch?`);
      t.printf(Array.from(source, (v, i) => `${v},${target[i]} `).join(''));
      await s.globalExit(1);
    }
  }
  await s.finalize();
  return 0;
}
