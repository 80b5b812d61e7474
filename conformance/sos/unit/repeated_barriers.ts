// SOS test/unit/repeated_barriers.c: 50 quiet+sync pairs on the teams of PEs i..npes-1 or, in
// the deprecated build, 50 barriers on the active sets of PEs i..npes-1, two pSyncs alternating.
import type { ShmemTest } from '../../shmem/harness.ts';

const NREPS = 50;

export default async function repeatedBarriers(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const deprecated = t.has('deprecated');
  const [psync0, psync1] = deprecated ? await t.statics([8 * s.BARRIER_SYNC_SIZE, 8 * s.BARRIER_SYNC_SIZE]) : [];
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (deprecated) {
    psync0!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
    psync1!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
  }
  await s.barrierAll();
  // npes tests: the active set of test i holds PEs i..npes-1
  if (deprecated) {
    for (let i = 0; i <= me; i++) {
      if (me === i) t.printf(` + iteration ${i}`);
      // barrier can be called repeatedly with the *same* pSync
      for (let j = 0; j < NREPS; j++) await s.barrier(i, 0, npes - i, i % 2 ? psync0! : psync1!);
    }
  } else {
    for (let i = 0; i <= npes; i++) {
      if (me === i) t.printf(` + iteration ${i}`);
      // quiet + sync can be called repeatedly; the last split (start npes, size 0) makes no team
      const { value: newTeam } = await t.ret(() => s.teamSplitStrided(s.TEAM_WORLD, i, 1, npes - i));
      if (newTeam !== s.TEAM_INVALID && newTeam !== null) {
        for (let j = 0; j < NREPS; j++) {
          await s.quiet();
          await s.teamSync(newTeam);
        }
      }
    }
  }
  await s.finalize();
  return 0;
}
