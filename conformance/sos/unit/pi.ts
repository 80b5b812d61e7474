// SOS test/unit/pi.c: every PE estimates pi from 10,000 random points (srand(1+me), glibc's rand); PE 0 gets the counts and checks pi to 0.1.
import type { ShmemTest } from '../../shmem/harness.ts';

const NUM_POINTS = 10000;

export default async function pi(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [insideSym, totalSym] = await t.statics([8, 8]);
  const inside = insideSym!.int64();
  const total = totalSym!.int64();
  s.init();
  const n = s.nPes();
  const me = s.myPe();
  t.srand(1 + me);
  for (total[0] = 0n; total[0]! < BigInt(NUM_POINTS); total[0] = total[0]! + 1n) {
    const x = t.rand() / t.RAND_MAX;
    const y = t.rand() / t.RAND_MAX;
    if (x * x + y * y < 1) inside[0] = inside[0]! + 1n;
  }
  await t.ctx.compute({ flops: 6 * NUM_POINTS });
  await s.barrierAll();
  let errors = 0;
  if (me === 0) {
    for (let i = 1; i < n; ++i) {
      const remoteInside = new BigInt64Array(1);
      const remoteTotal = new BigInt64Array(1);
      await s.getInt64(remoteInside, insideSym!, 1, i);
      await s.getInt64(remoteTotal, totalSym!, 1, i);
      total[0] = total[0]! + remoteTotal[0]!;
      inside[0] = inside[0]! + remoteInside[0]!;
    }
    const approxPi = (4.0 * Number(inside[0])) / Number(total[0]);
    if (Math.abs(Math.PI - approxPi) > 0.1) ++errors;
    t.printf(`Pi from ${total[0]} points on ${n} PEs: ${approxPi.toFixed(6)}`);
  }
  await s.finalize();
  return errors;
}
