// SOS test/unit/max_reduction.c (N = 3) and big_reduction.c (N = 128): a long max reduction over TEAM_WORLD of me+i.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function maxReduction(t: ShmemTest): Promise<number> {
  const N = t.name === 'big_reduction' ? 128 : 3;
  const s = t.shmem;
  const [srcSym, dstSym] = await t.statics([8 * N, 8 * N]);
  const src = srcSym!.int64();
  const dst = dstSym!.int64();
  const verbose = t.has('-v');
  s.init();
  for (let i = 0; i < N; i += 1) src[i] = BigInt(s.myPe() + i);
  await s.barrierAll();
  await s.maxReduce(s.TEAM_WORLD, dstSym!, srcSym!, N, 'int64');
  if (verbose) t.printf(`${s.myPe()}/${s.nPes()}\tdst =${Array.from(dst.subarray(0, N), (v) => ` ${v}`).join('')}`);
  for (let i = 0; i < N; i += 1) {
    if (dst[i] !== BigInt(s.nPes() - 1 + i)) {
      t.printf(`[${String(s.myPe()).padStart(3)}] Error: dst[${i}] == ${dst[i]}, expected ${s.nPes() - 1 + i}`);
      await s.globalExit(1);
    }
  }
  await s.finalize();
  return 0;
}
