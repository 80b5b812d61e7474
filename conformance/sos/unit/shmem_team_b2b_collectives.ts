// SOS test/unit/shmem_team_b2b_collectives.c: 100 back-to-back calls of each long team collective (broadcast, sum reduce, collect, fcollect, alltoall, alltoalls) on TEAM_WORLD.
import type { ShmemTest } from '../../shmem/harness.ts';

const NITERS = 100;
const NELEMS = 10;

export default async function shmemTeamB2bCollectives(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let errors = 0;
  let totalErrors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  // C allocates NELEMS longs for each, which the collects and alltoalls overrun (npes blocks):
  // phit checks ranges, so both are npes times larger here
  const dest = await s.malloc(NELEMS * 8 * npes);
  const src = await s.malloc(NELEMS * 8 * npes);
  src.int64().fill(BigInt(me), 0, NELEMS);
  const errorCheck = (routine: string): void => {
    if (errors === 0) {
      if (me === 0) t.printf('passed.');
    } else {
      t.printf(`${routine} error on PE ${me}`);
      totalErrors += errors;
      errors = 0;
    }
  };
  const b2b = async (name: string, routine: () => Promise<void>): Promise<void> => {
    if (me === 0) t.printf(`${name}... `);
    // the C routines return void (0 errors each)
    for (let i = 0; i < NITERS; i++) await routine();
    errorCheck(name);
  };
  await b2b('broadcast', () => s.broadcast(s.TEAM_WORLD, dest, src, NELEMS, 0, 'int64'));
  await b2b('reduce', () => s.sumReduce(s.TEAM_WORLD, dest, src, NELEMS, 'int64'));
  await b2b('collect', () => s.collect(s.TEAM_WORLD, dest, src, NELEMS, 'int64'));
  await b2b('fcollect', () => s.fcollect(s.TEAM_WORLD, dest, src, NELEMS, 'int64'));
  await b2b('alltoall', () => s.alltoall(s.TEAM_WORLD, dest, src, NELEMS, 'int64'));
  await b2b('alltoalls', () => s.alltoalls(s.TEAM_WORLD, dest, src, 1, 1, NELEMS, 'int64'));
  await s.finalize();
  return totalErrors;
}
