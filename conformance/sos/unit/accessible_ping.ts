// SOS test/unit/accessible_ping.c: PE 0 checks that every other PE is accessible.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function accessiblePing(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (me === 0) {
    const verbose = true; // run by hand: MAKELEVEL unset
    for (let i = 1; i < npes; i += 1) {
      if (verbose) t.printf(`From ${me}: PE ${i} is ${s.peAccessible(i) ? '' : 'NOT '}accessible`);
      if (!s.peAccessible(i)) await s.globalExit(1);
    }
  }
  await s.finalize();
  return 0;
}
