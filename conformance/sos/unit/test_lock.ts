// SOS test/unit/test_lock.c (40 loops, run by hand: lock statistics on): every PE polls shmem_test_lock until it gets the lock, adds one to an int on every PE, releases the lock and waits until its counter reaches npes; the attempts are gathered on PE 0.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testLock(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [lockCntSym, lockSym] = await t.statics([4, 8]);
  const lockCnt = lockCntSym!.int32();
  const lock = lockSym!.int64();
  const Noise = 500;
  const Announce = true; // run by hand: MAKELEVEL unset
  s.init();
  const myRank = s.myPe();
  const numRanks = s.nPes();
  if (numRanks === 1) {
    t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  const loops = 40;
  const Stats = Announce;
  // lock_stat_t { int attempts; } per rank
  const lockStats = Stats ? await s.malloc(4 * numRanks) : null;
  lockStats?.int32().fill(0);
  for (let cloop = 1; cloop <= loops; cloop++) {
    lock[0] = 0n;
    lockCnt[0] = 0;
    let tries = 0;
    await s.barrierAll(); // sync all ranks
    while (lockCnt[0]! < numRanks) {
      const rc = await s.testLock(lockSym!);
      if (rc === 0) {
        // increment lock_cnt on all ranks
        for (let pe = 0; pe < numRanks; pe++) await s.atomicAdd(lockCntSym!, 1, pe, 'int32');
        await s.clearLock(lockSym!);
        await s.waitUntil(lockCntSym!, 'ge', numRanks, 'int32');
      } else {
        tries++;
        if (Announce && tries % (numRanks * Noise) === 0) t.printf(`[${myRank}] unsuccessful lock attempts ${tries} lock_cnt ${lockCnt[0]}`);
      }
    }
    await s.barrierAll(); // sync all ranks
    if (cloop % 10 === 0 && myRank === 0 && Announce) t.printf(`${numRanks} ranks completed ${cloop} loops`);
    if (Stats) lockStats!.int32()[myRank]! += tries;
  }
  if (Stats && myRank !== 0) {
    const mine = lockStats!.at(4 * myRank);
    await s.putInt32(mine, mine.int32().subarray(0, 1), 1, 0);
    await s.fence();
  }
  await s.barrierAll(); // sync all ranks
  if (Stats && myRank === 0) for (let c = 0; c < numRanks; c++) t.printf(`[${c}] lock attempts ${lockStats!.int32()[c]}`);
  await s.barrierAll(); // sync all ranks
  if (Stats) await s.free(lockStats);
  await s.finalize();
  return 0;
}
