// SOS test/unit/shmem_team_translate.c: PE numbers translated between the team of every second PE and the team of every third.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function shmemTeamTranslate(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let errors = 0;
  s.init();
  const myPe = s.myPe();
  const npes = s.nPes();
  const team2s = await t.split(s.TEAM_WORLD, 0, 2, Math.trunc((npes - 1) / 2) + 1);
  const team3s = await t.split(s.TEAM_WORLD, 0, 3, Math.trunc((npes - 1) / 3) + 1);
  const tPe3 = s.teamMyPe(team3s);
  const tPe2 = s.teamMyPe(team2s);
  const tPe3To2 = s.teamTranslatePe(team3s, tPe3, team2s);
  const tPe2To3 = s.teamTranslatePe(team2s, tPe2, team3s);
  const report = (): void => t.printf(`ERROR: PE ${myPe}, t_pe_2=${tPe2}, t_pe_3=${tPe3}, t_pe_3_to_2=${tPe3To2}, t_pe_2_to_3=${tPe2To3}`);
  if (myPe % 2 === 0 && myPe % 3 === 0) {
    if (tPe2 === -1 || tPe3 === -1 || tPe2To3 === -1 || tPe3To2 === -1) {
      report();
      ++errors;
    }
  } else if (myPe % 2 === 0) {
    if (tPe2 === -1 || tPe3 !== -1 || tPe2To3 !== -1 || tPe3To2 !== -1) {
      report();
      ++errors;
    }
  } else if (myPe % 3 === 0) {
    if (tPe2 !== -1 || tPe3 === -1 || tPe2To3 !== -1 || tPe3To2 !== -1) {
      report();
      ++errors;
    }
  } else {
    if (tPe2 !== -1 || tPe3 !== -1 || tPe2To3 !== -1 || tPe3To2 !== -1) {
      report();
      ++errors;
    }
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
