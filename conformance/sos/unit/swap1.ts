// SOS test/unit/swap1.c: PE 0 swaps 10 longs of PE 1's target, one at a time.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function swap1(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = BigInt64Array.of(1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n);
  const [targetSym] = await t.statics([8 * 10], ([tg]) => tg!.int64().set([11n, 12n, 13n, 14n, 15n, 16n, 17n, 18n, 19n, 20n]));
  const target = targetSym!.int64();
  let bad = 0;
  s.init();
  if (s.nPes() === 1) {
    t.printf('swap1: Requires number of PEs > 1');
    await s.finalize();
    return 0;
  }
  if (s.myPe() === 0) {
    for (let i = 0; i < 10; ++i) source[i] = await s.atomicSwap(targetSym!.element('int64', i), source[i]!, 1, 'int64');
  }
  await s.barrierAll(); // sync sender and receiver
  if (s.myPe() === 0) {
    for (let i = 0; i < 10; ++i) if (source[i] !== BigInt(i + 11)) bad = 1;
  } else if (s.myPe() === 1) {
    for (let i = 0; i < 10; ++i) if (target[i] !== BigInt(i + 1)) bad = 1;
  }
  if (bad) t.printf(`[${String(s.myPe()).padStart(2, '0')}] error: ${Array.from({ length: 10 }, (_, i) => `${s.myPe() === 0 ? source[i] : target[i]} `).join('')}`);
  await s.finalize();
  return bad;
}
