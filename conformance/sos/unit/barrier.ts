// SOS test/unit/barrier.c: 30 barriers in a row.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function barrier(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const rank = s.myPe();
  const numRanks = s.nPes();
  if (numRanks === 1) {
    if (rank === 0) t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  const loops = 30;
  for (let j = 0; j < loops; j++) await s.barrierAll(); // sync sender and receiver
  await s.finalize();
  return 0;
}
