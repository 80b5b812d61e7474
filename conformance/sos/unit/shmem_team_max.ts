// SOS test/unit/shmem_team_max.c: teams are split until a split fails everywhere; then one is destroyed and the split retried, 64 successes in all.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ShmemTeam } from '../../../runtime/shmem/shmem.ts';

const NUM_TEAMS = 64;

export default async function shmemTeamMax(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [retSym, destRetSym] = await t.statics([4, 4]);
  const ret = retSym!.int32();
  const destRet = destRetSym!.int32();
  let teamCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const newTeam: (ShmemTeam | null)[] = [];
  let i = 0;
  let j = 0;
  while (i < NUM_TEAMS) {
    const r = await t.ret(() => s.teamSplitStrided(s.TEAM_WORLD, 0, 1, 1 + (i % npes)));
    ret[0] = r.ret;
    newTeam[i] = r.value;
    // wait for all PEs to fill in ret before starting the reduction
    await s.sync(s.TEAM_WORLD);
    await s.sumReduce(s.TEAM_WORLD, destRetSym!, retSym!, 1, 'int32');
    // if success was not global, free a team and retry
    if (destRet[0] !== 0) {
      if (ret[0] === 0) {
        t.printf(`${me}: Local success and global failure on iteration ${i}`);
        await s.globalExit(1);
      }
      // no more teams to free
      if (i === j) break;
      s.teamDestroy(newTeam[j]!);
      j++;
    } else {
      i++;
      teamCount++;
    }
  }
  t.printf(`The number of teams created for PE ${me} is : ${teamCount}`);
  await s.finalize();
  return 0;
}
