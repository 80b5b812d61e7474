// SOS test/unit/test_lock_cswap.c: 40 rounds of every PE taking a lock word on PE 0 by compare-and-swap and releasing it the same way.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testLockCswap(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [lockSym] = await t.statics([8]);
  const lock = lockSym!.int64();
  const Loops = 40;
  s.init();
  const myRank = s.myPe();
  const numRanks = s.nPes();
  if (numRanks === 1) {
    t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  for (let cloop = 1; cloop <= Loops; cloop++) {
    let gotLock = false;
    lock[0] = 0n;
    await s.barrierAll(); // sync all ranks
    while (!gotLock) {
      const lockval = await s.atomicCompareSwap(lockSym!, 0, myRank + 1, 0, 'int64');
      if (lockval === 0n) {
        gotLock = true;
        const unlockval = await s.atomicCompareSwap(lockSym!, myRank + 1, 0, 0, 'int64');
        if (unlockval !== BigInt(myRank + 1)) {
          t.printf(`[${myRank}] unlock failed, expected ${(myRank + 1).toString(16)} got ${unlockval.toString(16)}`);
          await s.globalExit(1);
        }
      }
    }
    await s.barrierAll(); // sync all ranks
  }
  await s.barrierAll(); // sync all ranks
  await s.finalize();
  return 0;
}
