// SOS test/unit/repeated_syncs.c: 50 syncs in a row, over TEAM_WORLD (teams) or, in the
// deprecated build, over the active sets of PEs i..npes-1 with two pSyncs alternating.
import type { ShmemTest } from '../../shmem/harness.ts';

const NREPS = 50;

export default async function repeatedSyncs(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const deprecated = t.has('deprecated');
  const [psync0, psync1] = deprecated ? await t.statics([8 * s.BARRIER_SYNC_SIZE, 8 * s.BARRIER_SYNC_SIZE]) : [];
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  let nLoops: number;
  if (deprecated) {
    psync0!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
    psync1!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
    nLoops = me;
  } else {
    nLoops = 1;
  }
  await s.syncAll();
  // npes tests: the active set of test i holds PEs i..npes-1; teams must share "start", so
  // the team form syncs over TEAM_WORLD
  for (let i = 0; i <= nLoops; i++) {
    if (me === i) t.printf(` + iteration ${i}`);
    // sync can be called repeatedly with the *same* pSync
    for (let j = 0; j < NREPS; j++) {
      if (deprecated) await s.sync(i, 0, npes - i, i % 2 ? psync0! : psync1!);
      else await s.teamSync(s.TEAM_WORLD);
    }
  }
  await s.finalize();
  return 0;
}
