// SOS test/unit/set_lock.c: 40 rounds of every PE taking a lock, adding one to an int on every PE, and releasing it; each waits until its counter reaches npes.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function setLock(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [lockCntSym, lockSym] = await t.statics([4, 8]);
  const lockCnt = lockCntSym!.int32();
  const lock = lockSym!.int64();
  const announce = true; // run by hand: MAKELEVEL unset
  s.init();
  const myRank = s.myPe();
  const numRanks = s.nPes();
  if (numRanks === 1) {
    t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  const loops = 40;
  for (let cloop = 1; cloop <= loops; cloop++) {
    lockCnt[0] = 0;
    lock[0] = 0n;
    await s.barrierAll(); // sync all ranks
    await s.setLock(lockSym!);
    for (let pe = 0; pe < numRanks; pe++) await s.atomicAdd(lockCntSym!, 1, pe, 'int32');
    await s.clearLock(lockSym!);
    await s.waitUntil(lockCntSym!, 'ge', numRanks, 'int32');
    await s.barrierAll(); // sync all ranks
    if (cloop % 10 === 0 && myRank === 0 && announce) t.printf(`${numRanks} ranks completed ${cloop} loops`);
    if (lockCnt[0] !== numRanks) t.printf(`[${myRank}] loop ${cloop}: bad lock_cnt ${lockCnt[0]}, expected ${numRanks}?`);
  }
  await s.finalize();
  return 0;
}
