// SOS test/unit/atomic_inc.c: 10 rounds of every PE incrementing an int on every PE, each waiting until its counter reaches npes.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function atomicInc(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [lockCntSym] = await t.statics([4]);
  const lockCnt = lockCntSym!.int32();
  const announce = true; // run by hand: MAKELEVEL unset
  s.init();
  const myRank = s.myPe();
  const numRanks = s.nPes();
  if (numRanks === 1) {
    t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  const loops = 10;
  for (let cloop = 1; cloop <= loops; cloop++) {
    lockCnt[0] = 0;
    await s.barrierAll(); // sync all ranks
    for (let c = 0; c < numRanks; c++) await s.atomicInc(lockCntSym!, c, 'int32');
    await s.waitUntil(lockCntSym!, 'ge', numRanks, 'int32');
    await s.barrierAll(); // sync all ranks
    if (lockCnt[0] !== numRanks) t.printf(`[${myRank}] loop ${cloop}: bad lock_cnt ${lockCnt[0]}, expected ${numRanks}?`);
    if (cloop % 10 === 0 && myRank === 0 && announce) t.printf(`${numRanks} ranks completed ${cloop} loops`);
  }
  await s.finalize();
  return 0;
}
